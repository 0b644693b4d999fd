"""linux_tuning.sh test helpers: a fake Linux in a temporary directory.

The fake root holds /etc/os-release, /proc/sys/vm values, /sys/kernel/mm's THP choice list
(`[always] madvise never`, as the kernel writes it), per-device queue files and per-CPU
cpufreq governors. Stubs first on PATH stand in for `uname`, `id` and (when asked for)
`tuned-adm`, logging each call and whether a rollback.sh existed at that moment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import rules
from tests.conftest import example

SHELLS = [s for s in ("dash", "bash", "ksh") if shutil.which(s)]
OS_RELEASE = 'NAME="Red Hat Enterprise Linux"\nID="rhel"\nVERSION_ID="{version}"\n'
VALUES = {
    "proc/sys/vm/dirty_ratio": "20",
    "proc/sys/vm/dirty_background_ratio": "10",
    "proc/sys/vm/swappiness": "60",
    "sys/kernel/mm/transparent_hugepage/enabled": "[always] madvise never",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "powersave",
    "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor": "powersave",
}
NVME_SCHEDULERS = "[none] mq-deadline kyber bfq"
DISK_SCHEDULERS = "mq-deadline kyber [bfq] none"

STUB = """#!{python}
import glob, json, os, sys
prog, args = os.path.basename(sys.argv[0]), sys.argv[1:]
backups = glob.glob(os.path.join(os.environ["LINUX_TUNING_BACKUP_ROOT"], "*", "rollback.sh"))
with open(os.environ["STUB_LOG"], "a") as log:
    log.write(json.dumps({{"prog": prog, "argv": args, "backup": bool(backups)}}) + "\\n")
state = os.environ["STUB_STATE"]
if prog == "uname":
    print(os.environ.get("STUB_UNAME", "Linux"))
elif prog == "id":
    print(os.environ.get("STUB_UID", "0"))
elif prog == "tuned-adm":
    active = open(state).read().strip() if os.path.exists(state) else ""
    if args[:1] == ["active"]:
        print(f"Current active profile: {{active}}" if active else "No current active profile.")
    elif args[:1] == ["profile"]:
        open(state, "w").write(args[1])
    elif args[:1] == ["off"]:
        open(state, "w").write("")
    elif args[:1] == ["verify"]:
        print("Verification succeeded, current system settings match the preset profile.")
"""


class FakeLinux:
    def __init__(self, tmp: Path, *, tuned: bool = True, version: str = "9.4") -> None:
        self.tmp, self.root = tmp, tmp / "root"
        self.backups, self.log, self.state = tmp / "backups", tmp / "log.jsonl", tmp / "active"
        self.bin = tmp / "bin"
        self.bin.mkdir(parents=True)
        for prog in ("uname", "id", *(("tuned-adm",) if tuned else ())):
            (self.bin / prog).write_text(STUB.format(python=sys.executable))
            (self.bin / prog).chmod(0o755)
        self.state.write_text("virtual-guest")
        self.write("etc/os-release", OS_RELEASE.format(version=version))
        for directory in ("etc/sysctl.d", "etc/udev/rules.d", *(("etc/tuned",) if tuned else ())):
            (self.root / directory).mkdir(parents=True)
        for path, value in VALUES.items():
            self.write(path, value)
        for device in ("nvme0n1", "nvme1n1", "sdb", "sdc", "sdd", "sde"):
            chosen = NVME_SCHEDULERS if device.startswith("nvme") else DISK_SCHEDULERS
            self.write(f"sys/block/{device}/queue/read_ahead_kb", "128")
            self.write(f"sys/block/{device}/queue/scheduler", chosen)

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text + ("" if text.endswith("\n") else "\n"))

    def value(self, path: str) -> str:
        text = (self.root / path).read_text().strip()
        return text.split("[", 1)[1].split("]", 1)[0] if "[" in text else text

    def snapshot(self) -> dict[str, str]:
        """Every file and directory under the root, with the value each file holds (the
        chosen entry of a kernel choice list), and the active tuned profile."""
        found = {"tuned active": self.state.read_text().strip()}
        for path in sorted(self.root.rglob("*")):
            name = str(path.relative_to(self.root))
            found[name] = "<dir>" if path.is_dir() else self.value(name)
        return found

    def calls(self) -> list[dict[str, object]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def run(
        self, script: Path, *args: str, shell: str = "dash", **env: str
    ) -> subprocess.CompletedProcess[str]:
        environment = {
            "PATH": f"{self.bin}:/usr/bin:/bin",
            "LINUX_TUNING_SYSROOT": str(self.root),
            "LINUX_TUNING_BACKUP_ROOT": str(self.backups),
            "LINUX_TUNING_TUNED_ROOT": str(self.root / "etc/tuned"),
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            **env,
        }
        return subprocess.run(
            [shell, str(script), *args], capture_output=True, text=True, env=environment,
            cwd=self.tmp, timeout=60,
        )  # fmt: skip

    def rollback(self, shell: str = "dash") -> subprocess.CompletedProcess[str]:
        (script,) = self.backups.glob("*/rollback.sh")
        return self.run(script, shell=shell)


def generated(name: str, tmp: Path) -> tuple[Path, dict[str, str]]:
    """linux_tuning.sh of examples/NAME.json, written to tmp, and all the files."""
    files = rules.advise_inventory(rules.inventory_from(example(name))).artifacts
    script = tmp / "linux_tuning.sh"
    script.write_text(files["linux_tuning.sh"])
    os.chmod(script, 0o755)
    return script, files
