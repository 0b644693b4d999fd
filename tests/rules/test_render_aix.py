"""aix_tuning.sh: valid POSIX sh, and safe when run under a fake AIX.

The fake AIX is a directory of stubs put first on PATH: `uname`, `oslevel`, `ioo`, `vmo`
and `lsattr` log their argv (and whether a rollback.sh already exists in the backup root)
and keep the tunables in a JSON state file, so a test can see what changed and when.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.engine import Result
from rules.model import Recommendation
from rules.render import aix_tuning
from rules.validate import parse
from tests.conftest import example

SHELLS = [s for s in ("sh", "ksh") if shutil.which(s)]
# AIX 5.3 defaults (bartucca2005 "before" column; notes/domain.md table).
STATE: dict[str, dict[str, str]] = {
    "ioo": {
        "j2_minPageReadAhead": "2",
        "j2_maxPageReadAhead": "128",
        "j2_nPagesPerWriteBehindCluster": "32",
        "sync_release_ilock": "0",
        "numfsbufs": "196",
    },
    "vmo": {
        "minperm%": "20",
        "maxperm%": "80",
        "maxclient%": "80",
        "strict_maxperm": "0",
        "lru_file_repage": "1",
        "strict_maxclient": "1",
    },
}
# Restricted (shown and changed only with -F) as on AIX 6.1+; 5.3 has none.
RESTRICTED_61 = ("maxperm%", "sync_release_ilock")

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
elif prog in ("ioo", "vmo"):
    path = os.environ["STUB_STATE"]
    state = json.load(open(path))
    table, restricted = state[prog], state["restricted"]
    if "-a" in args:
        for name, value in table.items():
            if "-F" in args or name not in restricted:
                print("%30s = %s" % (name, value))
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
elif prog == "lsattr":
    print("max_transfer 0x40000 Maximum TRANSFER Size True")
    print("queue_depth  3       Queue DEPTH           True")
else:
    print("%s output" % prog)
"""


class FakeAix:
    def __init__(
        self, tmp: Path, uname: str = "AIX", oslevel: str = "5.3.0.0",
        restricted: tuple[str, ...] = RESTRICTED_61,
    ) -> None:  # fmt: skip
        self.tmp, self.bin, self.root = tmp, tmp / "bin", tmp / "backups"
        self.log, self.state = tmp / "argv.log", tmp / "state.json"
        self.bin.mkdir()
        stub = self.bin / "stub.py"
        stub.write_text(STUB.format(python=sys.executable))
        stub.chmod(0o755)
        for name in ("uname", "oslevel", "ioo", "vmo", "lsattr", "lslv", "lsdev", "vmstat"):
            (self.bin / name).symlink_to(stub)
        self.state.write_text(json.dumps({**STATE, "restricted": list(restricted)}))
        self.env = {
            **os.environ,
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "AIX_TUNING_BACKUP_ROOT": str(self.root),
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            "STUB_UNAME": uname,
            "STUB_OSLEVEL": oslevel,
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

    def values(self) -> dict[str, dict[str, str]]:
        state = json.loads(self.state.read_text())
        return {cmd: state[cmd] for cmd in STATE}

    def backup_dir(self) -> Path:
        (found,) = self.root.iterdir()
        return found


def tunable(cmd: str, name: str, value: str, default: str, restricted: str) -> Recommendation:
    return Recommendation(
        rule=f"aix.{name.strip('%').lower()}", target="aix_tuning.sh", setting=name,
        value=value, rationale=f"{name} {default} -> {value} (bartucca2005)",
        sources=("bartucca2005",),
        extra={"command": cmd, "default": default, "restricted": restricted},
    )  # fmt: skip


def check(argv: str, expect: str) -> Recommendation:
    return Recommendation(
        rule="aix.max_transfer_check", target="aix_tuning.sh", setting="max_transfer",
        value="", rationale="measure the largest transfer first", sources=("bartucca2005",),
        kind="check", extra={"command": "check", "argv": argv, "expect": expect},
    )  # fmt: skip


RECS = (
    tunable("ioo", "j2_minPageReadAhead", "16", "2", "no"),
    tunable("ioo", "sync_release_ilock", "1", "0", "yes"),
    tunable("vmo", "maxperm%", "60", "80", "yes"),
    tunable("vmo", "strict_maxperm", "1", "0", "no"),
    check("lsattr -El hdisk0 -a max_transfer", "0x40000 (256 KB); don't go below"),
)


def hand_made(recs: tuple[Recommendation, ...] = RECS, **server: Any) -> Result:
    doc = example("lemans-aix53-etl")
    doc["server"].update(server)
    return dataclasses.replace(rules.advise_inventory(parse(doc)), recommendations=recs)


def script(recs: tuple[Recommendation, ...] = RECS, **server: Any) -> str:
    return aix_tuning.render(hand_made(recs, **server))


def test_every_command_is_quoted_and_explained() -> None:
    text = script()
    assert "EXPECTED_RELEASE='5.3'" in text
    assert "  tune 'ioo' 'no' 'j2_minPageReadAhead' '16'" in text
    assert "  tune 'vmo' 'yes' 'maxperm%' '60'" in text
    assert "  # aix.maxperm: maxperm% 80 -> 60 (bartucca2005)" in text
    assert "  # vmo maxperm%: default 80, set 60; a restricted tunable, changed with -F" in text
    hint = "'0x40000 (256 KB); don'\\''t go below'"
    assert f"  check {hint} 'lsattr' '-El' 'hdisk0' '-a' 'max_transfer'" in text
    assert "  save_device 'hdisk0'" in text and "  save_device 'fscsi1'" in text
    assert "VMO_LIST=$VMO_FA" in text and "IOO_LIST=$IOO_FA" in text


def test_header_echoes_inputs_and_rules_version() -> None:
    head = script().split("\n\n")[0]
    assert f"rules {rules.RULES_VERSION}" in head
    assert "# Server: lemans, AIX 5.3, 8 CPUs, 16 GB RAM" in head
    assert "# Workload: concurrent sessions 1; mix etl 100%" in head


def test_plain_listing_when_nothing_is_restricted() -> None:
    text = script((tunable("ioo", "j2_minPageReadAhead", "16", "2", "no"),))
    assert "IOO_LIST=$IOO_A" in text and "-F -a" not in text


@pytest.mark.parametrize(
    ("rec", "message"),
    [
        (tunable("chdev", "x", "1", "0", "no"), "unknown command"),
        (tunable("ioo", "a;b", "1", "0", "no"), "bad tunable"),
        (tunable("ioo", "x", "$(reboot)", "0", "no"), "bad tunable"),
        (tunable("ioo", "x", "1", "0", "maybe"), "restricted yes|no"),
        (check("lsattr -El `id`", "x"), "tokens"),
        (check("", "x"), "tokens"),
        (check("vmstat 1 2", "x")._replace(kind="change"), "kind 'check'"),
    ],
)
def test_a_recommendation_off_the_schema_is_refused(rec: Recommendation, message: str) -> None:
    with pytest.raises(aix_tuning.RenderError, match=message):
        script((rec,))


def random_recs(rng: random.Random) -> tuple[Recommendation, ...]:
    pool = [tunable(c, n, str(rng.randint(0, 999)), v, rng.choice(("yes", "no")))
            for c, table in STATE.items() for n, v in table.items()]  # fmt: skip
    picked = rng.sample(pool, rng.randint(0, len(pool)))
    return (*picked, check("vmstat -v", "it's ok")) if rng.random() < 0.5 else tuple(picked)


VERSIONS = ("5.3", "6.1", "7.1", "7.2", "7.3", "7", "10.0.1")


def random_inventory(rng: random.Random) -> dict[str, Any]:
    """An example with its release, machine, workload and disks shuffled."""
    doc = example(rng.choice(("lemans-aix53-etl", "prime-spds-aix")))
    doc["server"].update(os_version=rng.choice(VERSIONS), ram_gb=rng.choice((0.5, 16, 512)),
                         cpus=rng.choice((1, 8, 256)))  # fmt: skip
    doc["workload"].update(concurrent_sessions=rng.choice((1, 50, 5000)),
                           largest_table_gb=rng.choice((0, 60, 9000)))  # fmt: skip
    for entry in doc["storage"]:
        entry["max_transfer_kb"] = rng.choice((None, 64, 256, 1024, 16384))
        entry["filesystem"] = rng.choice(("jfs2", "jfs2", "jfs", "gpfs"))
        entry["adapters"] = rng.sample(["fscsi0", "fscsi3", "fcs1", "vscsi0", "sas0"], 2)
    return doc


def scripts_to_lint(tmp: Path, count: int) -> list[Path]:
    """Both examples as advised, then `count` random inventories as advised and `count`
    random recommendation sets as rendered."""
    texts = [rules.advise(example(n))["artifacts"]["aix_tuning.sh"]
             for n in ("lemans-aix53-etl", "prime-spds-aix")]  # fmt: skip
    rng = random.Random(20261122)
    for _ in range(count):
        texts.append(rules.advise(random_inventory(rng))["artifacts"]["aix_tuning.sh"])
        texts.append(script(random_recs(rng), os_version=rng.choice(VERSIONS)))
    paths = [tmp / f"s{i}.sh" for i in range(len(texts))]
    for path, text in zip(paths, texts, strict=True):
        path.write_text(text)
    return paths


@pytest.mark.parametrize("shell", SHELLS)
def test_scripts_parse(tmp_path: Path, shell: str) -> None:
    for path in scripts_to_lint(tmp_path, 30):
        done = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, (path.read_text(), done.stderr)


def test_scripts_pass_shellcheck(tmp_path: Path) -> None:
    if not shutil.which("shellcheck"):
        message = "shellcheck is not installed"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    paths = scripts_to_lint(tmp_path, 6)  # shellcheck takes ~0.3 s a file
    done = subprocess.run(["shellcheck", "-s", "sh", *map(str, paths)], capture_output=True)
    assert done.returncode == 0, done.stdout.decode()


FakeFactory = Callable[..., FakeAix]


@pytest.fixture
def fake(tmp_path: Path) -> FakeFactory:
    return lambda **kw: FakeAix(tmp_path, **kw)


@pytest.mark.parametrize(("uname", "oslevel"), [("Linux", "5.3.0.0"), ("AIX", "7.2.0.0"),
                                                ("AIX", "5.30.0.0")])  # fmt: skip
def test_refuses_off_aix_or_another_release(fake: FakeFactory, uname: str, oslevel: str) -> None:
    aix = fake(uname=uname, oslevel=oslevel)
    done = aix.run(script())
    assert done.returncode != 0
    assert "refusing to run" in done.stderr
    assert aix.changes() == [] and not aix.root.exists()
    assert aix.values() == STATE


@pytest.mark.parametrize("shell", SHELLS)
def test_backs_up_then_changes_then_rolls_back(fake: FakeFactory, shell: str) -> None:
    aix = fake()
    before = aix.values()
    done = aix.run(script(), shell=shell)
    assert done.returncode == 0, done.stderr
    changes = aix.changes()
    assert [(c["prog"], c["argv"]) for c in changes] == [
        ("ioo", ["-p", "-o", "j2_minPageReadAhead=16"]),
        ("ioo", ["-p", "-F", "-o", "sync_release_ilock=1"]),
        ("vmo", ["-p", "-F", "-o", "maxperm%=60"]),
        ("vmo", ["-p", "-o", "strict_maxperm=1"]),
    ]
    assert all(c["backup"] for c in changes)
    saved = aix.backup_dir()
    names = {p.name for p in saved.iterdir()}
    assert names >= {"ioo-a.txt", "ioo-F-a.txt", "vmo-a.txt", "vmo-F-a.txt", "rollback.sh"}
    assert {"lsattr-El-fscsi0.txt", "lsattr-El-hdisk0.txt"} <= names
    assert "maxperm%" not in (saved / "vmo-a.txt").read_text()
    assert "maxperm% = 80" in (saved / "vmo-F-a.txt").read_text()
    assert aix.values()["vmo"]["maxperm%"] == "60"
    assert f"sh {saved}/rollback.sh" in done.stdout
    assert "note: vmo maxperm% is a restricted tunable" in done.stdout
    assert "max_transfer 0x40000" in done.stdout and "expect: 0x40000" in done.stdout

    if shutil.which("shellcheck"):
        lint = subprocess.run(["shellcheck", "-s", "sh", str(saved / "rollback.sh")])
        assert lint.returncode == 0
    undo = subprocess.run([shell, str(saved / "rollback.sh")], env=aix.env, capture_output=True)
    assert undo.returncode == 0
    assert aix.values() == before
    assert [(c["prog"], c["argv"]) for c in aix.changes()[4:]] == [
        ("vmo", ["-p", "-o", "strict_maxperm=0"]),
        ("vmo", ["-p", "-F", "-o", "maxperm%=80"]),
        ("ioo", ["-p", "-F", "-o", "sync_release_ilock=0"]),
        ("ioo", ["-p", "-o", "j2_minPageReadAhead=2"]),
    ]


def test_dry_run_changes_nothing(fake: FakeFactory) -> None:
    aix = fake()
    done = aix.run(script(), "-n")
    assert done.returncode == 0, done.stderr
    assert "would change: vmo maxperm% from 80 to 60" in done.stdout
    assert "Dry run finished" in done.stdout
    assert aix.changes() == [] and not aix.root.exists()
    assert aix.values()["vmo"]["maxperm%"] == "80"


def test_leaves_alone_what_it_could_not_undo(fake: FakeFactory) -> None:
    aix = fake()
    recs = (tunable("vmo", "no_such_tunable", "5", "1", "no"),
            tunable("ioo", "numfsbufs", "196", "196", "no"))  # fmt: skip
    done = aix.run(script(recs))
    assert done.returncode == 0, done.stderr
    assert "skip: vmo no_such_tunable has no readable value here" in done.stdout
    assert "ok: ioo numfsbufs is already 196" in done.stdout
    assert aix.changes() == []
    assert "restore " not in (aix.backup_dir() / "rollback.sh").read_text()


def test_stops_at_a_failed_change_and_points_to_the_rollback(fake: FakeFactory) -> None:
    aix = fake()
    aix.env["STUB_FAIL"] = "maxperm%"
    done = aix.run(script())
    assert done.returncode == 1
    assert "vmo maxperm% could not be changed; stopping" in done.stderr
    assert f"sh {aix.backup_dir()}/rollback.sh" in done.stderr
    assert aix.values()["vmo"]["strict_maxperm"] == "0"  # never reached
    subprocess.run(["sh", str(aix.backup_dir() / "rollback.sh")], env=aix.env, check=False)
    assert aix.values()["ioo"]["sync_release_ilock"] == "0"


@pytest.mark.parametrize("name", ["lemans-aix53-etl", "prime-spds-aix"])
def test_example_scripts_round_trip_under_fake_aix(fake: FakeFactory, name: str) -> None:
    aix = fake(restricted=())
    before = aix.values()
    done = aix.run(rules.advise(example(name))["artifacts"]["aix_tuning.sh"])
    assert done.returncode == 0, done.stderr
    assert all(c["backup"] for c in aix.changes())
    subprocess.run(["sh", str(aix.backup_dir() / "rollback.sh")], env=aix.env, check=True)
    assert aix.values() == before
