"""The read-ahead a script sets from a mount (linux.readahead, linux.nfs_readahead): the
device the mount comes from, or its NFS client. linux_tuning.sh (`mount_item`) and
ansible_linux.yml (ansible_readahead.sh) read the same steps from here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from rules.model import LINUX_SCRIPT
from rules.payloads import Directories

if TYPE_CHECKING:
    from rules.engine import Decisions
    from rules.model import Recommendation


class MountStep(NamedTuple):
    mount: str
    kb: str
    mode: str  # at-least ('>' in the value) or set
    kind: str  # nfs or block


def mount_steps(result: Decisions) -> Iterator[tuple[Recommendation, list[MountStep]]]:
    """Each read-ahead recommendation with its steps, one per mount, in rule order."""
    for rec in result.for_target(LINUX_SCRIPT):
        if rec.kind == "change" and isinstance(rec.payload, Directories):
            kind = "nfs" if rec.setting.endswith(":nfs") else "block"
            mode = "at-least" if rec.value.startswith(">") else "set"
            kb = rec.value.lstrip(">")
            yield rec, [MountStep(m, kb, mode, kind) for m in rec.payload.paths]
