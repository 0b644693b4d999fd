"""Properties of the whole engine over ANY valid inventory (docs/contract.md).

The strategy covers every OS and role/raid/media/filesystem value, 0..512 storage entries,
mixes summing to 1, tiny and huge machines, SPD Server on and off, every SAS version and
optional fields absent or null. For each: `advise` never raises and its output keeps the
invariants the papers set (SORTSIZE < MEMSIZE, CPUCOUNT ≤ CPUs, sessions × MEMSIZE ≤ RAM
or a memory warning), cites known sources, and every generated script parses.
"""

from __future__ import annotations

import random
import re
import subprocess
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.inventory import FILESYSTEMS, MEDIA, MIX_KEYS, OS_NAMES, RAID_LEVELS, ROLES, SAS_VERSIONS
from rules.sources import SOURCES
from rules.units import parse_size_mb
from rules.validate import MAX_STORAGE, parse
from rules.versions import version_tuple
from tests.conftest import example
from tests.rules.fitting import fit_filesystems, fit_total

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCRIPT_SETTINGS = settings(max_examples=25, deadline=None)

OS_VERSIONS = {
    "aix": ["4.3", "5.1", "5.2", "5.3", "6.1", "7.1", "7.2", "7.3", "7"],
    "linux": ["3.10", "4.18", "5.14", "9", "8.10"],
    "solaris": ["10", "11.4"],
    "hpux": ["11.31"],
    "windows": ["6.3", "10.0"],
}
HOSTILE_NAMES = ["it's */ done /* x", "$(reboot) `id` \\", "x\u2028y\x85z", "é" * 200, ""]
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
# A device name never starts with "-" (the contract: it would read as an option).
DEVICE = st.text(NAME_CHARS, min_size=1, max_size=12).filter(lambda s: s[0] != "-")
SEGMENT = st.text(NAME_CHARS, min_size=1, max_size=10).map(lambda s: "_" + s)
HOSTNAME = st.sampled_from(["lemans", "uxsas02p", "a", "sas-01.example.com", "9" * 63])
KB = st.one_of(st.none(), st.sampled_from([4, 64, 256, 1024, 1048576]), st.integers(1, 1048576))
# A stripe unit a RAID can have (rules.inventory_fit): a multiple of 4 KB up to 128 MB,
# mostly powers of two as controllers set them.
STRIPE_KB = st.one_of(
    st.none(), st.integers(2, 17).map(lambda n: 2**n), st.integers(1, 32768).map(lambda n: 4 * n)
)


def optional(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """{} (absent), {key: None} (null) or {key: value}."""
    return st.one_of(st.just({}), values.map(lambda v: {key: v}))


# Strategies are built once: building them inside a draw costs more than drawing.
ENTRY_FIELDS = st.fixed_dictionaries(
    {
        "name": DEVICE,
        "mount": SEGMENT,
        "role": st.sampled_from(ROLES),
        "raid": st.sampled_from(RAID_LEVELS),
        "disks": st.one_of(st.integers(1, 64), st.just(100000)),
        "size_gb": st.one_of(st.just(1e-6), st.floats(0.5, 1e6), st.just(1e9)),
        "media": st.sampled_from(MEDIA),
        "filesystem": st.sampled_from(FILESYSTEMS),
    }
)
ENTRY_OPTIONS = st.tuples(
    optional("stripe_kb", STRIPE_KB),
    optional("max_transfer_kb", KB),
    optional("adapters", st.one_of(st.none(), st.lists(DEVICE, max_size=3))),
)
GROWTH = optional("growth_gb_per_week", st.one_of(st.none(), st.floats(0, 1e3)))
MIX_SHARES = st.lists(
    st.tuples(st.sampled_from(MIX_KEYS), st.floats(0.01, 100)),
    min_size=1, max_size=4, unique_by=lambda kv: kv[0],
)  # fmt: skip


def entry(fields: dict[str, Any], options: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    for extra in options:
        fields = fields | extra
    return fields


SMALL_STORAGE = st.lists(st.builds(entry, ENTRY_FIELDS, ENTRY_OPTIONS), max_size=10)


def bulk_storage(count: int, seed: int) -> list[dict[str, Any]]:
    """Many entries cheaply: hypothesis draws the count and seed, not every field."""
    rng = random.Random(seed)
    return [
        {
            "name": f"lv{i}", "mount": f"/data/m{i}", "role": rng.choice(ROLES),
            "raid": rng.choice(RAID_LEVELS), "disks": rng.randint(1, 48),
            "stripe_kb": rng.choice([None, 64, 256]),
            "max_transfer_kb": rng.choice([None, 128, 256, 1024]),
            "size_gb": rng.uniform(1, 5000), "media": rng.choice(MEDIA),
            "filesystem": rng.choice(FILESYSTEMS), "adapters": [f"fscsi{i % 4}"],
        }
        for i in range(count)
    ]  # fmt: skip


@st.composite
def storage(draw: st.DrawFn) -> list[dict[str, Any]]:
    if draw(st.integers(0, 9)) == 9:  # one in ten, at most: a big installation
        return bulk_storage(draw(st.integers(100, MAX_STORAGE)), draw(st.integers(0, 2**16)))
    entries = draw(SMALL_STORAGE)
    for i, item in enumerate(entries):
        item["mount"] = f"/{item['mount']}/m{i}"  # the index keeps mounts unique
    return entries


@st.composite
def mix(draw: st.DrawFn) -> dict[str, float]:
    shares = draw(MIX_SHARES)
    total = sum(w for _, w in shares)
    return {k: w / total for k, w in shares}


NAME = st.one_of(
    st.sampled_from(HOSTILE_NAMES),
    st.text(max_size=40).map(lambda t: re.sub(r"[\x00-\x1f\x7f]", "", t)),
)
CPUS = st.one_of(st.sampled_from([1, 2, 4, 8, 4096]), st.integers(1, 4096))
RAM_GB = st.one_of(st.sampled_from([0.001, 0.5, 16, 65536]), st.floats(0.01, 65536))
SESSIONS = st.one_of(st.integers(1, 200), st.just(100000))
SPDS = st.one_of(st.none(), st.sampled_from(["4.4", "4.5", "5.1", "5.3", "6"]))


def gigabytes(top: float) -> st.SearchStrategy[float]:
    return st.one_of(st.just(0.0), st.floats(0, top), st.just(1e9))


@st.composite
def inventory(draw: st.DrawFn) -> dict[str, Any]:
    os_name = draw(st.sampled_from(OS_NAMES))
    spds = draw(SPDS)
    server = {
        "hostname": draw(HOSTNAME), "os": os_name,
        "os_version": draw(st.sampled_from(OS_VERSIONS[os_name])),
        "cpus": draw(CPUS), "ram_gb": draw(RAM_GB),
    }  # fmt: skip
    sas = {
        "version": draw(st.sampled_from(SAS_VERSIONS)),
        "connect_licensed": draw(st.booleans()),
        "spds": None if spds is None else {"version": spds},
    }
    workload = {
        "concurrent_sessions": draw(SESSIONS), "mix": draw(mix()),
        "largest_table_gb": draw(gigabytes(1e5)), "total_data_gb": draw(gigabytes(1e6)),
    } | draw(GROWTH)  # fmt: skip
    entries = draw(storage())
    if os_name == "windows":
        entries = [{**e, "mount": windows_mount(e["mount"])} for e in entries]
    if os_name == "linux":
        server |= draw(LINUX_SERVER)
        entries = [{**e, "devices": draw(LINUX_DEVICES)} for e in entries[:20]] + entries[20:]
    document = {
        "schema_version": 1, "name": draw(NAME), "server": server, "sas": sas,
        "storage": entries, "workload": workload,
    }  # fmt: skip
    return fit_total(fit_filesystems(document))


def windows_mount(mount: str) -> str:
    """/_a/m0 → D:\\_a\\m0: the same unique path on a Windows drive."""
    return "D:" + mount.replace("/", "\\")


def posix_mount(mount: str) -> str:
    return mount[2:].replace("\\", "/") if mount[1:2] == ":" else mount


LINUX_SERVER = st.fixed_dictionaries(
    {},
    optional={
        "distribution": st.sampled_from(
            ["rhel", "ol", "centos", "rocky", "alma", "sles", "ubuntu", "debian", "other", None]
        ),
        "kernel": st.sampled_from(["3.10.0", "4.18.0", "5.13", "5.14.0", "6.8.0", None]),
    },
)
LINUX_DEVICES = st.lists(
    st.sampled_from(["sda", "sdb", "nvme0n1", "dm-3", "xvdb", "vdc", "md0"]), max_size=3
)


def size_mb(result: dict[str, Any], setting: str) -> float | None:
    windows = result["inventory"]["server"]["os"] == "windows"
    config = (
        "sasv9_append.cfg"
        if result["inventory"]["sas"]["version"] == "9.1.3" or windows
        else "sasv9_local.cfg"
    )
    for rec in result["recommendations"]:
        if rec["target"] == config and rec["setting"] == setting and rec["kind"] == "change":
            return parse_size_mb(rec["value"])
    return None


# A skipped rule names the input it lacked: a path into the contract; a missing storage
# entry of some role is named by its role (`storage[role=spds_work]`).
FIELD = re.compile(
    r"^(server(\.(hostname|os|os_version|cpus|ram_gb))?|sas(\.(version|connect_licensed|spds"
    r"(\.version)?))?|storage(\[(\d+|role=\w+)\](\.(name|mount|role|raid|disks|stripe_kb|max_transfer_kb"
    r"|size_gb|media|filesystem|adapters|devices))?)?|workload(\.(concurrent_sessions|mix(\.\w+)?"
    r"|largest_table_gb|total_data_gb|growth_gb_per_week))?)$"
)


def check_invariants(result: dict[str, Any]) -> None:
    inv = result["inventory"]
    memsize, sortsize = size_mb(result, "MEMSIZE"), size_mb(result, "SORTSIZE")
    if memsize is not None and sortsize is not None:
        assert sortsize < memsize
    for rec in result["recommendations"]:
        assert rec["sources"] and set(rec["sources"]) <= set(SOURCES), rec
        if rec["setting"] == "CPUCOUNT" and rec["value"] != "ACTUAL":
            assert 1 <= int(rec["value"]) <= inv["server"]["cpus"]
    for warning in result["warnings"]:
        assert warning["sources"] and set(warning["sources"]) <= set(SOURCES), warning
    for skip in result["skipped"]:
        assert FIELD.match(skip["field"]), skip
    check_memory_budget(result, memsize)
    check_sizes(result)
    check_aix_tunables(result)


def _parm_mb(result: dict[str, Any], setting: str) -> float:
    for rec in result["recommendations"]:
        if rec["target"] == "spdsserv.parm" and rec["setting"] == setting:
            return parse_size_mb(rec["value"])
    return 0.0


def check_memory_budget(result: dict[str, Any], memsize: float | None) -> None:
    """SAS sessions × MEMSIZE plus SPD Server's sort memory per session fit RAM, or a memory
    rule says they do not (issue: budget memory once across SAS, SPD Server and the OS)."""
    inv = result["inventory"]
    sessions = inv["workload"]["concurrent_sessions"]
    total = sessions * ((memsize or 0) + _parm_mb(result, "SORTSIZE"))
    fits = total <= inv["server"]["ram_gb"] * 1024
    rules_warned = {w["rule"] for w in result["warnings"]}
    assert fits or rules_warned & {"memory.memsize", "spds.memory"}, (total, rules_warned)


# bartucca2005 l.269: SORTSIZE 4G is the most any paper ran; chew l.63-69: bigger is not
# always faster. Page sizes: SAS BUFSIZE= takes multiples of 8K (BUFSIZE= data set option).
SORTSIZE_MAX_MB = 4096


def check_sizes(result: dict[str, Any]) -> None:
    sortsize = size_mb(result, "SORTSIZE")
    assert sortsize is None or sortsize <= SORTSIZE_MAX_MB
    for rec in result["recommendations"]:
        if rec["setting"] in ("BUFSIZE", "PROC SORT PAGESIZE"):
            kb = parse_size_mb(rec["value"]) * 1024
            assert kb % 8 == 0 and kb >= 8, rec["value"]
        if rec["setting"] == "PARTSIZE":  # bogacz2012: PARTSIZE only ever raises the size
            assert float(rec["value"]) >= _parm_mb(result, "MINPARTSIZE"), rec["value"]


# Tunables the vendor restricts from AIX 6.1 (IBM "Tunable parameters type"; a 7.3 ioo/vmo
# capture) and tunables gone on later releases (Oracle 19c AIX guide: lru_file_repage from
# 7.1, strict_* deprecated from 7.2); before 5.2 there is no vmo or ioo at all.
RESTRICTED_FROM_61 = {
    "maxperm%", "maxclient%", "strict_maxperm", "strict_maxclient", "lru_file_repage",
    "sync_release_ilock",
}  # fmt: skip
GONE = {"lru_file_repage": (7, 1), "strict_maxperm": (7, 2), "strict_maxclient": (7, 2)}


def check_aix_tunables(result: dict[str, Any]) -> None:
    server = result["inventory"]["server"]
    if server["os"] != "aix":
        return
    release = version_tuple(server["os_version"])
    for rec in result["recommendations"]:
        command = rec["extra"].get("command")
        if command not in ("ioo", "vmo"):
            continue
        assert release >= (5, 2), f"{command} does not exist on AIX {server['os_version']}"
        name = rec["setting"]
        assert release < GONE.get(name, (99,)), f"{name} is gone on {server['os_version']}"
        if rec["kind"] == "change" and release >= (6, 1):
            assert name not in RESTRICTED_FROM_61, f"restricted {name} changed"


@SETTINGS
@given(inventory())
def test_advise_never_raises_and_keeps_the_invariants(document: dict[str, Any]) -> None:
    check_invariants(rules.advise(document))


@SETTINGS
@given(inventory())
def test_validation_round_trips(document: dict[str, Any]) -> None:
    inv = parse(document)
    assert parse(inv.to_dict()) == inv


@st.composite
def aix_inventory(draw: st.DrawFn) -> dict[str, Any]:
    document = draw(inventory())
    release = draw(st.sampled_from(OS_VERSIONS["aix"]))
    server = {k: v for k, v in document["server"].items() if k not in ("distribution", "kernel")}
    entries = [{**e, "mount": posix_mount(e["mount"])} for e in document["storage"]]
    server |= {"os": "aix", "os_version": release}
    return fit_filesystems({**document, "server": server, "storage": entries})


@SCRIPT_SETTINGS
@given(aix_inventory())
def test_every_generated_script_parses(document: dict[str, Any]) -> None:
    artifacts = rules.advise(document)["artifacts"]
    scripts = [text for name, text in artifacts.items() if name.endswith(".sh")]
    assert scripts
    for text in scripts:
        done = subprocess.run(["sh", "-n"], input=text, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_the_examples_keep_the_invariants() -> None:
    for name in ("lemans-aix53-etl", "prime-spds-aix"):
        check_invariants(rules.advise(example(name)))
