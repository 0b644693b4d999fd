"""docs/contract.md's example of the result names exactly the fields the result's records
declare (rules/result_records.py), in their order, with the current result_version; its
input names every field the contract declares (rules/inventory.py) and no other; its
outputs list, OS by OS, the files the renderers (rules/render/registry.py) write."""

from __future__ import annotations

import re
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import rules
from rules.derive.labels import OS_LABELS
from rules.echo import field_paths
from rules.inventory import Inventory
from rules.model import NotApplicable, Skipped, Warning
from rules.render.registry import REGISTRY
from rules.result_fields import fields
from rules.result_records import ResultDocument, ResultRecommendation
from rules.version import RESULT_VERSION

CONTRACT = Path(__file__).resolve().parents[1] / "docs" / "contract.md"


def result_example() -> str:
    text = CONTRACT.read_text("utf-8")
    part = text.split("And a machine-readable result", 1)[1]
    return part.split("```", 2)[1]


def input_block() -> str:
    return CONTRACT.read_text("utf-8").split("## Input\n```", 1)[1].split("```", 1)[0]


def keys(text: str) -> list[str]:
    return re.findall(r'"(\w+)":', text.split("//")[0])


def between(text: str, start: str, end: str) -> str:
    return text.split(f'"{start}":', 1)[1].split(f'"{end}":', 1)[0]


def test_the_documented_result_is_the_declared_one() -> None:
    example = result_example()
    lines = [line.split("//")[0] for line in example.splitlines()]
    top = [keys(line)[0] for line in lines if line.startswith('  "')]
    assert top == [f.name for f in fields(ResultDocument)]
    assert f'"result_version": {RESULT_VERSION},' in example
    body = "\n".join(lines)
    records = {
        ("recommendations", "warnings"): ResultRecommendation,
        ("warnings", "skipped"): Warning,
        ("skipped", "not_applicable"): Skipped,
        ("not_applicable", "artifacts"): NotApplicable,
    }
    for (start, end), record in records.items():
        assert keys(between(body, start, end)) == [f.name for f in fields(record)], start


def test_the_documented_input_is_the_declared_one() -> None:
    block = input_block()
    declared = {path.rsplit(".", 1)[-1].removesuffix("[]") for path in field_paths(Inventory)}
    missing = sorted(name for name in declared if f'"{name}"' not in block)
    assert not missing, f"docs/contract.md's input does not name {missing}"
    # Every key that opens a line is a declared field, but for a map's example entry
    # ("sdb": {"max_sectors_kb": …} under current.devices).
    documented = set(re.findall(r'^\s*"(\w+)":(?!\s*\{")', block, re.MULTILINE))
    assert documented <= declared, sorted(documented - declared)


# Releases on either side of each release a renderer's choice turns on (ansible_aix.yml
# from AIX 7.1, sasv9_local.cfg from SAS 9.2), with and without SPD Server.
RELEASES = {"aix": ("5.3", "7.1", "7.3"), "linux": ("8", "9"), "solaris": ("10", "11.4"),
            "hpux": ("11.31",), "windows": ("10.0",)}  # fmt: skip
EVERY_OS = "every OS"


def server_document(os: str, release: str, sas: str, spds: bool) -> dict[str, Any]:
    return {
        "schema_version": 1, "name": "outputs",
        "server": {"hostname": "h", "os": os, "os_version": release, "cpus": 8, "ram_gb": 64},
        "sas": {"version": sas, "connect_licensed": True,
                "spds": {"version": "5.3"} if spds else None},
        "storage": [],
        "workload": {"concurrent_sessions": 4, "mix": {"etl": 1}, "largest_table_gb": 10,
                     "total_data_gb": 100},
    }  # fmt: skip


@cache
def variants() -> tuple[tuple[str, rules.Inventory], ...]:
    """(os, inventory) for each release above, SAS 9.1.3 and 9.4, with and without SPDS."""
    return tuple(
        (os, rules.inventory_from(server_document(os, release, sas, spds)))
        for os, releases in RELEASES.items()
        for release, sas, spds in product(releases, ("9.1.3", "9.4"), (False, True))
    )


def written(os: str) -> set[str]:
    """Every file an assessment of a server of `os` is given, across the variants."""
    inventories = [inv for kind, inv in variants() if kind == os]
    return {r.file_name(inv) for inv in inventories for r in REGISTRY if r.applies(inv)}


def outputs_by_label() -> dict[str, set[str]]:
    """The Outputs list: each bullet's label ("AIX", "every OS") -> the files it names."""
    text = CONTRACT.read_text("utf-8").split("## Outputs\n", 1)[1].split("\n\n", 1)[0]
    named: dict[str, set[str]] = {}
    for bullet in re.split(r"^- ", text, flags=re.MULTILINE)[1:]:
        label = bullet.split(":", 1)[0].split(",", 1)[0]
        files = set(re.findall(r"`([\w.]+\.(?:cfg|parm|sh|conf|yml))`", bullet))
        named[label] = named.get(label, set()) | files
    return named


def test_every_renderer_writes_for_some_server_above() -> None:
    unused = [r.title for r in REGISTRY if not any(r.applies(inv) for _, inv in variants())]
    assert not unused, f"add a server that {unused} write for to RELEASES"


def test_the_documented_outputs_are_the_files_each_os_is_given() -> None:
    named = outputs_by_label()
    for os, label in OS_LABELS.items():
        bullets = [files for key, files in named.items() if label in key.split()]
        assert bullets, f"docs/contract.md's outputs have no line for {label}"
        own = set().union(*bullets)
        given = written(os)
        assert given <= named[EVERY_OS] | own, (label, sorted(given - named[EVERY_OS] - own))
        assert own <= given, (label, sorted(own - given))
