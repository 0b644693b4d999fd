"""PowerShell pipelines: which command's output a pasted pipeline shows.

PowerShell passes objects down a pipeline and prints what its last command emits, so
`Get-Partition -DiskNumber 1 | Get-Volume` prints volumes, not partitions. The cmdlets
that only select, filter, sort or format those objects (Select-Object, Where-Object,
Sort-Object, Format-Table, Out-String, …: PASS_THROUGH) and the native programs fed
their text (`findstr`, `more`) leave the producer's rows and values as they were, so the
producer is the last cmdlet that is none of these (learn.microsoft.com, PowerShell
docs-conceptual "Selecting parts of objects", "Collecting information about computers").
A Select-Object or Format-Table that computes a property (`@{label=…; expression=…}`) or
expands one (`-ExpandProperty`) rewrites the values (FreeSpace in GB, not bytes): it is
then the producer itself, which no parser reads as the drives.

A cmdlet is a Verb-Noun name with one of PowerShell's approved verbs (Get-Verb), or one
of the aliases in ALIASES. The pipeline is split at `|` outside quotes, braces, brackets
and parentheses, in one pass over the line; it ends at the first `;`, `&&` or `||` there.
"""

from __future__ import annotations

import re

# Approved verbs (Get-Verb) an admin's listing commands start with, and the common others.
VERBS = frozenset({
    "add", "clear", "convertfrom", "convertto", "copy", "debug", "disable", "enable", "enter",
    "export", "find", "format", "get", "group", "import", "initialize", "invoke", "join",
    "measure", "mount", "new", "optimize", "out", "read", "remove", "rename", "repair",
    "resize", "resolve", "search", "select", "set", "show", "sort", "split", "start", "stop",
    "tee", "test", "update", "where", "write", "foreach",
})  # fmt: skip
# Aliases of cmdlets that make objects: CIM and WMI queries, drives, items, processes,
# services; ForEach-Object (`%`), Measure-Object and Group-Object make new ones.
ALIASES = frozenset({"gcim", "gwmi", "gdr", "gci", "gps", "gsv", "%", "foreach", "measure",
                     "group"})  # fmt: skip
# Cmdlets that pass the objects they receive on (selected, filtered, sorted) or print them
# as they are, and their aliases: the rows shown are still those of the command before.
PASS_THROUGH = frozenset({
    "select-object", "where-object", "sort-object", "format-table", "format-list",
    "format-wide", "format-custom", "out-string", "out-host", "out-default", "select-string",
    "tee-object", "write-output", "select", "where", "?", "sort", "ft", "fl", "fw", "fc",
    "oh", "sls", "tee", "echo", "write",
})  # fmt: skip
SELECT = ("select-object", "select")
_VERB_NOUN = re.compile(r"([A-Za-z]{2,20})-[A-Za-z][A-Za-z0-9]{0,60}")
_SEPARATORS = {";": ";", "&": "&&", "|": "||"}
_OPEN, _CLOSE = "({[", ")}]"
_COMPUTED = "@{"  # a calculated property: `@{label='FreeSpace'; expression={…}}`
_EXPAND = re.compile(r"\s-exp[a-z]{0,11}\b", re.IGNORECASE)  # -ExpandProperty, -exp


def is_cmdlet(word: str) -> bool:
    """`Get-Volume`, `get-ciminstance`, `gcim`: a PowerShell command, not a program."""
    found = _VERB_NOUN.fullmatch(word)
    if found is not None:
        return found[1].lower() in VERBS
    return word.lower() in ALIASES


def producer(line: str) -> str:
    """The pipeline element whose output the line prints: the last cmdlet that neither
    passes its input on nor formats it; the first element where no later one produces,
    and "" where the line ends in `|` (the pipeline goes on past the pasted line)."""
    elements = _elements(line)
    if len(elements) > 1 and not elements[-1].strip():
        return ""
    produced = [e for e in elements[1:] if _produces(e)]
    return (produced[-1] if produced else elements[0]).strip()


def _produces(element: str) -> bool:
    words = element.split(maxsplit=1)
    name = words[0].lower() if words else ""
    if name in PASS_THROUGH:
        rest = words[1] if len(words) > 1 else ""
        return _COMPUTED in rest or (name in SELECT and _EXPAND.search(f" {rest}") is not None)
    return is_cmdlet(name)


def _elements(line: str) -> list[str]:
    """The line's first list element split at its pipes, outside quotes and brackets."""
    out: list[str] = []
    start, depth, quote, at = 0, 0, "", 0
    while at < len(line):
        char = line[at]
        if quote:
            if char == "`":  # PowerShell's escape: the next character is literal
                at += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and char in _SEPARATORS and _ends_list(line, at):
            break
        elif depth == 0 and char == "|":
            out.append(line[start:at])
            start = at + 1
        at += 1
    out.append(line[start:at])
    return out


def _ends_list(line: str, at: int) -> bool:
    """A `;`, `&&` or `||` at `at`: the end of the pipeline's list element."""
    return line.startswith(_SEPARATORS[line[at]], at)
