"""Writes for SAS logs: read one as it streams in, diagnose it, store the analysis; tie a
stored log to an assessment (which re-diagnoses it against that server's advice).

A log is untrusted text: read line by line (never held whole), at most
settings.MAX_LOG_BYTES, parsed and never executed; each step is diagnosed as it is read and
not kept, and the stored analysis has a bounded size whatever the log (rules.logs.digest).
A log that is not text, or too large, is refused with a LogError naming the file; nothing
is stored for it.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from advisor.core.text import storable, without_control
from advisor.models import Assessment, JobLog, Organisation
from rules.logs import analyse_lines
from rules.logs.analysis import options
from rules.model import SAS_CONFIG

MAX_NAME_CHARS = 255  # JobLog.name's column

SNIFF_BYTES = 8192  # a NUL byte this early means a binary file, not a log
MAX_CARRY = 64 * 1024


class LogError(ValueError):
    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


class _Bounded:
    """The lines of a byte stream, decoded; refused past `limit` bytes or on binary input.
    A line longer than MAX_CARRY without a line end is cut there (the parser cuts it
    shorter still), so memory stays bounded whatever the input."""

    def __init__(self, name: str, chunks: Iterable[bytes], limit: int) -> None:
        self.name, self.chunks, self.limit, self.size = name, chunks, limit, 0

    def __iter__(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        carry = ""
        for raw in self.chunks:
            if self.size < SNIFF_BYTES and b"\0" in raw[: SNIFF_BYTES - self.size]:
                raise LogError(self.name, "is a binary file, not a SAS log")
            self.size += len(raw)
            if self.size > self.limit:
                raise LogError(self.name, f"is larger than {_size(self.limit)}")
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
    for rec in assessment.result.get("recommendations", []):
        if rec.get("kind") == "change" and rec.get("target") in (
            SAS_CONFIG,
            assessment.result.get("inventory", {}).get("config_file"),
            "sasv9_local.cfg",
            "sasv9_append.cfg",
            "sasv9.cfg",
        ):
            found.setdefault(str(rec["setting"]).upper(), str(rec["value"]))
    return found


def _analysis(lines: Iterable[str], assessment: Assessment | None) -> dict[str, Any]:
    cpus = int(assessment.cpus) if assessment is not None else 0
    return analyse_lines(lines, cpus=cpus, recommended=recommended_options(assessment))


def _fill(row: JobLog, analysis: dict[str, Any]) -> None:
    header = analysis["header"]
    row.sas_version = (header["version"] or "")[:32]
    row.platform = (header["platform"] or "")[:200]
    row.step_count = analysis["step_count"]
    row.job_seconds = analysis["job_seconds"]
    row.saving_seconds = analysis["what_if"]["saving_seconds"]
    row.findings_count = analysis["findings_total"]  # the ones shown and those counted
    row.analysis = analysis


def log_create(
    *,
    organisation: Organisation,
    user: User | None,
    name: str,
    chunks: Iterable[bytes],
    assessment: Assessment | None = None,
) -> JobLog:
    """Parse and store one log; LogError (nothing stored) when it cannot be read."""
    stream = _Bounded(name or "log", chunks, settings.MAX_LOG_BYTES)
    analysis = _analysis(stream, assessment)
    if stream.size == 0:
        raise LogError(name or "log", "is empty")
    row = JobLog(
        organisation=organisation,
        assessment=assessment,
        created_by=user,
        name=_shown_name(name),
        size_bytes=stream.size,
    )
    _fill(row, analysis)
    with transaction.atomic():
        row.save()
    return row


def _shown_name(name: str) -> str:
    """The name as stored and shown: a query string or a file name can hold line breaks
    and escapes (`?name=%0a%0a…`), which would forge lines in every list and report."""
    return without_control(storable(name))[:MAX_NAME_CHARS] or "pasted log"


def log_attach(*, job_log: JobLog, assessment: Assessment | None) -> None:
    """Tie a stored log to an assessment (or untie it): its echoed options are compared
    with that assessment's recommended configuration. The findings stay as diagnosed."""
    analysis = dict(job_log.analysis)
    echoed = analysis.get("echoed_options", [])
    analysis["options"] = options(echoed, recommended_options(assessment))
    job_log.assessment = assessment
    job_log.analysis = analysis
    job_log.save(update_fields=["assessment", "analysis"])
