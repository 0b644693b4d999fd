"""SAS logs: diagnose the steps of real jobs from their FULLSTIMER figures.

`rules.parse.saslog` reads a log; `findings` applies the papers' rules to each step;
`digest` folds the steps into bounded totals, the longest steps and the largest findings
as they are read; `analysis` assembles the timeline, the what-if estimates and the option
comparison.
"""

from __future__ import annotations

from rules.logs.analysis import analyse, analyse_lines
from rules.logs.findings import Finding, diagnose

__all__ = ["Finding", "analyse", "analyse_lines", "diagnose"]
