"""`{% last_verified assessment as last %}`: the assessment's newest kept verification and
its words, for the assessment page (assessments/_verify_last.html)."""

from __future__ import annotations

from typing import Any

from django import template

from advisor.assessments import verifications
from advisor.models import Assessment

register = template.Library()


@register.simple_tag
def last_verified(assessment: Assessment) -> dict[str, Any] | None:
    """None before the first verify; else the verification, "3 days ago" and its counts."""
    found = verifications.last_verification(assessment)
    if found is None:
        return None
    return {
        "verification": found,
        "ago": verifications.ago(found.created_at),
        "counts": verifications.counts_text(found),
    }
