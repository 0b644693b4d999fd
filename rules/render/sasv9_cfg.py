"""Renderer: the SAS options, as sasv9_append.cfg (9.1.3) or sasv9_local.cfg (9.2+).

The installed `!SASROOT/sasv9.cfg` carries -PATH, -SASHELP and the other options SAS cannot
start without, so the advisor never writes a file of that name: on 9.1.3 its lines are to be
appended to the installed file; from 9.2 they go in sasv9_local.cfg or, for a server context,
sasv9_usermods.cfg. The header of each file says how to apply it, with the documentation.

One option per line with a leading hyphen (`-CPUCOUNT 4`, `-THREADS`, `-UTILLOC (/a /b)`),
each preceded by `/* rule-id: reason */`. SAS configuration files take `/* */` comments
(SAS 9.4 Companion for UNIX, "configuration files"); a comment must open and close on one
line, so long reasons are wrapped into several one-line comments, and `*/` inside a reason
is broken up so it can never end a comment early. Advice aimed at programs rather than at
options follows in a trailing comment block that SAS ignores.
"""

from __future__ import annotations

import functools
import re
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

# How to apply each file, read off SAS's documentation. 9.1.3: "If the same option is set
# more than once within … a configuration file …, only the last setting is used" (SAS 9.1
# and 9.3 Companion for UNIX, "How SAS Processes System Options Set in One Place"); a
# -CONFIG file on the command line "disables the default configuration file list" (CONFIG
# System Option: UNIX, 9.3; not confirmed for 9.1.3). 9.2+: !SASROOT/sasv9_local.cfg
# "overrides the options in the default configuration file, and prevents the options from
# being lost when you reinstall or upgrade SAS" (SAS 9.2 Companion for UNIX, "Contents of the
# !SASROOT Directory"); in a server context, sasv9.cfg "is the primary configuration file
# for a server. You should not edit [it]" and sasv9_usermods.cfg "enables user
# modifications" (SAS 9.3 Intelligence Platform: System Administration Guide, "Overview of
# Configuration Files").
APPLY_913 = (
    "HOW TO APPLY (SAS 9.1.3). This is NOT a configuration file on its own: never save it "
    "as sasv9.cfg. The installed !SASROOT/sasv9.cfg carries -PATH and the other options SAS "
    "cannot start without (!SASROOT: SAS's installation directory).",
    "1. Set SASROOT to that directory (edit the path), then back up the installed file:",
    "SASROOT=/usr/local/SAS/SAS_9.1",
    'cp -p "$SASROOT/sasv9.cfg" "$SASROOT/sasv9.cfg.orig"',
    "2. Append these lines to its end:",
    'cat sasv9_append.cfg >> "$SASROOT/sasv9.cfg"',
    "An option set twice in one configuration file takes its last value (SAS 9.1 Companion "
    "for UNIX, 'How SAS Processes System Options Set in One Place'), so these lines win. Do "
    "not start SAS with -CONFIG naming this file alone: from 9.2 a -CONFIG file replaces the "
    "default configuration file list (CONFIG System Option: UNIX); for 9.1.3 the same is "
    "unconfirmed.",
    "3. Check in a new session (PROC OPTIONS for each option below too):",
    "proc options option=config value; run;",
    "Roll back:",
    'cp -p "$SASROOT/sasv9.cfg.orig" "$SASROOT/sasv9.cfg"',
)
APPLY_92 = (
    "HOW TO APPLY (SAS 9.2 and later). Never put these lines in a sasv9.cfg: SAS's own "
    "sasv9.cfg files are replaced by maintenance and carry the options SAS starts with.",
    "SAS started from SAS Foundation (batch, the sas command): save as "
    "!SASROOT/sasv9_local.cfg, which overrides the installed sasv9.cfg and survives "
    "reinstalls and upgrades (SAS 9.2 Companion for UNIX, 'Contents of the !SASROOT "
    "Directory'). If that file exists, append these lines to it instead of replacing it.",
    "Servers of a SAS Intelligence Platform context (Lev1/SASApp: workspace, stored process, "
    "batch servers): put the lines in the context's sasv9_usermods.cfg (all its servers) or "
    "in one server's, never in the sasv9.cfg beside it, and restart those servers (SAS "
    "Intelligence Platform: System Administration Guide, 'Overview of Configuration Files').",
    "Check in a new session: proc options option=config value; run; lists the files read.",
)

# SAS on Windows reads !SASROOT\sasv9.cfg, whose -CONFIG names the language file
# !SASROOT\nls\en\sasv9.cfg ("The Default Configuration File", SAS 9.4 Companion for
# Windows, "Files Used by SAS"); the documented place to save options is that language
# file. sasv9_usermods.cfg is the server-context file on every host (SAS 9.3 Intelligence
# Platform: System Administration Guide, "Overview of Configuration Files").
APPLY_WINDOWS = (
    "HOW TO APPLY (SAS on Windows). SAS reads !SASROOT\\sasv9.cfg, which names the language "
    "file !SASROOT\\nls\\en\\sasv9.cfg with -CONFIG (SAS 9.4 Companion for Windows, 'Files "
    "Used by SAS'); !SASROOT is C:\\Program Files\\SASHome\\SASFoundation\\9.4 by default.",
    "SAS Foundation (batch and interactive sessions), in a Command Prompt run as "
    "administrator: set SASROOT (edit the path), back up the language file, then append "
    "these lines to its end (an option set twice takes its last value):",
    'set "SASROOT=C:\\Program Files\\SASHome\\SASFoundation\\9.4"',
    'copy "%SASROOT%\\nls\\en\\sasv9.cfg" "%SASROOT%\\nls\\en\\sasv9.cfg.orig"',
    'type sasv9_append.cfg >> "%SASROOT%\\nls\\en\\sasv9.cfg"',
    "Servers of a SAS Intelligence Platform context (Lev1\\SASApp): put the lines in the "
    "context's sasv9_usermods.cfg instead and restart those servers (SAS Intelligence "
    "Platform: System Administration Guide, 'Overview of Configuration Files').",
    "Check in a new session: proc options option=config value; run; lists the files read. "
    "Roll back by copying sasv9.cfg.orig back.",
)


def comment_text(text: str) -> str:
    """Text safe inside `/* … */`: one line, and no `*/` or `/*` to end or nest a comment."""
    return one_line(text).replace("*/", "* /").replace("/*", "/ *")


def comment(text: str) -> list[str]:
    """Text as one or more one-line SAS comments."""
    return [f"/* {line} */" for line in wrap(comment_text(text))]


def windows_paths(value: str) -> str:
    """Each Windows path in a value double-quoted: `-WORK "D:\\saswork"`, `-UTILLOC ("D:\\u"
    "E:\\u")` (the contract holds Windows paths to [A-Za-z0-9_.$-] and backslashes)."""
    return re.sub(r'(?<!")((?:[A-Za-z]:|\\\\)[^\s()"]*)', r'"\1"', value)


def option_line(rec: Recommendation, windows: bool = False) -> str:
    """`-NAME value`, or `-NAME` alone for a flag option whose value is empty."""
    value = one_line(rec.value)
    if windows:
        value = windows_paths(value)
    return f"-{rec.setting} {value}" if value else f"-{rec.setting}"


def _option(rec: Recommendation, windows: bool) -> list[str]:
    lines = comment(f"{rec.rule}: {rec.rationale}")
    if rec.kind == "change":
        return [*lines, option_line(rec, windows)]
    if rec.kind == "check":
        # Verify first: the line is there to copy, but commented out.
        return [*lines, *comment(f"check before enabling: {option_line(rec, windows)}")]
    return lines


@functools.cache
def fixed_comment(texts: tuple[str, ...]) -> tuple[str, ...]:
    """Comment lines for text that is the same in every file, wrapped once."""
    return tuple(line for text in texts for line in comment(text))


PROGRAM_HEAD = (
    "NOT OPTIONS: change your programs. SAS does not read these lines;",
    "each is a statement or data set option to use in SAS code.",
)


def _program_block(recs: list[Recommendation]) -> list[str]:
    if not recs:
        return []
    lines = ["", RULE_LINE, *fixed_comment(PROGRAM_HEAD), RULE_LINE]
    for rec in recs:
        statement = f"{rec.setting}={rec.value}" if rec.value else rec.setting
        lines += ["", *comment(f"{rec.rule}: {statement}"), *comment(rec.rationale)]
        if isinstance(rec.payload, CodeExample):
            lines += comment(f"for example: {rec.payload.code}")
    return lines


def file_name(inv: Inventory) -> str:
    return inv.config_file


def render(result: Decisions) -> str:
    file_name = result.inventory.config_file
    lines = [line for text in input_lines(result, file_name) for line in comment(text)]
    windows = result.inventory.server.os == "windows"
    apply = (
        APPLY_WINDOWS if windows else APPLY_92 if result.inventory.sas.at_least_92 else APPLY_913
    )
    lines += ["", *fixed_comment(apply)]
    options = result.for_target(file_name)
    if not options:
        lines += ["", *comment("No option to set: the rules left the SAS defaults in place.")]
    for rec in options:
        lines += ["", *_option(rec, windows)]
    lines += _program_block(result.for_target(PROGRAM))
    return "\n".join(lines) + "\n"


RENDERER = Renderer(
    SAS_CONFIG, "SAS options to add to the site configuration", file_name, always, render
)
