"""Property tests for Linux and Windows: any valid inventory of either advises without error;
every linux_tuning.sh parses in sh and passes shellcheck; tuned.conf carries only options
of the plugins it names; no Linux output names a scheduler sysctl; no Windows output names
its storage by a POSIX path."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from configparser import ConfigParser
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from tests.rules.fitting import fit_filesystems
from tests.rules.test_properties import OS_VERSIONS, inventory, posix_mount, windows_mount

PLUGIN_OPTIONS = {
    "main": {"summary", "include"},
    "cpu": {"governor"},
    "vm": {
        "transparent_hugepages",
        "dirty_ratio",
        "dirty_background_ratio",
        "dirty_bytes",
        "dirty_background_bytes",
        "drop",
    },
    "sysctl": {
        "vm.dirty_ratio",
        "vm.dirty_background_ratio",
        "vm.dirty_bytes",
        "vm.dirty_background_bytes",
        "vm.swappiness",
        "drop",
    },
    "disk": {"type", "devices", "readahead", "elevator"},
}
LINUX = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def on(draw: st.DrawFn, os_name: str) -> dict[str, Any]:
    document = draw(inventory())
    server = {k: v for k, v in document["server"].items() if k not in ("distribution", "kernel")}
    release = draw(st.sampled_from(OS_VERSIONS[os_name]))
    if os_name == "linux":
        server |= draw(st.fixed_dictionaries({
            "distribution": st.sampled_from(["rhel", "ol", "sles", "ubuntu", "other"]),
            "kernel": st.sampled_from(["3.10.0", "4.18.0", "5.14.0", "6.8.0"]),
        }))  # fmt: skip
    move = windows_mount if os_name == "windows" else posix_mount
    entries = [{**e, "mount": move(posix_mount(e["mount"]))} for e in document["storage"]]
    server |= {"os": os_name, "os_version": release}
    return fit_filesystems({**document, "server": server, "storage": entries})


def sections(profile: str) -> ConfigParser:
    parser = ConfigParser(interpolation=None, comment_prefixes=("#",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(profile)
    return parser


@LINUX
@given(on("linux"))
def test_any_linux_inventory_advises_and_its_files_hold(document: dict[str, Any]) -> None:
    files = rules.advise(document)["artifacts"]
    profile = sections(files["tuned.conf"])
    for name in profile.sections():
        plugin = "disk" if name.startswith("disk") else name
        assert set(profile[name]) <= PLUGIN_OPTIONS[plugin], name
    for text in files.values():
        assert "kernel.sched_" not in text
    script = files["linux_tuning.sh"]
    done = subprocess.run(["sh", "-n"], input=script, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@LINUX
@given(on("windows"))
def test_any_windows_inventory_advises_without_posix_storage_paths(
    document: dict[str, Any],
) -> None:
    result = rules.advise(document)
    assert not any(name.endswith(".sh") for name in result["artifacts"])
    text = "\n".join(result["artifacts"].values())
    for entry in document["storage"]:
        assert posix_mount(entry["mount"]) + "\n" not in text
        assert re.search(r"\s" + re.escape(posix_mount(entry["mount"])) + r"\s", text) is None


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(on("linux"))
def test_any_linux_script_passes_shellcheck(document: dict[str, Any]) -> None:
    if not shutil.which("shellcheck"):
        message = "shellcheck is not installed"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    script = rules.advise(document)["artifacts"]["linux_tuning.sh"]
    done = subprocess.run(["shellcheck", "-s", "sh", "-"], input=script, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout
