"""The collector on a fake AIX (stub commands printing real captured AIX output, see
fake_aix/SOURCES.md): the per-VG, per-LV, per-disk and per-adapter sections in order, and
names read from output that are never run as code."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.parse.sections import split
from tests.collector.helpers import fake_aix_env, run, script

# Test input, not captured output: the listings that drive the collector's loops, as bare
# names (lsvg prints one name a line; lsdev's adapter lines start with the name).
LSVG = "rootvg\naltinst_rootvg\n"
ADAPTERS = "fcs0\nfcs1\nent0\n"
ROOTVG_FILESYSTEMS = [
    "hd4", "hd2", "hd9var", "hd3", "hd1", "hd10opt", "hd11admin", "livedump", "dooncelv",
    "fslv00", "lv_auditlog", "lv_tpc", "fslv01",
]  # fmt: skip
EXPECTED = [
    "uname -a", "hostname", "oslevel -s", "prtconf", "lparstat -i", "smtctl",
    "lsattr -El sys0 -a realmem", "lsdev -Cc processor", "mount", "df -k",
    "lsvg", "lsvg rootvg", "lsvg -l rootvg", "lsvg -p rootvg",
    *[f"{c} {lv}" for lv in ROOTVG_FILESYSTEMS for c in ("lslv", "lslv -l")],
    "lsvg altinst_rootvg", "lsvg -l altinst_rootvg", "lsvg -p altinst_rootvg",
    "lspv", "lsdev -Cc disk",
    *[f"{c} hdisk{n}" for n in (0, 1, 2) for c in ("lsattr -El", "lspath -l")],
    "lsdev -Cc adapter", "lsattr -El fcs0", "lsattr -El fcs1",
    "ioo -a", "vmstat -v",
]  # fmt: skip


def listings(directory: Path, lspv: str | None = None) -> Path:
    directory.mkdir()
    (directory / "lsvg.txt").write_text(LSVG)
    (directory / "lsdev_-Cc_adapter.txt").write_text(ADAPTERS)
    if lspv is not None:
        (directory / "lspv.txt").write_text(lspv)
    return directory


@pytest.mark.parametrize("shell", ["ksh", "dash"])
def test_every_volume_group_logical_volume_disk_and_adapter_in_order(
    shell: str, tmp_path: Path
) -> None:
    log = tmp_path / "argv.log"
    env = fake_aix_env(log, FAKE_AIX_OUT=str(listings(tmp_path / "listings")))
    done = run(shell, script(tmp_path), "--out", "-", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    cut = split(done.stdout)
    assert [s.command for s in cut.sections] == EXPECTED
    assert [text for _, text in cut.skipped] == ["vmo: not found"]
    by_command = {s.command: s for s in cut.sections}
    assert by_command["uname -a"].lines == ("AIX 000000000000 2 7 000000000000",)
    assert by_command["lsvg -l rootvg"].lines[0] == "rootvg:"
    assert by_command["lslv hd4"].lines[0].split() == [
        "LOGICAL", "VOLUME:", "hd4", "VOLUME", "GROUP:", "rootvg"
    ]  # fmt: skip
    assert by_command["lspath -l hdisk2"].lines[0] == "Enabled hdisk2 fscsi1"
    assert by_command["lsattr -El hdisk2"].rc == 0
    assert by_command["lsattr -El hdisk0"].lines == (
        "fake AIX: no captured output for: lsattr -El hdisk0",
    )
    assert by_command["lsattr -El hdisk0"].rc == 1
    # Every command line the stubs saw is one the bundle shows (lsvg and ... quoted alike).
    seen = log.read_text().splitlines()
    assert seen == ["uname -s", *[c for c in EXPECTED if c != "hostname"]]


@pytest.mark.parametrize("shell", ["ksh", "dash", "bash"])
def test_hostile_disk_names_are_skipped_and_never_run(shell: str, tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    hostile = (
        f"hdisk0 000af70de396426b datavg\n"
        f"hdisk1;touch${{IFS}}{pwned} 000af70d5c816fc2 rootvg\n"
        f"$(touch${{IFS}}{pwned}2) 000af70d4d50358c rootvg\n"
        "`id` 000af70d4d50358d rootvg\n"
        "-a 000af70d4d50358e rootvg\n"
        "hdisk2 000af70d4d50358c rootvg\n"
    )
    log = tmp_path / "argv.log"
    env = fake_aix_env(log, FAKE_AIX_OUT=str(listings(tmp_path / "listings", hostile)))
    done = run(shell, script(tmp_path), "--out", "-", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    cut = split(done.stdout)
    skipped = [text for _, text in cut.skipped]
    for name in (f"hdisk1;touch${{IFS}}{pwned}", f"$(touch${{IFS}}{pwned}2)", "`id`", "-a"):
        assert f"lsattr -El {name}: unsafe name" in skipped
        assert f"lspath -l {name}: unsafe name" in skipped
    disks = [
        s.command
        for s in cut.sections
        if s.argv[:2] in (("lsattr", "-El"), ("lspath", "-l")) and s.argv[2] != "sys0"
    ]
    assert disks == [
        "lsattr -El hdisk0", "lspath -l hdisk0", "lsattr -El hdisk2", "lspath -l hdisk2",
        "lsattr -El fcs0", "lsattr -El fcs1",
    ]  # fmt: skip
    assert not pwned.exists()
    assert not (tmp_path / f"{pwned.name}2").exists() and not Path(f"{pwned}2").exists()
    assert "uid=" not in done.stdout  # `id` never ran
    called = log.read_text()
    assert "touch" not in called and "`id`" not in called and "lsattr -El -a" not in called


def test_an_unsafe_volume_group_name_skips_all_three_of_its_listings(tmp_path: Path) -> None:
    directory = listings(tmp_path / "listings")
    (directory / "lsvg.txt").write_text("rootvg\nvg;reboot\n")
    env = fake_aix_env(tmp_path / "argv.log", FAKE_AIX_OUT=str(directory))
    done = run("ksh", script(tmp_path), "--out", "-", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    skipped = [text for _, text in split(done.stdout).skipped]
    assert skipped[:3] == [
        "lsvg vg;reboot: unsafe name",
        "lsvg -l vg;reboot: unsafe name",
        "lsvg -p vg;reboot: unsafe name",
    ]
    assert "reboot" not in (tmp_path / "argv.log").read_text()
