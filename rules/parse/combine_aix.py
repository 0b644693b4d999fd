"""AIX facts → server and storage: which sections prove AIX, then the LPAR and its disks.

Cores are the partition's online virtual processors (`lparstat -i`, else prtconf's
"Number Of Processors", else the processors `lsdev -Cc processor` or smtctl lists); a
shared-processor LPAR is said to be one, with its entitled capacity, since its virtual
processors may get less than a core each. SMT threads come from smtctl, else the lparstat
Type ("Shared-SMT-4"), else proc0's smt_threads attribute (`lsattr -El proc0`), which is
also what a bare "Shared-SMT" Type leaves to say, else the smt= of the "System
configuration:" header vmstat, iostat, lparstat, sar and mpstat print (`aix_sysconfig`).
Logical CPUs are the processors `bindprocessor -q` lists, else that header's lcpu= (the
logical CPUs on-line, as the kernel counts them), else cores × threads. Memory: prtconf,
lparstat -i, mem0's size, sys0's realmem, else the header's mem= (MB; the expanded size
where Active Memory Expansion is on). Of several headers the first in the paste that
prints the value is read. The host name, where no hostname or uname named it: lparstat's
Node Name, else prtconf's Host Name. The storage entries are built in
`rules.parse.aix_storage`.
"""

from __future__ import annotations

from rules.kinds import HOSTNAME
from rules.parse import Found, Parsed
from rules.parse.aix_storage import aix_storage
from rules.parse.builder import Builder
from rules.parse.combine_storage import swap_note
from rules.parse.wiring import reads

__all__ = ["aix_evidence", "aix_server", "aix_storage"]

# Parsers that read commands only AIX has (lsattr -E, lsdev -C, the LVM listings, the
# tunables commands), whatever their output says.
AIX_ONLY = (
    "aix_oslevel", "aix_lparstat", "aix_smtctl", "aix_bindprocessor", "aix_lsattr",
    "aix_lsattr_disk", "aix_lsattr_fcs", "aix_lsattr_sys0", "aix_lsdev", "aix_lsdev_disk",
    "aix_lsdev_processor", "aix_lsdev_adapter", "aix_lspv", "aix_lspv_disk", "aix_lsvg",
    "aix_lsvg_list", "aix_lsvg_lvs", "aix_lsvg_pvs", "aix_lslv", "aix_lslv_pvs", "aix_lspv_lvs",
    "aix_lspath", "aix_lsfs", "aix_lsps", "ioo", "vmo",
)  # fmt: skip
# Lines other systems' df and mount never print: AIX df's inode columns and the header of
# AIX mount ("node  mounted  mounted over  vfs  date  options").
_AIX_HEADERS = {"df": "%Iused", "mount": "mounted over"}
ASK_RELEASE = (
    "no `oslevel -s` or `uname -a` was read: give the AIX release (7.2, 7.3), which decides "
    "which ioo and vmo tunables may still be changed"
)


@reads(*AIX_ONLY, "prtconf", "aix_vmstat_v", "aix_sysconfig", *_AIX_HEADERS)
def aix_evidence(parsed: Parsed) -> list[tuple[Found, str]]:
    """The sections that prove the paste is from AIX, in input order, each with the release
    it shows ('7.2' from `oslevel`; '' where the section shows none).

    Proof: output of an AIX-only command (oslevel, lparstat -i, smtctl, bindprocessor -q,
    lsattr -E, lsdev -C, lspv (-l), lsvg, lslv, lspath, lsfs, lsps, ioo, vmo), prtconf in its AIX
    form ('System Model', 'Number Of Processors'), vmstat -v with the VMM's counters
    (maxperm, pbuf), the "System configuration:" header of vmstat, iostat, lparstat, sar
    or mpstat (Linux's print none: the header, not the command, is the proof), and df or
    mount with the headers only AIX prints (%Iused, 'mounted over'). uname is not here: the
    caller reads it first and holds this list against it.
    """
    found = [(f, f.value.release if name == "aix_oslevel" else "")
             for name in AIX_ONLY for f in parsed.all(name)]  # fmt: skip
    found += [(f, "") for f in parsed.all("prtconf") if f.value.os == "aix"]
    found += [(f, "") for f in parsed.all("aix_vmstat_v") if _vmm_counters(f)]
    found += [(f, "") for f in parsed.all("aix_sysconfig") if f.value.header is not None]
    for name, header in _AIX_HEADERS.items():
        found += [(f, "") for f in parsed.all(name) if _has_line(f, header)]
    return sorted(found, key=lambda pair: pair[0].section.line)


def _vmm_counters(found: Found) -> bool:
    v = found.value
    return any(x is not None for x in (v.maxperm_pct, v.minperm_pct, v.pbuf_blocked))


def _has_line(found: Found, text: str) -> bool:
    return any(text in line for line in found.section.lines[:5])


def _cores(parsed: Parsed, b: Builder) -> int | None:
    lpar = parsed.first("aix_lparstat")
    if lpar is not None and lpar.value.online_virtual_cpus:
        note = "online virtual CPUs"
        if lpar.value.shared:
            note += (
                f"; a shared-processor LPAR entitled to {lpar.value.entitled_capacity} cores"
                f" ({lpar.value.mode or 'mode unknown'})"
            )
        b.put("server.cores", lpar.value.online_virtual_cpus, lpar, note=note)
        return int(lpar.value.online_virtual_cpus)
    conf = parsed.first("prtconf")
    if conf is not None and conf.value.processors:
        b.put("server.cores", conf.value.processors, conf, note="Number Of Processors")
        return int(conf.value.processors)
    procs = parsed.first("aix_lsdev_processor")
    if procs is not None and procs.value.available:
        count = len(procs.value.available)
        b.put("server.cores", count, procs, note="processors listed Available")
        return count
    smt = parsed.first("aix_smtctl")
    if smt is not None and smt.value.processors:
        b.put("server.cores", len(smt.value.processors), smt, note="processors smtctl lists")
        return len(smt.value.processors)
    return None


def _proc_attrs(parsed: Parsed) -> Found | None:
    """`lsattr -El procN` with smt_threads (or SMT off)."""
    for f in parsed.all("aix_lsattr"):
        if (f.value.device or "").startswith("proc") and "smt_threads" in f.value.attrs:
            return f
    return None


def _smt(parsed: Parsed, b: Builder) -> int | None:
    smt = parsed.first("aix_smtctl")
    if smt is not None and (smt.value.threads or smt.value.enabled is False):
        threads = smt.value.threads if smt.value.enabled is not False else 1
        b.put("server.smt_threads", threads, smt)
        return int(threads)
    lpar = parsed.first("aix_lparstat")
    if lpar is not None and lpar.value.smt_threads:
        b.put("server.smt_threads", lpar.value.smt_threads, lpar, raw=lpar.value.type or "")
        return int(lpar.value.smt_threads)
    proc = _proc_attrs(parsed)
    raw = proc.value.attrs.get("smt_threads", "") if proc else ""
    if proc is not None and raw.isdigit() and 1 <= int(raw) <= 8:
        off = proc.value.attrs.get("smt_enabled") == "false"
        threads = 1 if off else int(raw)
        note = "smt_enabled false" if off else (f"lparstat Type {lpar.value.type}" if lpar else "")
        b.put("server.smt_threads", threads, proc, raw=f"smt_threads {raw}", note=note)
        return threads
    conf = _header(parsed, "smt_threads")
    if conf is not None:
        b.put("server.smt_threads", conf.value.smt_threads, conf, raw=_raw(conf, "smt"),
              note=HEADER_NOTE)  # fmt: skip
        return int(conf.value.smt_threads)
    return None


HEADER_NOTE = "the System configuration header"


def _header(parsed: Parsed, attr: str) -> Found | None:
    """The first "System configuration:" header in the paste that prints `attr`."""
    return next((f for f in parsed.all("aix_sysconfig") if getattr(f.value, attr)), None)


def _raw(found: Found, key: str) -> str:
    return f"{key}={found.value.values.get(key, '')}"


def _cpus(parsed: Parsed, b: Builder, cores: int | None, threads: int | None) -> None:
    bind, conf = parsed.first("aix_bindprocessor"), _header(parsed, "logical_cpus")
    if bind is not None and bind.value.processors:
        b.put("server.cpus", len(bind.value.processors), bind, note="logical processors")
    elif conf is not None:
        note = f"{HEADER_NOTE}: logical CPUs on-line"
        b.put("server.cpus", conf.value.logical_cpus, conf, raw=_raw(conf, "lcpu"), note=note)
    elif cores is not None and threads is not None:
        found = parsed.first("aix_smtctl") or parsed.first("aix_lparstat") or _proc_attrs(parsed)
        found = found or parsed.first("prtconf") or parsed.first("aix_lsdev_processor")
        assert found is not None
        b.put("server.cpus", cores * threads, found, note="cores × SMT threads")
    elif cores is not None:
        b.guess("server.cpus", cores, "no SMT mode was read (smtctl, lparstat -i, lsattr proc0)")
    else:
        b.guess("server.cpus", 1, "no lparstat -i, prtconf, smtctl or bindprocessor -q was read")


def _memory(parsed: Parsed, b: Builder) -> None:
    conf, lpar = parsed.first("prtconf"), parsed.first("aix_lparstat")
    sys0 = parsed.first("aix_lsattr_sys0")
    mem0 = next((f for f in parsed.all("aix_lsattr") if f.value.device == "mem0"), None)
    size = mem0.value.attrs.get("size", "") if mem0 else ""
    if conf is not None and conf.value.memory_mb:
        b.put("server.ram_gb", round(conf.value.memory_mb / 1024, 2), conf, note="Memory Size")
    elif lpar is not None and lpar.value.online_memory_mb:
        b.put("server.ram_gb", round(lpar.value.online_memory_mb / 1024, 2), lpar)
    elif mem0 is not None and size.isdigit() and len(size) <= 12:
        b.put("server.ram_gb", round(int(size) / 1024, 2), mem0, raw=f"size {size} MB")
    elif sys0 is not None and sys0.value.realmem_kb:
        b.put("server.ram_gb", round(sys0.value.realmem_kb / 1024**2, 2), sys0, note="realmem")
    elif (conf := _header(parsed, "memory_mb")) is not None:
        _header_memory(b, conf)
    else:
        b.guess("server.ram_gb", 1, "no prtconf, lparstat -i or lsattr -El mem0/sys0 was read")


def _header_memory(b: Builder, conf: Found) -> None:
    true_mb = conf.value.true_memory_mb
    note = HEADER_NOTE + (f"; Active Memory Expansion: {true_mb} MB true memory" if true_mb else "")
    b.put("server.ram_gb", round(conf.value.memory_mb / 1024, 2), conf, raw=_raw(conf, "mem"),
          note=note)  # fmt: skip


def _unused(parsed: Parsed, b: Builder) -> None:
    """What was read and has no place in the contract, said so the admin knows it was seen."""
    paging = [(f, f.value.total_mb) for f in parsed.all("aix_lsps")]
    paging += [(f, f.value.swap_mb) for f in parsed.all("prtconf") if f.value.swap_mb]
    for f, mb in paging:
        swap_note(b, f, f"paging space {mb} MB", kind="paging space")
    for name in ("ioo", "vmo"):
        for f in parsed.all(name):
            if f.value.not_applicable:
                shown = ", ".join(f.value.not_applicable[:10])
                more = len(f.value.not_applicable) - 10
                b.notes.append(
                    f"line {f.section.line}: `{f.section.command}` prints n/a for {shown}"
                    + (f" and {more} more" if more > 0 else "")
                    + " (not used on this system); its other values are read"
                )


def _hostname(parsed: Parsed, b: Builder) -> None:
    """Where neither hostname nor uname named the host: lparstat's Node Name, prtconf's."""
    if "server.hostname" not in b.missing:
        return
    lpar, conf = parsed.first("aix_lparstat"), parsed.first("prtconf")
    for found, name, what in (
        (lpar, lpar and lpar.value.node_name, "Node Name"),
        (conf, conf and conf.value.host_name, "Host Name"),
    ):
        if found is not None and HOSTNAME.accepts(name):
            b.put("server.hostname", name, found, note=what)
            return


@reads(
    "aix_oslevel", "aix_lparstat", "prtconf", "aix_lsdev_processor", "aix_smtctl", "aix_lsattr",
    "aix_bindprocessor", "aix_lsattr_sys0", "aix_lsps", "ioo", "vmo", "aix_sysconfig",
)  # fmt: skip
def aix_server(parsed: Parsed, b: Builder) -> None:
    level = parsed.first("aix_oslevel")
    if level is not None:
        b.put("server.os_version", level.value.release, level, raw=level.value.text)
    elif "server.os_version" not in b.provenance:
        b.needs("server.os_version", ASK_RELEASE)
    _hostname(parsed, b)
    cores, threads = _cores(parsed, b), _smt(parsed, b)
    _cpus(parsed, b, cores, threads)
    _memory(parsed, b)
    _unused(parsed, b)
