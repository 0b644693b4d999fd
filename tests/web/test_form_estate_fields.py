"""The contract's later fields (shared and cloud storage, the volume layer, file-system
settings, the Windows Server and SAS maintenance releases, NUMA nodes, what the server
runs on) reach the inventory form from their declaration alone: each has an input with
the declared label, a document using them all round-trips through the form, an optional
choice of a storage row starts unknown, and a refusal lands on the input it names."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from advisor.assessments import inventory_form as inv
from advisor.assessments.forms import STORAGE, TOP, InventoryForm, StorageForm
from tests.rules.test_contract_estate_fields import (
    SAS_FIELDS,
    SERVER_FIELDS,
    STORAGE_FIELDS,
    linux_nfs,
    put,
    with_all,
)
from tests.rules.test_contract_estate_fields import windows_2022 as windows

LABELS = {
    "numa_nodes": "NUMA nodes", "virtual": "Runs on", "os_release_name": "Windows Server release",
    "maintenance": "SAS maintenance release", "shared": "Shared file system",
    "nfs_nconnect": "NFS connections", "throughput_cap_mb_s": "Throughput cap (MB/s)",
}  # fmt: skip


def test_each_new_field_has_an_input_named_after_it() -> None:
    top = {f.path: f.name for f in TOP}
    rows = {f.path: f.name for f in STORAGE}
    for name in SERVER_FIELDS:
        assert top[f"server.{name}"] == name
    assert top["sas.maintenance"] == "maintenance"
    for name in STORAGE_FIELDS:
        assert rows[f"storage[].{name}"] == name
    form, row = InventoryForm(), StorageForm()
    for name, label in LABELS.items():
        assert (form.fields.get(name) or row.fields[name]).label == label
    assert [v for v, _ in row.fields["shared"].widget.choices][:2] == ["", "none"]
    attrs = row.fields["nfs_nconnect"].widget.attrs
    assert (attrs["min"], attrs["max"]) == ("1", "16")
    assert "placeholder" in row.fields["mount_options"].widget.attrs


@pytest.mark.django_db
def test_the_new_assessment_page_renders_every_new_input(client_in: Client) -> None:
    page = client_in.get(reverse("web:new")).content.decode()
    for name in (*SERVER_FIELDS, *SAS_FIELDS):
        assert f'name="{name}"' in page, name
    for name in STORAGE_FIELDS:
        assert f'name="storage-0-{name}"' in page, name


def test_a_blank_row_leaves_every_optional_choice_unknown() -> None:
    assert inv.BLANK_ROW["shared"] == inv.BLANK_ROW["volume_kind"] == ""
    assert inv.BLANK_ROW["raid"] == "5" and inv.BLANK_ROW["role"] == "data"
    document = inv.document_from_data(inv.blank_data())
    assert document["storage"][0]["shared"] is None


@pytest.mark.parametrize("doc", [with_all(), windows(), linux_nfs()], ids=["all", "win", "nfs"])
def test_a_document_round_trips_through_the_form(doc: dict[str, Any]) -> None:
    again = inv.document_from_data(inv.data_from_document(doc))
    assert rules.inventory_from(again).to_dict() == rules.inventory_from(doc).to_dict()


def field_errors(page: str, anchor: str) -> list[str]:
    box = re.search(rf'<div id="{re.escape(anchor)}-errors" class="errors"[^>]*>(.*?)</div>', page)
    assert box is not None, anchor
    return [html.unescape(p) for p in re.findall(r"<p>(.*?)</p>", box.group(1))]


@pytest.mark.django_db
def test_a_refusal_lands_on_the_input_it_names(client_in: Client) -> None:
    doc = put(put(linux_nfs(), "storage[0].nfs_nconnect", 8), "server.zfs_arc_max_gb", 300)
    response = client_in.post(reverse("web:new"), inv.data_from_document(doc))
    page = response.content.decode()
    assert response.status_code == 400
    assert field_errors(page, "id_storage-0-nfs_nconnect") == [
        "is for NFS mounts; Storage 1 · File system is XFS"
    ]
    assert field_errors(page, "id_zfs_arc_max_gb") == ["is more than the RAM (256 GB): at most 256"]
