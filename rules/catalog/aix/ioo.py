"""Rule aix.ioo: JFS2 read-ahead and write-behind sized for the max transfer (bartucca2005
l.246-257 'Results from running dd'; ibm-aix-ioo). Restricted tunables are checked, never
changed (ibm-aix-tunables). Where the server's j2_maxPageReadAhead is known and below the
new j2_minPageReadAhead, it is raised first (ibm-aix-readahead); where it is not known,
aix_tuning.sh checks the order before its first change.

On AIX 7.1 and later IBM's later figures for SAS (ibm-sas-aix71) take the place of the
paper's where they exist: write-behind 64 pages, j2_dynamicBufferPreallocation 256 and a
j2_maxPageReadAhead of 1024, which IBM pairs with j2_nBufferPerPagerDevice 2048. That one is
restricted and applied at mount (aix71-ioo-capture), so the advisor keeps the maximum at half
of what the server runs (technote swg21640392) and says how to reach IBM's figure."""

from __future__ import annotations

from rules.catalog.aix.common import (
    AIX71,
    BARTUCCA_TRANSFER_KB,
    IBM_MAX_READ_AHEAD,
    IOO_LATER,
    IOO_PAPER,
    J2_BUFFERS_DEFAULT,
    J2_MAX_PAGE_READ_AHEAD_DEFAULT,
    MAX_SCALE,
    MULTIUSER_CAVEAT,
    check,
    tune,
    with_tuning_commands,
)
from rules.derive.io import choose_transfer
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule

# What the paper measured with cached I/O, the only runs these tunables act on (run 1;
# runs 2-5 used direct I/O mounts, which bypass read-ahead and write-behind, l.416, l.647).
RUN1_EFFECT = (
    "bartucca2005 run 1 (cached I/O, these ioo values): the file cache turned about five "
    "SAS requests into two disk requests (l.408); /raid0 transfers averaged 490-509 blocks "
    "of 512 bytes, about 250 KB (l.388-399), while /raid5 writes averaged 44 blocks, about "
    "22 KB (l.376, l.386). The paper has no run before these values, so their own gain is "
    "not measured."
)

PAPER_WHY = (
    "bartucca2005 l.252-257 changed it with the two j2_* values, on AIX 5.3, 'to increase "
    "the occurrence of the 256-kilobyte transfers'; IBM describes it as releasing the i-node "
    "lock while syncd flushes a file's dirty pages ('File synchronization performance "
    "tuning')."
)


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


def _current(inv: Inventory, name: str) -> int | None:
    """An ioo tunable as the server runs it, where `ioo -a` was read."""
    table = inv.current.aix_ioo if inv.current is not None else None
    text = table.get(name, "") if table is not None else ""
    return int(text) if text.isdigit() else None


def _current_max(inv: Inventory) -> int | None:
    return _current(inv, "j2_maxPageReadAhead")


def _later_values(kb: int) -> tuple[dict[str, int], dict[str, int], str]:
    """IBM's later figures on 7.1+ (the paper's sync_release_ilock kept): values, defaults."""
    values = {n: new for n, (_, new) in IOO_LATER.items()}
    defaults = {n: d for n, (d, _) in IOO_LATER.items()}
    paper, _ = _ioo_values(kb)
    values["sync_release_ilock"], defaults["sync_release_ilock"] = 1, 0
    note = (
        f" On AIX 7.1 and later IBM's later SAS figures (ibm-sas-aix71) take the place of "
        f"the paper's: write-behind {values['j2_nPagesPerWriteBehindCluster']} pages (the "
        f"paper's {paper['j2_nPagesPerWriteBehindCluster']} for {kb} KB transfers), "
        f"j2_dynamicBufferPreallocation {values['j2_dynamicBufferPreallocation']}."
    )
    return values, defaults, note


def _max_target(inv: Inventory) -> tuple[int, int]:
    """IBM's j2_maxPageReadAhead, kept at half of j2_nBufferPerPagerDevice; the buffers."""
    buffers = _current(inv, "j2_nBufferPerPagerDevice") or J2_BUFFERS_DEFAULT
    return min(IBM_MAX_READ_AHEAD, buffers // 2), buffers


def _later_max(inv: Inventory, out: Emitter, now: int, minimum: int) -> bool:
    """On 7.1+, with the server's value known: raise it towards IBM's figure, never lower;
    False where that is no raise or stays below the minimum (then _raise_max's rule)."""
    target, buffers = _max_target(inv)
    if target <= now or target < minimum:
        return False
    tune(
        out, inv, "ioo", "j2_maxPageReadAhead", str(target), str(J2_MAX_PAGE_READ_AHEAD_DEFAULT),
        rationale=f"IBM's SAS guidance for AIX 7.1 sets j2_maxPageReadAhead {IBM_MAX_READ_AHEAD} "
        f"with j2_nBufferPerPagerDevice 2048 (ibm-sas-aix71). The server runs {now} with "
        f"j2_nBufferPerPagerDevice {buffers}: read-ahead as large as the buffers can take them "
        f"all and deadlock, so IBM keeps it at half of them (technote swg21640392): {target}. "
        "j2_nBufferPerPagerDevice is restricted and applied at mount: raise it with IBM "
        f"support to use {IBM_MAX_READ_AHEAD}. Raised first, as read-ahead grows from "
        "j2_minPageReadAhead up to it (IBM 'Sequential page read ahead').",
        sources=("ibm-sas-aix71", "ibm-aix-ioo", "ibm-aix-readahead", "aix71-ioo-capture"),
        evidence=f"current ioo -a: j2_maxPageReadAhead = {now}, j2_nBufferPerPagerDevice = "
        f"{buffers}",
    )  # fmt: skip
    return True


def _raise_max(inv: Inventory, out: Emitter, now: int, minimum: int) -> None:
    """Raise the maximum first, to the least value that lets the paper's minimum apply."""
    source = inv.current.source if inv.current is not None and inv.current.source else ""
    read = f" (read from {source})" if source else ""
    tune(
        out, inv, "ioo", "j2_maxPageReadAhead", str(minimum),
        str(J2_MAX_PAGE_READ_AHEAD_DEFAULT),
        rationale=f"The server runs j2_maxPageReadAhead {now}{read}, below the "
        f"j2_minPageReadAhead of {minimum} set next: JFS2 read-ahead starts at "
        "j2_minPageReadAhead pages and doubles up to j2_maxPageReadAhead (IBM 'Sequential "
        f"page read ahead'), so the maximum is raised first, to {minimum}, the least that "
        "lets the minimum apply. IBM's default is "
        f"{J2_MAX_PAGE_READ_AHEAD_DEFAULT}: ask why it was lowered to {now} before applying, "
        "and keep it below j2_nBufferPerPagerDevice (technote swg21640392).",
        sources=("ibm-aix-readahead", "ibm-aix-ioo"),
        evidence=f"current ioo -a: j2_maxPageReadAhead = {now}",
    )  # fmt: skip


EVIDENCE_PAPER = "bartucca2005 l.246-257 'Results from running dd' (2→16, 32→128, 0→1)"
EVIDENCE_LATER = (
    "IBM, SAS 9.2 on AIX 7.1 tuning guidelines (ibm-sas-aix71); the paper's own figures: "
    "bartucca2005 l.246-257"
)


def _check_max(out: Emitter, minimum: int, later: bool) -> None:
    ibm = (
        f" IBM's SAS figure on AIX 7.1 is {IBM_MAX_READ_AHEAD} with j2_nBufferPerPagerDevice "
        "2048 (ibm-sas-aix71); without that (restricted, applied at mount) keep it at half of "
        "j2_nBufferPerPagerDevice (512 by default)."
        if later
        else ""
    )
    check(
        out, "check:ioo -o j2_maxPageReadAhead", "ioo -o j2_maxPageReadAhead",
        f"at least {minimum} (the new j2_minPageReadAhead); default "
        f"{J2_MAX_PAGE_READ_AHEAD_DEFAULT}",
        "j2_maxPageReadAhead must stay ≥ j2_minPageReadAhead (and below "
        "j2_nBufferPerPagerDevice, technote swg21640392); aix_tuning.sh checks it "
        "before its first change and changes nothing if it is below." + ibm,
    )  # fmt: skip


def _multiuser(inv: Inventory, out: Emitter) -> None:
    sessions = inv.workload.concurrent_sessions
    if sessions > 1:
        out.warn(
            f"The values aix.ioo sets come from one sort job run alone; this box runs "
            f"{sessions} concurrent sessions.{MULTIUSER_CAVEAT}",
            action="Before keeping the changes, time the usual concurrent job mix (FULLSTIMER "
            "real time) with and without them; sh rollback.sh undoes them.",
            severity="low",
        )


@rule(
    id="aix.ioo",
    title="JFS2 read-ahead and write-behind sized for the max transfer (ioo)",
    sources=(
        "bartucca2005",
        "ibm-aix-ioo",
        "ibm-aix-tunables",
        "aix73-capture",
        "ibm-sas-aix71",
    ),
    settings=(
        (AIX_SCRIPT, "j2_maxPageReadAhead"),
        (AIX_SCRIPT, "j2_minPageReadAhead"),
        (AIX_SCRIPT, "j2_nPagesPerWriteBehindCluster"),
        (AIX_SCRIPT, "j2_dynamicBufferPreallocation"),
        (AIX_SCRIPT, "sync_release_ilock"),
        (AIX_SCRIPT, "check:ioo -o sync_release_ilock"),
        (AIX_SCRIPT, "check:ioo -o j2_maxPageReadAhead"),
    ),
    applies=with_tuning_commands,
    inputs=(
        "server.os_version",
        "storage[].filesystem",
        "storage[].max_transfer_kb",
        "workload.concurrent_sessions",
        "current.aix_ioo",
    ),
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
    later = inv.server.version >= AIX71
    if later:
        values, defaults, note = _later_values(choice.kb)
    else:
        values, note = _ioo_values(choice.kb)
        defaults = {n: d for n, (d, _) in IOO_PAPER.items()}
    why = f"Make {choice.kb} KB transfers the common case: {choice.reason}.{note}"
    known_max, minimum = _current_max(inv), values["j2_minPageReadAhead"]
    raised = known_max is not None and later and _later_max(inv, out, known_max, minimum)
    if known_max is not None and not raised and known_max < minimum:
        _raise_max(inv, out, known_max, minimum)
    for name, value in values.items():
        later_one = later and name in IOO_LATER
        tune(
            out, inv, "ioo", name, str(value), str(defaults[name]),
            rationale=why + MULTIUSER_CAVEAT,
            sources=("ibm-sas-aix71", "bartucca2005") if later_one else None,
            evidence=EVIDENCE_LATER if later_one else EVIDENCE_PAPER,
            effect="" if later_one else RUN1_EFFECT, paper=PAPER_WHY,
        )  # fmt: skip
    if known_max is None:
        _check_max(out, values["j2_minPageReadAhead"], later)
    _multiuser(inv, out)


RULES: tuple[Rule, ...] = (ioo,)
