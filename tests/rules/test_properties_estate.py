"""Invariants of the advice over generated inventories with the estate fields (issue 24,
item 5), each over 500 documents (`tests.rules.estate_strategies`, every one valid by
`rules.validate.parse`, which `rules.advise` runs first):

1. no pair of settings the OS would refuse: AIX's orders between tunables (the ORDERS the
   script checks, IBM "Sequential page read ahead", the `vmo -L` dependencies) and
   maxfree − minfree ≥ j2_maxPageReadAhead (ibm-aix-minfree), each within its `-L` range;
   Linux's dirty limits (kernel-vm-sysctl: background below the limit, one form of each
   pair, values within the sysctl's range);
2. no memory over-commit without a warning: sessions × MEMSIZE, SPD Server's sort memory,
   the ZFS ARC and the GPFS pagepool past the RAM;
3. no advice to format or make a file system of another type, and no local type advised
   for a shared mount;
4. no RHEL wording on another distribution;
5. no per-job option site-wide: a setting the catalog gives to programs (target
   `program`: BUFNO, BUFSIZE, SGIO …) never in a SAS config file, and BUFNO only beside
   direct I/O (bartucca2005 l.647);
6. aix_tuning.sh checks every change before its first: each value its apply phase sets is
   a `tune` of the plan, followed by the order checks it takes part in, and the script runs
   the check phase, stops on a problem, then backs up and applies. linux_tuning.sh the same
   way: each value it sets is an `item` of the tuned.conf plan (or a mount's `mount_item`),
   and it runs the whole plan once in its check phase (key or file present and writable,
   value one the kernel takes), stops on a problem, then backs up and applies
   (tests/rules/test_estate_linux_check_phase.py runs the refusals).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import rules
from rules.catalog import CATALOG
from rules.model import PROGRAM
from rules.render.aix_tuning import ORDERS
from rules.units import parse_size_mb
from rules.versions import version_tuple
from tests.conftest import example as example_document
from tests.rules.aix_script import RANGES
from tests.rules.estate_strategies import estate_inventory
from tests.rules.test_estate_linux_distro import NOT_RHEL, RHEL_WORD, texts
from tests.rules.test_properties import size_mb

# Issue 24 item 5: at least 500 generated inventories per invariant, in CI as anywhere.
EXAMPLES = 500
ESTATE = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# --- 1. pairs of settings ------------------------------------------------------------------

# AIX defaults where neither the plan nor the server says (IBM "vmo"/"ioo" references;
# aix-defaults-secondary): 5.3's and 6.1's cache limits differ.
AIX_DEFAULTS = {
    "j2_minPageReadAhead": "2", "j2_maxPageReadAhead": "128", "minfree": "960",
    "maxfree": "1088",
}  # fmt: skip
CACHE_DEFAULTS = {(5,): ("20", "80", "80"), (6, 1): ("3", "90", "90")}
# The kernel's ranges (Documentation/admin-guide/sysctl/vm.rst; mm/page-writeback.c:
# dirty_bytes takes at least two pages, the ratios 0..100; swappiness 0..100 on every
# kernel, 200 from 5.8).
PAGE = 4096
SYSCTL_RANGES = {
    "dirty_ratio": (0, 100), "dirty_background_ratio": (0, 100), "swappiness": (0, 100),
    "dirty_bytes": (2 * PAGE, 2**63), "dirty_background_bytes": (0, 2**63),
    "min_free_kbytes": (0, 2**31),
}  # fmt: skip


def _aix_known(result: dict[str, Any]) -> dict[str, int]:
    """Each ioo/vmo tunable's value once the plan has run: planned, else the server's
    (inventory.current), else AIX's default."""
    inv = result["inventory"]
    release = version_tuple(inv["server"]["os_version"])
    cache = CACHE_DEFAULTS[(6, 1) if release >= (6, 1) else (5,)]
    known = AIX_DEFAULTS | dict(zip(("minperm%", "maxperm%", "maxclient%"), cache, strict=True))
    current = inv.get("current") or {}
    for table in ("aix_vmo", "aix_ioo"):
        known |= current.get(table) or {}
    for rec in result["recommendations"]:
        if rec["extra"].get("command") in ("ioo", "vmo") and rec["kind"] == "change":
            known[rec["setting"]] = rec["value"]
    return {name: int(value) for name, value in known.items() if value.isdigit()}


FREE_LIST = ("minfree", "maxfree")


def _l_number(text: str) -> int:
    """A MIN or MAX as `ioo -L` prints it: K, M, G are powers of 1024."""
    power = "KMG".find(text[-1]) + 1
    return int(text[:-1] if power else text) * 1024**power


def _planned(result: dict[str, Any], command: str) -> dict[str, str]:
    return {
        rec["setting"]: rec["value"]
        for rec in result["recommendations"]
        if rec["extra"].get("command") == command and rec["kind"] == "change"
    }


def check_aix_pairs(result: dict[str, Any]) -> None:
    planned = _planned(result, "ioo") | _planned(result, "vmo")
    known = _aix_known(result)
    ram_pages = result["inventory"]["server"]["ram_gb"] * 1024**3 / PAGE
    for name, value in planned.items():
        low, high = RANGES.get(name, ("0", "2G"))
        top = ram_pages if name in FREE_LIST else _l_number(high)  # -L's MAX follows the RAM
        assert _l_number(low) <= int(value) <= top, (name, value, (low, high))
    for _, lower, op, _, higher in ORDERS:
        if (lower in planned or higher in planned) and {lower, higher} <= known.keys():
            a, b = known[lower], known[higher]
            assert a < b if op == "lt" else a <= b, (lower, a, higher, b)
    if {"minfree", "maxfree"} & planned.keys():  # ibm-aix-minfree
        gap = known["maxfree"] - known["minfree"]
        assert gap >= known["j2_maxPageReadAhead"], (known, planned)


def _linux_planned(result: dict[str, Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for rec in result["recommendations"]:
        option = rec["extra"].get("option", "")
        if rec["target"] == "tuned.conf" and option.removeprefix("vm.") in SYSCTL_RANGES:
            found[option.removeprefix("vm.")] = int(rec["value"])
    return found


def check_linux_pairs(result: dict[str, Any]) -> None:
    planned = _linux_planned(result)
    for name, value in planned.items():
        low, high = SYSCTL_RANGES[name]
        assert low <= value <= high, (name, value)
    for ratio, size in (("dirty_ratio", "dirty_bytes"),
                        ("dirty_background_ratio", "dirty_background_bytes")):  # fmt: skip
        assert not {ratio, size} <= planned.keys(), f"{ratio} and {size}: one is in effect"
    for low, high in (("dirty_background_ratio", "dirty_ratio"),
                      ("dirty_background_bytes", "dirty_bytes")):  # fmt: skip
        if {low, high} <= planned.keys():
            assert planned[low] < planned[high], (low, planned[low], high, planned[high])
    ram_bytes = result["inventory"]["server"]["ram_gb"] * 1024**3
    assert planned.get("dirty_bytes", 0) <= ram_bytes, (planned, ram_bytes)


def check_pairs(document: dict[str, Any]) -> None:
    result = rules.advise(document)
    if document["server"]["os"] == "aix":
        check_aix_pairs(result)
    else:
        check_linux_pairs(result)
    memsize, sortsize = size_mb(result, "MEMSIZE"), size_mb(result, "SORTSIZE")
    assert memsize is None or sortsize is None or sortsize < memsize


def lemans_minfree_above_the_planned_maxfree() -> dict[str, Any]:
    """The smallest refusal hypothesis found, on bartucca2005's own server (AIX 5.3, 8
    CPUs): the server runs minfree 4096, above aix.vmo_free's 1024, so minfree is kept;
    maxfree was planned from the formula's minfree (2048, below the kept 4096), which the
    script's check phase refused. maxfree now follows the kept minfree."""
    doc = example_document("lemans-aix53-etl")
    return doc | {"current": {"aix_vmo": {"minfree": "4096"}, "source": "vmo -a"}}


def lemans_minperm_above_the_papers_maxperm() -> dict[str, Any]:
    """aix.vmo planned the paper's maxperm% 60 beside the server's minperm% 80: vmo refuses
    minperm% ≥ maxperm%. minperm% is now lowered first."""
    doc = example_document("lemans-aix53-etl")
    return doc | {"current": {"aix_vmo": {"minperm%": "80"}, "source": "vmo -a"}}


ON_AIX_OR_LINUX = st.sampled_from(["aix", "linux"]).flatmap(estate_inventory)


@ESTATE
@given(ON_AIX_OR_LINUX)
@example(lemans_minfree_above_the_planned_maxfree())
@example(lemans_minperm_above_the_papers_maxperm())
def test_no_setting_pair_the_os_would_refuse(document: dict[str, Any]) -> None:
    check_pairs(document)


# --- 2. memory --------------------------------------------------------------------------------

MEMORY_WORDS = re.compile(r"\b(RAM|memory)\b", re.IGNORECASE)
# The smallest over-commit hypothesis found (shrunk by hand to round figures): a GPFS node
# whose pagepool (pinned memory, IBM Storage Scale) and MEMSIZE 32G for one session passed
# its 64 GB. rules.derive.memory now draws the pagepool and, on Linux, the ZFS ARC's bound
# off the RAM before SAS's half.
PAGEPOOL_OVER_RAM: dict[str, Any] = {
    "schema_version": 1, "name": "gpfs node",
    "server": {"hostname": "a", "os": "linux", "os_version": "9", "cpus": 8, "ram_gb": 64,
               "gpfs_pagepool_gb": 48},
    "sas": {"version": "9.4", "connect_licensed": False, "spds": None},
    "storage": [{"name": "d", "mount": "/sasdata", "role": "data", "raid": "0", "disks": 4,
                 "size_gb": 1000, "media": "ssd", "filesystem": "gpfs"}],
    "workload": {"concurrent_sessions": 1, "mix": {"etl": 1.0}, "largest_table_gb": 10,
                 "total_data_gb": 100},
}  # fmt: skip


def _spds_sort_mb(result: dict[str, Any]) -> float:
    for rec in result["recommendations"]:
        if rec["target"] == "spdsserv.parm" and rec["setting"] == "SORTSIZE":
            return parse_size_mb(rec["value"])
    return 0.0


def _arc_gb(result: dict[str, Any]) -> float:
    """The ZFS ARC's bound once the advice is followed: zfs.arc's, else the server's (on
    Solaris only where SAS has a ZFS file system for zfs.arc to bound; on Linux wherever
    the bound is recorded: the ARC then exists, whatever it caches)."""
    inv = result["inventory"]
    ram = inv["server"]["ram_gb"]
    for rec in result["recommendations"]:
        if rec["setting"] == "ZFS ARC bound":
            name, value = rec["value"].split("=")
            pct = int(value) if name == "user_reserve_hint_pct" else None
            return ram * (1 - pct / 100) if pct is not None else parse_size_mb(value) / 1024
    on_zfs = any(s["filesystem"] == "zfs" for s in inv["storage"])
    if not on_zfs and inv["server"]["os"] != "linux":
        return 0.0
    return float(inv["server"].get("zfs_arc_max_gb") or 0)


def committed_mb(result: dict[str, Any]) -> float:
    """What the advice lets SAS, SPD Server and the file system caches take at once."""
    inv = result["inventory"]
    sessions = inv["workload"]["concurrent_sessions"]
    caches = _arc_gb(result) + (inv["server"].get("gpfs_pagepool_gb") or 0)
    sas = sessions * ((size_mb(result, "MEMSIZE") or 0) + _spds_sort_mb(result))
    return sas + caches * 1024


def check_memory(document: dict[str, Any]) -> None:
    result = rules.advise(document)
    total, ram = committed_mb(result), document["server"]["ram_gb"] * 1024
    warned = [w for w in result["warnings"] if MEMORY_WORDS.search(w["message"])]
    assert total <= ram or warned, (total, ram, [w["rule"] for w in result["warnings"]])


@ESTATE
@given(estate_inventory())
@example(PAGEPOOL_OVER_RAM)
def test_no_memory_over_commit_without_a_warning(document: dict[str, Any]) -> None:
    """SAS sessions, SPD Server's sort memory, the GPFS pagepool and the ZFS ARC (Solaris:
    as zfs.arc bounds it; Linux: its recorded bound) past the RAM: a memory warning says so."""
    check_memory(document)


# --- 3. file system types ------------------------------------------------------------------

# Commands that make a file system, and the type each makes (Windows format and
# Format-Volume, Linux mkfs, AIX crfs, Solaris newfs and zpool, Storage Scale mmcrfs).
MAKES = (
    (re.compile(r"/FS:(\w+)", re.I), None), (re.compile(r"-FileSystem\s+(\w+)", re.I), None),
    (re.compile(r"\bmkfs\.(\w+)"), None), (re.compile(r"\bmkfs\s+-[tF]\s+(\w+)"), None),
    (re.compile(r"\bcrfs\s+-v\s+(\w+)"), None), (re.compile(r"\bnewfs\b"), "ufs"),
    (re.compile(r"\bzpool\s+create\b"), "zfs"), (re.compile(r"\bmmcrfs\b"), "gpfs"),
)  # fmt: skip
# linux.mount_checks: "(xfs advised)" for every mount it checks, or "(xfs advised for the
# local A, B)"; linux.filesystems: "Use XFS for new SAS file systems" for the mount it names.
XFS_ADVISED = re.compile(r"\(xfs advised(?: for the local ([^)]*))?\)")
USE_XFS = "Use XFS for new"


def _said(result: dict[str, Any]) -> list[str]:
    """Each record's words: a recommendation's value, rationale and extras; a warning's."""
    said = [" ".join([r["value"], r["rationale"], *r["extra"].values()])
            for r in result["recommendations"]]  # fmt: skip
    return said + [w["message"] + " " + w["action"] for w in result["warnings"]]


def _named(text: str, storage: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The storage entries whose mount the text names (not as the start of a longer one)."""
    return [s for s in storage
            if re.search(re.escape(s["mount"]) + r"(?![\w.\\/-])", text)]  # fmt: skip


def _shared(entry: dict[str, Any]) -> bool:
    shared = entry.get("shared")
    return entry["filesystem"] in ("nfs", "gpfs") if shared is None else shared != "none"


def check_filesystem_types(result: dict[str, Any]) -> None:
    storage = result["inventory"]["storage"]
    for text in _said(result):
        for pattern, made in MAKES:
            for found in pattern.finditer(text):
                fs = (made or found.group(1)).lower()
                wrong = [s["mount"] for s in _named(text, storage) if s["filesystem"] != fs]
                assert not wrong, f"makes {fs} on {wrong}: {text[:300]}"
    for text in _local_type_said(result):
        shared = [s["mount"] for s in _named(text, storage) if _shared(s)]
        assert not shared, f"a local type advised for shared {shared}: {text[:300]}"


def _local_type_said(result: dict[str, Any]) -> list[str]:
    """The words that advise a local file system type, with the mounts they advise it for."""
    said = [w["message"] for w in result["warnings"] if USE_XFS in w["action"]]
    for rec in result["recommendations"]:
        for found in XFS_ADVISED.finditer(rec["extra"].get("expect", "")):
            said.append(found.group(1) if found.group(1) else rec["value"])
    return said


@ESTATE
@given(estate_inventory())
def test_no_advice_to_reformat_a_file_system_of_another_type(document: dict[str, Any]) -> None:
    check_filesystem_types(rules.advise(document))


# --- 4. RHEL wording -----------------------------------------------------------------------


@st.composite
def non_rhel(draw: st.DrawFn) -> dict[str, Any]:
    doc = draw(estate_inventory("linux")) | {"name": "a generated server"}  # echoed as given
    doc["server"]["distribution"] = draw(st.sampled_from(NOT_RHEL))
    return doc


@ESTATE
@given(non_rhel())
def test_no_rhel_wording_on_another_distribution(document: dict[str, Any]) -> None:
    found = [t for t in texts(rules.advise(document)) if RHEL_WORD.search(t)]
    assert not found, found[0][:300]


# --- 5. per-job options --------------------------------------------------------------------

# The catalog's marker: a setting a rule declares for `program` is given per job. SGIO
# is said per job by io.direct_io's advice (sas-win-sgio), under its own setting name.
PER_JOB = {s for r in CATALOG for t, s in r.settings if t == PROGRAM} | {"SGIO"}
OPTIONS = {s for s in PER_JOB if re.fullmatch(r"[A-Z]+", s)}
CONFIG_LINE = re.compile(r"^\s*-(" + "|".join(sorted(OPTIONS)) + r")\b", re.I | re.M)


def check_per_job(result: dict[str, Any]) -> None:
    for rec in result["recommendations"]:
        if rec["setting"] in PER_JOB:
            assert rec["target"] == PROGRAM and rec["kind"] == "advice", rec
    for name, text in result["artifacts"].items():
        if name.endswith(".cfg"):
            assert not CONFIG_LINE.search(text), (name, CONFIG_LINE.findall(text))
    rules_used = {r["rule"] for r in result["recommendations"]}
    if "io.bufno" in rules_used:  # bartucca2005 l.647: BUFNO 16 measured under direct I/O
        assert "io.direct_io" in rules_used, sorted(rules_used)


@ESTATE
@given(estate_inventory())
def test_no_site_wide_option_measured_only_per_job(document: dict[str, Any]) -> None:
    check_per_job(rules.advise(document))


# --- 6. the AIX script checks before it changes --------------------------------------------

BODY = re.compile(r"^changes\(\) \{\n(.*?)^\}\n", re.S | re.M)
STEPS = {":", "tune", "keeps", "check", "check_disks", "if", "else", "fi", "offer",
         "dio_mount", "make_dir"}  # fmt: skip
MAIN_ORDER = ("\ncapture\n", "\nchanges\n", 'if [ -n "$PROBLEMS" ]', "\nPHASE=plan\n",
              "\n  backup\n", "\nPHASE=apply\n")  # fmt: skip


def _statements(script: str) -> list[list[str]]:
    found = BODY.search(script)
    assert found, "no changes() in aix_tuning.sh"
    lines = (line.strip() for line in found.group(1).splitlines())
    return [shlex.split(line) for line in lines if line and not line.startswith("#")]


def check_aix_script(result: dict[str, Any]) -> None:
    script = result["artifacts"]["aix_tuning.sh"]
    statements = _statements(script)
    assert {s[0].rstrip(";") for s in statements} <= STEPS, statements
    tunes = [tuple(s[1:]) for s in statements if s[0] == "tune"]
    planned = [(r["extra"]["command"], r["setting"], r["value"])
               for r in result["recommendations"]
               if r["target"] == "aix_tuning.sh"
               and r["extra"].get("command") in ("ioo", "vmo")]  # fmt: skip
    assert tunes == planned
    for i, s in enumerate(statements):
        if s[0] != "tune":
            continue
        after = [tuple(k[1:]) for k in statements[i + 1 :][: len(ORDERS)] if k[0] == "keeps"]
        wanted = [o for o in ORDERS if (s[1], s[2]) in ((o[0], o[1]), (o[3], o[4]))]
        assert after[: len(wanted)] == wanted, (s, after)
    places = [script.index(mark) for mark in MAIN_ORDER]
    assert places == sorted(places), places
    assert "\nPHASE=check\n" in script.split("\ncapture() {")[0]


@st.composite
def aix_inventory(draw: st.DrawFn) -> dict[str, Any]:
    return draw(estate_inventory("aix"))


@ESTATE
@given(aix_inventory())
def test_aix_script_checks_every_change_before_the_first(document: dict[str, Any]) -> None:
    check_aix_script(rules.advise(document))


LINUX_BODY = re.compile(r"^(plan|mounts)\(\) \{\n(.*?)^\}\n", re.S | re.M)
LINUX_ORDER = ("\nPHASE=show\nplan\nmounts\n", "\nPHASE=check\nplan\nmounts\n",
               'if [ -n "$PROBLEMS" ]', 'if [ "$DRY_RUN" = 1 ]',
               '\nbackup\nif [ "$USE_TUNED" = 1 ]', "\napply_mounts\n")  # fmt: skip


def _linux_statements(script: str) -> dict[str, list[list[str]]]:
    found = {name: body for name, body in LINUX_BODY.findall(script)}
    assert set(found) == {"plan", "mounts"}, sorted(found)
    return {
        name: [shlex.split(line.strip()) for line in body.splitlines()
               if line.strip() and not line.strip().startswith("#")]
        for name, body in found.items()
    }  # fmt: skip


def _linux_script_plan(result: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, value) of each tuned.conf change, one per device, as the script sets it."""
    planned = []
    for rec in result["recommendations"]:
        extra = rec["extra"]
        if rec["target"] != "tuned.conf" or rec["kind"] != "change" or "path" not in extra:
            continue
        value = " ".join([rec["value"], *extra.get("alternatives", "").split()])
        for device in extra.get("devices", "").split() or [""]:
            planned.append((extra["path"].replace("{dev}", device), value.removeprefix(">")))
    return planned


def check_linux_script(result: dict[str, Any]) -> None:
    script = result["artifacts"]["linux_tuning.sh"]
    body = _linux_statements(script)
    assert {s[0] for s in body["plan"]} <= {":", "item"}, body["plan"]
    assert {s[0] for s in body["mounts"]} <= {":", "mount_item"}, body["mounts"]
    items = [(s[2], s[3]) for s in body["plan"] if s[0] == "item"]
    assert items == _linux_script_plan(result), (items, _linux_script_plan(result))
    places = [script.index(mark) for mark in LINUX_ORDER]
    assert places == sorted(places), places


@ESTATE
@given(estate_inventory("linux"))
@example(example_document("linux-192core-4tb"))  # dirty_bytes pairs, md0, NVMe, governor
def test_linux_script_checks_every_change_before_the_first(document: dict[str, Any]) -> None:
    check_linux_script(rules.advise(document))
