"""`rules verify` says, under its table, how each setting the reading did not show could
be verified; the counts stay the last line."""

from __future__ import annotations

from pathlib import Path

from tests.stored_results import lemans_reading, rhel9_reading
from tests.test_cli_verify import LEMANS, RHEL9, run, written


def test_each_unread_setting_says_what_reads_it(tmp_path: Path) -> None:
    done = run(str(LEMANS), written(tmp_path, lemans_reading()))
    lines = done.stdout.splitlines()
    start = lines.index("to verify what was not read:")
    assert lines[start + 1 : -1] == [
        f"  {name}: run the collector on the server itself: it reads `vmo -a`"
        for name in ("maxclient%", "maxperm%", "strict_maxperm")
    ]
    assert lines[-1].startswith("9 compliant, 3 drift, 3 unknown (not read);")


def test_nothing_unread_adds_no_lines(tmp_path: Path) -> None:
    done = run(str(RHEL9), written(tmp_path, rhel9_reading()))
    assert "to verify what was not read:" not in done.stdout
