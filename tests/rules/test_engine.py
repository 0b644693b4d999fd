"""The engine's bookkeeping: rules that do not apply, declared reads, the catalog's checks."""

from __future__ import annotations

import pytest

import rules
from rules.catalog import CATALOG, check
from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.engine import run
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, RuleError, rule
from tests.conftest import example
from tests.rules.fitting import fit_filesystems


def test_a_rule_that_does_not_apply_is_recorded_with_its_reason() -> None:
    decisions = rules.run(rules.inventory_from(example("lemans-aix53-etl")))
    reasons = {n.rule: n.reason for n in decisions.not_applicable}
    assert reasons["spds.memory"] == "sas.spds is null: no SPD Server"
    assert "spds.memory" not in {r.rule for r in decisions.recommendations}
    assert set(reasons).isdisjoint(r.rule for r in decisions.recommendations)


def test_every_rule_is_either_run_or_not_applicable() -> None:
    for name in ("lemans-aix53-etl", "prime-spds-aix"):
        decisions = rules.run(rules.inventory_from(example(name)))
        skipped = {n.rule for n in decisions.not_applicable}
        ran = {r.id for r in CATALOG} - skipped
        assert {r.rule for r in decisions.recommendations} <= ran


def test_the_aix_rules_do_not_apply_on_linux() -> None:
    doc = example("lemans-aix53-etl")
    doc["server"] |= {"os": "linux", "os_version": "9"}
    result = rules.advise(fit_filesystems(doc))
    reasons = {n["rule"]: n["reason"] for n in result["not_applicable"]}
    assert reasons["aix.ioo"] == "server.os is linux; this rule is for AIX"
    assert "aix_tuning.sh" not in result["artifacts"]


def _writes(inv: Inventory, out: Emitter) -> None:
    out.set(SAS_CONFIG, "MEMSIZE", "1G", rationale="test")


def _reads(inv: Inventory, out: Emitter) -> None:
    out.get(SAS_CONFIG, "MEMSIZE")


def test_reading_a_setting_not_declared_is_a_rule_error() -> None:
    writer = rule(id="t.w", title="w", sources=("chew",), settings=((SAS_CONFIG, "MEMSIZE"),))
    reader = rule(id="t.r", title="r", sources=("chew",))
    inv = rules.inventory_from(example("lemans-aix53-etl"))
    with pytest.raises(RuleError, match="read undeclared setting"):
        run(inv, (writer(_writes), reader(_reads)))


def test_the_catalog_check_refuses_a_read_before_its_writer() -> None:
    writer = rule(id="t.w", title="w", sources=("chew",), settings=((SAS_CONFIG, "MEMSIZE"),))
    reader = rule(id="t.r", title="r", sources=("chew",), reads=((SAS_CONFIG, "MEMSIZE"),))
    check((writer(_writes), reader(_reads)))
    with pytest.raises(ValueError, match="which no earlier rule sets"):
        check((reader(_reads), writer(_writes)))


def test_the_catalog_check_refuses_an_input_the_contract_lacks() -> None:
    typo = rule(id="t.x", title="x", sources=("chew",), inputs=("server.cpu",))
    with pytest.raises(ValueError, match="the contract does not have"):
        check((typo(_reads),))


def test_applies_reasons_name_the_field() -> None:
    inv = rules.inventory_from(example("prime-spds-aix"))
    assert on_os("aix")(inv) is None
    assert on_os("linux")(inv) == "server.os is aix; this rule is for Linux"


def test_every_target_a_rule_declares_has_a_renderer() -> None:
    from rules.model import PROGRAM, SYSTEM
    from rules.render.registry import REGISTRY

    rendered = {r.target for r in REGISTRY}
    declared = {target for r in CATALOG for target, _ in r.settings}
    assert declared - {PROGRAM, SYSTEM} <= rendered
    assert len(rendered) == len(REGISTRY)  # one renderer per target
