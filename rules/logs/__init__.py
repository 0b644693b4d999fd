"""SAS logs: diagnose the steps of real jobs from their FULLSTIMER figures.

`rules.parse.saslog` reads a log; `findings` applies the papers' rules to each step;
`analysis` assembles the timeline, the what-if estimates and the option comparison.
"""

from __future__ import annotations

from rules.logs.analysis import analyse
from rules.logs.findings import Finding, diagnose

__all__ = ["Finding", "analyse", "diagnose"]
