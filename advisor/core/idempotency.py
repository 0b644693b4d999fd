"""Safe retries of creates: a row stored under a client's idempotency key with the hash of
the request that made it.

Each model that takes a key (assessments, fleets, logs, reports, webhooks) has the two
columns `idempotency_key` (null when none was given) and `request_hash`, and a unique
constraint on the key within its scope (the organisation; an assessment's reports for a
report). A request that comes again with the same key and the same body finds the row its
first attempt stored; the same key with another body is an `IdempotencyConflict`. Two
attempts at once race on the constraint: the loser finds the winner's row and answers as
a retry would (`insert_once`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from django.db import IntegrityError, models, transaction

M = TypeVar("M", bound=models.Model)


class IdempotencyConflict(Exception):
    """The same idempotency key was used before with a different request."""

    def __init__(self, stored: models.Model) -> None:
        self.stored = stored
        kind = type(stored).__name__.lower()
        super().__init__(f"Idempotency-Key already used for {kind} {stored.pk}")


def document_hash(document: Any) -> str:
    """SHA-256 of a JSON document in canonical form (sorted keys, no spaces): two bodies
    that differ only in key order or spacing are the same request."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


class HashedChunks:
    """The chunks of a body as they stream past, hashed on the way (a body too large to
    hold is hashed without being held); `hexdigest` once they are all read. `parts` are
    hashed first: what else makes the request (a name given in the query)."""

    def __init__(self, chunks: Iterable[bytes], *parts: str) -> None:
        self.chunks = chunks
        self.digest = hashlib.sha256(document_hash(list(parts)).encode())

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.chunks:
            self.digest.update(chunk)
            yield chunk

    def drain(self) -> None:
        """Read the rest of the body, for its hash only."""
        for _ in self:
            pass

    def hexdigest(self) -> str:
        return self.digest.hexdigest()


def insert_guard() -> AbstractContextManager[object]:
    """What a lone INSERT that may lose an idempotency race needs around it.

    In autocommit mode the INSERT is atomic by itself, and a failed one leaves nothing
    behind: BEGIN and COMMIT would only add two round trips. Inside a caller's transaction
    a savepoint keeps a lost race from breaking that transaction.
    """
    return transaction.atomic() if transaction.get_connection().in_atomic_block else nullcontext()


def stored_under_key(rows: models.QuerySet[M], key: str | None, digest: str) -> M | None:
    """The row of `rows` (one scope: an organisation's, an assessment's) stored before
    with this key, if any; None without a key. Raises `IdempotencyConflict` when it was
    stored for another request."""
    if not key:
        return None
    found = rows.filter(idempotency_key=key).first()
    if found is not None and getattr(found, "request_hash", None) != digest:
        raise IdempotencyConflict(found)
    return found


def insert_once(
    rows: models.QuerySet[M], key: str | None, digest: str | Callable[[], str],
    insert: Callable[[], M],
) -> tuple[M, bool]:  # fmt: skip
    """(row, True) when `insert` stores it; (the row stored first, False) when `insert`
    loses the race to a concurrent attempt with the same key.

    Call it once `stored_under_key` found nothing. `insert` stores the row (with
    `idempotency_key=key` and `request_hash=digest`) and raises IntegrityError when the
    key is taken: then that attempt's row is the answer, as a retry would get it (or
    IdempotencyConflict when it was for another request). `digest` may be a callable for a
    body hashed as `insert` reads it (HashedChunks.hexdigest)."""
    try:
        with insert_guard():
            return insert(), True
    except IntegrityError:
        found = stored_under_key(rows, key, digest() if callable(digest) else digest)
        if found is None:
            raise
        return found, False


def keep_key(rows: models.QuerySet[M], row: M, key: str | None, digest: str) -> M:
    """For a request answered with a row it may not have made (a report it joined while
    one was being built): give `row` the key when it has none, so that a retry finds it.
    The row the key is on, `row` unless a concurrent request with the key was first."""
    if not key or getattr(row, "idempotency_key", None) is not None:
        return row
    try:
        with transaction.atomic():
            rows.filter(pk=row.pk, idempotency_key__isnull=True).update(
                idempotency_key=key, request_hash=digest
            )
    except IntegrityError:
        return stored_under_key(rows, key, digest) or row
    return row
