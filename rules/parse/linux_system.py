"""Parsers of what a Linux box is: os-release, redhat-release, nproc, lscpu, meminfo.

Sources: os-release(5) (systemd) for the KEY=value syntax; insights-core's parsers and
tests (os_release, redhat_release, lscpu, meminfo) for real captures; util-linux's
lscpu (sys-utils/lscpu.c) and its tests/expected/lscpu dumps for the other layouts: the
RHEL 9 nested sections, repeated "Model name:" blocks on big.LITTLE ARM, s390's
"Socket(s) per book"/"Book(s)", and the translated labels of its po/ files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.parse.linux_text import first_value_line, meaningful, number, require
from rules.parse.registry import Garbled, Section, command, parser, reads_file

MAX_CPUS = 1 << 20


@dataclass(frozen=True)
class OsRelease:
    id: str | None
    version_id: str | None
    name: str | None
    pretty_name: str | None
    fields: dict[str, str] = field(default_factory=dict)


_ASSIGN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]{0,63})=(.*)")


@parser("os_release", reads_file("/*/os-release"), commands=("cat",))
def os_release(section: Section) -> OsRelease:
    fields: dict[str, str] = {}
    for _offset, line in meaningful(section):
        found = _ASSIGN.fullmatch(line.rstrip())
        if found and not line.lstrip().startswith("#"):
            fields[found.group(1)] = _unquote(found.group(2).strip())
    require(fields, section, "KEY=value lines")
    get = fields.get
    return OsRelease(get("ID"), get("VERSION_ID"), get("NAME"), get("PRETTY_NAME"), fields)


_ESCAPED = re.compile(r"\\(.)")


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return _ESCAPED.sub(r"\1", value) if "\\" in value else value


@dataclass(frozen=True)
class RedhatRelease:
    name: str  # "Red Hat Enterprise Linux Server", "CentOS Stream"
    version: str  # "7.2", "8", "6.10"
    codename: str | None


_RELEASE = re.compile(r"(?P<name>.+?) release (?P<version>\d{1,4}(?:\.\d{1,6}){0,3})(?P<rest>.*)")


def _release_file(argv: tuple[str, ...]) -> bool:
    # /etc/redhat-release and its kin (centos-, system-, rocky-…); os-release and
    # lsb-release are KEY=value files with their own reader.
    return reads_file("/etc/*-release")(argv) and not any(
        a.endswith(("/os-release", "/lsb-release", "/SuSE-release")) for a in argv
    )


@parser("redhat_release", _release_file, commands=("cat",))
def redhat_release(section: Section) -> RedhatRelease:
    offset, line = first_value_line(section)
    found = _RELEASE.fullmatch(line)
    if found is None:
        raise Garbled("not a '<name> release <version>' line", offset)
    code = re.search(r"\(([^)]{1,40})\)", found.group("rest"))
    return RedhatRelease(found.group("name"), found.group("version"), code and code.group(1))


@parser("nproc", command("nproc"), commands=("nproc",))
def nproc(section: Section) -> int:
    offset, line = first_value_line(section)
    count = number(line, MAX_CPUS)
    if not count:
        raise Garbled(f"not a processor count: {line[:40]!r}", offset)
    return count


@dataclass(frozen=True)
class Lscpu:
    architecture: str | None
    cpus: int | None  # CPU(s): logical CPUs, on- and off-line
    online_cpus: int | None  # counted from "On-line CPU(s) list"
    threads_per_core: int | None
    cores_per_socket: int | None  # of the first "Model name:" block
    sockets: int | None  # s390: Socket(s) per book x Book(s) (x drawers)
    cores: int | None  # physical cores; see _cores
    model_name: str | None  # None where lscpu prints none or "-" (ARM, s390)
    numa_nodes: int | None
    fields: dict[str, str] = field(default_factory=dict)  # first value of each label


# Labels as lscpu prints them in English and in util-linux's de, fr, es and ja catalogues.
_LABELS = {
    "architecture": ("Architecture", "Architektur", "Arquitectura", "アーキテクチャ"),
    "cpus": ("CPU(s)", "Processeur(s)", "CPU"),
    "online": (
        "On-line CPU(s) list",
        "Liste der Online-CPU(s)",
        "Liste de processeur(s) en ligne",
        "Lista de la(s) CPU(s) en línea",
        "オンラインになっている CPU のリスト",
    ),
    "threads": (
        "Thread(s) per core",
        "Thread(s) pro Kern",
        "Thread(s) par cœur",
        "Hilo(s) de procesamiento por núcleo",
        "コアあたりのスレッド数",
    ),
    "cores": (
        "Core(s) per socket",
        "Core(s) per cluster",
        "Kern(e) pro Sockel",
        "Cœur(s) par socket",
        "Núcleo(s) por «socket»",
        "ソケットあたりのコア数",
    ),
    "sockets": ("Socket(s)", "Cluster(s)", "Sockel", "«Socket(s)»", "ソケット数"),
    "per_book": (
        "Socket(s) per book",
        "Sockel pro Buch",
        "Socket(s) par livre",
        "«Socket(s)» por libro",
        "ブックあたりのソケット数",
    ),
    "books": ("Book(s)", "Buch/Bücher", "Livre(s)", "Libro(s)", "ブック数"),
    "per_drawer": ("Book(s) per drawer",),
    "drawers": ("Drawer(s)",),
    "model_name": ("Model name", "Modellname", "Nom de modèle", "Nombre del modelo", "モデル名"),
    "numa": ("NUMA node(s)", "NUMA-Knoten", "Nœud(s) NUMA", "Modo(s) NUMA", "NUMA ノード数"),
}
_CANON = {label: key for key, labels in _LABELS.items() for label in labels}


@parser("lscpu", command("lscpu"), commands=("lscpu",))
def lscpu(section: Section) -> Lscpu:
    fields: dict[str, str] = {}
    blocks: list[dict[str, int | None]] = [{}]
    for _offset, line in meaningful(section):
        label, colon, value = line.partition(":")
        label, value = label.strip(), value.strip()
        if not colon or not value or not label or len(label) > 80:
            continue  # wrapped Flags, section headings ("Caches (sum of all):")
        fields.setdefault(label, value)
        key = _CANON.get(label)
        if key == "model_name" and blocks[-1].get("cores") is not None:
            blocks.append({})  # a second CPU type (big.LITTLE) starts its own block
        if key in ("cores", "sockets", "per_book", "books", "per_drawer", "drawers"):
            blocks[-1][key] = number(value, MAX_CPUS)
    require(fields, section, "'label: value' lines")
    return _lscpu(fields, blocks)


def _value(fields: dict[str, str], key: str) -> str | None:
    for label in _LABELS[key]:
        if label in fields:
            return fields[label]
    return None


def _lscpu(fields: dict[str, str], blocks: list[dict[str, int | None]]) -> Lscpu:
    cpus = number(_value(fields, "cpus"), MAX_CPUS)
    threads = number(_value(fields, "threads"), 1024)
    model = _value(fields, "model_name")
    sockets = [_sockets(block) for block in blocks]
    return Lscpu(
        architecture=_value(fields, "architecture"),
        cpus=cpus,
        online_cpus=_count_list(_value(fields, "online")),
        threads_per_core=threads,
        cores_per_socket=blocks[0].get("cores"),
        sockets=sockets[0],
        cores=_cores(blocks, sockets, cpus, threads),
        model_name=None if model in (None, "-") else model,
        numa_nodes=number(_value(fields, "numa"), MAX_CPUS),
        fields=fields,
    )


def _sockets(block: dict[str, int | None]) -> int | None:
    if block.get("sockets") is not None:
        return block["sockets"]
    total = block.get("per_book")
    for key in ("books", "per_drawer", "drawers"):
        if total is not None and block.get(key) is not None:
            total *= block[key] or 0
    return total


def _cores(
    blocks: list[dict[str, int | None]],
    sockets: list[int | None],
    cpus: int | None,
    threads: int | None,
) -> int | None:
    # Sum over CPU types; an s390 LPAR shows the whole machine's books and sockets, more
    # cores than its CPUs could run on, so CPUs / threads per core caps the sum.
    topology: int | None = 0
    for block, count in zip(blocks, sockets, strict=True):
        per = block.get("cores")
        topology = (
            None if per is None or count is None or topology is None else topology + per * count
        )
    ceiling = cpus // threads if cpus and threads else None
    if not topology:
        return ceiling
    return min(topology, ceiling) if ceiling else topology


def _count_list(text: str | None) -> int | None:
    if not text:
        return None
    total = 0
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        first, last = number(low, MAX_CPUS), number(high or low, MAX_CPUS)
        if first is None or last is None or last < first:
            return None
        total += last - first + 1
    return total


@dataclass(frozen=True)
class MemInfo:
    values: dict[str, int]  # kB for the "kB" lines, a count for HugePages_*
    mem_total_kb: int | None


_MEM = re.compile(r"(?P<key>[\w()]{1,64}):\s*(?P<value>\d{1,20})(?:\s*kB)?\s*")


@parser("meminfo", reads_file("/proc/meminfo"), commands=("cat",))
def meminfo(section: Section) -> MemInfo:
    values: dict[str, int] = {}
    for _offset, line in meaningful(section):
        found = _MEM.fullmatch(line)
        if found and (value := number(found.group("value"))) is not None:
            values[found.group("key")] = value
    require(values, section, "'Name: value kB' lines")
    return MemInfo(values, values.get("MemTotal"))
