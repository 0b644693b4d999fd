"""Writes for SAS logs: read one as it streams in, diagnose it, store the analysis; tie a
stored log to an assessment (which re-diagnoses it against that server's advice).

A log is untrusted text: read line by line (never held whole), at most
settings.MAX_LOG_BYTES, parsed and never executed; each step is diagnosed as it is read and
not kept, and the stored analysis has a bounded size whatever the log (rules.logs.digest).
A log that is not text, or too large, is refused with a LogError naming the file; nothing
is stored for it.

A log up to settings.LOG_INLINE_BYTES is diagnosed in its request. A larger one is written
to the default storage as it streams in (never held whole), stored queued, and diagnosed
on a worker (advisor/logs/tasks.py, log_analyse); its upload is deleted once it is done or
failed. Retries, time limits and the sweep are advisor/core/lifecycle.py's.
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from advisor.core.results import result_of
from advisor.core.text import storable, without_control
from advisor.logs import spooling
from advisor.models import Assessment, JobLog, Organisation
from rules.logs import analyse_lines
from rules.logs.analysis import options
from rules.model import SAS_CONFIG

# The SAS configuration files a recommendation may have gone to, whatever the rules of
# its day named them (sasv9.cfg on 2026.11.0's SAS 9.1.3).
SAS_CONFIG_FILES = ("sasv9_local.cfg", "sasv9_append.cfg", "sasv9.cfg")
MAX_NAME_CHARS = 255  # JobLog.name's column
# The row's idempotency fields, known once the body is read (advisor.core.idempotency).
Keyed = Callable[[], dict[str, Any]]

SNIFF_BYTES = 8192  # a NUL byte this early means a binary file, not a log
MAX_CARRY = 64 * 1024


class LogError(ValueError):
    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message

    def __reduce__(self) -> tuple[type[LogError], tuple[str, str]]:
        # Rebuilt as itself where a worker's failure is reported (Celery pickles it).
        return LogError, (self.name, self.message)


class Checked:
    """The chunks of a byte stream as they come; refused past `limit` bytes or on binary
    input. `size` counts the bytes passed so far."""

    def __init__(self, name: str, chunks: Iterable[bytes], limit: int) -> None:
        self.name, self.chunks, self.limit, self.size = name, chunks, limit, 0

    def __iter__(self) -> Iterator[bytes]:
        for raw in self.chunks:
            if self.size < SNIFF_BYTES and b"\0" in raw[: SNIFF_BYTES - self.size]:
                raise LogError(self.name, "is a binary file, not a SAS log")
            self.size += len(raw)
            if self.size > self.limit:
                raise LogError(self.name, f"is larger than {_size(self.limit)}")
            yield raw


def lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """The lines of a byte stream, decoded. A line longer than MAX_CARRY without a line end
    is cut there (the parser cuts it shorter still), so memory stays bounded whatever the
    input."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    carry = ""
    for raw in chunks:
        parts = (carry + decoder.decode(raw)).split("\n")
        carry = parts.pop()
        yield from parts
        if len(carry) > MAX_CARRY:
            yield carry
            carry = ""
    carry += decoder.decode(b"", final=True)
    if carry:
        yield carry


def _size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit >= mib else f"{limit:,} bytes"


def recommended_options(assessment: Assessment | None) -> dict[str, str]:
    """The SAS configuration options the assessment recommends, by name."""
    if assessment is None:
        return {}
    found: dict[str, str] = {}
    result = result_of(assessment)
    files = (SAS_CONFIG, result.inventory.get("config_file"), *SAS_CONFIG_FILES)
    for rec in result.recommendations:
        if rec.kind == "change" and rec.target in files:
            found.setdefault(rec.setting.upper(), rec.value)
    return found


def analysis_of(text: Iterable[str], assessment: Assessment | None) -> dict[str, Any]:
    cpus = int(assessment.cpus) if assessment is not None else 0
    return analyse_lines(text, cpus=cpus, recommended=recommended_options(assessment))


def figures(analysis: dict[str, Any]) -> dict[str, Any]:
    """The row's fields an analysis fills."""
    header = analysis["header"]
    return {
        "sas_version": (header["version"] or "")[:32],
        "platform": (header["platform"] or "")[:200],
        "step_count": analysis["step_count"],
        "job_seconds": analysis["job_seconds"],
        "saving_seconds": analysis["what_if"]["saving_seconds"],
        "findings_count": analysis["findings_total"],  # the ones shown and those counted
        "analysis": analysis,
    }


def log_create(
    *,
    organisation: Organisation,
    user: User | None,
    name: str,
    chunks: Iterable[bytes],
    assessment: Assessment | None = None,
    keyed: Keyed | None = None,
) -> JobLog:
    """Parse and store one log now, done; LogError (nothing stored) when it cannot be
    read. Requests call log_submit, which sends a large log to a worker instead."""
    stream = Checked(name or "log", chunks, settings.MAX_LOG_BYTES)
    analysis = analysis_of(lines(stream), assessment)
    if stream.size == 0:
        raise LogError(name or "log", "is empty")
    row = _new_row(organisation, user, name, assessment, size_bytes=stream.size)
    row.status, row.finished_at = JobLog.Status.DONE, timezone.now()
    for field, value in figures(analysis).items():
        setattr(row, field, value)
    _stamp(row, keyed)
    with transaction.atomic():
        row.save()
    return row


def log_submit(
    *,
    organisation: Organisation,
    user: User | None,
    name: str,
    chunks: Iterable[bytes],
    assessment: Assessment | None = None,
    keyed: Keyed | None = None,
) -> JobLog:
    """Take one log as it streams in: up to settings.LOG_INLINE_BYTES it is diagnosed now
    and stored done (log_create); a larger one is written to the default storage as it
    comes and stored queued for a worker. LogError, and nothing stored, when refused.
    `keyed` gives the idempotency fields once the body is read (IntegrityError, and
    nothing stored, when its key was taken meanwhile)."""
    stream = Checked(name or "log", chunks, settings.MAX_LOG_BYTES)
    rest = iter(stream)
    head, more = _head(rest, settings.LOG_INLINE_BYTES)
    if not more:
        return log_create(
            organisation=organisation, user=user, name=name, chunks=head, assessment=assessment,
            keyed=keyed,
        )  # fmt: skip
    row = _new_row(organisation, user, name, assessment, size_bytes=0)
    spooling.spool(row, itertools.chain(head, rest))
    row.size_bytes = stream.size
    _stamp(row, keyed)
    try:
        with transaction.atomic():
            row.save()
            enqueue(row.pk)
    except BaseException:
        spooling.forget(row)  # no row, then no file either
        raise
    return row


def _new_row(
    organisation: Organisation, user: User | None, name: str, assessment: Assessment | None,
    size_bytes: int,
) -> JobLog:  # fmt: skip
    """A log not saved yet, queued (the default) until it is diagnosed."""
    return JobLog(organisation=organisation, assessment=assessment, created_by=user,
                  name=_shown_name(name), size_bytes=size_bytes)  # fmt: skip


def _stamp(row: JobLog, keyed: Keyed | None) -> None:
    for field, value in (keyed() if keyed else {}).items():
        setattr(row, field, value)


def _head(chunks: Iterator[bytes], limit: int) -> tuple[list[bytes], bool]:
    """The first chunks, until they hold more than `limit` bytes; True when they do."""
    held, size = [], 0
    for chunk in chunks:
        held.append(chunk)
        size += len(chunk)
        if size > limit:
            return held, True
    return held, False


def enqueue(log_id: int) -> None:
    from advisor.logs.tasks import analyse_log

    # robust: a broker that is down must not fail the request; the sweep queues it later.
    transaction.on_commit(lambda: analyse_log.delay(log_id), robust=True)


def _shown_name(name: str) -> str:
    """The name as stored and shown: a query string or a file name can hold line breaks
    and escapes (`?name=%0a%0a…`), which would forge lines in every list and report."""
    return without_control(storable(name))[:MAX_NAME_CHARS] or "pasted log"


def log_attach(*, job_log: JobLog, assessment: Assessment | None) -> None:
    """Tie a stored log to an assessment (or untie it): its echoed options are compared
    with that assessment's recommended configuration. The findings stay as diagnosed."""
    job_log.assessment = assessment
    if job_log.status != JobLog.Status.DONE:
        # Not diagnosed yet: the worker reads the assessment (log_analyse); a failed log
        # keeps its empty analysis.
        job_log.save(update_fields=["assessment"])
        return
    analysis = dict(job_log.analysis)
    echoed = analysis.get("echoed_options", [])
    analysis["options"] = options(echoed, recommended_options(assessment))
    job_log.analysis = analysis
    job_log.save(update_fields=["assessment", "analysis"])
