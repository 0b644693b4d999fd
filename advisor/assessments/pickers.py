"""Pickers that list assessments (compare with, copy from) as a text field with
suggestions (`<input list>` and a `<datalist>`): the browser filters the suggestions as
one types, with no script, and an estate of 2,000 fleet servers is a few keystrokes away
instead of a drop-down of thousands. What comes back is a suggestion's label, a number or
a host name; `picked` reads each."""

from __future__ import annotations

import re

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.timezone import localtime

from advisor.assessments.selectors import assessment_rows

MAX_SUGGESTED = 200  # newest first; older ones by their number or host name
MAX_TYPED = 300
NUMBER = re.compile(r"(?:.*\(#|#)?(\d{1,18})\)?")


def suggestions(user: AbstractBaseUser | AnonymousUser, *, exclude: int | None = None) -> list[str]:
    """'sasgrid01 — 2026-11-25 21:03 (#12)', 'sas0042 — … · fleet #3 (#57)': one query."""
    listed = assessment_rows(user)
    if exclude is not None:
        listed = listed.exclude(pk=exclude)
    rows = listed.values_list("pk", "hostname", "name", "created_at", "fleet_item__fleet_id")
    out = []
    for pk, host, name, at, fleet in rows[:MAX_SUGGESTED]:
        named = f" “{name}”" if name else ""
        where = f" · fleet #{fleet}" if fleet else ""
        out.append(f"{host}{named} — {localtime(at):%Y-%m-%d %H:%M}{where} (#{pk})")
    return out


def picked(user: AbstractBaseUser | AnonymousUser, text: str) -> int | None:
    """The assessment a picker's text names: a suggestion ('… (#12)'), a number ('12',
    '#12') or a host name (its newest assessment); None when none of the user's does."""
    text = text.strip()[:MAX_TYPED]
    if not text:
        return None
    rows = assessment_rows(user)
    number = NUMBER.fullmatch(text)
    if number:
        found: int | None = (
            rows.filter(pk=int(number.group(1))).values_list("pk", flat=True).first()
        )
        return found
    return rows.filter(hostname__iexact=text).values_list("pk", flat=True).first()
