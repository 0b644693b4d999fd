"""Organisations own assessments; users belong to one organisation through a membership."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.conf import settings
from django.db import models
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from advisor.core import results
from advisor.reports.branding import validate_logo
from rules.derive.labels import OS_LABELS


class Organisation(models.Model):
    name = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # On the cover of its reports; a PNG or JPEG of at most 512 KB (reports/branding.py).
    logo = models.FileField(
        upload_to="logos/",
        blank=True,
        validators=[validate_logo],
        help_text="PNG or JPEG, at most 512 KB: shown on the cover of this organisation's reports.",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's one organisation. A user without a membership sees nothing."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    # An organisation's admins read its audit trail.
    is_admin = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user} @ {self.organisation}"


class Assessment(models.Model):
    """A validated inventory and the full result the rules gave for it."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="assessments"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    name = models.CharField(max_length=200, blank=True)
    hostname = models.CharField(max_length=253, db_index=True)
    os = models.CharField(max_length=16)
    os_version = models.CharField(max_length=32)
    cpus = models.PositiveIntegerField()
    ram_gb = models.FloatField()
    warnings_count = models.PositiveIntegerField(default=0)
    # Warnings by severity and recommendations by status (a check that is advice counts as
    # advice), counted when the result is stored (advisor/core/results.py): the list and
    # the summaries read these, never the result.
    high_warnings = models.PositiveIntegerField(default=0)
    medium_warnings = models.PositiveIntegerField(default=0)
    low_warnings = models.PositiveIntegerField(default=0)
    change_count = models.PositiveIntegerField(default=0)
    unknown_count = models.PositiveIntegerField(default=0)
    keep_count = models.PositiveIntegerField(default=0)
    check_count = models.PositiveIntegerField(default=0)
    advice_count = models.PositiveIntegerField(default=0)
    rules_version = models.CharField(max_length=32)
    inventory = models.JSONField()
    # The contract's result as compact JSON text, keys in the contract's order: jsonb would
    # reorder them. Compact because the C encoder writes it in a fraction of the time the
    # indented form takes, and the API answers with it spliced in unchanged; downloads
    # re-indent it (`recommendations_json`), byte for byte what `manage.py advise` writes.
    # Read only through advisor/core/results.py, which reads every version stored.
    result_json = models.TextField()
    # The shape result_json was stored in (rules.result_records.RESULT_VERSION then; 1 for
    # results stored before results said theirs).
    result_version = models.PositiveSmallIntegerField(default=1)
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)
    # Archived: left out of the lists, kept (and reachable by its address) for audit.
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # The list reads one organisation's newest first: one index walk, no sort. The
        # host-name search (icontains) has a trigram index on PostgreSQL (migration 0005).
        # Partial: the list shows assessments not archived, and reads a page's keys from
        # this index alone.
        indexes = [
            models.Index(
                fields=["organisation", "-created_at", "-id"],
                name="assessment_org_listed",
                condition=models.Q(archived_at__isnull=True),
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="assessment_idempotency_key_per_org",
            )
        ]

    def __str__(self) -> str:
        return f"{self.hostname} ({self.created_at:%Y-%m-%d %H:%M})"

    @property
    def result(self) -> dict[str, Any]:
        """The result as JSON data in its current version (advisor/core/results.py); the
        API's views answer with it. Everything else reads `results.result_of`."""
        return results.result_document(self)

    @property
    def os_label(self) -> str:
        """'AIX', 'Linux', 'HP-UX': the OS as people write it."""
        return OS_LABELS.get(self.os, self.os)

    @property
    def recommendations_json(self) -> str:
        """recommendations.json exactly as `manage.py advise` writes it."""
        return results.recommendations_json(self)


class Verification(models.Model):
    """One verify of an assessment's advice against a newer reading of its server, kept so
    the assessment page can say when it was last verified (advisor/assessments/
    verifications.py stores and reads these). `result` is the verification's rows, host
    and measured figures, each value cut to a bound; the counts are kept apart for the
    lists, which never read it."""

    class Source(models.TextChoices):
        PASTE = "paste", "pasted"
        UPLOAD = "upload", "uploaded"
        API = "api", "sent to the API"

    assessment = models.ForeignKey(
        Assessment, on_delete=models.CASCADE, related_name="verifications"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=8, choices=Source.choices)
    compliant = models.PositiveIntegerField()
    non_compliant = models.PositiveIntegerField()
    not_verified = models.PositiveIntegerField()
    # The rules the verified advice was given by (the assessment's, as stored).
    rules_version = models.CharField(max_length=32, blank=True)
    result = models.JSONField()

    class Meta:
        ordering = ["-created_at", "-id"]
        # The assessment page reads its newest; the history reads them newest first.
        indexes = [
            models.Index(fields=["assessment", "-created_at", "-id"], name="verification_listed")
        ]

    def __str__(self) -> str:
        return f"verification {self.pk} of {self.assessment_id}"

    @property
    def found(self) -> dict[str, Any]:
        """What the verify found (its rows, host and measured records), as kept; not an
        assessment's result, which only advisor/core/results.py reads."""
        return self.result if isinstance(self.result, dict) else {}


def compact_json(value: Any) -> str:
    """JSON text as DRF's JSONRenderer writes it (compact, UTF-8, U+2028/U+2029 escaped),
    so a stored result can be spliced into a response without decoding it."""
    try:
        # orjson writes the same bytes as json.dumps(ensure_ascii=False, separators=(",", ":"))
        # for what a result holds (finite numbers, str keys) in a fifth of the time.
        text = orjson.dumps(value).decode()
    except TypeError:  # a non-str key, an int beyond 64 bits, a lone surrogate
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def read_file(field: FieldFile) -> bytes | None:
    if not field:
        return None
    with field.open("rb") as handle:
        data: bytes = handle.read()
    return data


def keyed_once(scope: str, name: str) -> models.UniqueConstraint:
    """An idempotency key is used once within its scope (advisor/core/idempotency.py)."""
    return models.UniqueConstraint(
        fields=[scope, "idempotency_key"],
        condition=models.Q(idempotency_key__isnull=False),
        name=name,
    )


class WorkerLifecycle(models.Model):
    """Work done on a worker: queued -> running -> done (or failed), its attempts and the
    reason it stopped (advisor/core/lifecycle.py reads and writes these fields)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # When its build was last queued: the sweep queues it again when that is long ago (the
    # message was lost), and moves this, never created_at.
    queued_at = models.DateTimeField(default=timezone.now)
    # When its current attempt started: running far past the hard time limit, its worker
    # is gone (advisor/core/lifecycle.py).
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Attempts started; bounded (lifecycle.MAX_ATTEMPTS), then it fails with the reason.
    attempts = models.PositiveIntegerField(default=0)
    # Times the sweep found it queued with no worker taking it (its message lost) and sent
    # it again; bounded (lifecycle.MAX_REQUEUES), then it fails with the reason.
    requeues = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        abstract = True


class BuiltByWorker(WorkerLifecycle):
    """Something a worker builds into a PDF."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # In Django's default storage (MEDIA_ROOT, or S3 with STORAGE_S3_BUCKET), not in a
    # database row: a PDF is hundreds of kilobytes, and backups and queries stay lean.
    pdf_file = models.FileField(upload_to="reports/%Y/%m/", blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]
        # What the sweep looks for, every minute: the few not finished among all built.
        indexes = [
            models.Index(
                fields=["status"],
                name="%(class)s_unfinished",
                condition=models.Q(status__in=["queued", "running"]),
            )
        ]

    @property
    def pdf(self) -> bytes | None:
        """The built PDF, read from storage; None before it is built."""
        return read_file(self.pdf_file)


class Report(BuiltByWorker):
    """A consultant report of one assessment."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="reports")
    html_file = models.FileField(upload_to="reports/%Y/%m/", blank=True)
    # What the consultant asked for when requesting it (reports/options.py checks them).
    client_name = models.CharField(max_length=200, blank=True, default="")
    consultant_name = models.CharField(max_length=200, blank=True, default="")
    consultant_notes = models.TextField(blank=True, default="")
    include_scripts = models.BooleanField(default=True)
    # A retried request finds it by its key within the assessment (core/idempotency.py).
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)

    class Meta(BuiltByWorker.Meta):
        constraints = [keyed_once("assessment", "report_idempotency_key_per_assessment")]

    def __str__(self) -> str:
        return f"report {self.pk} for {self.assessment_id} ({self.status})"

    @property
    def html(self) -> str:
        """The report's HTML, read from storage; empty before it is built."""
        data = read_file(self.html_file)
        return data.decode("utf-8") if data else ""


class JobLog(WorkerLifecycle):
    """A SAS log of a real job, parsed and diagnosed; optionally tied to an assessment,
    whose recommended options and CPUs the diagnosis then uses.

    A small log is diagnosed in the request and stored done. A large one is stored queued
    with its upload in the default storage, diagnosed on a worker (advisor/logs/tasks.py)
    and the upload deleted; until it is done its figures are 0 and its analysis empty."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="logs")
    assessment = models.ForeignKey(
        Assessment, null=True, blank=True, on_delete=models.SET_NULL, related_name="logs"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    name = models.CharField(max_length=255)
    size_bytes = models.PositiveBigIntegerField()
    sas_version = models.CharField(max_length=32, blank=True)
    platform = models.CharField(max_length=200, blank=True)
    step_count = models.PositiveIntegerField(default=0)
    job_seconds = models.FloatField(default=0.0)
    saving_seconds = models.FloatField(default=0.0)
    findings_count = models.PositiveIntegerField(default=0)
    analysis = models.JSONField(default=dict)
    # The log as uploaded, while it waits for a worker; emptied (and the file deleted) once
    # the log is done or failed.
    upload = models.FileField(upload_to="logs/uploads/%Y/%m/", blank=True)
    # A retried upload finds it by its key (core/idempotency.py).
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-saving_seconds", "-created_at", "-id"]
        constraints = [keyed_once("organisation", "joblog_idempotency_key_per_org")]
        indexes = [
            models.Index(fields=["organisation", "-saving_seconds"]),
            # What the sweep looks for: logs waiting or being read, uploads left to delete.
            models.Index(
                fields=["status"],
                name="joblog_unfinished",
                condition=models.Q(status__in=["queued", "running"]) | ~models.Q(upload=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.step_count} steps)"


class Fleet(models.Model):
    """Many inventories uploaded at once, advised on workers in chunks; each good server
    becomes an assessment linked through its FleetItem."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="fleets")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    name = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField()
    # When its chunks were last queued (the sweep queues them again when that is long ago
    # and none has started); created_at stays the upload's time.
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    # The last sign of life of its chunks (one started, a server advised, a chunk stored):
    # running and silent past the hard time limit, the sweep queues them again.
    progressed_at = models.DateTimeField(null=True, blank=True)
    # When the sweep last queued its chunks again (kept apart from progressed_at, which
    # is the workers' sign of life only: the sweep reads it to tell a busy queue from an
    # idle one); `requeues` counts the sweeps that found a chunk a worker took and never
    # finished while no chunk of any fleet showed life.
    swept_at = models.DateTimeField(null=True, blank=True)
    requeues = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Servers advised and failed, counted once when the fleet is done (they are final
    # then): its status reads them instead of counting its servers on every call. Null
    # until then.
    done_count = models.PositiveIntegerField(null=True, blank=True)
    failed_count = models.PositiveIntegerField(null=True, blank=True)
    rules_version = models.CharField(max_length=32)
    # The run this one re-evaluates on newer rules (its documents, read again).
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="fleet_idempotency_key_per_org",
            )
        ]

    def __str__(self) -> str:
        return f"fleet {self.pk} ({self.total} servers, {self.status})"


class FleetItem(models.Model):
    """One uploaded document at its position: pending, then an assessment or problems."""

    class Status(models.TextChoices):
        PENDING = "pending"
        DONE = "done"
        FAILED = "failed"

    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveIntegerField()
    label = models.CharField(max_length=255, blank=True)  # a zip member's name
    host = models.CharField(max_length=253, blank=True)
    document = models.JSONField(null=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    problems = models.JSONField(default=list)
    assessment = models.OneToOneField(
        Assessment, null=True, blank=True, on_delete=models.SET_NULL, related_name="fleet_item"
    )
    config_name = models.CharField(max_length=64, blank=True)
    config_key = models.CharField(max_length=64, blank=True)  # sha256 of the generated config
    high = models.PositiveSmallIntegerField(default=0)
    medium = models.PositiveSmallIntegerField(default=0)
    low = models.PositiveSmallIntegerField(default=0)
    settings = models.JSONField(default=dict)  # the SAS configuration it recommends
    # Times a worker started advising it: a server whose chunk died under it this often
    # fails with the reason instead of killing the next worker too.
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["fleet", "position"], name="fleet_item_position")
        ]
        indexes = [
            models.Index(fields=["fleet", "status"]),
            models.Index(fields=["fleet", "config_key"]),
        ]

    def __str__(self) -> str:
        return f"{self.fleet_id}[{self.position}] {self.host or self.label}"


class FleetSummary(models.Model):
    """A finished fleet's groups, disagreements and drift, computed once when it is done:
    its status page and API read it instead of every server's settings. A table of its own
    so that lists of fleets never load it."""

    fleet = models.OneToOneField(
        Fleet, primary_key=True, on_delete=models.CASCADE, related_name="stored_summary"
    )
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"summary of fleet {self.fleet_id}"


class Webhook(models.Model):
    """An organisation's HTTPS endpoint for events, signed the Standard Webhooks way."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=100)  # "whsec_" + base64 of 32 random bytes
    events = models.JSONField(default=list)  # sorted, each once: the set is its value
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # A retried registration finds it by its key (core/idempotency.py).
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # Registering the same endpoint for the same events twice finds the first.
            models.UniqueConstraint(
                fields=["organisation", "url", "events"], name="webhook_url_events_per_org"
            ),
            keyed_once("organisation", "webhook_idempotency_key_per_org"),
        ]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event sent (or being retried) to one endpoint: the delivery log."""

    class Status(models.TextChoices):
        PENDING = "pending"
        DELIVERED = "delivered"
        FAILED = "failed"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=64)
    message_id = models.CharField(max_length=64, unique=True)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The worker's lifecycle (queued_at, started_at, attempts, error, the sweep), in the
    # words of a delivery: pending until delivered or failed (advisor/webhooks/tasks.py).
    # queued_at: when its message was last queued, at the event, then by the sweep when
    # no worker took it (the message lost), which moves this, never created_at.
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)  # its latest attempt's start
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # What the sweep looks for, every minute, in a log that only grows.
        indexes = [
            models.Index(
                fields=["created_at"],
                name="delivery_pending",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook_id} ({self.status})"


class FleetReport(BuiltByWorker):
    """A fleet's summary as a PDF."""

    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="reports")
    # A retried request finds it by its key within the fleet (core/idempotency.py).
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)

    class Meta(BuiltByWorker.Meta):
        constraints = [keyed_once("fleet", "fleetreport_idempotency_key_per_fleet")]

    def __str__(self) -> str:
        return f"fleet report {self.pk} for {self.fleet_id} ({self.status})"


from advisor.audit.models import AuditEvent  # noqa: E402,F401 - registered with the app
