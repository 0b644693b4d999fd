"""The assessment list's filters, kept in the address: the host name, the source (typed
in the form, read from a server by the collector, or one server of a fleet) and the
fleet. Fleet servers are left out unless asked for: an estate of 2,000 would bury the
handful of servers someone described by hand; the list says how many it left out.

Every value is bounded and checked; a bad one is a message naming the parameter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page
from django.db.models import Q, QuerySet
from django.db.models.fields.json import KeyTextTransform, KeyTransform

from advisor.assessments.selectors import assessment_rows
from advisor.core.text import without_control
from advisor.fleets.selectors import fleets_for_user
from advisor.models import Assessment
from rules.derive import labels

SOURCES = {
    "": "typed or read (fleet servers left out)",
    "typed": "typed in the form",
    "read": "read from a server",
    "fleet": "fleet servers",
    "all": "all, fleet servers too",
}
MAX_QUERY = 100
MAX_FLEETS_LISTED = 50


@dataclass(frozen=True)
class Filters:
    query: str = ""
    source: str = ""
    fleet: int | None = None
    error: str = ""

    def params(self) -> dict[str, str]:
        """The filters as they go back into links (the page number aside)."""
        out = {"q": self.query, "source": self.source, "fleet": str(self.fleet or "")}
        return {key: value for key, value in out.items() if value}


def filters(user: AbstractBaseUser | AnonymousUser, params: Mapping[str, Any]) -> Filters:
    query = without_control(str(params.get("q", "")).strip())[:MAX_QUERY]
    source = str(params.get("source", ""))
    if source not in SOURCES:
        choices = ", ".join(s for s in SOURCES if s)
        return Filters(query, error=f"source: choose one of {choices} (not {source[:40]!r}).")
    raw = str(params.get("fleet", "")).strip()
    if not raw:
        return Filters(query, source)
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        return Filters(query, source, error=f"fleet: a fleet's number, like 12 (not {raw[:40]!r}).")
    if not fleets_for_user(user).filter(pk=int(raw)).exists():
        return Filters(query, source, error=f"fleet: your organisation has no fleet #{int(raw)}.")
    return Filters(query, source or "fleet", int(raw))


def rows(user: AbstractBaseUser | AnonymousUser, found: Filters) -> QuerySet[Assessment]:
    """The rows, each with the two inventory fields that name its OS as its vendor does
    (read by the database for a page's rows only: the paginator reads keys first)."""
    listed = assessment_rows(user, hostname=found.query).annotate(
        distribution=_server_text("distribution"), release_name=_server_text("os_release_name")
    )
    if found.fleet is not None:
        return listed.filter(fleet_item__fleet_id=found.fleet)
    return listed.filter(source_filter(found.source))


def _server_text(key: str) -> KeyTextTransform:
    return KeyTextTransform(key, KeyTransform("server", "inventory"))


def named(page: Page[Assessment]) -> Page[Assessment]:
    """Each row of the page with `os_name`: 'RHEL 9.4', 'Windows Server 2022'."""
    for row in page.object_list:
        row.os_name = labels.os_name(  # type: ignore[attr-defined]
            row.os, row.os_version, getattr(row, "distribution", None),
            getattr(row, "release_name", None),
        )  # fmt: skip
    return page


def source_filter(source: str) -> Q:
    read = Q(inventory__has_key="current") & ~Q(inventory__current=None)
    alone = Q(fleet_item__isnull=True)
    return {
        "": alone, "typed": alone & ~read, "read": alone & read,
        "fleet": Q(fleet_item__isnull=False), "all": Q(),
    }[source]  # fmt: skip


def fleet_servers_left_out(user: AbstractBaseUser | AnonymousUser, found: Filters) -> int:
    """Fleet servers the default list leaves out (matching the host name searched)."""
    if found.source or found.fleet is not None or found.error:
        return 0
    return assessment_rows(user, hostname=found.query).filter(fleet_item__isnull=False).count()


def fleet_choices(user: AbstractBaseUser | AnonymousUser, found: Filters) -> list[tuple[int, str]]:
    """The newest fleets to filter by, and the one chosen even when it is older."""
    fleets = fleets_for_user(user).only("pk", "name", "total")
    listed = list(fleets[:MAX_FLEETS_LISTED])
    if found.fleet is not None and found.fleet not in {f.pk for f in listed}:
        listed += list(fleets.filter(pk=found.fleet))
    return [(f.pk, f"#{f.pk} {f.name or 'unnamed'} ({f.total} servers)") for f in listed]
