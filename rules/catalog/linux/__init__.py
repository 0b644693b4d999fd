"""The Linux rules: virtual memory, block devices, file systems, limits and the CPU governor.
Every OS setting goes to the tuned child profile (tuned.conf), which linux_tuning.sh
installs; read-only checks go to the script."""

from __future__ import annotations

from rules.catalog.linux import disks, shared, system, vm
from rules.model import Rule

RULES: tuple[Rule, ...] = (*vm.RULES, *disks.RULES, *system.RULES, *shared.RULES)
