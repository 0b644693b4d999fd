"""A log's steps folded, as they are read, into what its analysis shows, in memory that
does not grow with the log: totals and per-procedure sums over every step, the longest
steps, a timeline of at most MAX_TIMELINE bars, and the findings, at most
MAX_FINDINGS_PER_RULE of each kind (the largest savings, then the longest steps) with
the rest counted. The what-if sums run over every finding, kept or not, so a log under
the bounds is analysed exactly as if every step were held.

A night's log has tens to hundreds of steps; a log of 300,000 is a loop, and a finding
for each of its steps says nothing the first fifty do not.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from rules.logs.findings import Finding, step_findings
from rules.parse.saslog import Step

TOP_STEPS = 10
MAX_TIMELINE = 300  # bars; past it consecutive steps share a bar
MAX_FINDINGS_PER_RULE = 50
MAX_PROCEDURES = 200  # procedures summed apart; a log naming more is not a real job
SHOWN_PROCEDURES = 20
OTHER = "other"
SAVING_KINDS = {"log.would_thread": "cpucount", "log.pipeline": "piping"}  # the rest: io
WAITS = ("log.io_bound", "log.sort_spill")  # findings whose waiting solid state would cut
# What the omitted findings of a kind are, for "and 12,345 more steps like this".
LABELS = {
    "log.io_bound": "steps that waited on I/O",
    "log.sort_spill": "sorts that spilled to disk",
    "log.would_thread": "single-threaded steps of procedures SAS threads",
    "log.single_threaded": "CPU-bound steps of procedures SAS does not thread",
    "log.scales": "steps that already ran threaded",
    "log.paging": "steps that paged",
    "log.cpu_contention": "steps pre-empted by other work",
    "log.pipeline": "DATA step and procedure pairs that could be piped",
}


@dataclass(slots=True)
class Bar:
    step: int
    last: int
    name: str
    start: float
    real: float
    cpu: float

    def row(self) -> dict[str, Any]:
        row = {"step": self.step, "name": self.name, "start": self.start}
        row |= {"real": self.real, "cpu": self.cpu}
        if self.last != self.step:  # a shared bar says how many steps it holds
            row |= {"name": f"steps {self.step}-{self.last}", "steps": self.last - self.step + 1}
        return row


class Timeline:
    """Bars of [start, start + real) in seconds from the job's start, in step order; when
    MAX_TIMELINE bars are full, each pair of neighbours becomes one bar."""

    def __init__(self) -> None:
        self.bars: list[Bar] = []
        self.size = 1  # steps a bar holds
        self.clock = 0.0
        self._open: Bar | None = None
        self._count = 0  # steps in the open bar

    def add(self, step: Step) -> None:
        real, cpu = step.real or 0.0, step.cpu or 0.0
        if self._open is not None and self._count < self.size:
            self._open.last = step.number
            self._open.real += real
            self._open.cpu += cpu
            self._count += 1
        else:
            if self._open is not None:
                self._close()
            self._open = Bar(step.number, step.number, step.name, self.clock, real, cpu)
            self._count = 1
        self.clock += real

    def _close(self) -> None:
        assert self._open is not None
        self.bars.append(self._open)
        if len(self.bars) == MAX_TIMELINE:
            pairs = zip(self.bars[::2], self.bars[1::2], strict=True)  # MAX_TIMELINE is even
            self.bars = [_merged(first, second) for first, second in pairs]
            self.size *= 2

    def rows(self) -> list[dict[str, Any]]:
        bars = [*self.bars, self._open] if self._open is not None else self.bars
        return [bar.row() for bar in bars]


def _merged(first: Bar, second: Bar) -> Bar:
    real, cpu = first.real + second.real, first.cpu + second.cpu
    return Bar(first.step, second.last, first.name, first.start, real, cpu)


class Kind:
    """One rule's findings: the MAX_FINDINGS_PER_RULE largest kept, every one counted."""

    def __init__(self) -> None:
        self.count = 0
        self.saving = 0.0
        self._heap: list[tuple[float, float, int, Finding]] = []

    def add(self, finding: Finding, real: float) -> None:
        self.count += 1
        self.saving += finding.saving
        entry = (finding.saving, real, -finding.step, finding)
        if len(self._heap) < MAX_FINDINGS_PER_RULE:
            heapq.heappush(self._heap, entry)
        elif entry[:3] > self._heap[0][:3]:
            heapq.heapreplace(self._heap, entry)

    def kept(self) -> list[Finding]:
        return [entry[3] for entry in self._heap]


class Digest:
    """Feed the steps in order (`add`), then `finish` with the session's totals."""

    def __init__(self, cpus: int = 0) -> None:
        self.cpus = cpus
        self.count = 0
        self.real = 0.0
        self.cpu = 0.0
        self.timeline = Timeline()
        self.procedures: dict[str, list[float]] = {}  # proc -> [steps, real, cpu]
        self.kinds: dict[str, Kind] = {}
        self.savings = {"io": 0.0, "cpucount": 0.0, "piping": 0.0}
        self.best = 0.0  # each step's largest saving, summed
        self.waiting = 0.0  # real beyond CPU of the steps that waited on I/O
        self._top: list[tuple[float, int, Step]] = []
        self._previous: Step | None = None

    def add(self, step: Step) -> None:
        self.count += 1
        self.real += step.real or 0.0
        self.cpu += step.cpu or 0.0
        self.timeline.add(step)
        self._procedure(step)
        if step.real is not None:
            entry = (step.real, -step.number, step)
            if len(self._top) < TOP_STEPS:
                heapq.heappush(self._top, entry)
            elif entry[:2] > self._top[0][:2]:
                heapq.heapreplace(self._top, entry)
        findings = step_findings(step, self._previous, self.cpus)
        self._judge(findings, step.real or 0.0)
        if any(f.rule in WAITS for f in findings):
            self.waiting += max(0.0, (step.real or 0.0) - (step.cpu or 0.0))
        self._previous = step

    def finish(self, session: Step | None) -> None:
        """A log with session totals alone (the papers' excerpts) is judged as one unit."""
        if not self.count and session is not None:
            self._judge(step_findings(session, None, self.cpus), session.real or 0.0)

    def _procedure(self, step: Step) -> None:
        name = step.proc
        if name not in self.procedures and len(self.procedures) >= MAX_PROCEDURES:
            name = OTHER
        sums = self.procedures.setdefault(name, [0, 0.0, 0.0])
        sums[0] += 1
        sums[1] += step.real or 0.0
        sums[2] += step.cpu or 0.0

    def _judge(self, findings: list[Finding], real: float) -> None:
        best = 0.0
        for finding in findings:
            self.kinds.setdefault(finding.rule, Kind()).add(finding, real)
            if finding.saving > 0:
                self.savings[SAVING_KINDS.get(finding.rule, "io")] += finding.saving
                best = max(best, finding.saving)
        if best > 0:
            self.best += best

    def top_steps(self) -> list[Step]:
        return [entry[2] for entry in sorted(self._top, reverse=True)]

    def findings(self) -> list[Finding]:
        """The findings kept, in step order."""
        kept = [f for kind in self.kinds.values() for f in kind.kept()]
        return sorted(kept, key=lambda f: (f.step, f.rule))

    def findings_total(self) -> int:
        return sum(kind.count for kind in self.kinds.values())

    def omitted(self) -> list[dict[str, Any]]:
        """Per kind, the findings not kept: how many and what they could save."""
        rows = []
        for rule, kind in sorted(self.kinds.items()):
            kept = kind.kept()
            if kind.count > len(kept):
                saving = max(0.0, kind.saving - sum(f.saving for f in kept))
                rows.append(
                    {
                        "rule": rule,
                        "label": LABELS.get(rule, "steps like these"),
                        "count": kind.count - len(kept),
                        "saving_seconds": saving,
                    }
                )
        return rows

    def procedure_rows(self) -> list[dict[str, Any]]:
        """The procedures that took the most real time, with their step counts."""
        ranked = sorted(self.procedures.items(), key=lambda item: -item[1][1])
        return [
            {"proc": name, "steps": int(sums[0]), "real": sums[1], "cpu": sums[2]}
            for name, sums in ranked[:SHOWN_PROCEDURES]
        ]
