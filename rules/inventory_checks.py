"""The contract's checks across fields: unique mounts, paths that fit the OS, a Linux
distribution on Linux only, a workload mix that sums to one. Each returns (path, message)
pairs; `rules.inventory` attaches them to its declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.kinds import is_windows_path

if TYPE_CHECKING:
    from rules.inventory import Inventory, Mix, Server, Storage

MIX_TOLERANCE = 0.01
# Binary floats put 1.01 − 1 just above 0.01; this slack (far below any share a person
# types) lets 0.99, 1.01, 0.33 + 0.33 + 0.34 and ten shares of 0.1 through, and 1.011 not.
_MIX_FLOAT_SLACK = 1e-9


def unique_mounts(entries: list[Storage | None], path: str) -> list[tuple[str, str]]:
    seen: dict[str, int] = {}
    found: list[tuple[str, str]] = []
    for i, entry in enumerate(entries):
        if entry is None:
            continue
        if entry.mount in seen:
            found.append((f"{path}[{i}].mount", f"duplicates {path}[{seen[entry.mount]}].mount"))
        seen.setdefault(entry.mount, i)
    return found


def paths_fit_the_os(inv: Inventory, path: str) -> list[tuple[str, str]]:
    """Windows paths on Windows only, POSIX paths everywhere else; Windows paths compare
    without regard to case, so two that differ only in case are the same mount."""
    windows, found = inv.server.os == "windows", []
    seen: dict[str, int] = {}
    for s in inv.storage:
        if windows != is_windows_path(s.mount):
            want = (
                "a Windows path (D:\\saswork or \\\\server\\share)"
                if windows
                else ("an absolute POSIX path (/saswork)")
            )
            found.append((f"{s.path}.mount", f"must be {want} for server.os {inv.server.os}"))
        elif windows and s.mount.lower().rstrip("\\") in seen:
            other = seen[s.mount.lower().rstrip("\\")]
            found.append((f"{s.path}.mount", f"duplicates storage[{other}].mount"))
        seen.setdefault(s.mount.lower().rstrip("\\"), s.index)
    return found


def linux_only(server: Server, path: str) -> list[tuple[str, str]]:
    if server.distribution is not None and server.os != "linux":
        return [(f"{path}.distribution", f"is for Linux; server.os is {server.os}")]
    return []


def mix_sums_to_one(mix: Mix, path: str) -> list[tuple[str, str]]:
    total = mix.etl + mix.summary + mix.analytics + mix.spds_query
    if abs(total - 1.0) > MIX_TOLERANCE + _MIX_FLOAT_SLACK:
        return [(path, f"fractions must sum to 1 (±{MIX_TOLERANCE:g}), got {total:.4g}")]
    return []
