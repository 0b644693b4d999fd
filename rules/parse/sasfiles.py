"""Parsers: the SAS and SPD Server configuration files the collector was pointed at.

- sasv9*.cfg: one option per line with a leading hyphen, `-MEMSIZE 4G`, `-THREADS`,
  `-UTILLOC (/a /b)`, `/* … */` comments (SAS 9.4 Companion for UNIX, "Configuration
  files"; project notes, domain.md "SAS configuration files and options").
- spdsserv.parm: one `NAME[=value];` per line, booleans `NAME;`/`NONAME;` (SPD Server
  4.5/5.3 administrator's guides, "Server parameter file").
- libnames.parm: `LIBNAME=dom PATHNAME=/path ROPTIONS="DATAPATH=('/d1' '/d2') …";`.
Option names are kept upper case as written (`NOTHREADS` stays `NOTHREADS`): the comparison
with a recommendation (`rules.compare`) knows which names are booleans.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.parse.registry import Garbled, Section, parser, reads_file

_OPTION = re.compile(r"-([A-Za-z_][A-Za-z0-9_]{0,63})(?:[ \t]*+=[ \t]*+|[ \t]++)?(.*)")
_SKIP = {"SET", "INSERT", "APPEND", "CONFIG"}  # environment and search-path plumbing
# The value is stripped by its reader; taking it whole keeps each line one pass.
_PARM = re.compile(r"([A-Za-z_][A-Za-z0-9_]{0,63})[ \t]*+(?:=([^;]*+))?;?")
# "---MED---" (5.3 guide) or "-––MED-––" (4.5 guide): the lines after it override the base
# values for that performance class only.
_CLASS = re.compile(r"[-\u2013\u2014]{2,}\s*(LOW|MED|HIGH|LOCKING)\s*[-\u2013\u2014]{2,}", re.I)
_LIBNAME = re.compile(r"LIBNAME\s*=\s*([A-Za-z0-9_]{1,64})", re.I)
_PATHNAME = re.compile(r"PATHNAME\s*=\s*(\S+)", re.I)
# "(" ends a path list too, so each search's scan stops where the next list's would start.
_PATHS = re.compile(r"(DATAPATH|INDEXPATH|METAPATH)\s*=\s*\(([^()]*)\)", re.I)


@dataclass(frozen=True)
class SasConfig:
    path: str
    options: dict[str, str]  # upper-case name → value as written ("" for a flag)


@dataclass(frozen=True)
class SpdsParm:
    path: str
    parameters: dict[str, str]  # the base values (what LOW-class users get)
    classes: dict[str, dict[str, str]] = field(default_factory=dict)  # MED/HIGH/LOCKING overrides


@dataclass(frozen=True)
class SpdsDomain:
    name: str
    pathname: str
    datapath: tuple[str, ...]
    indexpath: tuple[str, ...]
    metapath: tuple[str, ...]


def _path(section: Section) -> str:
    return next((a for a in section.argv[1:] if a.startswith("/")), "")


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _uncommented(section: Section) -> list[str]:
    """The lines with /* */ comments blanked, line numbering kept."""
    text = "\n".join(section.lines)
    kept: list[str] = []
    end = 0
    # One pass with str.find: a comment left open runs to the end, so once no "*/"
    # follows, no later "/*" can close either (a pattern would rescan from each one).
    while (start := text.find("/*", end)) >= 0 and (close := text.find("*/", start + 2)) >= 0:
        kept += [text[end:start], "\n" * text.count("\n", start, close)]
        end = close + 2
    kept.append(text[end:])
    return "".join(kept).split("\n")


def _options(lines: list[str]) -> list[tuple[int, str]]:
    """Logical option lines: a value in parentheses may run over several lines (SAS's own
    sasv9.cfg writes `-SASHELP (` … `)`), and its lines may themselves start with '-'."""
    out: list[tuple[int, str]] = []
    depth = 0
    for i, raw in enumerate(lines):
        line = raw.strip()
        if depth > 0 and out:
            out[-1] = (out[-1][0], f"{out[-1][1]} {line}".strip())
        elif line and not line.startswith(("#", "*")):
            out.append((i, line))
        depth = max(0, depth + line.count("(") - line.count(")"))
    return out


@parser("sas_config", reads_file("*sasv9*.cfg"), commands=("cat",))
def sas_config(section: Section) -> SasConfig:
    options: dict[str, str] = {}
    for i, line in _options(_uncommented(section)):
        found = _OPTION.fullmatch(line)
        if found is None:
            raise Garbled(f"not a SAS option line: {line[:80]!r}", i)
        name = found.group(1).upper()
        if name not in _SKIP:
            options[name] = _unquote(" ".join(found.group(2).split()))
    return SasConfig(_path(section), options)


@parser("spds_parm", reads_file("*spdsserv.parm"), commands=("cat",))
def spds_parm(section: Section) -> SpdsParm:
    base: dict[str, str] = {}
    classes: dict[str, dict[str, str]] = {}
    target = base
    for i, raw in enumerate(_uncommented(section)):
        line = raw.strip()
        if not line or line.startswith(("#", "*")):
            continue
        if marker := _CLASS.fullmatch(line):
            target = classes.setdefault(marker.group(1).upper(), {})
            continue
        found = _PARM.fullmatch(line)
        if found is None:
            raise Garbled(f"not a NAME[=value]; parameter line: {line[:80]!r}", i)
        target[found.group(1).upper()] = (found.group(2) or "").strip()
    return SpdsParm(_path(section), base, classes)


def _quoted_paths(text: str) -> tuple[str, ...]:
    return tuple(p for p in re.findall(r"'([^']*)'|\"([^\"]*)\"|(\S+)", text) for p in p if p)


def _statements(lines: list[str]) -> list[tuple[int, str]]:
    """Statements up to each ';' outside double quotes, with the line each starts on (the
    admin guides write one over several lines, and a line may hold several)."""
    out: list[tuple[int, str]] = []
    buffer: list[str] = []
    start, quoted = 0, False
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not buffer and (not line or line.startswith(("#", "*"))):
            continue
        for char in line + " ":
            if not buffer and char.isspace():
                continue
            if not buffer:
                start = i
            quoted ^= char == '"'
            if char == ";" and not quoted:
                out.append((start, "".join(buffer).strip()))
                buffer = []
            else:
                buffer.append(char)
    if buffer:
        out.append((start, "".join(buffer).strip()))
    return [(i, text) for i, text in out if text]


@parser("spds_libnames", reads_file("*libnames.parm"), commands=("cat",))
def spds_libnames(section: Section) -> list[SpdsDomain]:
    domains: list[SpdsDomain] = []
    for i, statement in _statements(_uncommented(section)):
        name, path = _LIBNAME.search(statement), _PATHNAME.search(statement)
        if name is None or path is None:
            raise Garbled(f"not a LIBNAME=… PATHNAME=… statement: {statement[:80]!r}", i)
        paths = {k.upper(): _quoted_paths(v) for k, v in _PATHS.findall(statement)}
        domains.append(
            SpdsDomain(
                name.group(1).upper(),
                _unquote(path.group(1).rstrip(";")),
                paths.get("DATAPATH", ()),
                paths.get("INDEXPATH", ()),
                paths.get("METAPATH", ()),
            )
        )
    return domains
