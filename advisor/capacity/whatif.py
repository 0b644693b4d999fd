"""The capacity what-if as the pages run it: defaults read from the assessment, the form's
runs through the model (`rules.capacity`), the curve drawn with this server marked.

"From this server": the CPUs are the assessment's logical CPUs, CPUCOUNT the one its result
recommends (the CPUs when no rule set one), and the chart marks its peak SAS sessions, so
the first answer a user sees is about their box, not chew's. The run times start empty:
chew's (PROC LOESS on an 8-CPU box) are an example the user asks for, labelled as the
paper's, and every answer opens with the inputs it was computed from (`inputs_text`).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from advisor.capacity.forms import CHEW_EXAMPLE, CapacityForm
from advisor.core.results import result_of
from advisor.models import Assessment
from advisor.reports import charts
from rules.capacity import CapacityError, Prediction, predict

MAX_JOBS = 10_000  # the form's bound on concurrent jobs


def peak_sessions(assessment: Assessment) -> int | None:
    """The inventory's peak simultaneous SAS sessions (workload.concurrent_sessions)."""
    try:
        return int(assessment.inventory["workload"]["concurrent_sessions"])
    except (KeyError, TypeError, ValueError):
        return None


def recommended_cpucount(assessment: Assessment) -> int:
    """The CPUCOUNT the assessment recommends, else its CPUs (the SAS default on most)."""
    value = result_of(assessment).value_of("CPUCOUNT")
    return int(value) if value and value.isdigit() else assessment.cpus


def remembered_cpucount(assessment: Assessment) -> int:
    """recommended_cpucount through the shared cache: the assessment page, whose result part
    is usually a cache hit, then never reads the stored result for its capacity panel. A
    stored result never changes (re-evaluating makes a new assessment), so the key is the
    assessment alone."""
    key = f"capacity-cpucount:{assessment.pk}"
    found = cache.get(key)
    if isinstance(found, int):
        return found
    value = recommended_cpucount(assessment)
    cache.set(key, value, timeout=None)
    return value


def initial(assessment: Assessment) -> dict[str, Any]:
    """The form's values before anything is typed: no run times (they are this server's
    to measure), everything else from this server."""
    return {
        "single": "",
        "concurrent": "",
        "jobs": min(peak_sessions(assessment) or 1, MAX_JOBS),
        "cpucount": remembered_cpucount(assessment),
        "cpus": assessment.cpus,
    }


def example() -> dict[str, Any]:
    """The form's values filled with the paper's worked example (chew)."""
    return dict(CHEW_EXAMPLE)


def mmss(minutes: float) -> str:
    """21.5166… -> '21:31'."""
    seconds = round(minutes * 60)
    return f"{seconds // 60}:{seconds % 60:02d}"


def inputs_text(form: CapacityForm, runs: dict[str, Any], assessment: Assessment) -> str:
    """What the answer was computed from, in words: 'With your times 1=21:31, 8=4:04, at
    CPUCOUNT 4 and 6 jobs on this server's 16 CPUs'."""
    times = ", ".join(f"{r.cpucount}={mmss(r.minutes)}" for r in runs["single"])
    whose = (
        "With chew's times from the paper (PROC LOESS on an 8-CPU box, not this server)"
        if form.is_example()
        else "With your times"
    )
    together = ", ".join(f"{r.jobs}={mmss(r.minutes)}" for r in runs["concurrent"])
    measured = f" and concurrent runs {together}" if together else ""
    cpucount = runs["cpucount"]
    chosen = "" if form.cleaned_data["cpucount"] else " (recommended)"
    cpus, own = runs["cpus"], assessment.cpus
    where = f"this server's {own} CPUs" if cpus == own else f"{cpus} CPUs (this server has {own})"
    jobs = runs["jobs"]
    return (
        f"{whose} {times}{measured}, at CPUCOUNT {cpucount}{chosen} and {jobs} "
        f"job{'s' if jobs != 1 else ''} on {where}:"
    )


def _model_errors(form: CapacityForm, exc: CapacityError) -> list[str]:
    """The model's (field path, message) pairs as lines naming the form's field."""
    lines = []
    for path, message in exc.problems:
        field = form.fields.get(path.split("[")[0])
        lines.append(f"{field.label if field else path}: {message}")
    return lines


def run(form: CapacityForm, assessment: Assessment) -> dict[str, Any]:
    """The result's context: the prediction, its chart and this server's figures, or
    `errors` (lines naming the field) when the input cannot be used."""
    if not form.is_valid():
        return {"errors": form.messages()}
    runs = form.runs(default_cpucount=recommended_cpucount(assessment))
    sessions = peak_sessions(assessment)
    single = runs.pop("single")
    try:
        prediction = predict(single, curve_to=max(8, sessions or 0), **runs)
    except CapacityError as exc:
        return {"errors": _model_errors(form, exc)}
    at_peak = prediction.minutes_at(sessions) if sessions else None
    return {
        "prediction": prediction,
        "inputs": inputs_text(form, {"single": single, **runs}, assessment),
        "curve": _chart(prediction, runs, sessions),
        "sessions": sessions,
        "at_peak_minutes": at_peak,
    }


def _chart(prediction: Prediction, runs: dict[str, Any], sessions: int | None) -> SafeString:
    measured = [(r.jobs, r.minutes) for r in runs["concurrent"]]
    svg = charts.capacity_curve(
        prediction.curve,
        measured=measured,
        sessions_mark=sessions,
        measured_up_to=prediction.measured_jobs,
    )
    return mark_safe(svg)  # built from numbers, every label escaped
