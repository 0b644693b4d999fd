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
from rules.kinds import HOSTNAME, OS_VERSION
from rules.parse import Found, LineProblem, Parsed
from rules.parse.accounting import account
from rules.parse.builder import Builder
from rules.parse.combine_aix import aix_server, aix_storage
from rules.parse.combine_current import current_block
from rules.parse.combine_linux import linux_server, linux_storage
from rules.parse.combine_solaris import solaris_server, solaris_storage
from rules.parse.combine_spds import spds_roles
from rules.parse.combine_storage import measured
from rules.parse.combine_windows import windows_server, windows_storage
from rules.parse.draft import Draft
from rules.parse.os_evidence import (
    FOREIGN,
    STRONG,
    Evidence,
    decide,
    el_release,
    evidence,
    kernels,
    release_of,
)
from rules.parse.registry import Section
from rules.parse.wiring import reads

SAS_RELEASES = ("9.4", "9.3", "9.2", "9.1.3")


def combine(parsed: Parsed) -> Draft:
    b = Builder()
    os_name = _os(parsed, b)
    _hostname(parsed, b)
    if os_name == "aix":
        aix_server(parsed, b)
        aix_storage(parsed, b)
        measured(parsed, b)
    elif os_name == "linux":
        linux_server(parsed, b)
        linux_storage(parsed, b)
    elif os_name == "solaris":
        solaris_server(parsed, b)
        solaris_storage(parsed, b)
    elif os_name == "windows":
        windows_server(parsed, b)
        windows_storage(parsed, b)
        measured(parsed, b)
    spds_roles(parsed, b)
    _prompt_host(parsed, b)
    _sas(parsed, b)
    current_block(parsed, b)
    _workload(b)
    return _finish(parsed, b)


# The OS evidence (`os_evidence.evidence`): uname, AIX's own commands and its df/mount
# headers and vmstat -v (`combine_aix.aix_evidence`), the commands only one OS has, the
# kernel releases, prtconf in either OS's form.
@reads("uname", "uname_release", "hostnamectl", "prtconf", "aix_vmstat_v", "df", "mount", *FOREIGN)
def _os(parsed: Parsed, b: Builder) -> str:
    """The OS and its release from every section that tells them (`os_evidence`)."""
    found = evidence(parsed)
    top, conflicts = decide(found)
    for line, command, message in conflicts:
        parsed.problems.append(LineProblem(line, command, message))
    if top is None:
        b.guess("server.os", "linux", "nothing in the paste tells the OS (no `uname -a`)")
        return "linux"  # its release is asked for by the Linux combiner, never guessed
    note = "" if top.strength > STRONG else f"{top.why}, no `uname -a`"
    b.put("server.os", top.os, top.found, raw=_raw(top), note=note)
    release = top if top.release else release_of(found, top.os)
    if release is not None:
        b.put("server.os_version", release.release, release.found)
    elif top.os == "linux":
        _el_release(parsed, b)
    return top.os


def _raw(top: Evidence) -> str:
    return str(getattr(top.found.value, "system", "") or "")


def _el_release(parsed: Parsed, b: Builder) -> None:
    """RHEL's family release from the kernel's `.el9_3` where no release file was read
    (the distribution itself is left to a release file: a rebuild has the same mark)."""
    for kernel, found in kernels(parsed):
        release = el_release(kernel)
        if release is not None and OS_VERSION.accepts(release):
            note = "the RHEL family's release in the kernel's name"
            b.put("server.os_version", release, found, raw=kernel, note=note)
            return


@reads("hostname", "uname")
def _hostname(parsed: Parsed, b: Builder) -> None:
    """`hostname`, else `uname -a`'s node name; two names that differ are two systems."""
    named = [(f.value.name, f) for f in parsed.all("hostname")]
    named += [(f.value.hostname, f) for f in parsed.all("uname")]
    named = [(n, f) for n, f in named if HOSTNAME.accepts(n)]
    if not named:
        b.guess("server.hostname", "server", "no host name the contract accepts was read")
        return
    name, found = named[0]
    b.put("server.hostname", name, found)
    for other, where in named[1:]:
        short, mine = _short(other), _short(name)
        if not (short.startswith(mine) or mine.startswith(short)):  # a truncated node name
            message = (
                f"the paste shows two systems: host {name!r} from `{found.section.command}` "
                f"(line {found.section.line}) and {other!r} from `{where.section.command}`"
                f" (line {where.section.line}); {name!r} is used"
            )
            parsed.problems.append(LineProblem(where.section.line, where.section.command, message))


@reads()  # the prompts only
def _prompt_host(parsed: Parsed, b: Builder) -> None:
    """The prompt's host where no command named one; a note where they differ."""
    hosts = [(p.line, p.host) for p in parsed.prompts if p.host and HOSTNAME.accepts(p.host)]
    if not hosts:
        return
    line, host = hosts[0]
    read = b.provenance.get("server.hostname")
    if read is None:
        section = Section(f"the prompt of {host}", (), (), line)
        b.put("server.hostname", host, Found(section, None), note="the shell prompt")
    elif _short(str(read.value)) != _short(host):
        b.notes.append(
            f"line {line}: the prompt names host {host!r}, `{read.command}` at "
            f"line {read.line} names {read.value!r}; {read.value!r} is used"
        )
    for other_line, other in hosts[1:]:
        if _short(other) != _short(host):
            b.notes.append(
                f"line {other_line}: the prompt names another host, {other!r} "
                f"({host!r} at line {line}): is the paste from one server?"
            )


def _short(name: str) -> str:
    return name.split(".", 1)[0].lower()


def _sas_release(found: Found) -> str | None:
    path = found.value.path
    return next(
        (r for r in SAS_RELEASES if f"/{r}/" in path or f"/{r.replace('.', '')}/" in path), None
    )


@reads("sas_config", "spds_parm")
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
    b.keep_largest_storage()  # the contract's maximum, the rest named in a note
    host = b.doc.get("server", {}).get("hostname", "server")
    stamp = (parsed.header.values.get("started", "") if parsed.header else "")[:10]
    b.doc["name"] = f"{host} as read {stamp}".strip() if stamp else f"{host} as read"
    b.doc["schema_version"] = SCHEMA_VERSION
    order = ("schema_version", "name", "server", "sas", "storage", "current")
    document: dict[str, Any] = {k: b.doc[k] for k in order if k in b.doc}
    document.setdefault("storage", [])
    os_name = b.doc.get("server", {}).get("os", "linux")
    used, unused = account(parsed, b, os_name, FOREIGN)
    return Draft(
        document=document,
        provenance=b.provenance,
        missing=list(b.missing.values()),
        problems=[p.to_dict() for p in parsed.problems],
        unknown=[{"line": line, "command": cmd} for line, cmd in parsed.unknown],
        notes=b.notes
        + [f"line {line}: {text}" for line, text in parsed.notes]
        + [f"line {line}: skipped {text}" for line, text in parsed.skipped],
        used=used,
        unused=unused,
    )
