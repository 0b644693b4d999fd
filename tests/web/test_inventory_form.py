"""Form data <-> contract document, row actions and where contract problems land."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from advisor.assessments import inventory_form as inv


def test_lemans_round_trips_through_the_form(lemans: dict[str, Any]) -> None:
    document = inv.document_from_data(inv.data_from_document(lemans))
    assert rules.inventory_from(document).to_dict() == rules.inventory_from(lemans).to_dict()


def test_prime_round_trips_with_spds_and_a_mixed_workload(prime: dict[str, Any]) -> None:
    data = inv.data_from_document(prime)
    assert data["spds_version"] == "4.4"
    assert (data["mix_spds_query"], data["mix_etl"]) == ("70", "30")
    assert data["storage-TOTAL_FORMS"] == "9"
    assert (
        rules.inventory_from(inv.document_from_data(data)).to_dict()
        == rules.inventory_from(prime).to_dict()
    )


def test_text_in_a_number_field_reaches_the_contract_as_text() -> None:
    data = inv.blank_data() | {"cpus": "eight", "storage-0-disks": "2"}
    document = inv.document_from_data(data)
    assert document["server"]["cpus"] == "eight"
    assert document["storage"][0]["disks"] == 2
    assert document["storage"][0]["stripe_kb"] is None


def test_percentages_become_fractions() -> None:
    data = inv.blank_data() | {"mix_etl": "60", "mix_summary": "", "mix_analytics": "40"}
    assert inv.document_from_data(data)["workload"]["mix"] == {"etl": 0.6, "analytics": 0.4}


def test_add_row_appends_a_blank_row(lemans_data: dict[str, str]) -> None:
    out = inv.row_action(lemans_data | {"add_row": "1"})
    assert out is not None
    rows = inv.rows_from_data(out)
    assert [r["mount"] for r in rows] == ["/raid0", "/raid5", ""]
    assert rows[2] == inv.BLANK_ROW


def test_remove_row_renumbers_the_rest(lemans_data: dict[str, str]) -> None:
    out = inv.row_action(lemans_data | {"remove_row-0": "1"})
    assert out is not None
    assert out["storage-TOTAL_FORMS"] == "1"
    assert out["storage-0-mount"] == "/raid5"
    assert "storage-1-mount" not in out


def test_duplicate_row_inserts_a_copy_after_it(lemans_data: dict[str, str]) -> None:
    out = inv.row_action(lemans_data | {"duplicate_row-0": "1"})
    assert out is not None
    assert [r["mount"] for r in inv.rows_from_data(out)] == ["/raid0", "/raid0", "/raid5"]


def test_no_button_means_no_row_action(lemans_data: dict[str, str]) -> None:
    assert inv.row_action(lemans_data) is None
    assert inv.row_action(lemans_data | {"remove_row-7": "1"}) is None


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("server.hostname", "hostname"),
        ("sas.version", "sas_version"),
        ("sas.spds.version", "spds_version"),
        ("workload.mix.etl", "mix_etl"),
        ("workload.concurrent_sessions", "concurrent_sessions"),
    ],
)
def test_problem_lands_on_its_field(lemans_data: dict[str, str], path: str, field: str) -> None:
    form, formset = inv.bind(lemans_data)
    inv.place_problems(form, formset, [rules.Problem(path, "is wrong")])
    assert form.errors == {field: ["is wrong"]}


def test_row_problems_land_on_the_row_and_group_problems_on_the_group(
    lemans_data: dict[str, str],
) -> None:
    form, formset = inv.bind(lemans_data)
    problems = [
        rules.Problem("storage[1].mount", "duplicates storage[0].mount"),
        rules.Problem("storage[0].adapters[1]", "must be 1-64 characters"),
        rules.Problem("workload.mix", "fractions must sum to 1 (±0.01), got 0.9"),
    ]
    inv.place_problems(form, formset, problems)
    # Worded as the form words them: paths as the labels on the page, the mix in percent.
    assert formset.forms[1].errors == {"mount": ["duplicates Storage 1 · Mount point"]}
    assert formset.forms[0].errors == {"adapters": ["must be 1-64 characters"]}
    assert form.mix_errors == ["the shares must add up to 100 % (±1 %); they add up to 90 %"]


def test_every_contract_field_has_an_input() -> None:
    from advisor.assessments.forms import CURRENT, STORAGE, TOP
    from rules.echo import field_paths
    from rules.inventory import Inventory

    inputs = {f.path for f in (*TOP, *STORAGE, CURRENT)}
    objects = {"server", "sas", "sas.spds", "storage", "workload", "workload.mix"}
    # The current block is one hidden JSON input: read from the server, never typed.
    paths = {p for p in field_paths(Inventory) if not p.startswith("current.")}
    leaves = paths - objects - {"schema_version"}
    assert leaves == inputs


def test_choices_and_limits_come_from_the_contract() -> None:
    from advisor.assessments.forms import InventoryForm, StorageForm
    from rules.inventory import OS_NAMES, ROLES

    form, row = InventoryForm(), StorageForm()
    assert [v for v, _ in form.fields["os"].widget.choices] == list(OS_NAMES)
    assert [v for v, _ in row.fields["role"].widget.choices] == list(ROLES)
    attrs = form.fields["cpus"].widget.attrs
    assert (attrs["min"], attrs["max"], attrs["step"]) == ("1", "4096", "1")
    assert form.fields["hostname"].widget.attrs["maxlength"] == "253"
