"""What the parse does not get yet, for the people fixing it; `--write` records it.

    uv run python -m tests.rules.parse.gaps_report           # the report
    uv run python -m tests.rules.parse.gaps_report --write   # and rewrite corpus_gaps.py

The report lists the command families and their fixture counts, then every corpus fact
that fails grouped by category and expect key and by parser, the whole transcripts' failing
facts, and the metamorphic relations each transcript breaks. test_corpus.py and
test_metamorphic.py fail on a gap not in corpus_gaps.py and on a recorded gap that is gone,
so after a fix: run with `--write` and commit the shorter corpus_gaps.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from tests.rules.parse.corpus import (
    family_table,
    fixture_failures,
    fixtures,
    render_table,
    transcript_failures,
)
from tests.rules.parse.facts import Verdict, parse_expect
from tests.rules.parse.fixtures import expects, transcript_file, transcript_names
from tests.rules.parse.metamorphic import RELATIONS, applies, failure

GAPS_FILE = Path(__file__).with_name("corpus_gaps.py")
Gaps = dict[str, dict[str, str]]
HEADER = '''"""Facts the parse does not get yet (`python -m tests.rules.parse.gaps_report --write`).

KNOWN_GAPS: corpus fixture → {expect line: why it fails}; KNOWN_TRANSCRIPT_GAPS: the same for
the whole transcripts; KNOWN_METAMORPHIC_GAPS: transcript → {relation: what changed}. The
tests fail on a failure missing here and on an entry here that holds now: the lists only
shrink. Do not edit by hand; fix the parser, then run the report with --write.
"""

# ruff: noqa: E501
from __future__ import annotations'''


def _message(v: Verdict) -> str:
    return f"[{v.category}] {v.message}"


def collect() -> tuple[Gaps, Gaps, Gaps, dict[str, str | None]]:
    """Failing facts of the fixtures and transcripts, broken relations, and each fixture's
    family (None: no parser reads it)."""
    family = {f.name: f.family for f in fixtures()}
    corpus = {n: {k: _message(v) for k, v in fixture_failures(n).items()} for n in family}
    whole = {
        n: {k: _message(v) for k, v in transcript_failures(n).items()} for n in transcript_names()
    }
    relations: Gaps = {}
    for name in transcript_names():
        broken = {r: m for r in RELATIONS if applies(name, r) and (m := failure(name, r))}
        relations[name] = broken
    return _nonempty(corpus), _nonempty(whole), _nonempty(relations), family


def _nonempty(gaps: Gaps) -> Gaps:
    return {name: found for name, found in sorted(gaps.items()) if found}


def _category(message: str) -> str:
    return message[1 : message.index("]")]


def _key(line: str) -> str:
    return parse_expect(line)[0][0]


def report(corpus: Gaps, whole: Gaps, relations: Gaps, family: dict[str, str | None]) -> str:
    out = ["Command families (a registered parser each):", render_table(family_table()), ""]
    facts = sum(len(expects(n)) for n in family)
    failing = [(n, line, m) for n, found in corpus.items() for line, m in found.items()]
    out.append(f"Corpus: {len(family)} fixtures, {facts} facts, {len(failing)} failing")
    by_category: Counter[tuple[str, str]] = Counter()
    by_parser: dict[str, Counter[str]] = defaultdict(Counter)
    for name, line, message in failing:
        by_category[(_category(message), _key(line))] += 1
        by_parser[family[name] or "(no parser)"][_category(message)] += 1
    out.append("\nFailing facts by category and key:")
    out += [f"  {c:<18} {k:<16} {n:>4}" for (c, k), n in sorted(by_category.items())]
    out.append("\nFailing facts by parser (category: count):")
    for parser, counts in sorted(by_parser.items(), key=lambda kv: -sum(kv[1].values())):
        shown = ", ".join(f"{c}: {n}" for c, n in counts.most_common())
        out.append(f"  {parser:<22} {sum(counts.values()):>4}  {shown}")
    out.append("\nFailing facts by fixture:")
    for name, found in corpus.items():
        out.append(f"  {name} ({family[name] or 'no parser'})")
        out += [f"    {m}" for m in found.values()]
    out.append("\nWhole transcripts:")
    for name in transcript_names():
        total = len(transcript_file(name)[1])
        found = whole.get(name, {})
        out.append(f"  {name}: {total - len(found)} of {total} facts hold")
        out += [f"    {m}" for m in found.values()]
    out.append("\nMetamorphic relations broken:")
    for name in transcript_names():
        out.append(f"  {name}: {', '.join(relations.get(name, {})) or 'none'}")
        out += [f"    {r}: {m}" for r, m in relations.get(name, {}).items()]
    return "\n".join(out)


def _literal(name: str, gaps: Gaps) -> str:
    lines = [f"{name}: dict[str, dict[str, str]] = {{"]
    for outer, inner in gaps.items():
        lines.append(f"    {json.dumps(outer)}: {{")
        lines += [
            f"        {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)},"
            for k, v in inner.items()
        ]
        lines.append("    },")
    return "\n".join([*lines, "}"])


def write(corpus: Gaps, whole: Gaps, relations: Gaps) -> None:
    parts = [
        HEADER,
        _literal("KNOWN_GAPS", corpus),
        _literal("KNOWN_TRANSCRIPT_GAPS", whole),
        _literal("KNOWN_METAMORPHIC_GAPS", relations),
    ]
    GAPS_FILE.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    # Formatted as the project formats code, where ruff is at hand (it is in the dev group).
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "-q", "--fix", "--select", "I", str(GAPS_FILE)], check=False)
    subprocess.run([*ruff, "format", "-q", str(GAPS_FILE)], check=False)


def main(argv: list[str]) -> int:
    corpus, whole, relations, family = collect()
    print(report(corpus, whole, relations, family))
    if "--write" in argv:
        write(corpus, whole, relations)
        print(f"\nwrote {GAPS_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
