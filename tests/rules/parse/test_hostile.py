"""A bundle is untrusted: hostile device names and mount points never reach a generated file.

The names come from a doctored `lsattr`/`lspath`/`lslv -l`/`mount` (what a compromised or
careless server could print). The draft refuses them with a note; what it keeps passes the
contract; no generated script holds a metacharacter from the bundle.
"""

from __future__ import annotations

import rules
from rules.parse import draft
from tests.rules.parse.fixtures import header_and_output

HOSTILE = ["hdisk9;reboot", "$(touch /tmp/pwned)", "hdisk`id`", "hdisk1 && rm -rf /"]
WORKLOAD = {"concurrent_sessions": 4, "mix": {"etl": 1}, "largest_table_gb": 1, "total_data_gb": 9}


def _lsattr_lines() -> list[str]:
    return header_and_output("aix/lsattr_hdisk4_aixpcm_bondhuang.txt")[1]


def hostile_bundle() -> str:
    lines = ["# sas-tuning-advisor bundle 1", "@@@ cmd: uname -a", "AIX evil 2 7 00F84C0A4C00"]
    lines += ["@@@ cmd: lsvg -l sasvg", "sasvg:",
              "LV NAME             TYPE       LPs     PPs     PVs  LV STATE      MOUNT POINT",
              "saswork             jfs2       80      80      2    open/syncd    /saswork",
              ]  # fmt: skip
    lines += ["@@@ cmd: mount", "  node       mounted        mounted over    vfs       date"
              "        options",
              "         /dev/saswork     /saswork         jfs2   Jul 17 13:22 rw,log=INLINE",
              "         /dev/evil        /sas;reboot      jfs2   Jul 17 13:22 rw,log=INLINE",
              ]  # fmt: skip
    pvs = "\n".join(f"{d:<18}040:000:000   100%          000:040:000:000:000" for d in HOSTILE)
    lines += ["@@@ cmd: lslv -l saswork", "saswork:/saswork",
              "PV                COPIES        IN BAND       DISTRIBUTION", pvs]  # fmt: skip
    for name in HOSTILE:
        lines += [f"@@@ cmd: lsattr -El '{name}'", *_lsattr_lines()]
        lines += [f"@@@ cmd: lspath -l '{name}'", f"Enabled {name} fscsi0"]
    return "\n".join(lines) + "\n"


def test_hostile_names_are_refused_with_a_note() -> None:
    found = draft(hostile_bundle())
    storage = found.document["storage"]
    assert [s["mount"] for s in storage] == ["/saswork"]
    assert "devices" not in storage[0]  # every disk name under it was refused
    devices = (found.document.get("current") or {}).get("devices") or {}
    assert not set(devices) & set(HOSTILE)
    notes = " ".join(found.notes)
    assert "refused device name 'hdisk9;reboot'" in notes
    assert "'/sas;reboot'" in notes


def test_no_generated_file_holds_a_hostile_name() -> None:
    document = dict(draft(hostile_bundle()).document, workload=WORKLOAD)
    result = rules.advise(document)
    for name, text in result["artifacts"].items():
        for bad in (*HOSTILE, ";reboot", "pwned", "`id`", "/sas;"):
            assert bad not in text, (name, bad)
