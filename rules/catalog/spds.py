"""Rules: SAS Scalable Performance Data Server (spdsserv.parm, libnames.parm, file systems).

Source: bogacz2012 (Practice on the SAS SPD Server Configuration for Maximum Performance),
with the SPD Server 5.3 Administrator's Guide (spds5-docs) for what changed in 5.x. Every
rule here does nothing when the inventory has no SPD Server (`sas.spds` is null).

Order matters in two places: spds.memory sets SORTSIZE before spds.threads derives the
5.x MAXSORTTHREADS from it, and spds.parm_rest sets TMPDOMAIN before spds.libnames
declares the TMP domain it names.
"""

from __future__ import annotations

from rules.catalog import spds_layout, spds_libnames, spds_parm, spds_tuning
from rules.model import Rule

RULES: tuple[Rule, ...] = (
    *spds_layout.RULES,  # spds.data_paths, spds.layout
    *spds_tuning.RULES,  # spds.memory, spds.threads, spds.partsize
    *spds_parm.RULES,  # spds.parm_rest
    *spds_libnames.RULES,  # spds.libnames
)
