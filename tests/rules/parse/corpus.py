"""The corpus as the acceptance tests see it: command families, sources, failing facts.

A fixture's family is the registered parser its `## command:` reaches
(`rules.parse.registry.find`), so `df -h` and `df -k` are one family, and a command no
parser reads belongs to none (the product does not read it yet). A fixture's source is
the owner of its `## source:` (github.com/chef, ibm.com, this project's CI machine): two
fixtures of one owner are one source, however many repositories or issues they come from.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from rules.parse import draft, parse_text
from rules.parse.combine import combine
from rules.parse.registry import PARSERS, find
from rules.parse.sections import argv_of
from tests.rules.parse.facts import Readings, Verdict, verdict
from tests.rules.parse.fixtures import (
    corpus_names,
    expects,
    header_and_output,
    section,
    transcript,
    transcript_file,
)

MIN_FILES = 5
MIN_SOURCES = 2
# Parsers of files rather than of a command's output (SAS configuration, SPD Server
# parameter files, the collector's own dd measurement): their fixtures live under sas/.
NOT_COMMAND_OUTPUT = frozenset(
    {"sas_config", "spds_parm", "spds_libnames", "measure", "measure_run"}
)
# One project under two names: the GLPI agent is FusionInventory's successor and carries
# its test resources.
SAME_SOURCE = {"github.com/fusioninventory": "github.com/glpi-project"}
_URL = re.compile(r"https?://(?:www\.)?([^/\s]+)(?:/([^/\s]+))?")
_REPO = re.compile(r"([\w.-]+)/[\w.-]+ ")  # 'chef/ohai spec/…': a GitHub repository named bare
CI_MACHINE = "this project's CI machine"


def source_key(source: str) -> str:
    """'https://github.com/chef/ohai/blob/…' → 'github.com/chef'; 'https://www.ibm.com/…'
    → 'ibm.com'; 'RedHatInsights/insights-core insights/…' → 'github.com/RedHatInsights'."""
    found = _URL.match(source)
    if found is not None:
        host, owner = found.group(1).lower(), found.group(2)
        if host in ("github.com", "raw.githubusercontent.com", "gist.github.com") and owner:
            key = f"github.com/{owner}"
        else:
            key = host
    elif source.startswith("captured on the CI build machine"):
        key = CI_MACHINE
    elif (bare := _REPO.match(source)) is not None:
        key = f"github.com/{bare.group(1)}"
    else:
        key = source.split(" ", 1)[0]
    return SAME_SOURCE.get(key, key)


@dataclass(frozen=True)
class Fixture:
    name: str  # 'linux/df_h_centos77_jc.txt'
    command: str
    family: str | None  # the parser that reads it, None where none does
    source: str  # source_key of its source line


def fixtures() -> list[Fixture]:
    out = []
    for name in corpus_names():
        header, _ = header_and_output(name)
        parser = find(argv_of(header["command"]))
        family = None if parser is None else parser.name
        out.append(Fixture(name, header["command"], family, source_key(header["source"])))
    return out


def command_families() -> list[str]:
    """Every parser that reads a command's output."""
    return sorted(p.name for p in PARSERS if p.name not in NOT_COMMAND_OUTPUT)


def family_table() -> dict[str, tuple[int, list[str]]]:
    """family → (fixture count, its sources), for every command family."""
    files: dict[str, int] = dict.fromkeys(command_families(), 0)
    sources: dict[str, set[str]] = defaultdict(set)
    for fixture in fixtures():
        if fixture.family is not None:
            files[fixture.family] = files.get(fixture.family, 0) + 1
            sources[fixture.family].add(fixture.source)
    return {f: (n, sorted(sources[f])) for f, n in sorted(files.items())}


def short(files: int, sources: list[str]) -> bool:
    return files < MIN_FILES or len(sources) < MIN_SOURCES


def render_table(table: dict[str, tuple[int, list[str]]]) -> str:
    rows = [f"{'family':<22} {'files':>5} {'n src':>5}  sources"]
    for family, (files, sources) in table.items():
        mark = " SHORT" if short(files, sources) else ""
        rows.append(f"{family:<22} {files:>5} {len(sources):>5}  {', '.join(sources)}{mark}")
    return "\n".join(rows)


def fixture_failures(name: str) -> dict[str, Verdict]:
    """Expect line → why it fails, for a corpus fixture drafted as a one-command paste;
    a parser's own fact (rows=, swap_mb=…) against what its parser reads of the section."""
    found, readings = draft(transcript(name)), Readings.of_section(section(name))
    lines = expects(name)
    return {line: v for line in lines if (v := verdict(line, found, readings)) is not None}


def transcript_failures(name: str) -> dict[str, Verdict]:
    """Expect line → why it fails, for a whole-server transcript (a parser's own fact
    against every value the transcript's parse kept)."""
    _, lines, text = transcript_file(name)
    parsed = parse_text(text)
    readings = Readings.of_parsed(parsed)
    found = combine(parsed)
    return {line: v for line in lines if (v := verdict(line, found, readings)) is not None}
