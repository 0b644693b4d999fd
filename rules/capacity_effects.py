"""What pohl2007 measured threading and piping to buy, quoted beside a capacity prediction."""

from __future__ import annotations

from dataclasses import dataclass

# pohl2007 Table 3 (Unix), run time as % of v9 at 1 CPU without piping.
POHL_THREADING_PCT: dict[int, float] = {2: 87.2, 4: 86.4, 8: 85.5}
POHL_PIPING_PCT: dict[int, float] = {1: 70.4, 2: 57.6, 4: 57.5, 8: 57.5}


@dataclass(frozen=True)
class Effect:
    source: str
    label: str
    percent_of_baseline: float
    applies_to: str


def pohl_effects(cpucount: int) -> tuple[Effect, ...]:
    """pohl2007 Table 3 ratios that apply at this CPUCOUNT (nearest measured at or below)."""
    scope = "DATA step → PROC SUMMARY/TABULATE pipelines (pohl2007 Table 3, Unix)"
    effects = []
    threads = max((k for k in POHL_THREADING_PCT if k <= cpucount), default=None)
    if threads is not None:
        effects.append(
            Effect(
                "pohl2007",
                f"THREADS with CPUCOUNT={threads}: run time {POHL_THREADING_PCT[threads]} % "
                "of the 1-CPU time (no further gain past 2 CPUs)",
                POHL_THREADING_PCT[threads],
                scope,
            )
        )
    piped = max(k for k in POHL_PIPING_PCT if k <= max(cpucount, 1))
    effects.append(
        Effect(
            "pohl2007",
            f"MP CONNECT piping (SASESOCK) at {piped} CPU(s): run time {POHL_PIPING_PCT[piped]} % "
            "of baseline (57.6–70.4 % across 1–2 CPUs)",
            POHL_PIPING_PCT[piped],
            scope + "; needs SAS/CONNECT",
        )
    )
    return tuple(effects)
