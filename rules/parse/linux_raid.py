"""Parser of `mdadm --detail` (mdadm's Detail.c): one array's level, chunk and members.

Asked as `--detail` or `-D`. Shape: "/dev/md0:" then aligned "Label : value" lines
("Raid Level : raid5", "Chunk Size : 512K", absent on raid1; an IMSM container's is
"container") and a table of members ("Number Major Minor RaidDevice State", rows ending
in the member's path; a removed slot ends in "removed", a spare is listed with its
state). Captures: jc's tests, insights-core's MDAdmDetail tests, chef/ohai, Intel RST
(IMSM) volumes and containers from public notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import meaningful, number
from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.spans import program_of

_LABEL = re.compile(r"\s{0,30}(?P<label>[A-Z][A-Za-z ]{1,40}?) : (?P<value>.*)")
_MEMBER = re.compile(r"\s{0,10}(?:\d{1,5}|-)\s+\d{1,5}\s+\d{1,7}\s(?P<rest>.*)")
_CHUNK = re.compile(r"(\d{1,9})([KM])")


@dataclass(frozen=True)
class MdDetail:
    name: str  # md0
    level: str | None  # raid0, raid1, raid5, raid10
    chunk_kb: int | None
    members: tuple[str, ...]  # vda1, vda2 (without /dev/), in the table's order
    spares: tuple[str, ...]


def _detail(argv: Argv) -> bool:
    """`mdadm --detail /dev/md0`, `mdadm -D /dev/md126`, `mdadm --misc --detail …`; not
    `--detail --scan` (-Ds), which prints ARRAY lines."""
    flags = argv[1:]
    asked = "--detail" in flags or "-D" in flags
    return program_of(argv) == "mdadm" and asked and not {"--scan", "-s", "-Ds"} & set(flags)


@parser("mdadm_detail", _detail, commands=("mdadm",))
def mdadm_detail(section: Section) -> MdDetail:
    name = next((a for a in section.argv[1:] if a.startswith("/dev/")), "")
    labels: dict[str, str] = {}
    members: list[str] = []
    spares: list[str] = []
    for _offset, line in meaningful(section):
        if line.startswith("/dev/") and line.rstrip().endswith(":"):
            name = line.rstrip()[:-1]
        elif found := _LABEL.fullmatch(line.rstrip()):
            labels.setdefault(found.group("label").strip(), found.group("value").strip())
        elif (found := _MEMBER.match(line)) and found.group("rest").rstrip().rfind(" /dev/") > 0:
            dev = found.group("rest").split()[-1][len("/dev/") :]  # the row ends in its path
            (spares if "spare" in line else members).append(dev)
    if "Raid Level" not in labels:
        raise Garbled("no 'Raid Level :' line of mdadm --detail", 0)
    return MdDetail(
        name.rsplit("/", 1)[-1],
        labels["Raid Level"] or None,
        _chunk_kb(labels.get("Chunk Size")),
        tuple(members),
        tuple(spares),
    )


def _chunk_kb(text: str | None) -> int | None:
    found = _CHUNK.fullmatch((text or "").strip())
    if found is None:
        return None
    value = number(found.group(1))
    return None if value is None else value * (1024 if found.group(2) == "M" else 1)
