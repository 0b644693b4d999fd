"""aix_tuning.sh as text: every command quoted and explained, valid POSIX sh, shellcheck clean."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.model import Recommendation
from rules.payloads import Check, PayloadError, Tunable
from rules.render import aix_tuning
from tests.conftest import example
from tests.rules.aix_script import SHELLS, STATE, check, script, tunable
from tests.rules.fitting import fit_total


def test_every_command_is_quoted_and_explained() -> None:
    text = script()
    assert "EXPECTED_RELEASE='5.3'" in text
    assert "  tune 'ioo' 'j2_minPageReadAhead' '16'" in text
    assert "  tune 'vmo' 'maxperm%' '60'" in text
    assert "  # aix.maxperm: maxperm% 80 -> 60 (bartucca2005)" in text
    assert "  # vmo maxperm%: default 80, set 60" in text
    assert "-F -a" not in text and "-p -F" not in text  # restricted ones: never listed, never set
    hint = "'0x40000 (256 KB); don'\\''t go below'"
    assert f"  check {hint} 'lsattr' '-El' 'hdisk0' '-a' 'max_transfer'" in text
    assert "  save_device 'hdisk0'" in text and "  save_device 'fscsi1'" in text
    assert "VMO_LIST=$(vmo -a)" in text and "IOO_LIST=$(ioo -a)" in text


def test_header_echoes_inputs_and_rules_version() -> None:
    head = script().split("\n\n")[0]
    assert f"rules {rules.RULES_VERSION}" in head
    assert "# Server: lemans, AIX 5.3, 8 CPUs, 16 GB RAM" in head
    assert "# Workload: concurrent sessions 1; mix etl 100%" in head


def test_lists_only_the_commands_it_changes() -> None:
    text = script((tunable("ioo", "j2_minPageReadAhead", "16", "2"),))
    assert "IOO_LIST=$(ioo -a)" in text and "$(vmo -a)" not in text


@pytest.mark.parametrize(
    ("rec", "message"),
    [
        (tunable("ioo", "a;b", "1", "0"), "bad tunable"),
        (tunable("ioo", "x", "$(reboot)", "0"), "bad tunable"),
        (tunable("ioo", "x", "1", "0")._replace(kind="check"), "kind 'change'"),
        (check("vmstat 1 2", "x")._replace(kind="change"), "kind 'check'"),
        (check("vmstat 1 2", "x")._replace(payload=None), "no command"),
    ],
)
def test_a_recommendation_off_the_schema_is_refused(rec: Recommendation, message: str) -> None:
    with pytest.raises(aix_tuning.RenderError, match=message):
        script((rec,))


@pytest.mark.parametrize(
    "build",
    [
        lambda: Tunable("chdev", "0"),  # type: ignore[arg-type]
        lambda: Tunable("ioo", "$(id)"),
        lambda: Check(("lsattr", "-El", "`id`"), "x"),
        lambda: Check((), "x"),
    ],
)
def test_a_malformed_payload_is_refused_when_the_rule_builds_it(build: Any) -> None:
    with pytest.raises(PayloadError):
        build()


def random_recs(rng: random.Random) -> tuple[Recommendation, ...]:
    pool = [tunable(c, n, str(rng.randint(0, 999)), v)
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
    fit_total(doc)
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


def test_the_fixed_shell_parts_pass_shellcheck_as_files() -> None:
    if not shutil.which("shellcheck"):
        message = "shellcheck is not installed"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    parts = Path(aix_tuning.__file__).parent
    files = [str(parts / "aix_tuning_lib.sh"), str(parts / "aix_tuning_main.sh")]
    done = subprocess.run(["shellcheck", "-s", "sh", *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
