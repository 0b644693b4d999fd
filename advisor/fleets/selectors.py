"""Fleet reads, scoped to the caller's organisation (another organisation's look absent):
progress, the server list with its filters, groups by identical advice, the settings the
fleet disagrees on, and drift against the previous run of the same host names."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Count, F, Field, Q, QuerySet
from django.db.models.expressions import Col
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from advisor.core.changes import settings_drift
from advisor.core.selectors import organisation_for_user
from advisor.core.text import without_control
from advisor.models import Fleet, FleetItem, FleetSummary

SORTS = {
    "position": ("position",),
    "host": ("host", "position"),
    "high": ("-high", "-medium", "position"),
    "medium": ("-medium", "-high", "position"),
    "low": ("-low", "position"),
    "status": ("status", "position"),
}
SEVERITIES = ("high", "medium", "low")
MAX_DRIFT_ROWS = 500


def fleets_for_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Fleet]:
    org = organisation_for_user(user)
    if org is None:
        return Fleet.objects.none()
    return Fleet.objects.filter(organisation=org)


def fleet_or_404(user: AbstractBaseUser | AnonymousUser, pk: int) -> Fleet:
    return get_object_or_404(fleets_for_user(user), pk=pk)


Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


def fleet_with_summary_or_404(user: AbstractBaseUser | AnonymousUser, pk: int) -> Fleet:
    """The fleet with its stored summary (none until it is done) in one query: the status
    answer that pollers call. Written as SQL because the ORM spends longer building and
    reading this join (about 1 ms of CPU a call, measured: most of the call) than
    PostgreSQL spends running it; each value goes through its field's converters, as the
    ORM would pass it."""
    org = organisation_for_user(user)
    db = connections[DEFAULT_DB_ALIAS]
    sql, fields = _status_query()
    with db.cursor() as cursor:
        cursor.execute(sql, [org.pk if org is not None else None, pk])
        row = cursor.fetchone()
    if row is None:
        raise Http404(f"No {Fleet._meta.object_name} matches the given query.")
    values = []
    for (_, column, converters), value in zip(fields, row, strict=True):
        if value is not None:
            for convert in db.ops.get_db_converters(column) + converters:
                value = convert(value, column, db)
        values.append(value)
    *columns, data = values
    fleet = Fleet.from_db(db.alias, [field.attname for field, _, _ in fields[:-1]], columns)
    stored = FleetSummary(fleet=fleet, data=data) if data is not None else None
    # As select_related leaves it: fleet.stored_summary is this row, or raises DoesNotExist.
    Fleet._meta.get_field("stored_summary").set_cached_value(fleet, stored)
    return fleet


def _status_query() -> tuple[str, list[tuple[Field[Any, Any], Col, list[Converter]]]]:
    """fleet_with_summary_or_404's SQL, and each column's field and the field's own
    converters (the backend's are asked on each call: they belong to a connection)."""
    db = connections[DEFAULT_DB_ALIAS]
    fields: list[Field[Any, Any]] = [*Fleet._meta.concrete_fields]
    fields.append(FleetSummary._meta.get_field("data"))
    read = []
    for field in fields:
        column = field.get_col(field.model._meta.db_table)
        read.append((field, column, field.get_db_converters(db)))
    names = ", ".join(f'"{column.alias}"."{column.target.column}"' for _, column, _ in read)
    sql = (
        f'SELECT {names} FROM "{Fleet._meta.db_table}" '
        f'LEFT JOIN "{FleetSummary._meta.db_table}" '
        f'ON "{FleetSummary._meta.db_table}"."fleet_id" = "{Fleet._meta.db_table}"."id" '
        f'WHERE "{Fleet._meta.db_table}"."organisation_id" = %s '
        f'AND "{Fleet._meta.db_table}"."id" = %s'
    )
    return sql, read


def status_counts(fleet: Fleet) -> dict[str, int]:
    """Servers by status: a finished fleet's as counted when it finished (final then),
    read from its row; a running one's counted over its servers."""
    if fleet.status == Fleet.Status.DONE and fleet.done_count is not None:
        done, failed = fleet.done_count, fleet.failed_count or 0
        return {"done": done, "failed": failed, "pending": max(fleet.total - done - failed, 0)}
    return count_servers(fleet.pk)


def count_servers(fleet_id: int) -> dict[str, int]:
    """Servers by status, counted over the fleet's servers."""
    return dict(
        FleetItem.objects.filter(fleet_id=fleet_id)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )


def progress(fleet: Fleet) -> dict[str, Any]:
    """done, failed, pending, rate (servers/s) and time left (s)."""
    counts = status_counts(fleet)
    done, failed = counts.get("done", 0), counts.get("failed", 0)
    pending = counts.get("pending", 0)
    end = fleet.finished_at or timezone.now()
    elapsed = (end - fleet.started_at).total_seconds() if fleet.started_at else 0.0
    rate = (done + failed) / elapsed if elapsed > 0 else None
    return {
        "status": fleet.status, "total": fleet.total, "done": done, "failed": failed,
        "pending": pending, "percent": round(100 * (done + failed) / max(fleet.total, 1)),
        "rate": round(rate, 1) if rate else None,
        "seconds_left": round(pending / rate) if rate and pending else (0 if not pending else None),
        "elapsed_seconds": round(elapsed, 1),
    }  # fmt: skip


def servers(
    fleet: Fleet, *, q: str = "", severity: str = "", group: str = "", status: str = "",
    sort: str = "position", positions: list[int] | None = None,
) -> QuerySet[FleetItem]:  # fmt: skip
    """The fleet's servers with their assessment's OS, CPUs and RAM (one join, the
    inventory's distribution and release name read by PostgreSQL, not loaded)."""
    items = FleetItem.objects.filter(fleet=fleet).defer("document", "settings").annotate(
        os=F("assessment__os"), os_version=F("assessment__os_version"),
        cpus=F("assessment__cpus"), ram_gb=F("assessment__ram_gb"),
        distribution=_server_text("distribution"), release_name=_server_text("os_release_name"),
    )  # fmt: skip
    if positions is not None:
        items = items.filter(position__in=positions)
    # PostgreSQL refuses NUL in text; no host name or file name holds a control character.
    q, group = without_control(q), without_control(group)
    if q:
        items = items.filter(Q(host__icontains=q) | Q(label__icontains=q))
    if severity in SEVERITIES:
        items = items.filter(**{f"{severity}__gt": 0})
    if group:
        items = items.filter(config_key=group)
    if status in FleetItem.Status.values:
        items = items.filter(status=status)
    return items.order_by(*SORTS.get(sort, SORTS["position"]))


def _server_text(key: str) -> KeyTextTransform:
    return KeyTextTransform(key, KeyTransform("server", "assessment__inventory"))


def groups(fleet: Fleet) -> list[dict[str, Any]]:
    """Servers that got the very same SAS configuration file, largest group first."""
    rows = (
        FleetItem.objects.filter(fleet=fleet, status=FleetItem.Status.DONE)
        .exclude(config_key="")
        .values("config_key", "config_name")
        .annotate(servers=Count("id"))
        .order_by("-servers", "config_key")
    )
    return [dict(row) for row in rows]


def disagreements(fleet: Fleet) -> list[dict[str, Any]]:
    """Each SAS setting the fleet's servers are advised different values for."""
    values: dict[str, Counter[str]] = defaultdict(Counter)
    done = FleetItem.objects.filter(fleet=fleet, status=FleetItem.Status.DONE)
    for settings in done.values_list("settings", flat=True).iterator(chunk_size=2000):
        for name, value in settings.items():
            values[name][value if value != "" else "on"] += 1
    return [
        {"setting": name, "values": counter.most_common()}
        for name, counter in sorted(values.items())
        if len(counter) > 1
    ]


def previous_run(fleet: Fleet) -> Fleet | None:
    if fleet.previous_id:
        return Fleet.objects.filter(pk=fleet.previous_id).first()
    return (
        Fleet.objects.filter(
            organisation_id=fleet.organisation_id, created_at__lt=fleet.created_at,
            status=Fleet.Status.DONE,
        ).order_by("-created_at").first()
    )  # fmt: skip


def drift(fleet: Fleet) -> dict[str, Any]:
    """Hosts in both runs whose recommended SAS settings differ, setting by setting."""
    before = previous_run(fleet)
    if before is None:
        return {"previous": None, "hosts": [], "compared": 0}

    def by_host(run: Fleet) -> dict[str, dict[str, Any]]:
        done = FleetItem.objects.filter(fleet=run, status=FleetItem.Status.DONE).exclude(host="")
        return dict(done.values_list("host", "settings"))

    old, new = by_host(before), by_host(fleet)
    shared = sorted(set(old) & set(new))
    hosts = []
    for host in shared:
        changed = settings_drift(old[host], new[host])
        if changed:
            hosts.append({"host": host, "changes": changed})
    return {
        "previous": before, "hosts": hosts[:MAX_DRIFT_ROWS], "changed": len(hosts),
        "compared": len(shared),
        "rules": (before.rules_version, fleet.rules_version),
    }  # fmt: skip
