"""aix_tuning.sh test helpers: hand-made recommendations and a fake AIX to run scripts on.

The fake AIX is a directory of stubs put first on PATH: `uname`, `oslevel`, `ioo`, `vmo`
and `lsattr` log their argv (and whether a rollback.sh already exists in the backup root)
and keep the tunables in a JSON state file, so a test can see what changed and when;
`ioo -L NAME` and `vmo -L NAME` print the tunable's range as AIX lays it out.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import rules
from rules import Decisions
from rules.model import Recommendation
from rules.payloads import Check, Tunable
from rules.render import aix_tuning
from rules.validate import parse
from tests.conftest import example

SHELLS = [s for s in ("sh", "ksh") if shutil.which(s)]
# AIX 5.3 defaults (bartucca2005 "before" column; aix-defaults-secondary).
STATE: dict[str, dict[str, str]] = {
    "ioo": {
        "j2_minPageReadAhead": "2",
        "j2_maxPageReadAhead": "128",
        "j2_nPagesPerWriteBehindCluster": "32",
        "sync_release_ilock": "0",
        "numfsbufs": "196",
        "j2_dynamicBufferPreallocation": "16",
    },
    "vmo": {
        "minperm%": "20",
        "maxperm%": "80",
        "maxclient%": "80",
        "strict_maxperm": "0",
        "lru_file_repage": "1",
        "strict_maxclient": "1",
        "minfree": "960",
        "maxfree": "1088",
    },
}
# Restricted (listed only with -F) as on AIX 6.1+; 5.3 has none. The script never uses -F.
RESTRICTED_61 = ("maxperm%", "maxclient%", "sync_release_ilock")
# MIN and MAX as `ioo -L` and `vmo -L` print them on AIX 6.1 and 7.1 (the nmonchart and
# nmon2influxdb samples in tests/fixtures/parse/aix/*_L_*): K is 1024.
RANGES: dict[str, tuple[str, str]] = {
    "j2_minPageReadAhead": ("0", "64K"),
    "j2_maxPageReadAhead": ("0", "64K"),
    "j2_nPagesPerWriteBehindCluster": ("0", "64K"),
    "sync_release_ilock": ("0", "1"),
    "numfsbufs": ("1", "2G"),
    "minperm%": ("1", "100"),
    "maxperm%": ("1", "100"),
    "maxclient%": ("1", "100"),
    "strict_maxperm": ("0", "1"),
    "lru_file_repage": ("0", "1"),
    "strict_maxclient": ("0", "1"),
    "j2_dynamicBufferPreallocation": ("0", "256"),
    "minfree": ("8", "8601K"),
    "maxfree": ("16", "8601K"),
}

STUB = """#!{python}
import glob, json, os, sys
prog, args = os.path.basename(sys.argv[0]), sys.argv[1:]
root = os.environ["AIX_TUNING_BACKUP_ROOT"]
with open(os.environ["STUB_LOG"], "a") as log:
    backed_up = bool(glob.glob(os.path.join(root, "*", "rollback.sh")))
    log.write(json.dumps({{"prog": prog, "argv": args, "backup": backed_up}}) + "\\n")
if prog == "uname":
    print(os.environ["STUB_UNAME"])
elif prog == "oslevel":
    print(os.environ["STUB_OSLEVEL"])
elif prog == "id":
    print(os.environ["STUB_UID"] if args == ["-u"] else "uid=%s" % os.environ["STUB_UID"])
elif prog in ("ioo", "vmo"):
    path = os.environ["STUB_STATE"]
    state = json.load(open(path))
    table, restricted = state[prog], state["restricted"]
    if "-a" in args:
        for name, value in table.items():
            if "-F" in args or name not in restricted:
                print("%30s = %s" % (name, value))
        sys.exit(0)
    if "-L" in args:
        name = args[args.index("-L") + 1]
        low, high = state["ranges"].get(name, ("", ""))
        if name not in table or not low or (name in restricted and "-F" not in args):
            sys.exit("%s: 1485-109 %s is not a valid tunable" % (prog, name))
        print("NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT    TYPE")
        print("     DEPENDENCIES")
        print("-" * 80)
        now = table[name]
        row = "%-6s %-6s %-6s %-6s %-6s numeric D" % (now, now, now, low, high)
        if len(name) > 25:  # a name too long for its column puts its values on the next line
            print(name)
            print(" " * 26 + row)
        else:
            print("%-25s %s" % (name, row))
        print("-" * 80)
        sys.exit(0)
    name, eq, value = args[args.index("-o") + 1].partition("=")
    if name not in table or name == os.environ.get("STUB_FAIL"):
        sys.exit("%s: cannot use %s" % (prog, name))
    if name in restricted and "-F" not in args:
        sys.exit("%s: %s is restricted; use -F" % (prog, name))
    if not eq:
        print("%s = %s" % (name, table[name]))
        sys.exit(0)
    table[name] = value
    json.dump(state, open(path, "w"))
elif prog == "lslv":
    print("%s:/fs" % args[-1])
    print("PV                COPIES        IN BAND       DISTRIBUTION")
    print("hdisk13           100:000:000   100%          000:100:000:000:000")
    print("hdisk15           100:000:000   100%          000:100:000:000:000")
elif prog in ("mount", "umount"):
    path = os.environ["STUB_STATE"]
    state = json.load(open(path))
    mounts = state.setdefault("mounts", {{}})
    if prog == "mount" and not args:
        print("  node       mounted        mounted over    vfs       date        options")
        print("-------- --------------- --------------- ------ ------------ ---------------")
        for point, fs in mounts.items():
            print("         %s %s namefs Nov 22 10:00 rw,dio" % (fs, point))
        sys.exit(0)
    if prog == "mount":
        if args[:2] != ["-o", "dio"] or not os.path.isdir(args[3]):
            sys.exit("mount: bad arguments %s" % args)
        mounts[args[3]] = args[2]
    elif args[0] in mounts:
        del mounts[args[0]]
    else:
        sys.exit("umount: %s is not mounted" % args[0])
    json.dump(state, open(path, "w"))
elif prog == "lsattr":
    print("max_transfer 0x40000 Maximum TRANSFER Size True")
    print("queue_depth  3       Queue DEPTH           True")
else:
    print("%s output" % prog)
"""


class FakeAix:
    def __init__(
        self, tmp: Path, uname: str = "AIX", oslevel: str = "5.3.0.0",
        restricted: tuple[str, ...] = RESTRICTED_61, mounted: tuple[str, ...] = (),
        uid: int = 0,
    ) -> None:  # fmt: skip
        tmp.mkdir(parents=True, exist_ok=True)
        self.tmp, self.bin, self.root = tmp, tmp / "bin", tmp / "backups"
        self.log, self.state = tmp / "argv.log", tmp / "state.json"
        self.bin.mkdir()
        stub = self.bin / "stub.py"
        # the real interpreter, not the venv link: the stub needs only the standard library
        stub.write_text(STUB.format(python=os.path.realpath(sys.executable)))
        stub.chmod(0o755)
        for name in ("uname", "oslevel", "id", "ioo", "vmo", "lsattr", "lslv", "lsdev",
                     "vmstat", "mount", "umount"):  # fmt: skip
            (self.bin / name).symlink_to(stub)
        mounts = {"/": "/dev/hd4", **{m: f"/dev/lv{i}" for i, m in enumerate(mounted)}}
        state = {**STATE, "restricted": list(restricted), "mounts": mounts, "ranges": RANGES}
        self.state.write_text(json.dumps(state))
        self.env = {
            **os.environ,
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "AIX_TUNING_BACKUP_ROOT": str(self.root),
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            "STUB_UNAME": uname,
            "STUB_OSLEVEL": oslevel,
            "STUB_UID": str(uid),
        }

    def run(self, script: str, *args: str, shell: str = "sh") -> subprocess.CompletedProcess[str]:
        path = self.tmp / "aix_tuning.sh"
        path.write_text(script)
        cmd = [shell, str(path), *args]
        return subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=30)

    def calls(self, prog: str | None = None) -> list[dict[str, Any]]:
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        entries = [json.loads(line) for line in lines]
        return [e for e in entries if prog is None or e["prog"] == prog]

    def changes(self) -> list[dict[str, Any]]:
        return [c for c in self.calls() if "-o" in c["argv"]]

    def set_values(self, prog: str, **values: str) -> None:
        """Give the fake AIX other current values (the names with '%' as keyword-safe
        names: maxperm for maxperm%)."""
        state = json.loads(self.state.read_text())
        for name, value in values.items():
            key = name if name in state[prog] else name + "%"
            state[prog][key] = value
        self.state.write_text(json.dumps(state))

    def values(self) -> dict[str, dict[str, str]]:
        state = json.loads(self.state.read_text())
        return {cmd: state[cmd] for cmd in STATE}

    def mounts(self) -> dict[str, str]:
        mounts: dict[str, str] = json.loads(self.state.read_text()).get("mounts", {})
        return mounts

    def backup_dir(self) -> Path:
        (found,) = self.root.iterdir()
        return found


def tunable(cmd: str, name: str, value: str, default: str) -> Recommendation:
    return Recommendation(
        rule=f"aix.{name.strip('%').lower()}", target="aix_tuning.sh", setting=name,
        value=value, rationale=f"{name} {default} -> {value} (bartucca2005)",
        sources=("bartucca2005",),
        payload=Tunable(cmd, default),  # type: ignore[arg-type]
    )  # fmt: skip


def check(argv: str, expect: str) -> Recommendation:
    return Recommendation(
        rule="aix.max_transfer_check", target="aix_tuning.sh", setting="max_transfer",
        value="", rationale="measure the largest transfer first", sources=("bartucca2005",),
        kind="check", payload=Check(tuple(argv.split()), expect),
    )  # fmt: skip


RECS = (
    tunable("ioo", "j2_minPageReadAhead", "16", "2"),
    tunable("ioo", "sync_release_ilock", "1", "0"),
    tunable("vmo", "maxclient%", "60", "80"),  # first: IBM keeps maxclient% ≤ maxperm%
    tunable("vmo", "maxperm%", "60", "80"),
    tunable("vmo", "strict_maxperm", "1", "0"),
    check("lsattr -El hdisk0 -a max_transfer", "0x40000 (256 KB); don't go below"),
)


def hand_made(recs: tuple[Recommendation, ...] = RECS, **server: Any) -> Decisions:
    doc = example("lemans-aix53-etl")
    doc["server"].update(server)
    return dataclasses.replace(rules.run(parse(doc)), recommendations=recs)


def script(recs: tuple[Recommendation, ...] = RECS, **server: Any) -> str:
    return aix_tuning.render(hand_made(recs, **server))
