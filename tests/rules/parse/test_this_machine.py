"""The collector on the machine the tests run on: its bundle becomes a valid inventory
whose CPUs, memory and file systems are what nproc, /proc/meminfo and findmnt say."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.collect import collector_script
from rules.parse import draft
from rules.parse.combine_linux import DISTRIBUTIONS
from rules.parse.combine_storage import FILESYSTEMS, SYSTEM_MOUNTS

WORKLOAD = {
    "concurrent_sessions": 4,
    "mix": {"etl": 1},
    "largest_table_gb": 10,
    "total_data_gb": 100,
}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> str:
    if not Path("/proc/meminfo").exists() or shutil.which("findmnt") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI runs on Linux with util-linux: /proc/meminfo and findmnt must exist")
        pytest.skip("needs Linux with findmnt")
    root = tmp_path_factory.mktemp("collect")
    script, out = root / "collect.sh", root / "bundle.txt"
    script.write_text(collector_script(), encoding="utf-8")
    subprocess.run(["sh", str(script), "--out", str(out)], cwd=root, check=True, timeout=300)
    return out.read_text(encoding="utf-8")


def _findmnt() -> list[dict[str, str]]:
    shown = subprocess.run(
        ["findmnt", "-J", "-l", "-b", "-o", "TARGET,SOURCE,FSTYPE,SIZE"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows: list[dict[str, Any]] = json.loads(shown.stdout)["filesystems"]
    return [
        r for r in rows
        if (r["fstype"] or "") in FILESYSTEMS and (r["source"] or "").startswith("/dev/")
        and "[" not in r["source"] and r["target"] not in SYSTEM_MOUNTS
    ]  # fmt: skip


def test_the_bundle_becomes_a_valid_inventory_of_this_machine(bundle: str) -> None:
    found = draft(bundle)
    assert found.problems == []
    document = dict(found.document, workload=WORKLOAD)
    inventory = rules.inventory_from(document)
    assert inventory.server.os == "linux"
    assert inventory.server.cpus == int(subprocess.check_output(["nproc"], text=True))
    meminfo = Path("/proc/meminfo").read_text(encoding="utf-8")
    total_kb = int(
        next(line.split()[1] for line in meminfo.splitlines() if line.startswith("MemTotal:"))
    )
    assert inventory.server.ram_gb == round(total_kb / 1024**2, 2)
    expected = {r["target"]: r for r in _findmnt()}
    assert {s.mount for s in inventory.storage} == set(expected)
    for entry in inventory.storage:
        row = expected[entry.mount]
        assert entry.name == row["source"].rsplit("/", 1)[-1]
        assert entry.filesystem == FILESYSTEMS[row["fstype"]]
        if row["size"]:
            assert entry.size_gb == round(int(row["size"]) / 1024**3, 2)
    assert found.provenance["server.cpus"].command == "nproc"
    assert inventory.current is not None and inventory.current.linux_sysctl
    release = Path("/etc/os-release").read_text(encoding="utf-8")
    os_id = next(line[3:].strip('"') for line in release.splitlines() if line.startswith("ID="))
    assert inventory.server.distribution == DISTRIBUTIONS.get(os_id, "other")
    kernel = subprocess.check_output(["uname", "-r"], text=True).strip()
    assert inventory.server.kernel is not None and kernel.startswith(inventory.server.kernel)
    assert found.provenance["server.kernel"].command == "uname -a"


def test_the_inventory_advises_with_current_values_known(bundle: str) -> None:
    document = dict(draft(bundle).document, workload=WORKLOAD)
    result = rules.advise(document)
    assert result["inventory"]["current"]["source"].startswith("collector ")
    statuses = {r["status"] for r in result["recommendations"]}
    # What the bundle did not read (the governor on a VM) is unknown; the rest is compared.
    assert statuses <= {"change", "unknown", "keep", "check"} and statuses & {"change", "keep"}
