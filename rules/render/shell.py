"""Shell formatting for generated scripts: quoting and comments.

Every value a script interpolates goes through `quote`, so a value can never become shell
syntax, whatever it holds. Comments are one line each: a newline in a reason would
otherwise turn the rest of the reason into commands.
"""

from __future__ import annotations

from pathlib import Path

from rules.render._common import wrap


def quote(value: str) -> str:
    """Single-quote for POSIX sh: `it's` -> `'it'\\''s'` (close, escaped quote, reopen)."""
    return "'" + value.replace("'", "'\\''") + "'"


def command(*words: str) -> str:
    """A command line of quoted words, the first (a function or program name) left bare."""
    return " ".join([words[0], *[quote(w) for w in words[1:]]])


def comment(text: str, indent: str = "") -> list[str]:
    """Text as `# …` lines, wrapped; whatever the text holds, it stays inside the comment."""
    return [f"{indent}# {line}".rstrip() for line in wrap(text)]


def shell_part(name: str) -> str:
    """A shell file shipped beside the renderers, without its shellcheck directives and
    its leading comment lines, and without the final newline."""
    text = (Path(__file__).parent / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "\n".join(lines)
