"""`python -m rules verify RECOMMENDATIONS.json BUNDLE`: 0 compliant, 1 drift, 2 bad input,
as `tuned-adm verify` and `saptune note verify` answer cron and CI. Unknown (not read) is
not drift: it passes, and fails only with --strict."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.stored_results import (
    LEMANS_2026_11_0,
    RHEL9_2026_11_1,
    STORED,
    lemans_reading,
    rhel9_reading,
    stored,
)

RHEL9 = STORED / f"{RHEL9_2026_11_1}.json"
LEMANS = STORED / f"{LEMANS_2026_11_0}.json"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", "verify", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip


def written(tmp_path: Path, text: str, name: str = "bundle.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_compliant_is_0_with_each_setting_expected_and_current(tmp_path: Path) -> None:
    done = run(str(RHEL9), written(tmp_path, rhel9_reading()))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "advice of rules 2026.11.1 for sasgrid01.example.com; reading of sasgrid01"
    assert lines[1].split() == ["STATUS", "SETTING", "FILE", "EXPECTED", "CURRENT"]
    assert lines[2:11] and {line.split()[0] for line in lines[2:11]} == {"compliant"}
    assert "compliant  BUFSIZE      sasv9_local.cfg  1M        1M" in done.stdout
    assert lines[-1] == (
        "9 compliant, 0 drift, 0 unknown (not read); 8 checks and advice not judged: compliant"
    )
    assert done.stderr == ""


def test_drift_is_1_and_comes_first(tmp_path: Path) -> None:
    applied = stored(RHEL9_2026_11_1)["artifacts"]["sasv9_local.cfg"]
    raised = applied.replace("\n-MEMSIZE 4G\n", "\n-MEMSIZE 8G\n")
    done = run(str(RHEL9), written(tmp_path, rhel9_reading(config=raised)))
    assert done.returncode == 1, done.stderr
    first = done.stdout.splitlines()[2].split()
    assert first == ["drift", "MEMSIZE", "sasv9_local.cfg", "4G", "8G"]
    assert done.stdout.splitlines()[-1].startswith("8 compliant, 1 drift, 0 unknown")


def test_unknown_is_not_drift_unless_strict(tmp_path: Path) -> None:
    # lemans's AIX tunables are read from ioo -a (which drifted: exit 1 either way) but its
    # vmo -a shows no maxperm%; with ioo as advised, only unknown settings remain.
    reading = lemans_reading().replace("j2_minPageReadAhead = 2", "j2_minPageReadAhead = 16")
    reading = reading.replace("j2_nPagesPerWriteBehindCluster = 32",
                              "j2_nPagesPerWriteBehindCluster = 128")  # fmt: skip
    reading = reading.replace("sync_release_ilock = 0", "sync_release_ilock = 1")
    bundle = written(tmp_path, reading)
    done = run(str(LEMANS), bundle)
    assert done.returncode == 0, done.stderr
    assert "unknown    maxperm%" in done.stdout and "(not read)" in done.stdout
    assert ", 0 drift, 3 unknown (not read);" in done.stdout
    strict = run(str(LEMANS), bundle, "--strict")
    assert strict.returncode == 1
    assert strict.stdout.rstrip().endswith(": unknown")


def test_json_for_ci_carries_the_verdict_and_every_row(tmp_path: Path) -> None:
    done = run(str(LEMANS), written(tmp_path, lemans_reading()), "--json")
    assert done.returncode == 1, done.stderr
    body = json.loads(done.stdout)
    assert (body["verdict"], body["exit"], body["rules_version"]) == ("drift", 1, "2026.11.0")
    assert body["host"] | {"notes": []} == {
        "hostname": "lemans", "os": "aix", "read_hostname": "lemans", "read_os": "aix",
        "renamed": False, "notes": [],
    }  # fmt: skip
    assert len(body["rows"]) == len(stored(LEMANS_2026_11_0)["recommendations"])
    assert body["non_compliant"] == 3 and body["not_read"] == 3


def test_a_bundle_on_standard_input(tmp_path: Path) -> None:
    assert run(str(RHEL9), "-", stdin=rhel9_reading()).returncode == 0


def test_another_host_is_2_unless_renamed(tmp_path: Path) -> None:
    bundle = written(tmp_path, rhel9_reading(host="web07"))
    done = run(str(RHEL9), bundle)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"{bundle}: server.hostname: the reading is of host web07 (from `hostname`, line 6), "
        "the assessment of sasgrid01.example.com",
        f"{bundle}: --allow-renamed-host verifies it if the server was renamed",
    ]
    renamed = run(str(RHEL9), bundle, "--allow-renamed-host")
    assert renamed.returncode == 0, renamed.stderr
    assert "verified as the same server renamed" in renamed.stderr


def test_another_os_is_2_even_renamed(tmp_path: Path) -> None:
    bundle = written(tmp_path, rhel9_reading(host="lemans"))
    for extra in ((), ("--allow-renamed-host",)):
        done = run(str(LEMANS), bundle, *extra)
        assert done.returncode == 2
        assert "server.os: the reading is of Linux (from `uname -a`, line 3), the assessment " \
               "of AIX" in done.stderr  # fmt: skip
        assert "--allow-renamed-host" not in done.stderr


@pytest.mark.parametrize(
    ("advice", "bundle_text", "message"),
    [
        ("missing.json", None, "missing.json: cannot read a JSON document:"),
        ("{not json", None, "cannot read a JSON document: Expecting property name"),
        ('{"rules_version": "2026.11.6"}', None,
         "recommendations: is missing: not a recommendations.json"),
        ('{"recommendations": [{"setting": "MEMSIZE"}]}', None,
         "recommendations[0].target: is missing"),
        (None, "hello\n", "nothing in it was recognised as the output of a command"),
        (None, "$ uname -a\nLinux sasgrid01 5.14.0 #1 SMP x86_64 GNU/Linux\n",
         "none of the 9 settings of the advice was read: nothing verified"),
    ],
)  # fmt: skip
def test_bad_input_is_2_naming_the_file_and_what(
    tmp_path: Path, advice: str | None, bundle_text: str | None, message: str
) -> None:
    if advice is None:
        advice_path = str(RHEL9)
    elif advice.endswith(".json"):
        advice_path = str(tmp_path / advice)  # does not exist
    else:
        advice_path = written(tmp_path, advice, "recommendations.json")
    bundle = written(tmp_path, rhel9_reading() if bundle_text is None else bundle_text)
    done = run(advice_path, bundle)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert done.stdout == ""


def test_a_missing_bundle_and_a_missing_argument_are_2(tmp_path: Path) -> None:
    done = run(str(RHEL9), str(tmp_path / "nowhere.txt"))
    assert done.returncode == 2 and "nowhere.txt" in done.stderr
    assert run(str(RHEL9)).returncode == 2  # argparse: the bundle is required
