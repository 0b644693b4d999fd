"""The Ansible playbooks: YAML that says what the recommendations say, and that
ansible-playbook --syntax-check (ansible-core, a dev dependency) accepts.

The collections the playbooks call (fedora.linux_system_roles, ibm.power_aix) come from
Ansible Galaxy, which the test machines cannot reach, and no PyPI or Debian package ships
them. The syntax check therefore runs against STUB collections written by this test: a role
and two modules that only declare their names, so that ansible resolves them. It checks the
playbooks' structure and keywords, not the modules' arguments; idempotence (a second run
reporting no change) rests on the modules' own compare-before-change, which is not run here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import rules
from rules.payloads import LinuxTunable, Tunable
from tests.conftest import example

ANSIBLE_PLAYBOOK = Path(sys.executable).with_name("ansible-playbook")
STUB_MODULE = '#!/usr/bin/python\n"""A stub for the syntax check only."""\n'


def advised(name: str) -> rules.Result:
    return rules.advise_inventory(rules.inventory_from(example(name)))


def test_the_linux_playbook_carries_every_tuned_setting() -> None:
    done = advised("linux-rhel9-sas94")
    (play,) = yaml.safe_load(done.artifacts["ansible_linux.yml"])
    assert play["become"] is True
    assert play["roles"] == ["fedora.linux_system_roles.kernel_settings"]
    sysctl = {i["name"]: i["value"] for i in play["vars"]["kernel_settings_sysctl"]}
    sysfs = {i["name"]: i["value"] for i in play["vars"]["kernel_settings_sysfs"]}
    assert sysctl == {"vm.dirty_ratio": "30", "vm.dirty_background_ratio": "10",
                      "vm.swappiness": "10"}  # fmt: skip
    assert play["vars"]["kernel_settings_transparent_hugepages"] == "never"
    assert "/sys/block/sdb/queue/read_ahead_kb" not in sysfs  # a member: the mount's device
    # every NVMe namespace: NVMe kernel names may change at boot (aws-ebs-nvme, unconfirmed)
    assert sysfs["/sys/block/nvme*/queue/scheduler"] == "none"
    assert sysfs["/sys/block/sde/queue/scheduler"] == "mq-deadline"
    tunables = [r for r in done.recommendations if isinstance(r.payload, LinuxTunable)]
    expected = sum(max(1, len(r.payload.devices)) for r in tunables if r.payload is not None
                   and isinstance(r.payload, LinuxTunable))  # fmt: skip
    assert len(sysctl) + len(sysfs) + 1 == expected


def test_the_aix_playbook_saves_once_changes_and_rolls_back() -> None:
    done = advised("aix73-sas94-1mb")
    plays = yaml.safe_load(done.artifacts["ansible_aix.yml"])
    tasks = plays[0]["tasks"]
    assert tasks[1]["ibm.power_aix.tunfile_mgmt"]["action"] == "save"
    assert tasks[1]["when"] == "not saved.stat.exists"
    changes: dict[str, dict[str, Any]] = {
        t["ibm.power_aix.tunables"]["component"]: t["ibm.power_aix.tunables"]
        for t in tasks if "ibm.power_aix.tunables" in t
    }  # fmt: skip
    wanted = {
        (r.payload.command, r.setting): r.value for r in done.recommendations
        if r.kind == "change" and isinstance(r.payload, Tunable)
    }  # fmt: skip
    got = {(c, k): v for c, t in changes.items() for k, v in t["tunable_params_with_value"].items()}
    assert got == wanted and got
    assert all(t["change_type"] == "both" and "restricted_tunables" not in t
               for t in changes.values())  # fmt: skip
    assert plays[1]["tags"] == ["never", "rollback"]
    assert plays[1]["tasks"][0]["ibm.power_aix.tunfile_mgmt"]["action"] == "restore"


def test_no_aix_playbook_before_the_modules_support_the_release() -> None:
    assert "ansible_aix.yml" not in advised("lemans-aix53-etl").artifacts  # AIX 5.3


def stub_collections(root: Path) -> Path:
    """Test-only stand-ins for the Galaxy collections: names, no behaviour."""
    role = root / "ansible_collections/fedora/linux_system_roles/roles/kernel_settings/tasks"
    role.mkdir(parents=True)
    (role / "main.yml").write_text("---\n[]\n")
    modules = root / "ansible_collections/ibm/power_aix/plugins/modules"
    modules.mkdir(parents=True)
    for name in ("tunables", "tunfile_mgmt"):
        (modules / f"{name}.py").write_text(STUB_MODULE)
    for namespace, name in (("fedora", "linux_system_roles"), ("ibm", "power_aix")):
        galaxy = root / f"ansible_collections/{namespace}/{name}/galaxy.yml"
        galaxy.write_text(f"namespace: {namespace}\nname: {name}\nversion: 0.0.0\n")
    return root


@pytest.mark.parametrize(
    ("example_name", "file"),
    [("linux-rhel9-sas94", "ansible_linux.yml"), ("linux-rhel8-sas94", "ansible_linux.yml"),
     ("aix73-sas94-1mb", "ansible_aix.yml"), ("power-smt8-spds53", "ansible_aix.yml"),
     ("aws-i4i-rhel9-sas94m8", "ansible_linux.yml"), ("sasgrid-gpfs-rhel8", "ansible_linux.yml"),
     ("linux-192core-4tb", "ansible_linux.yml")],
)  # fmt: skip
def test_ansible_playbook_syntax_check(example_name: str, file: str, tmp_path: Path) -> None:
    if not ANSIBLE_PLAYBOOK.exists():
        message = "ansible-playbook (ansible-core) is not installed"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    playbook = tmp_path / file
    playbook.write_text(advised(example_name).artifacts[file])
    env = {
        **os.environ, "ANSIBLE_COLLECTIONS_PATH": str(stub_collections(tmp_path / "c")),
        "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"), "ANSIBLE_HOME": str(tmp_path / "home"),
    }  # fmt: skip
    done = subprocess.run(
        [str(ANSIBLE_PLAYBOOK), "--syntax-check", "-i", "localhost,", str(playbook)],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"playbook: {playbook}" in done.stdout
