"""Workload presets without JavaScript: the preset is a form field the server turns into
the mix when the percentages are left as the page filled them (or empty); percentages
typed by hand win over it; the SPD Server preset asks for SPD Server's version; and the
preview marks only the problems of inputs the user changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.assessments import inventory_form as inv
from advisor.assessments import presets
from advisor.models import Assessment

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db
MIXED = presets.shares("mixed")


def saved_mix(client: Client, data: dict[str, str]) -> dict[str, float]:
    response = client.post(reverse("web:new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    mix = Assessment.objects.latest("pk").inventory["workload"]["mix"]
    return {key: share for key, share in mix.items() if share}  # stored with every key


def test_every_preset_is_a_mix_the_contract_takes(lemans_data: dict[str, str]) -> None:
    for key in presets.PRESETS:
        if key == presets.CUSTOM:
            continue
        data = lemans_data | {"preset": key, **{n: "" for n in presets.MIX_NAMES}}
        mix = inv.document_from_data(data)["workload"]["mix"]
        shares = {f"mix_{k}": round(v * 100) for k, v in mix.items()}
        assert shares == presets.PRESETS[key].mix, key
        assert sum(shares.values()) == 100


def test_a_preset_with_empty_percentages_gives_the_mix(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    empty = {name: "" for name in presets.MIX_NAMES}
    data = lemans_data | empty | {"preset": "analytics", "preset_filled": ""}
    assert saved_mix(client_in, data) == {"etl": 0.2, "summary": 0.2, "analytics": 0.6}


def test_a_preset_changed_without_javascript_replaces_the_mix_the_page_filled(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    # The page was drawn on Mixed (its shares in the inputs); the user picked ETL batch.
    data = lemans_data | MIXED | {"preset": "etl", "preset_filled": "mixed"}
    assert saved_mix(client_in, data) == {"etl": 1.0}


def test_typed_percentages_win_over_the_preset(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    typed = {"mix_etl": "50", "mix_summary": "50", "mix_analytics": "", "mix_spds_query": ""}
    data = lemans_data | typed | {"preset": "etl", "preset_filled": "mixed"}
    assert saved_mix(client_in, data) == {"etl": 0.5, "summary": 0.5}
    # Drawn again, the form says the mix is the user's own, and shows it.
    form, _ = inv.bind(data)
    assert form["preset"].value() == presets.CUSTOM and form.mix_open
    assert form["mix_etl"].value() == "50"


def test_typed_percentages_that_do_not_add_up_are_refused_at_the_mix(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    data = lemans_data | MIXED | {"mix_etl": "10", "preset": "etl", "preset_filled": "mixed"}
    response = client_in.post(reverse("web:new"), data)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Workload mix: the shares must add up to 100 % (±1 %); they add up to 70 %" in page
    assert '<details id="mix-details" class="mix-details" open>' in page


def test_posts_without_a_preset_keep_their_mix(lemans_data: dict[str, str]) -> None:
    data = {k: v for k, v in lemans_data.items() if not k.startswith("preset")}
    data |= {"mix_etl": "60", "mix_analytics": "40"}
    assert inv.document_from_data(data)["workload"]["mix"] == {"etl": 0.6, "analytics": 0.4}


def test_the_spds_preset_asks_for_the_spds_version(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    data = lemans_data | MIXED | {"preset": "spds", "preset_filled": "mixed"}
    response = client_in.post(reverse("web:new"), data)
    assert response.status_code == 400
    assert '<a href="#id_spds_version">SPD Server version: is required</a>' in (
        response.content.decode()
    )
    saved = saved_mix(client_in, data | {"spds_version": "5.3"})
    assert saved == {"etl": 0.3, "spds_query": 0.7}


def test_the_blank_form_starts_on_a_preset_with_nothing_marked(client_in: Client) -> None:
    page = client_in.get(reverse("web:new")).content.decode()
    assert '<option value="mixed" selected>Mixed</option>' in page
    assert 'name="mix_summary" value="30"' in page  # the preset's shares, one click away
    assert '<details id="mix-details" class="mix-details">' in page  # closed
    assert "has-error" not in page and 'aria-invalid="true"' not in page
    assert 'class="mix-total off"' not in page
    assert '<input type="hidden" name="touched" id="touched" value="">' in page


def preview(client: Client, data: dict[str, Any]) -> str:
    return client.post(reverse("web:preview"), data, **HTMX).content.decode()


def test_the_preview_marks_only_the_inputs_changed(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    bad = lemans_data | {"mix_etl": "90", "preset": "custom", "cores": "0"}
    untouched = preview(client_in, bad | {"touched": "name"})
    assert (
        'id="mix-errors"' in untouched
        and "must add up to 100 %" not in untouched.split('<ul class="problems">')[0]
    )
    assert 'id="id_cores-errors"' not in untouched
    touched = preview(client_in, bad | {"touched": "name mix_etl cores"})
    assert "they add up to 90 %" in touched and 'id="id_cores-errors"' in touched
    everything = preview(client_in, bad | {"touched": "*"})
    assert "they add up to 90 %" in everything and 'id="id_cores-errors"' in everything
