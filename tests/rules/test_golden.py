"""Golden files: what `rules.advise()` writes for each example, byte for byte.

tests/golden/<example-stem>/ holds every artifact plus recommendations.json (as the CLI
writes it), for each example in examples/ and for each inventory in tests/golden/inventories/
(the release branches the README promises: SAS 9.4 on AIX 7.2 with a checks-only VMM
section, SPD Server 5.3, Linux, Windows). A rule or renderer change shows up here as a
unified diff. When the change is intended, regenerate and review the diff in git:

    UPDATE_GOLDEN=1 uv run pytest tests/rules/test_golden.py

(and bump rules/version.py when a rule's output changed).
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.conftest import EXAMPLES

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INVENTORIES = {p.stem: p for p in [*EXAMPLES.glob("*.json"), *GOLDEN.glob("inventories/*.json")]}
STEMS = sorted(INVENTORIES)


def expected_files(result: dict[str, Any]) -> dict[str, str]:
    """The artifacts and recommendations.json, exactly as `manage.py advise` writes them."""
    files = dict(result["artifacts"])
    files["recommendations.json"] = rules.result_json(result)
    return files


def diff(name: str, want: str, got: str) -> str:
    lines = difflib.unified_diff(
        want.splitlines(keepends=True), got.splitlines(keepends=True),
        fromfile=f"golden/{name}", tofile=f"advise()/{name}",
    )  # fmt: skip
    return "".join(lines)


def update(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():
        if stale.name not in files:
            stale.unlink()
    for name, text in files.items():
        (folder / name).write_bytes(text.encode("utf-8"))


@pytest.mark.parametrize("stem", STEMS)
def test_advise_matches_golden_files(stem: str) -> None:
    document = json.loads(INVENTORIES[stem].read_text("utf-8"))
    files = expected_files(rules.advise(document))
    folder = GOLDEN / stem
    if os.environ.get("UPDATE_GOLDEN") == "1":
        update(folder, files)
    on_disk = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    assert on_disk == sorted(files), "run UPDATE_GOLDEN=1 to add or drop golden files"
    diffs = [
        diff(f"{stem}/{name}", (folder / name).read_bytes().decode("utf-8"), text)
        for name, text in sorted(files.items())
    ]
    changed = "".join(d for d in diffs if d)
    assert not changed, f"output differs from tests/golden (UPDATE_GOLDEN=1 to accept):\n{changed}"


def test_every_example_has_golden_files() -> None:
    folders = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and p.name != "inventories")
    assert folders == STEMS
