"""The draft form read from a server: its "from server" marks name each input by its
label and quote what the paste printed (`free -g`'s 125 as 'Mem: 125', not the kB it
stands for), and it starts on the default workload preset, with no mix error untouched."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from advisor.assessments import presets
from advisor.assessments.draft_marks import draft_view, source_text
from rules.parse import draft
from rules.parse.draft import Provenance

pytestmark = pytest.mark.django_db
FREE_G = (
    "$ hostname\nsasprod01\n$ nproc\n16\n$ free -g\n"
    "               total        used        free      shared  buff/cache   available\n"
    "Mem:             125          10         100           1          15         113\n"
    "Swap:              7           0           7\n"
)


def test_free_g_is_quoted_as_printed_with_the_fields_label() -> None:
    marks = draft_view(draft(FREE_G)).marks
    assert marks["ram_gb"].source.startswith("RAM (GB) 125 from `free -g` (line 5), Mem: 125, ")
    assert "131072000" not in marks["ram_gb"].source
    assert marks["hostname"].source == "Host name sasprod01 from `hostname` (line 1)"
    assert marks["cpus"].source.startswith("Logical CPUs 16 from `nproc` (line 3)")


def test_meminfo_is_quoted_as_printed() -> None:
    marks = draft_view(draft("$ cat /proc/meminfo\nMemTotal:       24684084 kB\n")).marks
    assert marks["ram_gb"].source == (
        "RAM (GB) 23.54 from `cat /proc/meminfo` (line 1), MemTotal: 24684084 kB"
    )


@pytest.mark.parametrize(
    ("path", "value", "shown"),
    [
        ("storage[2].max_transfer_kb", 256, "Max transfer (KB) 256"),
        ("server.ram_gb", 125.0, "RAM (GB) 125"),
        ("server.ram_gb", 62.5, "RAM (GB) 62.5"),
        ("sas.connect_licensed", True, "SAS/CONNECT licensed yes"),
    ],
)
def test_a_source_names_the_field_by_its_label(path: str, value: object, shown: str) -> None:
    text = source_text(Provenance(path, value, "lsattr -El hdisk4", 12, "0x40000"))
    assert text == f"{shown} from `lsattr -El hdisk4` (line 12), 0x40000"


def test_the_form_shows_the_label_not_the_field_name(client_in: Client) -> None:
    page = client_in.post(reverse("web:from-server"), {"text": FREE_G}).content.decode()
    assert 'title="RAM (GB) 125 from `free -g` (line 5), Mem: 125, ' in page
    assert ">Host name sasprod01 from `hostname` (line 1)</span>" in page
    assert "ram_gb 125" not in page and "from server hostname" not in page


def test_a_draft_starts_on_the_default_preset_without_a_mix_error(client_in: Client) -> None:
    """The server never tells the workload: the form starts on 'Mixed' as the blank one
    does, not on an own mix of nothing shown in red as adding up to 0 %."""
    page = client_in.post(reverse("web:from-server"), {"text": FREE_G}).content.decode()
    assert '<option value="mixed" selected>Mixed</option>' in page
    assert 'name="mix_etl" value="40"' in page and 'name="mix_summary" value="30"' in page
    assert "they add up to 0" not in page and 'class="mix-total off"' not in page
    assert "Confirm: the workload" in page  # still the admin's to confirm


def test_a_read_inventory_keeps_its_own_mix() -> None:
    kept = presets.started({"mix_etl": "100", "preset": "custom"})
    assert kept == {"mix_etl": "100", "preset": "custom"}
    started = presets.started({"mix_etl": "", "cpus": "4"})
    assert (started["preset"], started["preset_filled"]) == ("mixed", "mixed")
    assert (started["mix_etl"], started["mix_analytics"], started["cpus"]) == ("40", "30", "4")
