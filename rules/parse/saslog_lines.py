"""What one line of a SAS log says: a step's timing footer, one statistic under it, a
NOTE about the data sets a step read or wrote, the header, an echoed OPTIONS statement.

Recognisers only: no state. `rules.parse.saslog` walks a log with them. The layouts are
those SAS prints under STIMER and FULLSTIMER on UNIX (9.1.3 to 9.4: getrusage figures)
and Windows (memory, OS memory, timestamp and step count only); tests/fixtures/parse/
saslog names a public log or SAS documentation page for each.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

# "NOTE: PROCEDURE SORT used (Total process time):", "NOTE: DATA statement used:",
# "NOTE: The SAS System used:", "NOTE: SAS initialization used:".
FOOTER = re.compile(
    r"^NOTE:\s*(?:(?P<data>DATA statement)|PROCEDURE\s+(?P<proc>[A-Z0-9_]+)"
    r"|(?P<session>The SAS System)|(?P<init>SAS initialization))"
    r"\s+used(?:\s*\(Total process time\))?\s*+:?\s*$",
    re.IGNORECASE,
)
COUNTS = {
    "page faults": "page_faults",
    "page reclaims": "page_reclaims",
    "page swaps": "page_swaps",
    "voluntary context switches": "voluntary_switches",
    "involuntary context switches": "involuntary_switches",
    "block input operations": "block_input",
    "block output operations": "block_output",
}
TIMES = {
    "real time": "real",
    "user cpu time": "user_cpu",
    "system cpu time": "system_cpu",
    "cpu time": "stimer_cpu",
}
MEMORY = {"memory": "memory_kb", "os memory": "os_memory_kb"}

READ = re.compile(
    r"^NOTE: There (?:were|was) (?P<obs>[\d,]+) observations? read from the data\s?set\s+"
    r"(?P<name>[\w&]+(?:\.[\w&]+)?)",
    re.IGNORECASE,
)
WROTE = re.compile(
    r"^NOTE: The data\s?set\s+(?P<name>[\w&]+(?:\.[\w&]+)?)\s+has "
    r"(?P<obs>[\d,]+) observations? and (?P<vars>[\d,]+) variables?",
    re.IGNORECASE,
)
TABLE = re.compile(
    r"^NOTE: Table (?P<name>[\w&]+(?:\.[\w&]+)?) created, with (?P<obs>[\d,]+) rows? and "
    r"(?P<vars>[\d,]+) columns?",
    re.IGNORECASE,
)
INFILE = re.compile(r"^NOTE: (?P<obs>[\d,]+) records? (?:was|were) read from the infile", re.I)
# Notes that say how a step sorted, threaded or spilled.
SORT_NOTES = re.compile(
    r"^NOTE: (?:SAS threaded sort was used|SAS sort was used|Sorting was performed by the "
    r"data source|Input data set is already sorted|Multiple concurrent threads will be used)"
    r"|utility file",
    re.IGNORECASE,
)
RELEASE = re.compile(
    r"^NOTE: SAS \(r\)\s+(?:Proprietary Software\s+)?(?:Release\s+)?"
    r"(?P<release>\d+\.\d+)\s*(?:\((?P<build>[A-Z0-9]++)[^)]*\))?",
    re.IGNORECASE,
)
# The platform ends on a non-blank, so each blank run before "platform" is scanned once.
PLATFORM = re.compile(r"^NOTE: This session is executing on the\s++(?P<platform>.*?\S)\s+platform")
SOURCE = re.compile(r"^(?P<number>\d+)\s++(?:[+!]\s?)?(?P<code>.*)$")
OPTIONS_START = re.compile(r"^\s*options\s++(?P<rest>.*)$", re.IGNORECASE)
# A name, with its value when one follows: a name without one is a flag (NOTHREADS).
OPTION_TOKEN = re.compile(
    r"(?P<name>[A-Za-z_]\w*+)(?:\s*+=\s*+(?P<value>'[^']*'|\"[^\"]*\"|\([^)]*\)|[^\s;]+))?"
)

MAX_PROC_NAME = 32  # SAS names are at most 32 characters
# Options whose own name begins with NO (NONOTES turns NOTES off).
NO_NAMES = frozenset({"NOTES", "NO"})

TIME_VALUE = re.compile(
    r"^(?:(?:(?P<h>\d+):)?(?P<m>\d+):(?P<s>\d+(?:\.\d+)?)|(?P<secs>\d+(?:\.\d+)?)\s*seconds?)$",
    re.IGNORECASE,
)
MEMORY_VALUE = re.compile(r"^(?P<n>[\d,]+(?:\.\d+)?)\s*(?P<unit>[kKmMgGtT]?)[bB]?$")
COUNT_VALUE = re.compile(r"^(?P<n>[\d,]+)$")
STEP_COUNT = re.compile(r"^(?P<n>\d+)\s+Switch Count\s+(?P<switch>\d+)$", re.IGNORECASE)
TIMESTAMP_FORMATS = ("%m/%d/%Y %I:%M:%S %p", "%d/%m/%Y %H:%M:%S", "%m/%d/%Y %H:%M:%S")
MEMORY_UNITS_KB = {"": 1 / 1024, "k": 1, "m": 1024, "g": 1024**2, "t": 1024**3}
# "memory 840.31k" has a unit; a bare number is bytes (never seen in SAS logs, but taken).
# Figures past these are not ones SAS prints (a step of 30 years, a petabyte of memory, a
# count of 16 digits); refused, they cannot overflow a sum or a rate ("1e999 seconds").
MAX_SECONDS = 1e9
MAX_KB = 1e12
MAX_COUNT_DIGITS = 15


def seconds(text: str) -> float | None:
    """'0.01 seconds', '5:00.00', '1:02:03.45' as seconds; None when it is none of those."""
    text = text.strip()
    if text.endswith(" seconds") and text[:1].isdigit():
        try:
            return _within(float(text[:-8]), MAX_SECONDS)
        except ValueError:
            return None
    found = TIME_VALUE.match(text)
    if found is None:
        return None
    if found["secs"] is not None:
        return _within(float(found["secs"]), MAX_SECONDS)
    hours = float(found["h"] or 0)
    return _within(hours * 3600 + float(found["m"]) * 60 + float(found["s"]), MAX_SECONDS)


def kilobytes(text: str) -> float | None:
    """'840.31k', '4212800k', '1.5M' as kilobytes (SAS's k is 1,024 bytes)."""
    text = text.strip()
    if text.endswith("k") and text[:1].isdigit():
        try:
            return _within(float(text[:-1].replace(",", "")), MAX_KB)
        except ValueError:
            return None
    found = MEMORY_VALUE.match(text)
    if found is None:
        return None
    kb = float(found["n"].replace(",", "")) * MEMORY_UNITS_KB[found["unit"].lower()]
    return _within(kb, MAX_KB)


def count(text: str) -> int | None:
    digits = text.strip().replace(",", "")
    if len(digits) > MAX_COUNT_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(digits)


def _within(value: float, limit: float) -> float | None:
    return value if 0.0 <= value <= limit else None  # NaN and infinity are not within


@functools.lru_cache(maxsize=256)
def timestamp(text: str) -> datetime | None:
    """FULLSTIMER's 'Timestamp 01/26/2013 02:27:42 PM' (US layout first, as SAS prints it)."""
    cleaned = " ".join(text.split())
    for layout in TIMESTAMP_FORMATS:
        try:
            return datetime.strptime(cleaned, layout)
        except ValueError:
            continue
    return None


def options_in(statement: str) -> list[tuple[str, str]]:
    """`fullstimer memsize=2G nothreads` → [('FULLSTIMER', 'yes'), ('MEMSIZE', '2G'),
    ('THREADS', 'no')]: the options an OPTIONS statement sets, names upper-cased."""
    found: list[tuple[str, str]] = []
    for token in OPTION_TOKEN.finditer(statement.split(";", 1)[0]):
        if token["value"] is not None:
            found.append((token["name"].upper(), token["value"].strip("'\"")))
            continue
        flag = token["name"].upper()
        if flag.startswith("NO") and flag not in NO_NAMES:
            found.append((flag[2:], "no"))
        else:
            found.append((flag, "yes"))
    return found


def step_name(footer: re.Match[str]) -> str:
    if footer["data"]:
        return "DATA step"
    if footer["proc"]:
        return f"PROC {footer['proc'][:MAX_PROC_NAME].upper()}"
    if footer["session"]:
        return "SAS session"
    return "SAS initialization"


# The parser of each statistic's value and the Step field it fills.
READERS: dict[str, tuple[Callable[[str], Any], str]] = {
    **{key: (seconds, name) for key, name in TIMES.items()},
    **{key: (kilobytes, name) for key, name in MEMORY.items()},
    **{key: (count, name) for key, name in COUNTS.items()},
    "timestamp": (timestamp, "timestamp"),
}

STAT_KEYS = (
    "real time", "user cpu time", "system cpu time", "cpu time", "memory", "os memory",
    "timestamp", "step count", *COUNTS,
)  # fmt: skip
_BY_HEAD: dict[str, tuple[str, ...]] = {}
for _key in STAT_KEYS:
    _BY_HEAD[_key[:4]] = (*_BY_HEAD.get(_key[:4], ()), _key)


def stat(text: str) -> tuple[str, str] | None:
    """'      real time   0.01 seconds' -> ('real time', '0.01 seconds'); None otherwise.
    (String tests, not a pattern: the hot path of a large log.)"""
    stripped = text.strip()
    candidates = _BY_HEAD.get(stripped[:4].lower())
    if candidates is None:
        return None
    for key in candidates:
        size = len(key)
        if stripped[size : size + 1] in (" ", "\t") and stripped[:size].lower() == key:
            value = stripped[size:].strip()
            return (key, value) if value else None
    return None
