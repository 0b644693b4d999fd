"""What the fleet API answers, declared for the schema and the clients generated from it.

The views build these answers as dicts (api_views.fleet_body, presenting.row and
summary, api_views.report_body); each serializer here names their keys and types, so
that automation polling a fleet's `status` reads a typed field. The test of the
generated client validates live answers against them with unknown keys refused: a key
a view adds and this module does not declare fails it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from advisor.api.query import Query, choice, name_field, text
from advisor.api.serializers import INTEGER, STRING, tuple_schema
from advisor.fleets.selectors import SEVERITIES, SORTS
from advisor.models import Fleet, FleetItem, WorkerLifecycle

Output = serializers.Serializer[dict[str, Any]]
Schema = dict[str, Any]


class FleetUploadSerializer(Output):
    """A fleet as one JSON document (read whole: at most 16 MiB; send NDJSON or a zip
    beyond). A bare JSON array of inventories is taken too (it was first; a generated
    client cannot send one beside the files, so the schema declares this object only)."""

    servers = serializers.ListField(
        child=serializers.JSONField(),
        help_text='inventories (or {"bundle": text, "workload": {…}}); an item that is '
        "not one fails alone",
    )


class FleetUploadQuery(Query):
    name = name_field(200, "a name for the fleet; control characters are dropped from it")


class FleetServersQuery(Query):
    """The filters of a fleet's servers (blank: no filter); a value outside the listed
    ones is refused naming them."""

    q = text(100, "part of a host name or file name")
    severity = choice(SEVERITIES, "servers with at least one warning of this severity")
    group = text(64, "a config_key: the servers of one group")
    status = choice(FleetItem.Status.values)
    sort = choice(SORTS, "the order (position by default)")


def _binary(description: str) -> Schema:
    return {"type": "string", "format": "binary", "description": description}


# What read_fleet takes, JSON first. application/octet-stream is told by its first bytes
# (a zip, or NDJSON): a generated client that sends every file as bytes, with the last
# media type it was given, uploads either through it.
FLEET_BODY: dict[str, Any] = {
    "application/json": FleetUploadSerializer,
    "application/x-ndjson": _binary("one inventory a line"),
    "application/zip": _binary(
        "inventory .json files, collector bundles (.txt) and the workload.json they share"
    ),
    "application/octet-stream": _binary("a zip or NDJSON, told by its first bytes"),
}


class FleetSerializer(Output):
    """A fleet and its progress."""

    id = serializers.IntegerField()
    url = serializers.URLField()
    name = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    rules_version = serializers.CharField()
    previous = serializers.IntegerField(
        allow_null=True, help_text="the fleet this one re-evaluates on newer rules"
    )
    servers_url = serializers.URLField()
    csv_url = serializers.URLField()
    status = serializers.ChoiceField(Fleet.Status.choices)
    total = serializers.IntegerField(help_text="servers uploaded")
    done = serializers.IntegerField(help_text="servers advised")
    failed = serializers.IntegerField(help_text="servers whose document failed")
    pending = serializers.IntegerField(help_text="servers still waiting for a worker")
    percent = serializers.IntegerField(help_text="done and failed, % of total")
    rate = serializers.FloatField(allow_null=True, help_text="servers a second; null at first")
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="estimated; 0 once none is pending, null while unknown"
    )
    elapsed_seconds = serializers.FloatField()


class GroupSerializer(Output):
    config_key = serializers.CharField(help_text="SHA-256 of the generated configuration")
    config_name = serializers.CharField()
    servers = serializers.IntegerField()
    differs = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2),
        required=False, help_text="[setting, this group's value] for the settings that differ "
        "between groups (a few at most); 'not set' where this group's file leaves it out",
    )  # fmt: skip
    # A declared field leaves the class (DRF's metaclass); the stubs see Field.label.
    label = serializers.CharField(  # type: ignore[assignment]
        required=False, help_text="'CPUCOUNT 4, MEMSIZE 8G · 12 servers'"
    )


class FleetFindingSerializer(Output):
    key = serializers.CharField(help_text="'w:RULE' for a warning, 's:FILE:SETTING' for a change")
    kind = serializers.ChoiceField(choices=["warning", "setting"])
    severity = serializers.ChoiceField(choices=["high", "medium", "low", "setting"])
    title = serializers.CharField(
        help_text="a warning's message on its first server, or the change"
    )
    action = serializers.CharField(allow_blank=True)
    rule = serializers.CharField()
    count = serializers.IntegerField(help_text="servers it affects")
    positions = serializers.CharField(help_text="their positions in the upload, as '0-3,8'")


@extend_schema_field(tuple_schema("[value, servers advised it]", STRING, INTEGER))
class ValueCountField(serializers.JSONField):
    pass


class DisagreementSerializer(Output):
    setting = serializers.CharField()
    values = serializers.ListField(child=ValueCountField(), help_text="most advised first")


class SettingDriftSerializer(Output):
    setting = serializers.CharField()
    old = serializers.CharField(allow_null=True)
    new = serializers.CharField(allow_null=True)


class HostDriftSerializer(Output):
    host = serializers.CharField()
    changes = SettingDriftSerializer(many=True)


class DriftSerializer(Output):
    previous = serializers.IntegerField(allow_null=True, help_text="the run compared with")
    rules_versions = serializers.ListField(
        child=serializers.CharField(), min_length=2, max_length=2, allow_null=True,
        help_text="[the previous run's, this run's]; null without a previous run",
    )  # fmt: skip
    compared = serializers.IntegerField(help_text="hosts in both runs")
    changed = serializers.IntegerField(help_text="hosts whose settings differ")
    hosts = HostDriftSerializer(many=True)


class FleetDetailSerializer(FleetSerializer):
    """A fleet's progress; once it is done, its groups, disagreements and drift too."""

    groups = GroupSerializer(many=True, required=False)
    disagreements = DisagreementSerializer(many=True, required=False)
    drift = DriftSerializer(required=False)
    findings = FleetFindingSerializer(many=True, required=False, help_text="most servers first")


class WarningCountsSerializer(Output):
    high = serializers.IntegerField()
    medium = serializers.IntegerField()
    low = serializers.IntegerField()


class FleetServerSerializer(Output):
    position = serializers.IntegerField(help_text="0-based, in the upload's order")
    # A declared field leaves the class (DRF's metaclass); the stubs see Field.label.
    label = serializers.CharField(  # type: ignore[assignment]
        allow_blank=True, help_text="line N, a zip member's name"
    )
    host = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(FleetItem.Status.choices)
    warnings = WarningCountsSerializer()
    config_name = serializers.CharField(allow_blank=True)
    config_key = serializers.CharField(allow_blank=True)
    assessment = serializers.IntegerField(allow_null=True)
    problems = serializers.ListField(child=serializers.CharField())
    os = serializers.CharField(
        allow_blank=True, help_text="'RHEL 9.4', 'Windows Server 2022'; '' until advised"
    )
    cpus = serializers.IntegerField(allow_null=True, help_text="null until advised")
    ram_gb = serializers.FloatField(allow_null=True, help_text="null until advised")


class FleetReportSerializer(Output):
    id = serializers.IntegerField()
    url = serializers.URLField()
    pdf_url = serializers.URLField(help_text="409 until the report is done")
    status = serializers.ChoiceField(WorkerLifecycle.Status.choices)
    attempts = serializers.IntegerField()
    error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class RulesVersionsSerializer(Output):
    old = serializers.CharField()
    new = serializers.CharField()


class SettingChangeSerializer(Output):
    target = serializers.CharField()
    setting = serializers.CharField()
    change = serializers.ChoiceField(["changed", "added", "removed"])
    old = serializers.CharField(allow_null=True)
    new = serializers.CharField(allow_null=True)
    why = serializers.CharField()
    rule = serializers.CharField(allow_blank=True)
    sources = serializers.ListField(child=serializers.CharField())


class ReevaluationSerializer(Output):
    id = serializers.IntegerField(help_text="the new assessment")
    url = serializers.URLField()
    previous = serializers.IntegerField(help_text="the assessment re-evaluated")
    rules_version = RulesVersionsSerializer()
    changes = SettingChangeSerializer(many=True)


class ArchivedSerializer(Output):
    id = serializers.IntegerField()
    archived_at = serializers.DateTimeField()
