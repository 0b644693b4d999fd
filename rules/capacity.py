"""Capacity what-if: average job time for N concurrent jobs at CPUCOUNT c on C CPUs.

Sources: chew ("Managing Scalability Expectations": PROC LOESS single-job times at
CPUCOUNT 1–8 and 2–63 simultaneous CPUCOUNT=8 jobs on an 8-way box, degrading linearly at
~3 min per extra job) and pohl2007 (Table 3: threading and piping ratios).

The model, in one line: T(N) = T1(c) + max(0, N − C/c) × W / C. Up to C/c jobs run side by
side at their single-job time T1(c); each job beyond that adds its CPU work W (CPU-minutes)
spread over the C CPUs to everyone's average time. Chew's 8 CPUCOUNT=8 jobs took about as
long as one job at CPUCOUNT=1 (23:40 vs 21:31), which is what a work-conserving box gives.
Its limit, stated with every prediction: calibrated on chew's 2- and 3-job runs it gives
175.8 min for 63 jobs against the 189 measured (−7 %); from single-job times alone, more.
The part of the curve past the most concurrent jobs measured is flagged as extrapolated, and
a single measured single-job time is read through chew's profile (rules.capacity_profile).
Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.capacity_effects import Effect, pohl_effects
from rules.capacity_profile import (
    CHEW_63_JOBS_MINUTES,
    CHEW_CONCURRENT,
    CHEW_CPUS,
    CHEW_SINGLE,
    ConcurrentRun,
    Profile,
    SingleRun,
    fit_profile,
    mmss,
    single_point_assumption,
)

__all__ = [
    "CHEW_63_JOBS_MINUTES", "CHEW_CONCURRENT", "CHEW_CPUS", "CHEW_SINGLE", "CapacityError",
    "ConcurrentRun", "Prediction", "SingleRun", "backtest", "backtest_63", "mmss", "predict",
]  # fmt: skip

CURVE_MAX_POINTS = 64  # points on the curve; more would only thicken the SVG


class CapacityError(ValueError):
    """Input the model cannot use; `problems` holds (field path, message) pairs."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {message}" for path, message in problems))


@dataclass(frozen=True)
class Prediction:
    jobs: int
    cpucount: int
    cpus: int
    minutes: float
    single_job_minutes: float
    minutes_per_extra_job: float
    contention_free_jobs: float
    calibration: str  # "single-job times only" or "calibrated with N concurrent runs"
    model: str
    assumptions: tuple[str, ...]
    accuracy: str
    curve: tuple[tuple[int, float], ...]
    effects: tuple[Effect, ...] = field(default_factory=tuple)
    measured_jobs: int = 1  # the most concurrent jobs measured (1: single-job times only)
    extrapolation: str = ""  # what the curve past `measured_jobs` rests on; "" if nothing
    profile_assumption: str = ""  # set when one single-job time stood for the whole profile

    def minutes_at(self, jobs: int) -> float:
        """The model's average job time at another number of concurrent jobs."""
        return model_minutes(
            self.single_job_minutes, self.contention_free_jobs, self.minutes_per_extra_job, jobs
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "jobs": self.jobs,
            "cpucount": self.cpucount,
            "cpus": self.cpus,
            "minutes": round(self.minutes, 2),
            "single_job_minutes": round(self.single_job_minutes, 2),
            "minutes_per_extra_job": round(self.minutes_per_extra_job, 3),
            "contention_free_jobs": round(self.contention_free_jobs, 2),
            "calibration": self.calibration,
            "model": self.model,
            "assumptions": list(self.assumptions),
            "accuracy": self.accuracy,
            "curve": [{"jobs": n, "minutes": round(m, 2)} for n, m in self.curve],
            "measured_jobs": self.measured_jobs,
            "extrapolation": self.extrapolation,
            "profile_assumption": self.profile_assumption,
            "effects": [
                {
                    "source": e.source,
                    "label": e.label,
                    "percent_of_baseline": e.percent_of_baseline,
                    "applies_to": e.applies_to,
                }
                for e in self.effects
            ],
        }


MODEL_TEXT = (
    "T(N) = T1(c) + max(0, N − C/c) × W/C: up to C/c jobs run side by side at the single-job "
    "time T1(c); each further job adds its CPU work W (CPU-minutes) shared over C CPUs "
    "(linear degradation, chew)."
)
AMDAHL_FIT = (
    "Single-job times between measured CPUCOUNT values follow Amdahl's law, "
    "T1(c) = a + b/c, fitted by least squares."
)
ASSUMPTIONS: tuple[str, ...] = (
    "Jobs are CPU-bound like chew's PROC LOESS; memory and I/O are not modelled, and a box "
    "short of either degrades faster than predicted.",
    AMDAHL_FIT,
    "A CPUCOUNT above the CPU count is treated as the CPU count.",
    "All jobs are alike and start together; the result is their average run time.",
    "The CPUs of the target box are as fast as those of the box the times were measured on.",
)


def _check(
    single: Sequence[SingleRun], concurrent: Sequence[ConcurrentRun], jobs: int, cpus: int
) -> None:
    problems: list[tuple[str, str]] = []
    if not single:
        problems.append(("single", "needs at least one single-job time"))
    given = [r.cpucount for r in single]
    if twice := sorted({c for c in given if given.count(c) > 1}):
        listed = ", ".join(str(c) for c in twice)
        problems.append(("single", f"give one time per CPUCOUNT (twice: {listed})"))
    for i, r in enumerate(single):
        if r.cpucount < 1 or r.minutes <= 0:
            problems.append((f"single[{i}]", "cpucount must be ≥ 1 and minutes > 0"))
    for i, c in enumerate(concurrent):
        if c.jobs < 1 or c.cpucount < 1 or c.minutes <= 0:
            problems.append((f"concurrent[{i}]", "jobs, cpucount ≥ 1 and minutes > 0"))
    if jobs < 1:
        problems.append(("jobs", "must be at least 1"))
    if cpus < 1:
        problems.append(("cpus", "must be at least 1"))
    if problems:
        raise CapacityError(problems)


def _calibrate_work(
    profile: Profile, concurrent: Sequence[ConcurrentRun], measured_cpus: int
) -> float | None:
    """CPU work per job fitted to the concurrent runs (least squares through the origin)."""
    sxy = sxx = 0.0
    for run in concurrent:
        c_eff = min(run.cpucount, measured_cpus)
        x = max(0.0, run.jobs - measured_cpus / c_eff) / measured_cpus
        sxy += x * (run.minutes - profile.time(c_eff))
        sxx += x * x
    return sxy / sxx if sxx > 0 else None


def model_minutes(t1: float, free: float, slope: float, jobs: float) -> float:
    """T(N) = T1(c) + max(0, N − C/c) × W/C: up to `free` jobs run at the single-job time,
    each further one adds `slope` minutes."""
    return t1 + max(0.0, jobs - free) * slope


def _curve(
    t1: float, free: float, slope: float, jobs: int, last: int
) -> tuple[tuple[int, float], ...]:
    step = max(1, -(-last // CURVE_MAX_POINTS))
    ns = sorted({*range(1, last + 1, step), jobs, last})
    return tuple((n, model_minutes(t1, free, slope, n)) for n in ns)


def predict(
    single: Sequence[SingleRun],
    *,
    jobs: int,
    cpucount: int,
    cpus: int,
    concurrent: Sequence[ConcurrentRun] = (),
    measured_cpus: int | None = None,
    curve_to: int = 8,
) -> Prediction:
    """Average job time for `jobs` concurrent jobs at `cpucount` on `cpus` CPUs; the
    curve runs from 1 job to `jobs` or `curve_to`, whichever is more."""
    _check(single, concurrent, jobs, cpus)
    profile = fit_profile(single)
    box = measured_cpus or cpus
    fitted = _calibrate_work(profile, concurrent, box) if concurrent else None
    work = fitted if fitted is not None else profile.time(1)
    c_eff = min(cpucount, cpus)
    t1 = profile.time(c_eff)
    free = cpus / c_eff
    slope = work / cpus
    minutes = model_minutes(t1, free, slope, jobs)
    plural = "s" if len(concurrent) > 1 else ""
    runs = f"{len(concurrent)} concurrent run{plural}"
    if fitted is not None:
        calibration = f"calibrated with {runs} (W = {work:.1f} min)"
        accuracy = _residuals_text(profile, concurrent, work, box)
    else:
        calibration = f"single-job times only (W = T1(1) = {work:.1f} min)"
        accuracy = backtest_text()
    curve = _curve(t1, free, slope, jobs, max(jobs, curve_to))
    measured_jobs = max((r.jobs for r in concurrent), default=1)
    basis = f"the {len(concurrent)} measured concurrent run{plural}"
    basis = basis if fitted is not None else "single-job times alone"
    return Prediction(
        jobs=jobs,
        cpucount=cpucount,
        cpus=cpus,
        minutes=minutes,
        single_job_minutes=t1,
        minutes_per_extra_job=slope,
        contention_free_jobs=free,
        calibration=calibration,
        model=MODEL_TEXT,
        assumptions=_assumptions(profile),
        accuracy=accuracy,
        curve=curve,
        effects=pohl_effects(c_eff),
        measured_jobs=measured_jobs,
        extrapolation=_extrapolation(measured_jobs, curve[-1][0], basis),
        profile_assumption=single_point_assumption(profile) if profile.scaled_from_chew else "",
    )


def _assumptions(profile: Profile) -> tuple[str, ...]:
    """The fixed assumptions, with the Amdahl fit's replaced by the scaled-chew one when
    only one single-job time was measured."""
    if profile.scaled_from_chew is None:
        return ASSUMPTIONS
    return tuple(single_point_assumption(profile) if a is AMDAHL_FIT else a for a in ASSUMPTIONS)


def _extrapolation(measured_jobs: int, last: int, basis: str) -> str:
    """The note for the part of the curve past the most concurrent jobs measured."""
    if last <= measured_jobs:
        return ""
    if measured_jobs <= 1:
        return (
            "No concurrent runs were measured: beyond 1 job the curve is extrapolated by the "
            f"linear model from {basis}. Measure a few jobs running together to check it."
        )
    return (
        f"Beyond {measured_jobs} concurrent jobs (the most measured) the curve is extrapolated "
        f"by the linear model from {basis}: the further past {measured_jobs}, the less certain."
    )


def _residuals_text(
    profile: Profile, concurrent: Sequence[ConcurrentRun], work: float, box: int
) -> str:
    parts = []
    for run in concurrent:
        c_eff = min(run.cpucount, box)
        model = profile.time(c_eff) + max(0.0, run.jobs - box / c_eff) * work / box
        parts.append(f"{run.jobs} jobs {100 * (model - run.minutes) / run.minutes:+.1f} %")
    return "Fit on the measured concurrent runs: " + ", ".join(parts) + "."


def _single_only_minutes(jobs: int, cpucount: int) -> float:
    profile = fit_profile(CHEW_SINGLE)
    slope = profile.time(1) / CHEW_CPUS
    return profile.time(cpucount) + max(0.0, jobs - CHEW_CPUS / cpucount) * slope


def backtest() -> tuple[tuple[int, float], ...]:
    """The single-job-only model's error (%) on chew's 2–8 concurrent-job table."""
    return tuple(
        (run.jobs, 100 * (_single_only_minutes(run.jobs, run.cpucount) - run.minutes) / run.minutes)
        for run in CHEW_CONCURRENT
    )


def backtest_63() -> float:
    """The same model's error (%) at chew's 63 jobs, measured at 3 h 09 min (chew l.609–619)."""
    model = _single_only_minutes(63, 8)
    return 100 * (model - CHEW_63_JOBS_MINUTES) / CHEW_63_JOBS_MINUTES


def backtest_text() -> str:
    errors = backtest()
    worst = max(abs(e) for _, e in errors)
    listed = ", ".join(f"{n} jobs {e:+.1f} %" for n, e in errors)
    return (
        "From single-job times alone; on chew's 8-CPU PROC LOESS table this model was within "
        f"{worst:.1f} % ({listed}), but at chew's 63 jobs (measured 3 h 09 min) it missed by "
        f"{backtest_63():+.1f} %: the further past 8 jobs, the more it underestimates. Add "
        "concurrent runs measured on your box to calibrate it."
    )
