"""The server as people name it, for templates: `{{ inventory.server|os_name }}`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from rules.derive.labels import os_name as _os_name

register = template.Library()


@register.filter
def os_name(server: Mapping[str, Any] | None) -> str:
    """'Debian 12', 'RHEL 8.6', 'Windows Server 2022' from an inventory's server object."""
    if not isinstance(server, Mapping):
        return ""
    return _os_name(
        str(server.get("os", "")),
        str(server.get("os_version", "")),
        server.get("distribution"),
        server.get("os_release_name"),
    )


MEASURED = ("measured_mb_s", "measured_read_mb_s", "measured_write_mb_s")


@register.filter
def measured_mounts(inventory: Mapping[str, Any] | None) -> list[str]:
    """The mount points whose throughput was measured on the server (not estimated)."""
    storage = inventory.get("storage") if isinstance(inventory, Mapping) else None
    return [
        str(entry.get("mount", ""))
        for entry in storage or []
        if isinstance(entry, Mapping) and any(entry.get(k) is not None for k in MEASURED)
    ]
