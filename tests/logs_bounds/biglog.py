"""Large SAS logs written in pieces: the PROC PRINT step of a real SAS 9.4 log
(tests/fixtures/parse/saslog/unix94_fullstimer_wrapped_sspkmnd.log, its source lines, NOTEs
and FULLSTIMER footer) repeated with the procedure, data set and figures varied, so each
step gets the finding its kind is built for. A 60 MB log is written in about a second."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import NamedTuple

FIXTURE = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "parse"
    / "saslog"
    / "unix94_fullstimer_wrapped_sspkmnd.log"
)
FIRST, LAST = "90         proc print", "      Block Output Operations"
STEPS_A_PIECE = 1000  # blocks formatted and written at a time


class Kind(NamedTuple):
    proc: str
    real: float  # seconds, before the per-step variation
    user: float
    faults: int
    involuntary: int
    rule: str  # the finding it is built for


# Each one over 30 s (MIN_STEP_SECONDS), shaped for one rule of rules.logs.findings.
KINDS = (
    Kind("PRINT", 60.0, 5.0, 0, 2, "log.io_bound"),
    Kind("SORT", 90.0, 20.0, 0, 2, "log.sort_spill"),
    Kind("MEANS", 45.0, 44.5, 0, 2, "log.would_thread"),
    Kind("FREQ", 40.0, 39.5, 0, 2, "log.single_threaded"),
    Kind("REPORT", 40.0, 28.0, 10_000, 5_000, "log.paging"),  # and log.cpu_contention
)


def template() -> str:
    """The fixture's PROC PRINT step with its figures as format fields."""
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    start = next(at for at, line in enumerate(lines) if line.startswith(FIRST))
    end = next(at for at, line in enumerate(lines) if line.startswith(LAST) and at > start)
    text = "\n".join(lines[start : end + 1]) + "\n\n"
    for old, new in (
        ("proc print data=sashelp.cars", "proc {lower} data=work.t{table}"),
        ("There were 428", "There were {n}"),
        ("SASHELP.CARS.", "WORK.T{table}."),
        ("PROCEDURE PRINT", "PROCEDURE {proc}"),
        ("1.91 seconds", "{real:.2f} seconds"),
        ("1.90 seconds", "{user:.2f} seconds"),
        ("Page Faults                       0", "Page Faults                       {faults}"),
        ("Context Switches      2", "Context Switches      {involuntary}"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    return text


def blocks(first: int, count: int, block: str, expected: Counter[str]) -> str:
    """Steps first … first + count - 1; counts the findings each should give."""
    piece = []
    for n in range(first, first + count):
        kind = KINDS[n % len(KINDS)]
        vary = (n * 7919) % 1000 / 100  # up to 10 s more, so steps differ
        fields = kind._asdict() | {"real": kind.real + vary, "user": kind.user + vary}
        piece.append(block.format(**fields, lower=kind.proc.lower(), table=n % 97, n=n))
        expected[kind.rule] += 1
        expected["log.cpu_contention"] += kind.rule == "log.paging"
    return "".join(piece)


def text(steps: int) -> tuple[str, Counter[str]]:
    """A log of `steps` steps in memory, and the findings each rule should give."""
    expected: Counter[str] = Counter()
    return blocks(0, steps, template(), expected), expected


def write(path: Path, size: int) -> Counter[str]:
    """A log of at least `size` bytes at `path`, written a piece at a time; the findings
    each rule should give."""
    block, expected = template(), Counter[str]()
    written, first = 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < size:
            piece = blocks(first, STEPS_A_PIECE, block, expected)
            out.write(piece)
            written += len(piece)
            first += STEPS_A_PIECE
    return expected
