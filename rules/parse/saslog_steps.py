"""What reading a SAS log gives: its steps (each with the data sets it read and wrote),
its header, the problems met on the way, and a whole log with its steps in a list.
`rules.parse.saslog` fills them; `rules.logs` diagnoses them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple


class DataSet(NamedTuple):
    name: str
    observations: int
    variables: int | None = None


class Step(NamedTuple):
    """One step's footer and what its NOTEs said. Times in seconds, memory in KB; None
    where the log does not say (STIMER has no user/system split, Windows no page faults)."""

    number: int
    name: str  # "DATA step", "PROC SORT"
    line: int  # the log line of its "NOTE: … used" footer
    real: float | None = None
    user_cpu: float | None = None
    system_cpu: float | None = None
    stimer_cpu: float | None = None  # STIMER's single "cpu time"
    memory_kb: float | None = None
    os_memory_kb: float | None = None
    timestamp: datetime | None = None
    page_faults: int | None = None
    page_reclaims: int | None = None
    page_swaps: int | None = None
    voluntary_switches: int | None = None
    involuntary_switches: int | None = None
    block_input: int | None = None
    block_output: int | None = None
    reads: tuple[DataSet, ...] = ()
    writes: tuple[DataSet, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def cpu(self) -> float | None:
        """User plus system CPU (FULLSTIMER), or STIMER's cpu time."""
        if self.user_cpu is not None or self.system_cpu is not None:
            return (self.user_cpu or 0.0) + (self.system_cpu or 0.0)
        return self.stimer_cpu

    @property
    def proc(self) -> str:
        """'SORT' for PROC SORT, 'DATA' for a DATA step."""
        return self.name.removeprefix("PROC ") if self.name.startswith("PROC ") else "DATA"


class Problem(NamedTuple):
    line: int
    message: str


@dataclass
class Header:
    release: str | None = None  # "9.4", "9.1", "8.2"
    build: str | None = None  # "TS1M3"
    platform: str | None = None  # "Linux 3.10.0-327.el7.x86_64 (LIN X64)", "X64_7PRO"
    host: str | None = None  # "Additional host information"

    @property
    def version(self) -> str | None:
        """'9.1.3' for 9.1 TS1M3, '9.4M3' for 9.4 TS1M3, the release otherwise."""
        if self.release is None:
            return None
        maint = self.build[4:] if self.build and self.build[:4] in ("TS1M", "TS2M") else ""
        if self.release == "9.1" and maint:
            return f"9.1.{maint}"
        return f"{self.release}M{maint}" if maint and self.release >= "9.2" else self.release

    @property
    def os(self) -> str | None:
        """'windows' or 'unix' from the platform name SAS prints."""
        if not self.platform:
            return None
        head = self.platform.split()[0].upper()
        windows = ("X64_", "W32_", "XP_", "WIN", "NET_", "WX6", "XP", "X86")
        return "windows" if head.startswith(windows) else "unix"


@dataclass
class SasLog:
    header: Header
    steps: list[Step]
    session: Step | None
    initialization: Step | None
    options: list[tuple[int, str, str]]
    problems: list[Problem]
    fullstimer: bool
    lines: int
    step_count: int = 0  # every step read, kept in `steps` or not
