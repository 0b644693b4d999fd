"""Rules: MP CONNECT piping with the SASESOCK engine (source: pohl2007).

pohl2007 timed a DATA step feeding PROC TABULATE on 1.2–38.4 GB of claims data. Piping the
DATA step's output through a TCP socket (LIBNAME … SASESOCK) instead of writing it to WORK
cut the run time to 70.4 % of the baseline with a single-threaded TABULATE and to 57.6 %
with two CPUs (Table 3, Unix); threads alone got only to 87.2 %. Splitting the job by hand
into 2, 4 or 8 parallel TABULATEs was no better than threads (89.7–91.7 %) and, piped, got
worse as the ways grew (58.9 %, 62.8 %, 66.5 %).
"""

from __future__ import annotations

from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import PROGRAM, Rule, rule
from rules.payloads import CodeExample

# pohl2007 Table 3 (Unix), run time as a share of v9 with 1 CPU and no pipe.
PIPED_1CPU_PCT = 70.4
PIPED_2CPU_PCT = 57.6
MANUAL_UNPIPED_PCT = (90.2, 89.7, 91.7)  # 2-, 4-, 8-way
MANUAL_PIPED_PCT = (58.9, 62.8, 66.5)  # 2-, 4-, 8-way

# pohl2007 measured the gain at every size from 1.2 GB (10 million records) to 38.4 GB;
# below the smallest size it is unmeasured.
POHL_SMALLEST_TABLE_GB = 1.2
# "Summary-heavy": the advisor's judgement, not a paper figure — a quarter of the workload
# is DATA step → PROC SUMMARY/TABULATE pipelines.
SUMMARY_SHARE_MIN = 0.25
# Writer and reader run as two processes at once; pohl2007 warns it is unclear how well
# piping works when they compete for a single CPU.
PIPE_MIN_CPUS = 2

# The example's data library, in the path form of the server's system.
DATA_PATHS = {"windows": "D:\\path\\to\\data"}
POSIX_DATA_PATH = "/path/to/data"
EXAMPLE = """\
options comamid=tcp;
signon datatask sascmd="sas -cpucount 1";
signon task0 sascmd="sas -cpucount 2 -threads";
rsubmit process=datatask wait=no;
  libname savedata '{data_path}';
  libname outlib0 sasesock ':7000';
  data outlib0.q; set savedata.claims; /* … */ run;
endrsubmit;
rsubmit process=task0 wait=no;
  libname inlib0 sasesock ':7000';
  proc tabulate data=inlib0.q; /* … */ run;
endrsubmit;
waitfor _all_ datatask task0;
signoff _all_;"""

GAIN = f"run time to {PIPED_2CPU_PCT:.0f}–{PIPED_1CPU_PCT:.0f} % of the unpiped job"
AVOID_MANUAL = (
    f"Do not split the job by hand into parallel PROCs: pohl2007 measured "
    f"{min(MANUAL_UNPIPED_PCT):g}–{max(MANUAL_UNPIPED_PCT):g} % unpiped and "
    f"{min(MANUAL_PIPED_PCT):g}–{max(MANUAL_PIPED_PCT):g} % piped, worse as the ways grew."
)


def _example(inv: Inventory) -> str:
    """The MP CONNECT example with a data path of the server's system (D:\\… on Windows)."""
    return EXAMPLE.replace("{data_path}", DATA_PATHS.get(inv.server.os, POSIX_DATA_PATH))


def summary_heavy(inv: Inventory) -> str | None:
    """Summary-heavy work on tables at least as large as pohl2007's, on 2+ CPUs."""
    work = inv.workload
    if work.mix.summary < SUMMARY_SHARE_MIN:
        return (
            f"summaries are {work.mix.summary:.0%} of the mix, under the "
            f"{SUMMARY_SHARE_MIN:.0%} that makes piping worth rewriting programs for"
        )
    if work.largest_table_gb < POHL_SMALLEST_TABLE_GB:
        return (
            f"the largest table ({work.largest_table_gb:g} GB) is below the smallest "
            f"pohl2007 measured ({POHL_SMALLEST_TABLE_GB:g} GB)"
        )
    if inv.server.cpus < PIPE_MIN_CPUS:
        return "one CPU: writer and reader would compete for it (pohl2007)"
    return None


def _space_note(inv: Inventory) -> str:
    """Piping's other gain (pohl2007 l.20: it "reduces the demand for disk space"), said
    where WORK cannot hold the largest table."""
    work = inv.by_role("work", "utilloc")
    space = sum(s.size_gb for s in {s.mount: s for s in work}.values())
    table = inv.workload.largest_table_gb
    if not work or space >= table:
        return ""
    return (
        f" WORK is short too ({space:g} GB for a {table:g} GB table): a piped DATA step's "
        "output never lands in WORK, and pohl2007 (l.20) notes that piping reduces the "
        "demand for disk space."
    )


def _inputs(inv: Inventory) -> str:
    return (
        f"{inv.workload.mix.summary:.0%} of the work is DATA step → PROC SUMMARY/TABULATE "
        f"on tables up to {inv.workload.largest_table_gb:g} GB"
    )


@rule(
    id="piping.mp_connect",
    title="Pipe DATA step output into the summary PROC over SASESOCK",
    sources=("pohl2007",),
    settings=((PROGRAM, "SASESOCK piping"),),
    applies=summary_heavy,
    inputs=("workload.mix", "workload.largest_table_gb", "server.cpus", "sas.connect_licensed"),
)
def mp_connect(inv: Inventory, out: Emitter) -> None:
    """Advice, not a config line: piping is written into the programs themselves."""
    if not inv.sas.connect_licensed:
        out.warn(
            f"{_inputs(inv)}, but SAS/CONNECT is not licensed. With it, MP CONNECT piping "
            f"(LIBNAME SASESOCK) would cut that {GAIN} (pohl2007 Table 3: "
            f"{PIPED_1CPU_PCT} % with 1 CPU, {PIPED_2CPU_PCT} % with 2).",
            action="Weigh a SAS/CONNECT licence against that gain."
            + _space_note(inv)
            + " "
            + AVOID_MANUAL,
            severity="low",
        )
        return
    out.set(
        PROGRAM,
        "SASESOCK piping",
        "MP CONNECT: DATA step writes to LIBNAME SASESOCK, the PROC reads from it",
        rationale=(
            f"{_inputs(inv)} and SAS/CONNECT is licensed: run the DATA step and the PROC as "
            "two MP CONNECT tasks joined by a SASESOCK socket instead of a WORK data set, "
            "with CPUCOUNT 2 for the PROC." + _space_note(inv)
        ),
        evidence="pohl2007 Table 3 (Unix): scenarios 6–9 and 13–15; l.20 (less disk space)",
        effect=(
            f"{GAIN}: {PIPED_1CPU_PCT} % with a 1-CPU PROC, {PIPED_2CPU_PCT} % with 2 CPUs, "
            "no further gain at 4 or 8 (pohl2007 Table 3)"
        ),
        kind="advice",
        payload=CodeExample(_example(inv), AVOID_MANUAL),
        gain_pct=round(100 - PIPED_2CPU_PCT, 1),
    )


RULES: tuple[Rule, ...] = (mp_connect,)
