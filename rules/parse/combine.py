"""From parsed facts to a draft inventory (insights-core's combiners are the model).

One clean fact model out of many commands: the server (OS, release, cores, SMT threads,
logical CPUs, memory), the file systems with the devices behind them
(`combine_linux`, `combine_aix`), and the settings it runs now (`combine_current`). Every
field filled records its provenance; what the server cannot tell (the workload, each
file system's role, the SAS release where no configuration file was read) is guessed only
where the contract needs a value and is always listed as missing, for the admin to give.
"""

from __future__ import annotations

from typing import Any

from rules.inventory import SCHEMA_VERSION
from rules.kinds import HOSTNAME
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_aix import aix_server, aix_storage
from rules.parse.combine_current import current_block
from rules.parse.combine_linux import linux_server, linux_storage
from rules.parse.draft import Draft

OS_NAMES = {"AIX": "aix", "Linux": "linux", "SunOS": "solaris", "HP-UX": "hpux"}
SAS_RELEASES = ("9.4", "9.3", "9.2", "9.1.3")


def combine(parsed: Parsed) -> Draft:
    b = Builder()
    os_name = _os(parsed, b)
    _hostname(parsed, b)
    if os_name == "aix":
        aix_server(parsed, b)
        aix_storage(parsed, b)
    elif os_name == "linux":
        linux_server(parsed, b)
        linux_storage(parsed, b)
    elif os_name == "solaris":
        _solaris_server(parsed, b)
    _sas(parsed, b)
    current_block(parsed, b)
    _workload(b)
    return _finish(parsed, b)


def _os(parsed: Parsed, b: Builder) -> str:
    found = parsed.first("uname")
    if found is None:
        b.guess("server.os", "linux", "no `uname -a` output")
        b.guess("server.os_version", "1", "no `uname -a` output")
        return "linux"
    name = OS_NAMES.get(found.value.system)
    if name is None:
        b.guess("server.os", "linux", f"{found.value.system!r} is not an OS the rules know")
        return "linux"
    b.put("server.os", name, found, raw=found.value.system)
    if found.value.os_version:
        b.put("server.os_version", found.value.os_version, found)
    return name


def _hostname(parsed: Parsed, b: Builder) -> None:
    found = parsed.first("hostname")
    name = None if found is None else found.value.name
    if found is None and (found := parsed.first("uname")) is not None:
        name = found.value.hostname
    if found is None or not HOSTNAME.accepts(name):
        b.guess("server.hostname", "server", "no host name the contract accepts was read")
        return
    b.put("server.hostname", name, found)


def _solaris_server(parsed: Parsed, b: Builder) -> None:
    psr = parsed.first("psrinfo")
    if psr is not None:
        if psr.value.virtual_processors:
            b.put("server.cpus", psr.value.virtual_processors, psr)
        if psr.value.cores:
            b.put("server.cores", psr.value.cores, psr)
    conf = parsed.first("prtconf")
    if conf is not None and conf.value.memory_mb:
        b.put("server.ram_gb", round(conf.value.memory_mb / 1024, 2), conf)


def _sas_release(found: Found) -> str | None:
    path = found.value.path
    return next(
        (r for r in SAS_RELEASES if f"/{r}/" in path or f"/{r.replace('.', '')}/" in path), None
    )


def _sas(parsed: Parsed, b: Builder) -> None:
    configs = parsed.all("sas_config")
    release = next((r for f in configs if (r := _sas_release(f))), None)
    if release is not None:
        source = next(f for f in configs if _sas_release(f) == release)
        b.put("sas.version", release, source, note="the release in the file's path")
    else:
        b.guess("sas.version", "9.4", "no sasv9*.cfg under a release directory was read")
    b.guess("sas.connect_licensed", False, "licences are not read from the server")
    parm = parsed.first("spds_parm")
    if parm is None:
        b.doc.setdefault("sas", {})["spds"] = None
        return
    b.guess("sas.spds.version", "5.3", "spdsserv.parm does not say its release")


def _workload(b: Builder) -> None:
    b.needs("workload", "the workload (sessions, mix, table sizes) is yours to give")


def _finish(parsed: Parsed, b: Builder) -> Draft:
    host = b.doc.get("server", {}).get("hostname", "server")
    stamp = (parsed.header.values.get("started", "") if parsed.header else "")[:10]
    b.doc["name"] = f"{host} as read {stamp}".strip() if stamp else f"{host} as read"
    b.doc["schema_version"] = SCHEMA_VERSION
    order = ("schema_version", "name", "server", "sas", "storage", "current")
    document: dict[str, Any] = {k: b.doc[k] for k in order if k in b.doc}
    document.setdefault("storage", [])
    return Draft(
        document=document,
        provenance=b.provenance,
        missing=list(b.missing.values()),
        problems=[p.to_dict() for p in parsed.problems],
        unknown=[{"line": line, "command": cmd} for line, cmd in parsed.unknown],
        notes=b.notes + [f"line {line}: skipped {text}" for line, text in parsed.skipped],
    )
