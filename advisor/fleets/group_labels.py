"""Groups of identical advice named by what sets them apart ("CPUCOUNT 4, MEMSIZE 8G ·
12 servers") instead of the hash of their configuration file: the settings whose values
differ between the groups, the ones that split the fleet most ways first, a few at most."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.models import Fleet, FleetItem

MAX_NAMED = 3  # settings named in a group's label; the disagreements table has them all
CHUNK = 2000


def labelled(fleet: Fleet, groups: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each group with `differs` ([setting, value] pairs) and `label`."""
    settings = _settings_by_group(fleet, {g["config_key"] for g in groups})
    named = _differing(list(settings.values()))
    out = []
    for group in groups:
        mine = settings.get(group["config_key"], {})
        differs = [[name, _shown(mine.get(name))] for name in named]
        n = group["servers"]
        head = ", ".join(f"{name} {value}" for name, value in differs) or "Same advice"
        out.append({**group, "differs": differs,
                    "label": f"{head} · {n} server{'s' if n != 1 else ''}"})  # fmt: skip
    return out


def _settings_by_group(fleet: Fleet, keys: set[str]) -> dict[str, dict[str, str]]:
    """One server's recommended settings per group: a group is one configuration file, so
    any of its servers speaks for it."""
    found: dict[str, dict[str, str]] = {}
    rows = FleetItem.objects.filter(
        fleet=fleet, status=FleetItem.Status.DONE, config_key__in=keys
    ).values_list("config_key", "settings")
    for key, values in rows.iterator(chunk_size=CHUNK):
        found.setdefault(key, values if isinstance(values, dict) else {})
        if len(found) == len(keys):
            break
    return found


def _differing(per_group: list[dict[str, str]]) -> list[str]:
    """The settings whose values are not the same in every group (those with the most
    values kept), in name order."""
    names = sorted({name for values in per_group for name in values})
    spread = []
    for name in names:
        values = {values.get(name) for values in per_group}
        if len(values) > 1:
            spread.append((-len(values), name))
    return sorted(name for _, name in sorted(spread)[:MAX_NAMED])


def _shown(value: str | None) -> str:
    if value is None:
        return "not set"
    return value if value != "" else "on"
