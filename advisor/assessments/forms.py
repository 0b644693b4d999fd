"""The inventory form: server, SAS and workload fields plus a formset of storage rows.

The fields are deliberately lenient text inputs: the contract (`rules.parse`) is the one
validator, so every message a user sees is the contract's own, placed next to the field
its JSON path names (see `advisor.assessments.inventory_form`).
"""

from __future__ import annotations

from typing import Any

from django import forms

from rules.inventory import FILESYSTEMS, MEDIA, OS_NAMES, RAID_LEVELS, ROLES, SAS_VERSIONS
from rules.validate import MAX_STORAGE

OS_LABELS = {"aix": "AIX", "linux": "Linux", "solaris": "Solaris", "hpux": "HP-UX"}
RAID_LABELS = {"jbod": "JBOD (no RAID)"}
ROLE_LABELS = {
    "data": "SAS data",
    "work": "SAS WORK",
    "utilloc": "UTILLOC",
    "spds_data": "SPD Server data",
    "spds_index": "SPD Server index",
    "spds_meta": "SPD Server metadata",
    "spds_work": "SPD Server work",
    "other": "Other",
}
MIX_LABELS = {
    "etl": "ETL, sort, merge",
    "summary": "Summaries",
    "analytics": "Analytics",
    "spds_query": "SPD Server queries",
}


def _choices(values: tuple[str, ...], labels: dict[str, str]) -> list[tuple[str, str]]:
    return [(v, labels.get(v, v.upper() if len(v) <= 4 else v)) for v in values]


def _number(*, step: str = "any", minimum: str = "0", **attrs: str) -> forms.NumberInput:
    return forms.NumberInput(attrs={"step": step, "min": minimum, "inputmode": "decimal", **attrs})


def _text(**attrs: str) -> forms.TextInput:
    return forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", **attrs})


def _field(label: str, widget: forms.Widget, help_text: str = "") -> forms.CharField:
    return forms.CharField(label=label, required=False, widget=widget, help_text=help_text)


def _select(label: str, choices: list[tuple[str, str]]) -> forms.CharField:
    return _field(label, forms.Select(choices=choices))


def describe(form: forms.Form) -> None:
    """Point each input at its error container (and help text) for screen readers."""
    for name, field in form.fields.items():
        base = form[name].auto_id
        ids = [f"{base}-errors"] + ([f"{base}_helptext"] if field.help_text else [])
        field.widget.attrs["aria-describedby"] = " ".join(ids)


class InventoryForm(forms.Form):
    name = _field("Assessment name", _text(maxlength="200"))
    hostname = _field("Host name", _text(maxlength="253", placeholder="lemans"))
    os = _select("Operating system", _choices(OS_NAMES, {**OS_LABELS, "windows": "Windows"}))
    os_version = _field("OS version", _text(placeholder="5.3", inputmode="decimal"))
    cpus = _field("Logical CPUs", _number(step="1", minimum="1"))
    ram_gb = _field("RAM (GB)", _number())
    sas_version = _select("SAS version", [(v, v) for v in SAS_VERSIONS])
    connect_licensed = forms.BooleanField(label="SAS/CONNECT licensed", required=False)
    spds_version = _field("SPD Server version", _text(placeholder="none", inputmode="decimal"))
    concurrent_sessions = _field("Peak SAS sessions", _number(step="1", minimum="1"))
    mix_etl = _field(MIX_LABELS["etl"], _number(**{"max": "100", "data-mix": ""}))
    mix_summary = _field(MIX_LABELS["summary"], _number(**{"max": "100", "data-mix": ""}))
    mix_analytics = _field(MIX_LABELS["analytics"], _number(**{"max": "100", "data-mix": ""}))
    mix_spds_query = _field(MIX_LABELS["spds_query"], _number(**{"max": "100", "data-mix": ""}))
    largest_table_gb = _field("Largest table (GB)", _number())
    total_data_gb = _field("Total data (GB)", _number())
    growth_gb_per_week = _field("Growth (GB/week)", _number())

    SERVER_FIELDS = ("hostname", "os", "os_version", "cpus", "ram_gb")
    SAS_FIELDS = ("sas_version", "connect_licensed", "spds_version")
    MIX_FIELDS = ("mix_etl", "mix_summary", "mix_analytics", "mix_spds_query")
    SIZE_FIELDS = ("concurrent_sessions", "largest_table_gb", "total_data_gb", "growth_gb_per_week")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Errors that belong to a group of fields rather than one ("workload.mix").
        self.group_errors: dict[str, list[str]] = {}
        describe(self)

    @property
    def mix_errors(self) -> list[str]:
        return self.group_errors.get("workload.mix", [])

    @property
    def storage_errors(self) -> list[str]:
        return self.group_errors.get("storage", [])

    def mix_total(self) -> str:
        """The percentages' sum as typed, shown beside the mix (updated live by app.js)."""
        total = 0.0
        for name in self.MIX_FIELDS:
            try:
                total += float(self[name].value() or 0)
            except (TypeError, ValueError):
                continue
        return f"{total:g}"

    def group(self, names: tuple[str, ...]) -> list[forms.BoundField]:
        return [self[n] for n in names]

    def server_fields(self) -> list[forms.BoundField]:
        return self.group(self.SERVER_FIELDS)

    def sas_fields(self) -> list[forms.BoundField]:
        return self.group(self.SAS_FIELDS)

    def mix_fields(self) -> list[forms.BoundField]:
        return self.group(self.MIX_FIELDS)

    def size_fields(self) -> list[forms.BoundField]:
        return self.group(self.SIZE_FIELDS)


class StorageForm(forms.Form):
    name = _field("Name", _text(maxlength="64", placeholder="raid5lv01"))
    mount = _field("Mount point", _text(placeholder="/sasdata"))
    role = _select("Role", _choices(ROLES, ROLE_LABELS))
    raid = _select("RAID", _choices(RAID_LEVELS, RAID_LABELS))
    disks = _field("Disks", _number(step="1", minimum="1"))
    stripe_kb = _field("Stripe (KB)", _number(step="1", minimum="1"))
    max_transfer_kb = _field("Max transfer (KB)", _number(step="1", minimum="1"))
    size_gb = _field("Size (GB)", _number())
    # A field named like Form.media: the metaclass takes it out of the class (stubs cannot say).
    media = _select("Media", _choices(MEDIA, {"nvme": "NVMe", "ram": "RAM disk"}))  # type: ignore[assignment]
    filesystem = _select("File system", _choices(FILESYSTEMS, {"other": "other"}))
    adapters = _field("Adapters", _text(placeholder="fscsi0 fscsi1"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        describe(self)


STORAGE_FIELDS: tuple[str, ...] = tuple(StorageForm.base_fields)
STORAGE_PREFIX = "storage"

StorageFormSet = forms.formset_factory(
    StorageForm, extra=0, max_num=MAX_STORAGE, absolute_max=MAX_STORAGE, validate_max=True
)
