"""Rules: SAS Scalable Performance Data Server (spdsserv.parm, libnames.parm, file systems).

Source: bogacz2012 (Practice on the SAS SPD Server Configuration for Maximum Performance),
with the SPD Server 5.3 Administrator's Guide (spds5-docs) for what changed in 5.x. Every
rule here applies only where the inventory has an SPD Server (`sas.spds` is set).

Order matters in two places, both declared with `reads`: spds.memory sets SORTSIZE before
spds.threads derives the 5.x MAXSORTTHREADS from it, and spds.tmpdomain sets TMPDOMAIN
before spds.libnames declares the TMP domain it names.
"""

from __future__ import annotations

from rules.catalog.spds import layout, libnames, parm, tuning, validation
from rules.model import Rule

RULES: tuple[Rule, ...] = (
    *layout.RULES,  # spds.data_paths, spds.layout
    *tuning.RULES,  # spds.memory, spds.threads, spds.partsize
    *parm.RULES,  # spds.buffers, spds.server, spds.planner, spds.workpath, spds.tmpdomain, …
    *libnames.RULES,  # spds.libnames
    *validation.RULES,  # spds.concurrency_test
)
