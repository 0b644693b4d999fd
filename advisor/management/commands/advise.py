"""`manage.py advise INVENTORY.json --out DIR`: the contract's CLI.

Writes every artifact and recommendations.json into DIR and exits 0. On a bad document it
writes nothing, prints every problem to stderr and exits 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

import rules


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


class Command(BaseCommand):
    help = "Advise on an inventory (contract v1) and write the generated files into --out."
    # The engine needs no database, URLs or models: skip the checks that import them all.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("inventory", help="inventory JSON file, or - for standard input")
        parser.add_argument("--out", required=True, help="directory for the generated files")

    def handle(self, *args: Any, **options: Any) -> None:
        source = options["inventory"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text("utf-8")
            document = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            self.stderr.write(f"{source}: cannot read a JSON document: {exc}")
            sys.exit(2)
        try:
            result = rules.advise(document)
        except rules.InventoryError as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            sys.exit(2)
        for path in write_outputs(result, Path(options["out"])):
            self.stdout.write(str(path))
        for warning in result["warnings"]:
            self.stderr.write(f"warning [{warning['rule']}]: {warning['message']}")
