"""Assessment writes. Keyword-only, typed; views and serializers only call these."""

from __future__ import annotations

import hashlib
import json
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

import rules
from advisor.audit.services import describe, record
from advisor.core import results
from advisor.core.selectors import organisation_for_user
from advisor.models import Assessment, Fleet, Organisation
from rules.validate import parse_stored


class NoOrganisation(PermissionError):
    """The user belongs to no organisation, so nothing can be stored for them."""


class IdempotencyConflict(Exception):
    """The same Idempotency-Key was used before with a different body."""

    def __init__(self, stored: Assessment | Fleet) -> None:
        self.stored = stored
        kind = type(stored).__name__.lower()
        super().__init__(f"Idempotency-Key already used for {kind} {stored.pk}")


def document_hash(document: Any) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _insert_guard() -> AbstractContextManager[object]:
    """What a lone INSERT that may lose an idempotency race needs around it.

    In autocommit mode the INSERT is atomic by itself, and a failed one leaves nothing
    behind: BEGIN and COMMIT would only add two round trips. Inside a caller's transaction
    a savepoint keeps a lost race from breaking that transaction.
    """
    return transaction.atomic() if transaction.get_connection().in_atomic_block else nullcontext()


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


Keyed = TypeVar("Keyed", Assessment, Fleet)


def stored_under_key(model: type[Keyed], org: Organisation, key: str, digest: str) -> Keyed | None:
    """The row (an assessment or a fleet) stored before with this idempotency key, if any.

    Raises `IdempotencyConflict` when it was stored for another body."""
    found = model.objects.filter(organisation=org, idempotency_key=key).first()
    if found is not None and found.request_hash != digest:
        raise IdempotencyConflict(found)
    return found


def _insert(assessment: Assessment) -> tuple[Assessment, bool]:
    """Store a new assessment. (assessment, created) as `assessment_create` answers."""
    try:
        with _insert_guard():
            assessment.save(force_insert=True)
    except IntegrityError:
        # A concurrent retry with the same key won the race; answer as a retry would.
        key, org = assessment.idempotency_key, assessment.organisation
        found = stored_under_key(Assessment, org, key, assessment.request_hash) if key else None
        if found is None:
            raise
        return found, False
    return assessment, True


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
    found = stored_under_key(Assessment, org, idempotency_key, digest) if idempotency_key else None
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
        stored, created = _insert(assessment)
        if created:
            record(actor=user, organisation=org, action="assessment.create",
                   target=describe(stored))  # fmt: skip
    if created:
        from advisor.webhooks.services import assessment_created

        assessment_created(stored)
    return stored, created


def assessment_reevaluate(*, user: User, assessment: Assessment) -> Assessment:
    """The same inventory advised again on the current rules, stored as a new assessment
    (the old one keeps the rules version it was made with). It is read as stored: a check
    across fields added since it was accepted does not refuse it (`parse_stored`)."""
    result = rules.advise_inventory(parse_stored(assessment.inventory))
    fresh = assessment_from_result(
        result, organisation=assessment.organisation, created_by=user,
        request_hash=document_hash(assessment.inventory),
    )  # fmt: skip
    with transaction.atomic():
        fresh.save(force_insert=True)
        record(actor=user, organisation=assessment.organisation, action="assessment.reevaluate",
               target=describe(fresh),
               changes={"from": (assessment.pk, fresh.pk), "rules_version":
                        (assessment.rules_version, fresh.rules_version)})  # fmt: skip
    return fresh


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
