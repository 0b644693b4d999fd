"""Rules: AIX VMM (vmo), JFS2 I/O (ioo) and device checks, by AIX release.

bartucca2005 tuned AIX 5.3: ioo j2_minPageReadAhead 2→16, j2_nPagesPerWriteBehindCluster
32→128, sync_release_ilock 0→1 for 256 KB transfers ("Results from running dd"), and vmo
maxperm 80→60 with strict_maxperm 0→1 when SAS was paged out by the file cache ("Initial
adjustments"). Later releases changed the VMM (ibm-aix72-vmm, oracle19c-aix): on 6.1+ the
defaults already protect computational pages, lru_file_repage is gone on 7.1+ and the
strict_* knobs are deprecated on 7.2+, so there the advisor checks instead of changing.
On 7.1+ IBM's later SAS figures (ibm-sas-aix71) replace the paper's ioo values where they
exist, and the free list (minfree, maxfree) is sized from the logical CPUs (vmo_free).

A tunable IBM marks as restricted (not for end users) on the box's release is never
changed: the rule emits a read-only check with the paper's value and why (common.RESTRICTED
holds the table, per tunable the first release and the source). Before AIX 5.2 there is no
vmo or ioo at all (vmtune), so those rules do not apply.

Every AIX_SCRIPT recommendation carries a payload for the renderer: a `Tunable` (setting =
tunable, value = new value), a `Check` (kind "check": a read-only command and the healthy
value to expect) or a `DiskCheck` (lsattr of each disk behind a logical volume).
"""

from __future__ import annotations

from rules.catalog.aix import devices, ioo, vmo, vmo_free
from rules.model import Rule

RULES: tuple[Rule, ...] = (*vmo.RULES, *ioo.RULES, *vmo_free.RULES, *devices.RULES)
