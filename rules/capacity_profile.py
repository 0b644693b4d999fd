"""Single-job times against CPUCOUNT: the measured runs, chew's reference table, and the
profile the capacity model reads between and beyond them.

Sources: chew ("Managing Scalability Expectations": PROC LOESS single-job times at
CPUCOUNT 1–8 and 2–63 simultaneous CPUCOUNT=8 jobs on an 8-way box). Between measured
CPUCOUNT values the profile is Amdahl's T1(c) = a + b/c fitted by least squares; from a
single measured time there is nothing to fit, so chew's fitted profile is scaled to pass
through it, and the prediction says so. Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SingleRun:
    cpucount: int
    minutes: float


@dataclass(frozen=True)
class ConcurrentRun:
    jobs: int
    cpucount: int
    minutes: float


def mmss(text: str) -> float:
    """'21:31' -> 21.5167 minutes; chew prints job times as mm:ss."""
    minutes, seconds = text.split(":")
    return int(minutes) + int(seconds) / 60


# chew, "Managing Scalability Expectations": PROC LOESS on an 8-way box.
CHEW_CPUS = 8
CHEW_SINGLE: tuple[SingleRun, ...] = tuple(
    SingleRun(c, mmss(t))
    for c, t in ((1, "21:31"), (2, "12:16"), (4, "6:34"), (6, "5:06"), (8, "4:04"))
)
CHEW_CONCURRENT: tuple[ConcurrentRun, ...] = tuple(
    ConcurrentRun(n, 8, mmss(t)) for n, t in ((2, "6:47"), (3, "9:38"), (4, "12:26"), (8, "23:40"))
)
CHEW_63_JOBS_MINUTES = 189.0  # 6:47 + 3 min × 61, and measured at 3 h 09 min


@dataclass(frozen=True)
class Profile:
    """Single-job times: measured where available, else the Amdahl curve a + b/c.

    `scaled_from_chew` is the factor chew's profile was multiplied by when only one time
    was measured (None when the curve was fitted to this box's own times)."""

    measured: dict[int, float]
    a: float
    b: float
    scaled_from_chew: float | None = None

    def time(self, cpucount: int) -> float:
        if cpucount in self.measured:
            return self.measured[cpucount]
        return self.a + self.b / cpucount


def _amdahl(single: Sequence[SingleRun]) -> tuple[float, float]:
    """Least-squares a, b of T1(c) = a + b/c over two or more distinct CPUCOUNT values."""
    xs = [1.0 / r.cpucount for r in single]
    ys = [r.minutes for r in single]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = max(0.0, sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx)
    return max(0.0, my - b * mx), b


CHEW_A, CHEW_B = _amdahl(CHEW_SINGLE)


def fit_profile(single: Sequence[SingleRun]) -> Profile:
    """The profile of the given times; one time alone scales chew's profile to it."""
    measured = {r.cpucount: r.minutes for r in single}
    if len(measured) >= 2:
        return Profile(measured, *_amdahl(single))
    (cpucount, minutes), *_ = measured.items()
    factor = minutes / (CHEW_A + CHEW_B / cpucount)
    return Profile(measured, CHEW_A * factor, CHEW_B * factor, scaled_from_chew=factor)


def single_point_assumption(profile: Profile) -> str:
    """The assumption a one-time profile rests on, with the numbers that shaped it."""
    (cpucount, minutes), *_ = profile.measured.items()
    return (
        f"Only one single-job time was given ({minutes:.1f} min at CPUCOUNT={cpucount}), so "
        "the times at other CPUCOUNT values assume the job scales like chew's PROC LOESS: "
        f"chew's Amdahl profile T1(c) = {CHEW_A:.2f} + {CHEW_B:.2f}/c min, scaled by "
        f"{profile.scaled_from_chew:.3g} to pass through the measured point. Measure a second "
        "CPUCOUNT to replace this assumption with your job's own profile."
    )
