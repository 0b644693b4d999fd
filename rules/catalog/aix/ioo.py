"""Rule aix.ioo: JFS2 read-ahead and write-behind sized for the max transfer (bartucca2005
'Results from running dd'; ibm-aix-ioo)."""

from __future__ import annotations

from rules.catalog.aix.common import (
    AIX70,
    BARTUCCA_TRANSFER_KB,
    IOO_PAPER,
    J2_MAX_PAGE_READ_AHEAD_DEFAULT,
    MAX_SCALE,
    ON_AIX,
    check,
    tune,
)
from rules.derive.io import choose_transfer
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule


def _ioo_values(kb: int) -> tuple[dict[str, int], str]:
    """The paper's values for 256 KB, scaled linearly for other sizes (an inference)."""
    if kb == BARTUCCA_TRANSFER_KB:
        return {n: new for n, (_, new) in IOO_PAPER.items()}, ""
    scale = min(kb / BARTUCCA_TRANSFER_KB, MAX_SCALE)
    values = {n: max(d, round(new * scale)) for n, (d, new) in IOO_PAPER.items()}
    values["sync_release_ilock"] = 1
    note = (
        f" The paper measured 256 KB transfers; scaling its values by {scale:g} for {kb} KB is "
        "an inference"
        + (f", capped at {MAX_SCALE}×" if kb / BARTUCCA_TRANSFER_KB > scale else "")
        + " (never below the defaults)."
    )
    return values, note


def _restricted(inv: Inventory, name: str) -> bool:
    return name == "sync_release_ilock" and inv.server.version >= AIX70


def _restricted_note(inv: Inventory, restricted: bool) -> str:
    if not restricted:
        return ""
    return (
        f" Restricted on AIX {inv.server.os_version} (needs -F) — an unconfirmed inference "
        "from captured ioo output."
    )


@rule(
    id="aix.ioo",
    title="JFS2 read-ahead and write-behind sized for the max transfer (ioo)",
    sources=("bartucca2005", "ibm-aix-ioo"),
    settings=(
        (AIX_SCRIPT, "j2_minPageReadAhead"),
        (AIX_SCRIPT, "j2_nPagesPerWriteBehindCluster"),
        (AIX_SCRIPT, "sync_release_ilock"),
        (AIX_SCRIPT, "check:ioo -o j2_maxPageReadAhead"),
    ),
    applies=ON_AIX,
    inputs=("server.os_version", "storage[].filesystem", "storage[].max_transfer_kb"),
)
def ioo(inv: Inventory, out: Emitter) -> None:
    """Raise read-ahead and write-behind so JFS2 issues full max-transfer I/Os."""
    jfs2 = [s for s in inv.storage if s.filesystem == "jfs2"]
    if not jfs2:
        out.skip("storage", "no JFS2 file system: the j2_* ioo tunables do not apply")
        return
    choice = choose_transfer(jfs2)
    if choice.kb is None:
        out.skip(choice.missing or "storage", f"ioo values need it: {choice.reason}")
        return
    values, note = _ioo_values(choice.kb)
    why = f"Make {choice.kb} KB transfers the common case: {choice.reason}.{note}"
    for name, value in values.items():
        restricted = _restricted(inv, name)
        tune(
            out, "ioo", name, str(value), str(IOO_PAPER[name][0]), restricted=restricted,
            rationale=why + _restricted_note(inv, restricted),
            evidence="bartucca2005 'Results from running dd' (2→16, 32→128, 0→1)",
            effect="bartucca2005 run 4: almost every physical transfer was 256 KB.",
        )  # fmt: skip
    check(
        out, "check:ioo -o j2_maxPageReadAhead", "ioo -o j2_maxPageReadAhead",
        f"at least {values['j2_minPageReadAhead']} (the new j2_minPageReadAhead); default "
        f"{J2_MAX_PAGE_READ_AHEAD_DEFAULT}",
        "j2_maxPageReadAhead must stay ≥ j2_minPageReadAhead (and below "
        "j2_nBufferPerPagerDevice, technote swg21640392).",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (ioo,)
