"""Explicit input and output serializers for the capacity endpoint."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rules.capacity import ConcurrentRun, SingleRun

MAX_RUNS = 64  # more measurements than this add nothing to a two-parameter fit


class SingleRunSerializer(serializers.Serializer[SingleRun]):
    cpucount = serializers.IntegerField(min_value=1, max_value=4096)
    minutes = serializers.FloatField(min_value=0.001, max_value=1e6)


class ConcurrentRunSerializer(serializers.Serializer[ConcurrentRun]):
    jobs = serializers.IntegerField(min_value=1, max_value=100000)
    cpucount = serializers.IntegerField(min_value=1, max_value=4096)
    minutes = serializers.FloatField(min_value=0.001, max_value=1e6)


class CapacityInputSerializer(serializers.Serializer[dict[str, Any]]):
    # ListFields, not ListSerializers: the schema then gives their minItems and maxItems,
    # and a list too short is refused at its own name (`single`).
    single = serializers.ListField(
        child=SingleRunSerializer(), min_length=1, max_length=MAX_RUNS,
        help_text="one time per CPUCOUNT; a single time borrows chew's profile, and says so",
    )  # fmt: skip
    concurrent = serializers.ListField(
        child=ConcurrentRunSerializer(), required=False, default=list, max_length=MAX_RUNS
    )
    jobs = serializers.IntegerField(min_value=1, max_value=100000)
    cpucount = serializers.IntegerField(min_value=1, max_value=4096)
    cpus = serializers.IntegerField(min_value=1, max_value=4096)
    measured_cpus = serializers.IntegerField(
        min_value=1, max_value=4096, required=False, allow_null=True, default=None,
        help_text="CPUs of the box the times were measured on (default: cpus)",
    )  # fmt: skip

    def to_arguments(self) -> dict[str, Any]:
        data = self.validated_data
        return {
            "single": [SingleRun(**r) for r in data["single"]],
            "concurrent": [ConcurrentRun(**r) for r in data["concurrent"]],
            "jobs": data["jobs"],
            "cpucount": data["cpucount"],
            "cpus": data["cpus"],
            "measured_cpus": data["measured_cpus"],
        }


class CurvePointSerializer(serializers.Serializer[Any]):
    jobs = serializers.IntegerField()
    minutes = serializers.FloatField()


class EffectSerializer(serializers.Serializer[Any]):
    # Declared fields named like Field's own `source` and `label` attributes: the
    # serializer's metaclass takes them out of the class, which the stubs cannot express.
    source = serializers.CharField()  # type: ignore[assignment]
    label = serializers.CharField()  # type: ignore[assignment]
    percent_of_baseline = serializers.FloatField()
    applies_to = serializers.CharField()


class CapacityOutputSerializer(serializers.Serializer[Any]):
    jobs = serializers.IntegerField()
    cpucount = serializers.IntegerField()
    cpus = serializers.IntegerField()
    minutes = serializers.FloatField(help_text="predicted average job time")
    single_job_minutes = serializers.FloatField()
    minutes_per_extra_job = serializers.FloatField()
    contention_free_jobs = serializers.FloatField()
    calibration = serializers.CharField()
    model = serializers.CharField()
    assumptions = serializers.ListField(child=serializers.CharField())
    accuracy = serializers.CharField()
    curve = CurvePointSerializer(many=True)
    effects = EffectSerializer(many=True)
    measured_jobs = serializers.IntegerField(help_text="the most concurrent jobs measured")
    extrapolation = serializers.CharField(
        help_text="what the curve past measured_jobs rests on; empty when nothing is"
    )
    profile_assumption = serializers.CharField(
        help_text="set when a single single-job time stood for the whole profile"
    )
