"""rules/ is pure Python: no Django, Celery or DRF import anywhere in it."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = ("django", "celery", "rest_framework", "drf_spectacular", "advisor")
RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_rules_imports_no_framework() -> None:
    files = sorted(RULES_DIR.rglob("*.py"))
    assert len(files) > 10
    offenders = {
        str(f.relative_to(RULES_DIR)): sorted(
            m for m in imported_modules(f) if m.split(".")[0] in FORBIDDEN
        )
        for f in files
    }
    assert {f: m for f, m in offenders.items() if m} == {}
