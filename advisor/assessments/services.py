"""Assessment writes. Keyword-only, typed; views and serializers only call these."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import rules
from advisor.audit.services import describe, record
from advisor.core import results
from advisor.core.idempotency import (
    IdempotencyConflict,
    document_hash,
    insert_once,
    stored_under_key,
)
from advisor.core.selectors import organisation_for_user
from advisor.models import Assessment
from rules.validate import parse_stored

# Named here too: the form's and the fleets' writes catch and hash with them.
__all__ = ["IdempotencyConflict", "NoOrganisation", "document_hash"]


class NoOrganisation(PermissionError):
    """The user belongs to no organisation, so nothing can be stored for them."""


def assessment_from_result(result: rules.Result, **fields: Any) -> Assessment:
    """An unsaved assessment of `result`: the columns listed and filtered on are derived
    from it here, in one place; `fields` adds the owner, the idempotency key and the like."""
    document = result.document()
    server = result.inventory.server
    assessment = Assessment(
        name=result.inventory.name,
        hostname=server.hostname,
        os=server.os,
        os_version=server.os_version,
        cpus=server.cpus,
        ram_gb=server.ram_gb,
        rules_version=result.rules_version,
        inventory=document.inventory,
        **fields,
    )
    results.store(assessment, document)  # the result, its version and its counts
    return assessment


def _store(assessment: Assessment, user: User) -> Assessment:
    """Insert the assessment and its audit event (IntegrityError when its key is taken)."""
    assessment.save(force_insert=True)
    record(actor=user, organisation=assessment.organisation, action="assessment.create",
           target=describe(assessment))  # fmt: skip
    return assessment


def assessment_create(
    *, user: User, document: Any, idempotency_key: str | None = None
) -> tuple[Assessment, bool]:
    """Validate, advise and store. Returns (assessment, created).

    Raises `rules.InventoryError` for a bad document (nothing is stored),
    `IdempotencyConflict` when the key was used with another body, and `NoOrganisation`.
    With a key seen before and the same body, the stored assessment comes back unchanged.
    """
    org = organisation_for_user(user)
    if org is None:
        raise NoOrganisation("user belongs to no organisation")
    digest = document_hash(document)
    rows = Assessment.objects.filter(organisation=org)
    found = stored_under_key(rows, idempotency_key, digest)
    if found is not None:
        return found, False
    assessment = assessment_from_result(
        rules.advise_inventory(rules.inventory_from(document)),
        organisation=org,
        created_by=user,
        idempotency_key=idempotency_key or None,
        request_hash=digest,
    )
    with transaction.atomic():  # the assessment and its audit event, or neither
        stored, created = insert_once(rows, idempotency_key, digest,
                                      lambda: _store(assessment, user))  # fmt: skip
    if created:
        from advisor.webhooks.services import assessment_created

        assessment_created(stored)
    return stored, created


def reevaluation_hash(assessment: Assessment) -> str:
    """What a request to re-evaluate this assessment is, for its idempotency key."""
    return document_hash(["reevaluate", assessment.pk])


def assessment_reevaluate(
    *, user: User, assessment: Assessment, idempotency_key: str | None = None
) -> Assessment:
    """The same inventory advised again on the current rules, stored as a new assessment
    (the old one keeps the rules version it was made with). It is read as stored: a check
    across fields added since it was accepted does not refuse it (`parse_stored`). With a
    key, the new assessment is stored under it (a concurrent attempt with the same key
    gets the one stored first; the API looks the key up before calling this)."""
    result = rules.advise_inventory(parse_stored(assessment.inventory))
    digest = reevaluation_hash(assessment) if idempotency_key else ""
    fresh = assessment_from_result(
        result, organisation=assessment.organisation, created_by=user,
        request_hash=digest or document_hash(assessment.inventory),
        idempotency_key=idempotency_key or None,
    )  # fmt: skip

    def store() -> Assessment:
        fresh.save(force_insert=True)
        record(actor=user, organisation=assessment.organisation, action="assessment.reevaluate",
               target=describe(fresh),
               changes={"from": (assessment.pk, fresh.pk), "rules_version":
                        (assessment.rules_version, fresh.rules_version)})  # fmt: skip
        return fresh

    rows = Assessment.objects.filter(organisation=assessment.organisation)
    with transaction.atomic():
        stored, _ = insert_once(rows, idempotency_key, digest, store)
    return stored


def assessment_archive(*, user: User, assessment: Assessment) -> Assessment:
    """Hide the assessment from the lists; it is kept (and still opens by its address) for
    audit. Archiving twice changes nothing."""
    if assessment.archived_at is not None:
        return assessment
    with transaction.atomic():
        assessment.archived_at = timezone.now()
        assessment.save(update_fields=["archived_at"])
        record(actor=user, organisation=assessment.organisation, action="assessment.archive",
               target=describe(assessment), changes={"archived": (False, True)})  # fmt: skip
    return assessment


def assessment_rename(*, user: User, assessment: Assessment, name: str) -> Assessment:
    """Give the assessment another name, recorded in the audit trail with the old one in
    the same transaction. The same name again changes nothing."""
    old = assessment.name
    if name == old:
        return assessment
    with transaction.atomic():
        assessment.name = name
        assessment.save(update_fields=["name"])
        record(actor=user, organisation=assessment.organisation, action="assessment.rename",
               target=describe(assessment), changes={"name": (old, name)})  # fmt: skip
    return assessment
