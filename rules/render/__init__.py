"""Renderers: one module per output file, each `render(result) -> str`.

Renderers only format; every decision was made by a rule. `render_artifacts` picks the
files that apply to the inventory: the SAS site config always, the SPD Server files when
`sas.spds` is set, the AIX script when `server.os` is aix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.render import aix_tuning, libnames_parm, sasv9_cfg, spdsserv_parm

if TYPE_CHECKING:
    from rules.engine import Result


def render_artifacts(result: Result) -> dict[str, str]:
    inv = result.inventory
    files = {inv.sas.config_file: sasv9_cfg.render(result)}
    if inv.sas.spds is not None:
        files["spdsserv.parm"] = spdsserv_parm.render(result)
        files["libnames.parm"] = libnames_parm.render(result)
    if inv.server.os == "aix":
        files["aix_tuning.sh"] = aix_tuning.render(result)
    return files
