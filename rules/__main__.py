"""`python -m rules …`: see rules.cli."""

from __future__ import annotations

import os
import signal
import sys

from rules.cli import main

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (`python -m rules verify … | head`): what it read was enough.
    # Point stdout at /dev/null so the interpreter's own flush at exit does not fail again.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 128 + signal.SIGPIPE  # as a shell reports a program its reader left
sys.exit(code)
