"""`manage.py advise INVENTORY.json --out DIR`: the same command as `python -m rules advise`.

Writes every artifact and recommendations.json into DIR and exits 0. On a bad document it
writes nothing, prints every problem to stderr and exits 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules import cli


class Command(BaseCommand):
    help = "Advise on an inventory (contract v1) and write the generated files into --out."
    # The engine needs no database, URLs or models: skip the checks that import them all.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("inventory", help="inventory JSON file, or - for standard input")
        parser.add_argument("--out", required=True, help="directory for the generated files")

    def handle(self, *args: Any, **options: Any) -> None:
        code = cli.advise(
            options["inventory"],
            Path(options["out"]),
            say=self.stdout.write,
            complain=self.stderr.write,
        )
        if code:
            sys.exit(code)
