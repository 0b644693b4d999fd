"""Metamorphic relations over whole-server transcripts: the same paste, pasted otherwise.

Each relation turns a transcript's text into another text a person could as well have
pasted from the same server; the draft of the new text must hold the same facts (its
server, storage and current parts, which fields are only guessed, and which of the
transcript's `## expect:` lines hold). A relation that does not apply to a transcript
(nothing to reorder, no df/mount/lsblk to filter) gives None.

80-column wrapping is lossy, so it is held to less: a terminal that hard-wraps at 80
columns (a serial or web console, `screen` without line joining) splits every output
line past column 80 and never re-joins it; the command lines are left whole (a wrapped
command line would be another command, which no reader could undo). Every expect fact the
original draft holds must still hold, or the draft must name a problem (a line-numbered
problem or a note) for a section whose output was wrapped: never a silent misread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules.parse import draft
from rules.parse.draft import Draft
from rules.parse.sections import split
from tests.rules.parse.facts import verdict
from tests.rules.parse.fixtures import transcript_file

Chunks = tuple[list[str], list[tuple[str, list[str]]]]  # preamble, (prompt, lines) a section
COLUMNS = 80
GREEN, PROMPT_COLOUR, RESET = "\x1b[1;32m", "\x1b[01;32m", "\x1b[0m"
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def chunks(text: str) -> Chunks:
    """The text cut where the product cuts it: the lines before the first command, then each
    command's lines (its own line first) with the prompt that opened it."""
    lines = text.split("\n")
    sections = split(text).sections
    starts = [s.line - 1 for s in sections]
    parts = []
    for section, start, end in zip(sections, starts, [*starts[1:], len(lines)], strict=True):
        raw = lines[start]
        parts.append((raw[: raw.rfind(section.command)], lines[start:end]))
    return lines[: starts[0] if starts else len(lines)], parts


def join(preamble: list[str], parts: list[tuple[str, list[str]]]) -> str:
    return "\n".join([*preamble, *(line for _, lines in parts for line in lines)])


def _program(part: tuple[str, list[str]]) -> str:
    head = part[1][0][len(part[0]) :].split()
    return head[0].rsplit("/", 1)[-1] if head else ""


def reversed_sections(text: str) -> str | None:
    pre, parts = chunks(text)
    return join(pre, parts[::-1]) if len(parts) > 1 else None


def rotated_sections(text: str) -> str | None:
    pre, parts = chunks(text)
    return join(pre, parts[1:] + parts[:1]) if len(parts) > 1 else None


def without_uname(text: str) -> str:
    """Every `uname` section dropped (the AIX and Solaris transcripts, where other commands
    must tell the OS)."""
    pre, parts = chunks(text)
    return join(pre, [p for p in parts if _program(p) != "uname"])


def _filtered(part: tuple[str, list[str]]) -> tuple[str, list[str]] | None:
    """A filtered copy of a df, mount or lsblk section, as a person runs it first."""
    prompt, (command_line, *output) = part
    command = command_line[len(prompt) :]
    if _program(part) in ("df", "mount"):
        kept = [line for line in output if "/dev/" in line]
        if not kept or len(kept) == len(output):
            return None
        return prompt, [f"{prompt}{command} | grep /dev/", *kept]
    if _program(part) == "lsblk" and command.strip() == "lsblk" and output:
        disks = [output[0], *(line for line in output[1:] if line[:1].isalnum())]
        return (prompt, [f"{prompt}lsblk -d", *disks]) if len(disks) < len(output) else None
    return None


def filtered_duplicate(text: str) -> str | None:
    pre, parts = chunks(text)
    out, added = [], False
    for part in parts:
        extra = _filtered(part)
        if extra is not None:
            out.append(extra)
            added = True
        out.append(part)
    return join(pre, out) if added else None


def trailing_prompt(text: str) -> str | None:
    _, parts = chunks(text)
    if not parts:
        return None
    return text.rstrip("\n") + "\n" + parts[-1][0]


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def ansi(text: str) -> str:
    """Every number of the output in bold green, every prompt in green (a coloured PS1)."""
    pre, parts = chunks(text)
    out = []
    for prompt, (command_line, *output) in parts:
        head = (
            f"{PROMPT_COLOUR}{prompt}{RESET}{command_line[len(prompt) :]}"
            if prompt
            else command_line
        )
        body = [_NUMBER.sub(lambda m: f"{GREEN}{m.group(0)}{RESET}", line) for line in output]
        out.append((prompt, [head, *body]))
    return join(pre, out)


def wrapped(text: str) -> str | None:
    pre, parts = chunks(text)
    out, changed = [], False
    for prompt, (command_line, *output) in parts:
        lines = [command_line]
        for line in output:
            pieces = [line[i : i + COLUMNS] for i in range(0, len(line), COLUMNS)] or [""]
            changed |= len(pieces) > 1
            lines.extend(pieces)
        out.append((prompt, lines))
    return join(pre, out) if changed else None


RELATIONS: dict[str, Callable[[str], str | None]] = {
    "reversed": reversed_sections,
    "rotated": rotated_sections,
    "no_uname": without_uname,
    "filtered_duplicate": filtered_duplicate,
    "trailing_prompt": trailing_prompt,
    "crlf": crlf,
    "ansi": ansi,
    "wrapped_80": wrapped,
}
OS_FROM_OTHERS = ("aix", "solaris")  # no_uname applies to these pastes


def applies(name: str, relation: str) -> bool:
    _, lines, text = transcript_file(name)
    if relation == "no_uname":
        return any(line in (f"os={o}" for o in OS_FROM_OTHERS) for line in lines)
    return RELATIONS[relation](text) is not None


def facts(found: Draft, lines: list[str]) -> dict[str, Any]:
    """What a relation keeps: the document's parts, what is guessed, which expects hold."""
    doc = found.document
    current = {k: v for k, v in (doc.get("current") or {}).items() if k != "source"}
    flat: dict[str, Any] = {}
    _flatten("server", doc.get("server") or {}, flat)
    _flatten("storage", doc.get("storage") or [], flat)
    _flatten("current", current, flat)
    flat |= {f"guessed {m.path}": True for m in found.missing}
    flat |= {f"holds {line}": True for line in lines if verdict(line, found) is None}
    return flat


def _flatten(path: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(f"{path}.{key}", inner, out)
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        for i, inner in enumerate(value):
            _flatten(f"{path}[{i}]", inner, out)
    else:
        out[path] = value


def differences(before: dict[str, Any], after: dict[str, Any], limit: int = 6) -> list[str]:
    keys = sorted(set(before) | set(after), key=lambda k: (k.startswith(("guessed", "holds")), k))
    out = []
    for key in keys:
        if before.get(key, "<absent>") != after.get(key, "<absent>"):
            out.append(f"{key}: {before.get(key, '<absent>')!r} → {after.get(key, '<absent>')!r}")
    return out[:limit] + ([f"… {len(out) - limit} more"] if len(out) > limit else [])


def failure(name: str, relation: str) -> str | None:
    """Why `relation` breaks the facts of transcript `name`; None when it keeps them."""
    _, lines, text = transcript_file(name)
    changed = RELATIONS[relation](text)
    if changed is None:
        return None
    before, found = facts(draft(text), lines), draft(changed)
    after = facts(found, lines)
    if relation == "wrapped_80":
        return _wrapped_failure(before, after, found)
    diff = differences(before, after)
    if relation == "no_uname":
        os_lines = [line for line in lines if line.startswith("os=")]
        diff += [f"{line} does not hold" for line in os_lines if f"holds {line}" not in after]
    return "; ".join(diff) or None


def _wrapped_failure(before: dict[str, Any], after: dict[str, Any], found: Draft) -> str | None:
    lost = [k[6:] for k in before if k.startswith("holds ") and k not in after]
    if not lost or found.problems or any("wrap" in n or "cut" in n for n in found.notes):
        return None
    return "silently lost: " + "; ".join(lost)
