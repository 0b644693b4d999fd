"""Proving an SPD Server configuration before and after: bogacz2012's concurrency test.

Source: bogacz2012 l.246-254 — before the change, 10 concurrent jobs (each joining two SPD
Server tables with "case when" and "order by", 3.38 million rows back) took 9-12 min and
20 hung after 10 min; after it, 10 took 7-9 min, 20 took 19-21 min, 30 finished in
30-40 min, and the configuration ran almost two years without a performance issue.
"""

from __future__ import annotations

from rules.derive.scope import with_spds
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SYSTEM, Rule, rule

# bogacz2012 l.250-252: 10, 20 and (after the change) 30 jobs at once.
BOGACZ_CONCURRENCY_STEPS = (10, 20, 30)


def concurrency_steps(sessions: int) -> list[int]:
    """bogacz2012's 10/20/30 up to the peak sessions, and the peak itself."""
    steps = [n for n in BOGACZ_CONCURRENCY_STEPS if n < sessions]
    return [*steps, sessions]


@rule(
    id="spds.concurrency_test",
    title="Time the same query at rising concurrency before and after the change",
    sources=("bogacz2012",),
    settings=((SYSTEM, "SPD Server concurrency test"),),
    applies=with_spds,
    inputs=("workload.concurrent_sessions",),
)
def concurrency_test(inv: Inventory, out: Emitter) -> None:
    """A check to run, not a setting: the paper's benchmark scaled to the peak sessions."""
    steps = ", ".join(str(n) for n in concurrency_steps(inv.workload.concurrent_sessions))
    out.set(
        SYSTEM,
        "SPD Server concurrency test",
        steps,
        rationale=f"Before changing spdsserv.parm, and again after, submit {steps} copies at "
        "once of one representative query (bogacz2012 l.250: a join of two SPD Server tables "
        "with 'case when' and 'order by') and log each job's real and CPU time with "
        "-FULLSTIMER. Keep the change only if run times hold and nothing hangs at the peak: "
        "bogacz2012's 20 jobs hung after 10 min before and took 19-21 min after (l.252).",
        evidence="bogacz2012 l.246-254: 10 jobs 9-12 → 7-9 min; 20 hung → 19-21 min; 30 in "
        "30-40 min",
        effect="bogacz2012 l.254: almost two years without a performance issue",
        kind="check",
    )


RULES: tuple[Rule, ...] = (concurrency_test,)
