"""Every file the advisor writes. Adding one is a module with a RENDERER and a line here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import AIX_SCRIPT, LINUX_SCRIPT, TUNED
from rules.render import (
    aix_tuning,
    ansible,
    libnames_parm,
    linux_tuning,
    sasv9_cfg,
    spdsserv_parm,
    tuned_profile,
)
from rules.render.base import Renderer

if TYPE_CHECKING:
    from rules.engine import Decisions

REGISTRY: tuple[Renderer, ...] = (
    sasv9_cfg.RENDERER,
    spdsserv_parm.RENDERER,
    libnames_parm.RENDERER,
    aix_tuning.RENDERER,
    tuned_profile.RENDERER,
    linux_tuning.RENDERER,
    ansible.LINUX,
    ansible.AIX,
)

# Files whose lines are another file's settings written another way: linux_tuning.sh
# installs tuned.conf (or applies its values without tuned), the playbooks set the same
# values through Ansible. A summary counts those settings once, in the file they belong to.
APPLIES_SETTINGS_OF: dict[str, str] = {
    LINUX_SCRIPT: TUNED,
    ansible.LINUX_FILE: TUNED,
    ansible.AIX_FILE: AIX_SCRIPT,
}


def render_all(decisions: Decisions) -> dict[str, str]:
    """File name on the server -> file text, for every renderer that applies."""
    inv = decisions.inventory
    return {r.file_name(inv): r.render(decisions) for r in REGISTRY if r.applies(inv)}
