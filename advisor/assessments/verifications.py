"""Verifications kept: each verify of an assessment (web or API) is stored with its date,
who ran it, its counts and its rows, so the assessment page says when it was last verified
and a history lists them.

Only a verify that judged something is stored: one refused (another host or OS, a bundle
too large or breaking the contract) or that read nothing of the advice is not. Each is
written with its audit event in one transaction: both or neither. What is stored is
bounded whatever the reading held: at most MAX_ROWS rows, each value cut to MAX_VALUE
characters, the draft's problems counted rather than kept. Reads are scoped as
assessments are: through `assessment_or_404`, so another organisation's is a 404.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.timesince import timesince

from advisor.audit.services import describe, record
from advisor.models import Assessment, Verification
from rules.verify import Verification as Checked

MAX_ROWS = 1000  # an advice holds some 30; a bound, not a limit anyone meets
MAX_VALUE = 512  # characters of a value kept (a contract value may hold 4096)
MAX_MEASURED = 64
COUNTS = ("non_compliant", "compliant", "not_verified")


def _cut(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_VALUE:
        return value[: MAX_VALUE - 1] + "…"
    return value


def stored_result(checked: Checked, measured: list[dict[str, Any]]) -> dict[str, Any]:
    """What a verification keeps of `checked`: its rows and host, each value bounded."""
    rows = [{key: _cut(value) for key, value in row.to_dict().items()}
            for row in checked.rows[:MAX_ROWS]]  # fmt: skip
    return {
        "rows": rows,
        "host": {key: _cut(value) for key, value in checked.host.to_dict().items()},
        "measured": measured[:MAX_MEASURED],
        "problems": len(checked.draft.problems),
        "unknown_commands": len(checked.draft.unknown),
    }


def verification_store(
    *,
    assessment: Assessment,
    user: User,
    checked: Checked,
    source: str,
    measured: list[dict[str, Any]],
) -> Verification:
    """Keep the verify (the caller has refused one that judged nothing: `unjudgeable`)."""
    counts = {key: checked.to_dict()[key] for key in COUNTS}
    with transaction.atomic():  # the verification and its audit event, or neither
        kept = Verification.objects.create(
            assessment=assessment,
            created_by=user,
            source=source,
            rules_version=_cut(checked.rules_version)[:32],
            result=stored_result(checked, measured),
            **counts,
        )
        record(actor=user, organisation=assessment.organisation, action="assessment.verify",
               target=describe(assessment), changes={"verification": (None, kept.pk),
               **{key: (None, value) for key, value in counts.items()}})  # fmt: skip
    return kept


def verifications_of(assessment: Assessment) -> QuerySet[Verification]:
    """The assessment's verifications, newest first, without their rows."""
    rows = Verification.objects.filter(assessment=assessment).select_related("created_by")
    return rows.defer("result")


def last_verification(assessment: Assessment) -> Verification | None:
    return verifications_of(assessment).first()


def verification_or_404(assessment: Assessment, pk: int) -> Verification:
    """One of the assessment's verifications (the assessment already scoped to the user)."""
    return get_object_or_404(Verification.objects.select_related("created_by"),
                             assessment=assessment, pk=pk)  # fmt: skip


def counts_text(verification: Verification) -> str:
    """ "2 not compliant, 20 compliant, 6 not verified"."""
    return (
        f"{verification.non_compliant} not compliant, {verification.compliant} compliant, "
        f"{verification.not_verified} not verified"
    )


def ago(when: datetime, now: datetime | None = None) -> str:
    """ "3 days ago", "5 minutes ago", "just now": Django's timesince, its largest unit."""
    words = timesince(when, now or timezone.now(), depth=1).replace("\xa0", " ")
    return "just now" if words == "0 minutes" else f"{words} ago"


def last_verified_text(verification: Verification, now: datetime | None = None) -> str:
    """ "Last verified 3 days ago: 2 not compliant, 20 compliant, 6 not verified"."""
    return f"Last verified {ago(verification.created_at, now)}: {counts_text(verification)}"
