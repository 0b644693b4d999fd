"""The engine's command line, with no Django:

    python -m rules advise INVENTORY.json --out DIR     (- reads standard input)
    python -m rules parse BUNDLE [--workload WORKLOAD.json]
    python -m rules collector          (prints the collector script, its version stamped in)
    python -m rules log SASLOG [--json] [--cpus N]   (diagnoses a job from its SAS log)
    python -m rules verify RECOMMENDATIONS.json BUNDLE [--json] [--strict]
                           [--allow-renamed-host]   (drift: exit 0, 1 or 2, see verify_cli)

`advise` writes every artifact and recommendations.json into DIR and exits 0. On a bad
document it writes nothing, prints every problem by JSON path to stderr and exits 2.
`manage.py advise` runs this same code. `parse` reads a collector bundle or a pasted
transcript and prints the draft (inventory, provenance, missing, problems by line) as
JSON; with --workload it merges that workload in and prints the validated inventory, or
exits 2 with every problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import rules
from rules.collect import collector_script
from rules.logs import analyse_lines
from rules.logs.text import render as render_log
from rules.parse import Draft, TooLarge, draft, sections
from rules.verify_cli import add_parser as add_verify_parser
from rules.verify_cli import verify_files

# A 512-storage-entry inventory is about 150 kB; anything far larger is not an inventory.
MAX_DOCUMENT_BYTES = 4 * 1024 * 1024
Say = Callable[[str], None]


class InputError(ValueError):
    """The input could not be read as one JSON document."""


def read_document(source: str) -> Any:
    """The JSON document in a file, or on standard input for '-'; at most 4 MiB."""
    try:
        if source == "-":
            text = sys.stdin.read(MAX_DOCUMENT_BYTES + 1)
        else:
            with Path(source).open(encoding="utf-8") as handle:
                text = handle.read(MAX_DOCUMENT_BYTES + 1)
        if len(text) > MAX_DOCUMENT_BYTES:
            raise InputError(f"larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")
        return json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise InputError(str(exc)) from exc


def write_outputs(result: dict[str, Any], out: Path) -> list[Path]:
    """Write the artifacts and recommendations.json; files are written whole or not at all."""
    out.mkdir(parents=True, exist_ok=True)
    files = dict(result["artifacts"])
    files["recommendations.json"] = rules.result_json(result)
    written = []
    for name, text in files.items():
        target = out / name
        tmp = target.with_name(f".{name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        if name.endswith(".sh"):
            tmp.chmod(0o755)
        tmp.replace(target)
        written.append(target)
    return written


def advise(source: str, out: Path, *, say: Say, complain: Say) -> int:
    """The advise command: 0 when the files are written, 2 for bad input."""
    try:
        document = read_document(source)
    except InputError as exc:
        complain(f"{source}: cannot read a JSON document: {exc}")
        return 2
    try:
        result = rules.advise(document)
    except rules.InventoryError as exc:
        for problem in exc.problems:
            complain(str(problem))
        return 2
    for path in write_outputs(result, out):
        say(str(path))
    for warning in result["warnings"]:
        complain(f"warning [{warning['rule']}]: {warning['message']}")
    return 0


def read_text(source: str) -> str:
    """A bundle or transcript from a file or standard input, at most MAX_BYTES."""
    limit = sections.MAX_BYTES
    try:
        if source == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with Path(source).open("rb") as handle:
                data = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(str(exc)) from exc
    if len(data) > limit:
        raise InputError(f"larger than {limit // (1024 * 1024)} MiB")
    return data.decode("utf-8", errors="replace")


def _with_workload(found: Draft, source: str) -> dict[str, Any]:
    workload = read_document(source)
    document = dict(found.document)
    document["workload"] = (
        workload.get("workload", workload) if isinstance(workload, dict) else workload
    )
    return rules.inventory_from(document).to_dict()


def parse_bundle(source: str, workload: str | None, *, say: Say, complain: Say) -> int:
    """The parse command: 0 with the draft (or inventory) printed, 2 for bad input."""
    try:
        found = draft(read_text(source))
        for line_problem in found.problems:
            complain(
                f"line {line_problem['line']}: {line_problem['command']}: {line_problem['message']}"
            )
        output = found.to_dict() if workload is None else _with_workload(found, workload)
    except (InputError, TooLarge) as exc:
        complain(f"{source}: {exc}")
        return 2
    except rules.InventoryError as exc:
        for problem in exc.problems:
            complain(str(problem))
        return 2
    say(json.dumps(output, indent=2, ensure_ascii=False))
    return 0


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="python -m rules", description=__doc__.split("\n")[0])
    commands = main.add_subparsers(dest="command", required=True)
    advise_cmd = commands.add_parser("advise", help="write the generated files for an inventory")
    advise_cmd.add_argument("inventory", help="inventory JSON file, or - for standard input")
    advise_cmd.add_argument("--out", required=True, help="directory for the generated files")
    commands.add_parser("collector", help="print the read-only collector script")
    parse_cmd = commands.add_parser("parse", help="read a collector bundle or transcript")
    parse_cmd.add_argument("bundle", help="bundle or transcript file, or - for standard input")
    parse_cmd.add_argument(
        "--workload", help="JSON with the workload block: print the complete inventory"
    )
    log_cmd = commands.add_parser("log", help="diagnose a job from its SAS log")
    log_cmd.add_argument("log", help="a SAS log file, or - for standard input")
    log_cmd.add_argument("--json", action="store_true", help="print the analysis as JSON")
    log_cmd.add_argument("--cpus", type=int, default=0, help="the server's CPUs (for CPUCOUNT)")
    add_verify_parser(commands)
    return main


def diagnose_log(source: str, *, as_json: bool, cpus: int, say: Say, complain: Say) -> int:
    """The log command: reads the log line by line (any size), 2 when it cannot be read."""
    try:
        if source == "-":
            lines = (line.decode("utf-8", "replace") for line in sys.stdin.buffer)
            analysis = analyse_lines(lines, cpus=max(0, cpus))
        else:
            with Path(source).open("rb") as handle:
                lines = (line.decode("utf-8", "replace") for line in handle)
                analysis = analyse_lines(lines, cpus=max(0, cpus))
    except OSError as exc:
        complain(f"{source}: {exc}")
        return 2
    say(json.dumps(analysis, indent=2) if as_json else render_log(analysis, source))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)

    def say(line: str) -> None:
        print(line)

    def complain(line: str) -> None:
        print(line, file=sys.stderr)

    if args.command == "collector":
        say(collector_script().rstrip("\n"))
        return 0
    if args.command == "log":
        return diagnose_log(args.log, as_json=args.json, cpus=args.cpus, say=say, complain=complain)
    if args.command == "parse":
        return parse_bundle(args.bundle, args.workload, say=say, complain=complain)
    if args.command == "verify":
        return verify_files(
            args, read_json=read_document, read_text=read_text, say=say, complain=complain
        )
    return advise(args.inventory, Path(args.out), say=say, complain=complain)
