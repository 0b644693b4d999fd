"""`free -g` on a machine with less than 1 GB prints Mem: 0: the draft says so, and which
command gives the figure, rather than that free was not read.

Source: https://github.com/wazuh/wazuh/issues/23239 (an AlmaLinux 9.3 EC2 instance's
`free -g`, every column 0), kept as
tests/fixtures/parse/linux/free_g_all_zero_alma93_wazuh23239.txt.
"""

from __future__ import annotations

from rules.parse import draft
from tests.rules.parse.fixtures import transcript

FREE_G_ZERO = "linux/free_g_all_zero_alma93_wazuh23239.txt"


def ram_missing(text: str) -> list[tuple[str, object]]:
    return [(m.reason, m.guess) for m in draft(text).missing if m.path == "server.ram_gb"]


def test_free_g_printing_zero_says_the_ram_is_under_a_gigabyte() -> None:
    (reason, guess), *_ = ram_missing(transcript(FREE_G_ZERO))
    assert reason == (
        "`free -g` (line 1) printed Mem: 0: the RAM is under 1 GB, which it cuts off; "
        "`free -m` or /proc/meminfo gives the figure"
    )
    assert guess == 1
    assert "neither /proc/meminfo nor free was read" not in reason


def test_free_g_printing_zero_fills_in_one_gigabyte_to_confirm() -> None:
    found = draft(transcript(FREE_G_ZERO))
    assert found.document["server"]["ram_gb"] == 1
    assert "server.ram_gb" not in found.provenance  # a guess, never a reading


def test_without_free_or_meminfo_the_note_still_says_neither_was_read() -> None:
    (reason, _guess), *_ = ram_missing(transcript("unix/uname_debian12.txt"))
    assert reason == "neither /proc/meminfo nor free was read"
