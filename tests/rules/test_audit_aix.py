"""The AIX audit: restricted tunables, releases without vmo/ioo, the paper's maxperm
trigger, run citations, fsbuf and queue_depth checks, and the opt-in dio mounts and SPD
Server directories of aix_tuning.sh (bartucca2005 line numbers; IBM pages named)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.catalog.aix.common import RESTRICTED
from rules.model import LIBNAMES, SYSTEM, Recommendation
from rules.payloads import DioMounts, Domain, PayloadError
from tests.conftest import example
from tests.rules.aix_script import SHELLS, FakeAix, check, script, tunable

VERSIONS = ("5.2", "5.3", "6.1", "7.1", "7.2", "7.3")


def advise(name: str = "lemans-aix53-etl", **server: Any) -> dict[str, Any]:
    doc = example(name)
    doc["server"].update(server)
    return rules.advise(doc)


def aix(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in result["recommendations"] if r["target"] == "aix_tuning.sh"]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", ["lemans-aix53-etl", "prime-spds-aix"])
def test_no_restricted_tunable_is_ever_changed(name: str, version: str) -> None:
    """IBM 'Tunable parameters type' (AIX 7.2): restricted tunables are not for end users;
    the table says from which release each one is restricted."""
    result = advise(name, os_version=version)
    release = tuple(int(p) for p in version.split("."))
    changed = {r["setting"] for r in aix(result) if r["kind"] == "change"}
    restricted = {n for n, (since, _) in RESTRICTED.items() if release >= since}
    assert not changed & restricted
    text = result["artifacts"]["aix_tuning.sh"]
    assert "-F -a" not in text and "-p -F" not in text and " -F -o" not in text


def test_restricted_check_shows_the_papers_value_and_why() -> None:
    """bartucca2005 l.257: sync_release_ilock 0→1 on AIX 5.3; restricted on 6.1+."""
    (rec,) = [r for r in aix(advise(os_version="6.1")) if "sync_release_ilock" in r["setting"]]
    assert rec["kind"] == "check" and rec["value"] == "ioo -o sync_release_ilock"
    assert "the paper set 1 on AIX 5.3" in rec["extra"]["expect"]
    assert "Why the paper set 1: bartucca2005 l.252-257" in rec["rationale"]
    assert "-p asks for confirmation" in rec["rationale"]


@pytest.mark.parametrize("version", ["4.3", "5.1"])
def test_releases_before_52_get_no_vmo_or_ioo(version: str) -> None:
    """AIX 5.2 Performance Management Guide, 'Tuning Enhancements for AIX 5.2': vmo and ioo
    replace vmtune."""
    result = advise(os_version=version)
    assert not [r for r in aix(result) if r["rule"] in ("aix.vmo", "aix.ioo", "aix.fsbuf")]
    reasons = {n["rule"]: n["reason"] for n in result["not_applicable"]}
    for rule_id in ("aix.vmo", "aix.ioo"):
        assert f"AIX {version} has no vmo or ioo" in reasons[rule_id]
        assert "vmtune" in reasons[rule_id]
    text = result["artifacts"]["aix_tuning.sh"]
    assert "$(ioo -a)" not in text and "$(vmo -a)" not in text


def test_maxperm_changes_only_in_the_papers_case() -> None:
    """bartucca2005 l.269, l.279: SAS paged out while sorting 60 GB on 16 GB through the
    cache. prime-spds-aix is a 70 % SPD Server query box: look, don't change."""
    lemans = {r["setting"]: r for r in aix(advise()) if r["rule"] == "aix.vmo"}
    assert lemans["maxperm%"]["value"] == "60" and "l.279" in lemans["maxperm%"]["rationale"]
    prime = {r["setting"]: r for r in aix(advise("prime-spds-aix")) if r["rule"] == "aix.vmo"}
    # AIX 5.3: IBM's later lru_file_repage 0 is advised there too (ibm-aix-lru-file-repage)
    assert set(prime) == {"check:vmstat -v", "lru_file_repage"}
    assert "ETL is 30% of the mix" in prime["check:vmstat -v"]["rationale"]
    assert "Later guidance, not the paper's" in prime["lru_file_repage"]["rationale"]


def test_maxperm_is_a_ceiling_not_a_reservation() -> None:
    """bartucca2005 l.285: maxperm limits file pages; it reserves no memory for SAS."""
    (rec,) = [r for r in aix(advise()) if r["setting"] == "maxperm%"]
    assert "reserves nothing for SAS" in rec["rationale"]
    assert "leaving" not in rec["rationale"]
    assert "39.2 %" in rec["effect"] and "l.285" in rec["effect"]


def test_ioo_effect_cites_the_cached_run_not_a_direct_io_run() -> None:
    """The ioo values act on cached I/O: run 1 (l.408 five-to-two coalescing, l.388-399);
    runs 2-5 used direct I/O mounts (l.416, l.647)."""
    for rec in aix(advise()):
        if rec["rule"] == "aix.ioo" and rec["kind"] == "change":
            assert "run 1 (cached I/O" in rec["effect"] and "l.408" in rec["effect"]
            assert "run 4" not in rec["effect"]


def test_fsbuf_and_multiuser_caveat() -> None:
    """IBM 'File system buffer tuning' (vmstat -v blocked-I/O counters); bartucca2005 l.678
    asks for validation under multi-user load (prime runs 50 sessions)."""
    result = advise("prime-spds-aix")
    (fsbuf,) = [r for r in aix(result) if r["rule"] == "aix.fsbuf"]
    assert fsbuf["extra"]["argv"] == "vmstat -v"
    assert "external pager filesystem I/Os blocked with no fsbuf" in fsbuf["extra"]["expect"]
    assert "ibm-aix-fsbuf" in fsbuf["sources"]
    assert any("l.678" in r["rationale"] for r in aix(result) if r["rule"] == "aix.ioo")
    (warning,) = [w for w in result["warnings"] if w["rule"] == "aix.ioo"]
    assert "50 concurrent sessions" in warning["message"] and "l.678" in warning["message"]
    assert not [w for w in advise()["warnings"] if w["rule"] == "aix.ioo"]  # lemans: 1 job


def test_queue_depth_is_checked_on_every_disk_of_each_lv(tmp_path: Path) -> None:
    """IBM 'Disk and disk adapter tunable parameters': lsattr -El hdiskN -a queue_depth."""
    text = rules.advise(example("lemans-aix53-etl"))["artifacts"]["aix_tuning.sh"]
    assert "check_disks '" in text and "'raid0lv01' 'max_transfer' 'queue_depth'" in text
    fake = FakeAix(tmp_path, restricted=())
    done = fake.run(text)
    assert done.returncode == 0, done.stderr
    lsattr = [c["argv"] for c in fake.calls("lsattr")]
    assert ["-El", "hdisk13", "-a", "queue_depth"] in lsattr
    assert ["-El", "hdisk15", "-a", "max_transfer"] in lsattr
    assert "sqfull" in done.stdout


# Item 13: the opt-in steps, on a hand-made result whose paths live under tmp_path.


def opt_in_recs(root: Path) -> tuple[Recommendation, ...]:
    mounts = DioMounts(((f"{root}/raid0", f"{root}/raid0dio"),))
    data = (f"{root}/data/spdsdata", f"{root}/meta/spdsdata")
    domain = Domain("SPDSDATA", f"{root}/meta/spdsdata", "OPTIONS", data, (f"{root}/idx/x",))
    return (
        tunable("ioo", "j2_minPageReadAhead", "16", "2"),
        check("vmstat -v", "no growth"),
        Recommendation(
            "io.direct_io",
            SYSTEM,
            "direct I/O mount",
            "mount -o dio",
            "dio",
            ("bartucca2005",),
            kind="advice",
            payload=mounts,
        ),
        Recommendation(
            "spds.libnames", LIBNAMES, "SPDSDATA", "x", "domain", ("bogacz2012",), payload=domain
        ),
    )


def opt_in_fake(tmp_path: Path) -> tuple[FakeAix, Path]:
    root = tmp_path / "fs"
    for sub in ("raid0", "meta", "data", "idx"):
        (root / sub).mkdir(parents=True)
    (root / "data" / "spdsdata").mkdir()  # exists already: never created, never removed
    mounted = tuple(str(root / s) for s in ("raid0", "meta", "data"))  # idx not mounted
    fake = FakeAix(tmp_path, restricted=(), mounted=(str(root), *mounted))
    return fake, root


def test_opt_in_steps_are_shown_but_not_run_by_default(tmp_path: Path) -> None:
    fake, root = opt_in_fake(tmp_path)
    text = script(opt_in_recs(root))
    for args in ((), ("-n",)):
        done = fake.run(text, *args)
        assert done.returncode == 0, done.stderr
        assert (
            f"optional, not run (add --with-dio-mounts): mount -o dio {root}/raid0" in done.stdout
        )
        assert (
            f"optional, not run (add --with-spds-dirs): mkdir {root}/meta/spdsdata" in done.stdout
        )
    assert fake.calls("mount") == [] or all(c["argv"] == [] for c in fake.calls("mount"))
    assert not (root / "raid0dio").exists() and not (root / "meta" / "spdsdata").exists()


def test_dry_run_with_options_says_what_it_would_do(tmp_path: Path) -> None:
    fake, root = opt_in_fake(tmp_path)
    done = fake.run(script(opt_in_recs(root)), "-n", "--with-dio-mounts", "--with-spds-dirs")
    assert done.returncode == 0, done.stderr
    assert f"would mount: mount -o dio {root}/raid0 {root}/raid0dio" in done.stdout
    assert f"would create: {root}/meta/spdsdata" in done.stdout
    assert not (root / "raid0dio").exists() and not fake.root.exists()


@pytest.mark.parametrize("shell", SHELLS)
def test_opt_in_steps_run_and_roll_back_exactly(tmp_path: Path, shell: str) -> None:
    fake, root = opt_in_fake(tmp_path)
    done = fake.run(script(opt_in_recs(root)), "--with-dio-mounts", "--with-spds-dirs",
                    shell=shell)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert fake.mounts()[f"{root}/raid0dio"] == f"{root}/raid0"
    assert (root / "meta" / "spdsdata").is_dir()
    assert f"ok: {root}/data/spdsdata exists" in done.stdout
    assert f"skip: {root}/idx is not a mounted file system" in done.stdout
    assert not (root / "idx" / "x").exists()
    # a file system that is not mounted is never mounted over (bartucca2005 l.202 mounts
    # the mounted /raid0 a second time)
    fake2 = FakeAix(tmp_path / "again", restricted=())
    done2 = fake2.run(script(opt_in_recs(root)), "--with-dio-mounts", shell=shell)
    assert f"skip: {root}/raid0 is not a mounted file system" in done2.stdout
    assert not [c for c in fake2.calls("mount") if c["argv"]]
    rollback = fake.backup_dir() / "rollback.sh"
    assert all(c["backup"] for c in fake.calls("mount") if c["argv"])
    if shutil.which("shellcheck"):
        assert subprocess.run(["shellcheck", "-s", "sh", str(rollback)]).returncode == 0
    undo = subprocess.run([shell, str(rollback)], env=fake.env, capture_output=True, text=True)
    assert undo.returncode == 0, undo.stdout
    assert f"{root}/raid0dio" not in fake.mounts()
    assert not (root / "raid0dio").exists() and not (root / "meta" / "spdsdata").exists()
    assert (root / "data" / "spdsdata").is_dir()  # existed before: left alone
    text = rollback.read_text()
    assert text.index("umount") < text.index(f"rmdir '{root}/raid0dio'")


def test_opt_in_scripts_parse_and_lint(tmp_path: Path) -> None:
    paths = []
    examples = ("lemans-aix53-etl", "prime-spds-aix")
    texts = [rules.advise(example(n))["artifacts"]["aix_tuning.sh"] for n in examples]
    for i, text in enumerate((script(opt_in_recs(Path("/x"))), *texts)):
        path = tmp_path / f"s{i}.sh"
        path.write_text(text)
        paths.append(str(path))
        for shell in SHELLS:
            assert subprocess.run([shell, "-n", str(path)]).returncode == 0
    if shutil.which("shellcheck"):
        assert subprocess.run(["shellcheck", "-s", "sh", *paths]).returncode == 0


def test_dio_mounts_payload_refuses_relative_or_odd_paths() -> None:
    for bad in ((("raid0", "/raid0dio"),), (("/raid0", "/a b"),), ()):
        with pytest.raises(PayloadError):
            DioMounts(bad)
    extra = DioMounts((("/raid0", "/raid0dio"),)).as_extra()
    assert json.loads(json.dumps(extra)) == {
        "directories": "/raid0dio",
        "mounts": "/raid0=/raid0dio",
    }
