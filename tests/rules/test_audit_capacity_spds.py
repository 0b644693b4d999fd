"""Audit fixes: CPUCOUNT, the memory budget and the SPD Server rules checked against the
papers' own lines and the SPD Server documentation."""

from __future__ import annotations

from typing import Any

from rules import Result, advise_inventory
from rules.model import PROGRAM, SPDSSERV
from rules.validate import parse
from tests.conftest import example


def advise(name: str = "prime-spds-aix", **changes: Any) -> Result:
    """An example with `section__field=value` changes."""
    doc = example(name)
    for key, value in changes.items():
        section, field = key.split("__")
        doc[section][field] = value
    return advise_inventory(parse(doc))


def values(result: Result, target: str, setting: str) -> list[str]:
    return [r.value for r in result.recommendations if r.target == target and r.setting == setting]


def test_partsize_never_below_minpartsize() -> None:
    # SPD Server 5.3 User's Guide, PARTSIZE= table option: "the value of PARTSIZE= must be
    # greater than the value of MINPARTSIZE= to have any effect"; bogacz2012 l.226-232
    # raised the partition size to get fewer DPFs. 64 CPUs → 128 paths × 17 = 2176 DPFs,
    # so a 2000 GB table at 1024M (2000 DPFs) would have been told PARTSIZE=942.
    result = advise(server__cpus=64, workload__largest_table_gb=2000)
    assert values(result, SPDSSERV, "MINPARTSIZE") == ["1024M"]
    assert values(result, PROGRAM, "PARTSIZE") == []
    [warning] = [w for w in result.warnings if w.rule == "spds.partsize"]
    assert "PARTSIZE=942" in warning.message


def test_partsize_above_minpartsize_when_given() -> None:
    # bogacz2012 l.237: partsize=5820 for a big table, above its MINPARTSIZE 1024M (l.198).
    result = advise(workload__largest_table_gb=20000)
    [part] = values(result, PROGRAM, "PARTSIZE")
    assert int(part) > 1024
