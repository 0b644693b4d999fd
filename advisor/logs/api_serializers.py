"""What the log API answers: a log queued for a worker (rendered by LogQueuedSerializer),
and, declared for the schema and generated clients, a log's summary and its analysis
(api_views.summary and rules.logs.analysis build those; the test of the generated client
validates live answers against them with unknown keys refused)."""

from __future__ import annotations

from typing import Any, get_args

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from advisor.api.query import Query, name_field
from advisor.api.serializers import INTEGER, STRING, tuple_schema
from advisor.models import JobLog
from rules.model import Severity

Output = serializers.Serializer[dict[str, Any]]
NULLABLE_INTEGER = {"type": "integer", "nullable": True}
SEVERITIES = get_args(Severity)


ASSESSMENT_ID = "must be an assessment id"


class LogUploadQuery(Query):
    assessment = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1,
        help_text="the assessment of the server that ran the job",
        error_messages={k: ASSESSMENT_ID for k in ("invalid", "min_value", "max_value",
                                                   "max_string_length")},
    )  # fmt: skip
    name = name_field(255, "the log's file name; control characters are dropped from it")


class LogQueuedSerializer(serializers.ModelSerializer[JobLog]):
    """A log larger than LOG_INLINE_BYTES, stored and waiting for a worker: GET its `url`
    for its status and, once done, its analysis."""

    url = serializers.SerializerMethodField()

    class Meta:
        model = JobLog
        fields = ["id", "url", "name", "status", "size_bytes", "assessment"]
        read_only_fields = fields

    def get_url(self, row: JobLog) -> str:
        return reverse("logs_api:detail", kwargs={"pk": row.pk}, request=self.context["request"])


class LogSerializer(Output):
    """A log, its status and its figures (0 until it is done)."""

    id = serializers.IntegerField()
    url = serializers.URLField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    assessment = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(JobLog.Status.choices)
    error = serializers.CharField(allow_blank=True, help_text="why it failed")
    size_bytes = serializers.IntegerField()
    sas_version = serializers.CharField(allow_blank=True)
    platform = serializers.CharField(allow_blank=True)
    step_count = serializers.IntegerField()
    job_seconds = serializers.FloatField()
    saving_seconds = serializers.FloatField(help_text="what its findings could save")
    findings_count = serializers.IntegerField()


class LogHeaderSerializer(Output):
    release = serializers.CharField(allow_null=True)
    version = serializers.CharField(allow_null=True)
    platform = serializers.CharField(allow_null=True)
    host = serializers.CharField(allow_null=True)
    os = serializers.CharField(allow_null=True)


class TimelineBarSerializer(Output):
    step = serializers.IntegerField()
    name = serializers.CharField()
    start = serializers.FloatField(help_text="seconds from the job's start")
    real = serializers.FloatField()
    cpu = serializers.FloatField()
    steps = serializers.IntegerField(required=False, help_text="a bar of several steps")


@extend_schema_field(
    tuple_schema("[name, observations, variables or null]", STRING, INTEGER, NULLABLE_INTEGER)
)
class DataSetField(serializers.JSONField):
    pass


@extend_schema_field(tuple_schema("[line, option, value]", INTEGER, STRING, STRING))
class EchoedOptionField(serializers.JSONField):
    pass


class StepSerializer(Output):
    """One step's statistics; null where the log does not say."""

    step = serializers.IntegerField()
    name = serializers.CharField()
    line = serializers.IntegerField()
    real = serializers.FloatField(allow_null=True)
    cpu = serializers.FloatField(allow_null=True)
    user_cpu = serializers.FloatField(allow_null=True)
    system_cpu = serializers.FloatField(allow_null=True)
    memory_kb = serializers.FloatField(allow_null=True)
    os_memory_kb = serializers.FloatField(allow_null=True)
    timestamp = serializers.CharField(allow_null=True, help_text="the log's local time")
    page_faults = serializers.IntegerField(allow_null=True)
    involuntary_switches = serializers.IntegerField(allow_null=True)
    voluntary_switches = serializers.IntegerField(allow_null=True)
    block_input = serializers.IntegerField(allow_null=True)
    block_output = serializers.IntegerField(allow_null=True)
    reads = serializers.ListField(child=DataSetField())
    writes = serializers.ListField(child=DataSetField())


class ProcedureSerializer(Output):
    proc = serializers.CharField()
    steps = serializers.IntegerField()
    real = serializers.FloatField()
    cpu = serializers.FloatField()


class FindingSerializer(Output):
    rule = serializers.CharField()
    step = serializers.IntegerField(help_text="the step's number; 0 for the whole job")
    severity = serializers.ChoiceField(SEVERITIES)
    title = serializers.CharField()
    detail = serializers.CharField()
    setting = serializers.CharField()
    sources = serializers.ListField(child=serializers.CharField())
    saving = serializers.FloatField(help_text="seconds it could save")


class OmittedSerializer(Output):
    rule = serializers.CharField()
    # A declared field leaves the class (DRF's metaclass); the stubs see Field.label.
    label = serializers.CharField()  # type: ignore[assignment]
    count = serializers.IntegerField()
    saving_seconds = serializers.FloatField()


class WhatIfSerializer(Output):
    job_seconds = serializers.FloatField()
    io_striped_seconds = serializers.FloatField()
    io_solid_state_seconds = serializers.FloatField()
    cpucount_seconds = serializers.FloatField()
    piping_seconds = serializers.FloatField()
    saving_seconds = serializers.FloatField()
    estimated_job_seconds = serializers.FloatField()
    model = serializers.CharField()


class OptionSerializer(Output):
    option = serializers.CharField()
    echoed = serializers.CharField(allow_null=True, allow_blank=True)
    line = serializers.IntegerField(allow_null=True)
    recommended = serializers.CharField(allow_null=True)
    differs = serializers.BooleanField()


class LogProblemSerializer(Output):
    line = serializers.IntegerField()
    message = serializers.CharField()


class LogAnalysisSerializer(Output):
    header = LogHeaderSerializer()
    lines = serializers.IntegerField()
    fullstimer = serializers.BooleanField()
    step_count = serializers.IntegerField()
    job_seconds = serializers.FloatField()
    job = serializers.CharField(help_text="the job's time as a person reads it")
    session = StepSerializer(allow_null=True)
    timeline = TimelineBarSerializer(many=True)
    top_steps = StepSerializer(many=True)
    procedures = ProcedureSerializer(many=True)
    findings = FindingSerializer(many=True)
    findings_total = serializers.IntegerField()
    findings_omitted = OmittedSerializer(many=True)
    what_if = WhatIfSerializer()
    echoed_options = serializers.ListField(child=EchoedOptionField())
    options = OptionSerializer(many=True)
    problems = LogProblemSerializer(many=True)


class LogDetailSerializer(LogSerializer):
    """A log with its analysis: null until the log is done."""

    analysis = LogAnalysisSerializer(allow_null=True)
