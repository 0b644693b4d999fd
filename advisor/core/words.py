"""The rules' text in a reader's words, for the pages and the report.

The rules write for whoever checks them: a paper by its id and line ("chew l.96"), an input
by its contract path (`storage[0].role`, `total_data_gb`). recommendations.json keeps that
text as written; what a reader sees cites a paper as people do ("Chew 2002"), names an
input by the label the form gives it ("/saswork · Role", "Total data (GB)"), and leaves the
line references to the "why?" expander (the page) or the source note (the report).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from advisor.assessments.forms import STORAGE, TOP, path_label
from rules.current import Current
from rules.fields import specs
from rules.sources import PAPERS, SOURCES

_REF = r"\bl\.\s?\d+(?:\s?[-–]\s?\d+)?"
_REFS = rf"{_REF}(?:\s?(?:,|and)\s?{_REF})*"
_IDS = "|".join(sorted(PAPERS, key=len, reverse=True))
# "chew l.96", "chew's cap", "bogacz2012 l.211, l.254"
_CITED_LINES = re.compile(rf"\b({_IDS})\b('s)?(?:\s+{_REFS})?")
_ALONE = re.compile(rf"\s?\(\s*{_REFS}\s*\)")  # "(l.96)"
_LEADING = re.compile(rf"\(\s*{_REFS}\s*[:;,]\s*")  # "(l.533–562: LOESS …)"
_INLINE = re.compile(rf"[,;]?\s*(?:at\s+|see\s+)?{_REFS}")  # ", l.582", "at l.580"
_LINES_EACH = re.compile(_REF)
# Later sources by id ("sas94-config: SAS 9.4 documentation"): ids a word alone could be
# ("nfsrahead") are left as they are.
_LATER_IDS = "|".join(
    sorted(
        (i for i in SOURCES if i not in PAPERS and re.search(r"[-\d]", i)), key=len, reverse=True
    )
)
_LATER = re.compile(rf"(?<![\w/.-])({_LATER_IDS})(?![\w/-])")
_CONTRACT_PATH = re.compile(
    r"(?<![\w./-])(?:server|sas|storage|workload|current)(?:\[\d*\])?(?:\.[a-z_]+)+"
)
_STORAGE_ROW = re.compile(r"^storage\[(\d+)\]")


def _field_labels() -> dict[str, str]:
    """The contract's snake_case field names with their labels: 'ram_gb' → 'RAM (GB)'."""
    pairs = [(f.path.rsplit(".", 1)[-1], f.spec.label) for f in (*TOP, *STORAGE)]
    pairs += [(name, spec.label) for name, spec in specs(Current)]
    return {name: label for name, label in pairs if "_" in name}


FIELD_LABELS = _field_labels()
_FIELD_NAME = re.compile(
    r"(?<![\w./-])(" + "|".join(sorted(FIELD_LABELS, key=len, reverse=True)) + r")\b(?![.\[])"
)


def short_name(source_id: str) -> str:
    """A source as people cite it: a paper by author and year ('Bartucca 2005', 'Pohl et
    al. 2007'), later documentation by its title's head ('SAS 9.4 Companion for UNIX
    Environments', 'CPUCOUNT= System Option')."""
    src = SOURCES.get(source_id)
    if src is None:
        return source_id
    if source_id not in PAPERS:
        return re.split(r"[:;(]", src.title)[0].strip()
    authors = src.authors.split(",")
    name = authors[0].split()[-1] + (" et al." if len(authors) > 1 else "")
    return f"{name} {src.year}" if src.year else name


def citation(source_id: str) -> str:
    """'Bartucca 2005, 'Setting up and tuning direct IO for SAS 9 on AIX''; later
    documentation by its publisher and title."""
    src = SOURCES.get(source_id)
    if src is None:
        return source_id
    if source_id not in PAPERS:
        return f"{src.authors}, '{src.title}'"
    return f"{short_name(source_id)}, '{src.title}'"


def path_words(path: str, mounts: Sequence[str] = ()) -> str:
    """A contract path as the form labels it; a storage entry by its mount point when
    known: 'storage[0].role' → '/saswork · Role' (else 'Storage 1 · Role')."""
    label = path_label(path)
    row = _STORAGE_ROW.match(path)
    if row is not None and int(row.group(1)) < len(mounts) and mounts[int(row.group(1))]:
        label = re.sub(r"^Storage \d+", mounts[int(row.group(1))], label)
    return label.split(" · ")[-1] if path.startswith("storage[]") else label


def _paper(found: re.Match[str]) -> str:
    name = short_name(found.group(1))
    return f"{name.split()[0]}'s" if found.group(2) else name


def plain(text: str, mounts: Sequence[str] = ()) -> str:
    """The text without line references, each paper by its short name and each contract
    path or field name by its label."""
    if not text:
        return text
    out = _LATER.sub(lambda m: short_name(m.group(1)), _CITED_LINES.sub(_paper, text))
    out = _LEADING.sub("(", _ALONE.sub("", out))
    out = _INLINE.sub("", out)
    out = _CONTRACT_PATH.sub(lambda m: path_words(m.group(0), mounts), out)
    out = _FIELD_NAME.sub(lambda m: FIELD_LABELS[m.group(1)], out)
    out = re.sub(r"\(\s*\)", "", out)
    out = re.sub(r"\s+([,.;:)])", r"\1", out)
    return re.sub(r"\(\s+", "(", re.sub(r"[ \t]{2,}", " ", out)).strip()


def cited_lines(texts: Sequence[str], sources: Sequence[str]) -> str:
    """The papers' lines the texts cite, by paper: 'Chew 2002 l.96, l.582; Bartucca 2005
    l.412'. A reference with no paper named before it belongs to the first paper cited."""
    papers = [s for s in sources if s in PAPERS]
    by_paper: dict[str, list[str]] = {}
    for text in texts:
        current = papers[0] if papers else ""
        for token in re.finditer(rf"\b({_IDS})\b|{_REFS}", text or ""):
            if token.group(1):
                current = token.group(1)
            else:
                refs = by_paper.setdefault(current, [])
                refs += [r for r in _LINES_EACH.findall(token.group(0)) if r not in refs]
    return "; ".join(
        f"{short_name(p) if p else 'the papers'} {', '.join(refs)}" for p, refs in by_paper.items()
    )


# Settings as an admin writes them ------------------------------------------------------

FLAG_ON = ("", "(on)")  # a flag the file turns on: its value is empty
# Settings named "what:where" by the rules, as an admin says them.
SETTING_WORDS = {
    "read_ahead_kb": "read-ahead",
    "readahead": "read-ahead",
    "elevator": "I/O scheduler",
}
KB_SETTINGS = {"read_ahead_kb", "readahead"}
_AT_LEAST = re.compile(r"^>\s?(\d+)$")  # tuned's ">16384": raise to at least, never lower


def setting_name(setting: str) -> str:
    """'read_ahead_kb:mount' → 'read-ahead (mount)', 'limits:nofile' → 'nofile',
    'elevator:flash' → 'I/O scheduler (flash)'; any other name as the file writes it."""
    what, _, where = setting.partition(":")
    if what == "limits":
        return where
    if what in SETTING_WORDS:
        return f"{SETTING_WORDS[what]} ({where})" if where else SETTING_WORDS[what]
    return setting


def value_words(setting: str, value: str | None) -> str:
    """A value as an admin writes it: 'on' for a flag, '≥ 16384 KB' for tuned's
    '>16384', '10240' for the limit 'nofile 10240'; any other value as it is."""
    if value is None:
        return ""
    what, _, where = setting.partition(":")
    if value in FLAG_ON:
        return "on"
    if what == "limits" and value.startswith(f"{where} "):
        return value.removeprefix(f"{where} ")
    at_least = _AT_LEAST.match(value)
    if what in KB_SETTINGS:
        return f"≥ {at_least.group(1)} KB" if at_least else f"{value} KB"
    return f"≥ {at_least.group(1)}" if at_least else value


def setting_phrase(setting: str, value: str, sep: str = "=") -> str:
    """The setting and its value in one: 'THREADS on', 'nofile 10240', 'read-ahead
    (mount) ≥ 16384 KB', 'MEMSIZE=8G' (as the file writes it, `sep` between)."""
    name, shown = setting_name(setting), value_words(setting, value)
    if name != setting or value in FLAG_ON or shown != value:
        return f"{name} {shown}"
    return f"{setting}{sep}{value}"


# Error messages without regular expressions ---------------------------------------------

_CHAR_CLASS = re.compile(r"\[((?:[A-Za-z]-[A-Za-z]|0-9|[_.$:/@+=%\\-])+)\]")
_RANGES = {"A-Z": "", "a-z": "", "A-Za-z": "letters", "0-9": "digits"}


def _class_words(found: re.Match[str]) -> str:
    body = found.group(1)
    said = []
    if "A-Za-z" in body or ("A-Z" in body and "a-z" in body):
        said.append("letters")
    elif "A-Z" in body or "a-z" in body:
        said.append("upper-case letters" if "A-Z" in body else "lower-case letters")
    if "0-9" in body:
        said.append("digits")
    rest = re.sub(r"[A-Za-z]-[A-Za-z]|0-9", "", body).replace("\\\\", "\\")
    said += [f"'{c}'" for c in dict.fromkeys(rest)]
    return ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else said[0]


def without_regex(message: str) -> str:
    """A contract message with its character classes said in words: 'must be 1-64
    characters of [A-Za-z0-9_.-]' → '... of letters, digits, '_', '.' and '-''."""
    return _CHAR_CLASS.sub(_class_words, message)
