"""Renderer: the SAS site configuration file, sasv9.cfg (9.1.3) or sasv9_local.cfg (9.2+).

One option per line with a leading hyphen (`-CPUCOUNT 4`, `-THREADS`, `-UTILLOC (/a /b)`),
each preceded by `/* rule-id: reason */`. SAS configuration files take `/* */` comments
(SAS 9.4 Companion for UNIX, "configuration files"); a comment must open and close on one
line, so long reasons are wrapped into several one-line comments, and `*/` inside a reason
is broken up so it can never end a comment early. Advice aimed at programs rather than at
options follows in a trailing comment block that SAS ignores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.inventory import Inventory
from rules.model import PROGRAM, SAS_CONFIG
from rules.payloads import CodeExample
from rules.render._common import input_lines, one_line, wrap
from rules.render.base import Renderer, always

if TYPE_CHECKING:
    from rules.engine import Decisions
    from rules.model import Recommendation

RULE_LINE = "/* " + "-" * 84 + " */"


def comment_text(text: str) -> str:
    """Text safe inside `/* … */`: one line, and no `*/` or `/*` to end or nest a comment."""
    return one_line(text).replace("*/", "* /").replace("/*", "/ *")


def comment(text: str) -> list[str]:
    """Text as one or more one-line SAS comments."""
    return [f"/* {line} */" for line in wrap(comment_text(text))]


def option_line(rec: Recommendation) -> str:
    """`-NAME value`, or `-NAME` alone for a flag option whose value is empty."""
    value = one_line(rec.value)
    return f"-{rec.setting} {value}" if value else f"-{rec.setting}"


def _option(rec: Recommendation) -> list[str]:
    lines = comment(f"{rec.rule}: {rec.rationale}")
    if rec.kind == "change":
        return [*lines, option_line(rec)]
    if rec.kind == "check":
        # Verify first: the line is there to copy, but commented out.
        return [*lines, *comment(f"check before enabling: {option_line(rec)}")]
    return lines


def _program_block(recs: list[Recommendation]) -> list[str]:
    if not recs:
        return []
    lines = [
        "",
        RULE_LINE,
        *comment("NOT OPTIONS: change your programs. SAS does not read these lines;"),
        *comment("each is a statement or data set option to use in SAS code."),
        RULE_LINE,
    ]
    for rec in recs:
        statement = f"{rec.setting}={rec.value}" if rec.value else rec.setting
        lines += ["", *comment(f"{rec.rule}: {statement}"), *comment(rec.rationale)]
        if isinstance(rec.payload, CodeExample):
            lines += comment(f"for example: {rec.payload.code}")
    return lines


def file_name(inv: Inventory) -> str:
    return inv.sas.config_file


def render(result: Decisions) -> str:
    file_name = result.inventory.sas.config_file
    lines = [line for text in input_lines(result, file_name) for line in comment(text)]
    options = result.for_target(file_name)
    if not options:
        lines += ["", *comment("No option to set: the rules left the SAS defaults in place.")]
    for rec in options:
        lines += ["", *_option(rec)]
    lines += _program_block(result.for_target(PROGRAM))
    return "\n".join(lines) + "\n"


RENDERER = Renderer(SAS_CONFIG, "SAS site configuration", file_name, always, render)
