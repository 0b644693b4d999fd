"""The inventory form, read off the contract: server, SAS and workload fields plus a formset
of storage rows.

Each input is a contract field (`rules.inventory`): its label, help, choices and limits
come from the field's declaration, so a field added to the contract appears here without
a change. The inputs are deliberately lenient text: the contract (`rules.inventory_from`) is the
one validator, so every message a user sees is the contract's own, placed next to the
field its JSON path names (see `advisor.assessments.inventory_form`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.safestring import SafeString, mark_safe

from advisor.assessments import presets
from advisor.assessments.form_rows import row_field
from rules.derive.labels import DISTRIBUTION_LABELS, OS_LABELS
from rules.fields import Bool, Choice, Kind, ListOf, Obj, Spec, specs
from rules.inventory import MAX_STORAGE, Inventory, Sas, Server, Storage, Workload
from rules.inventory_fit import FS_LABELS

# How people write the contract's choice values; a value not listed shows as it is.
CHOICE_LABELS: dict[str, str] = {
    **OS_LABELS,
    **{k: v for k, v in DISTRIBUTION_LABELS.items() if k != "other"},
    "jbod": "JBOD (no RAID)",
    "data": "SAS data",
    "work": "SAS WORK",
    "utilloc": "UTILLOC",
    "spds_data": "SPD Server data",
    "spds_index": "SPD Server index",
    "spds_meta": "SPD Server metadata",
    "spds_work": "SPD Server work",
    "hdd": "HDD",
    "ssd": "SSD",
    "nvme": "NVMe",
    "ram": "RAM disk",
    **FS_LABELS,
}
# Form names kept from before the form was read off the contract (pages, scripts and
# bookmarks post them); every other field is named by the rule in `form_name`.
FIXED_NAMES = {
    "sas.version": "sas_version",
    "sas.connect_licensed": "connect_licensed",
    "sas.spds.version": "spds_version",
}
PERCENT = "workload.mix."  # mix fractions are typed as percentages
# "e.g." placeholders for the inputs whose contract field declares no example.
EXAMPLES: dict[str, str] = {
    "name": "lemans ETL data mart", "server.cpus": "16", "server.cores": "8",
    "server.smt_threads": "4", "storage[].disks": "4", "storage[].stripe_kb": "64",
    "storage[].max_transfer_kb": "256", "storage[].size_gb": "500",
    "storage[].measured_mb_s": "800", "workload.concurrent_sessions": "20",
    "workload.largest_table_gb": "60", "workload.total_data_gb": "2000",
    "workload.growth_gb_per_week": "5",
}  # fmt: skip


@dataclass(frozen=True)
class FormField:
    """One input: its name in the form and the contract field it fills."""

    name: str
    path: str  # 'server.cpus', 'sas.spds.version', 'workload.mix.etl', 'storage[].mount'
    spec: Spec
    in_nullable: bool = False  # inside an object that may be null (sas.spds)

    @property
    def percent(self) -> bool:
        return self.path.startswith(PERCENT)


def form_name(path: str) -> str:
    """'server.cpus' -> 'cpus', 'workload.mix.etl' -> 'mix_etl', 'storage[].mount' -> 'mount'."""
    if path in FIXED_NAMES:
        return FIXED_NAMES[path]
    return path.split(".", 1)[1].replace(".", "_")


def leaves(cls: type, prefix: str, nullable: bool = False) -> Iterator[FormField]:
    """Every input a contract class needs, nested objects flattened."""
    for key, s in specs(cls):
        path = f"{prefix}{key}"
        if isinstance(s.kind, Obj):
            yield from leaves(s.kind.cls, f"{path}.", nullable or s.nullable)
        else:
            yield FormField(form_name(path), path, s, nullable)


SERVER = tuple(leaves(Server, "server."))
SAS = tuple(leaves(Sas, "sas."))
WORKLOAD = tuple(leaves(Workload, "workload."))
MIX = tuple(f for f in WORKLOAD if f.percent)
SIZES = tuple(f for f in WORKLOAD if not f.percent)
STORAGE = tuple(leaves(Storage, "storage[]."))
NAME = next(FormField("name", "name", s) for key, s in specs(Inventory) if key == "name")
TOP = (NAME, *SERVER, *SAS, *WORKLOAD)
# What the server runs now travels as one hidden JSON input: it is read from the server
# (rules.parse), shown on the page as a table, and never typed field by field.
CURRENT = next(
    FormField("current", "current", s) for key, s in specs(Inventory) if key == "current"
)
assert len({f.name for f in TOP}) == len(TOP), "two contract fields share a form name"


def _choices(kind: Choice, nullable: bool = False) -> list[tuple[str, str]]:
    """The contract's choices; an optional one starts with an empty choice: unknown."""
    empty = [("", "— unknown —")] if nullable else []
    return empty + [(v, CHOICE_LABELS.get(v, v)) for v in kind.options]


def _placeholder(field: FormField) -> str:
    """'e.g. 16': the contract's example (or the form's), worded so that nobody takes it
    for a value already filled in; none for the mix, where empty means 0."""
    example = field.spec.example
    if field.percent:
        return ""
    if isinstance(example, list):
        example = " ".join(str(e) for e in example)
    shown = EXAMPLES.get(field.path, "" if example is None else str(example))
    return f"e.g. {shown}" if shown else ""


def needed(field: FormField) -> bool:
    """Whether the input must be filled in: the contract requires it, and not only inside
    an object that may be absent (SPD Server). The name is sent even when empty."""
    return field.spec.required and not field.in_nullable and field.path != "name"


def _limits(field: FormField) -> dict[str, str]:
    kind: Kind | Obj | ListOf = field.spec.kind
    if field.percent:
        return {"min": "0", "max": "100", "step": "any", "data-mix": ""}
    return kind.limits() if isinstance(kind, Kind) else {}


def _widget(field: FormField) -> forms.Widget:
    kind = field.spec.kind
    attrs = _limits(field)
    if needed(field):
        attrs["aria-required"] = "true"
    if isinstance(kind, Choice):
        return forms.Select(attrs=attrs, choices=_choices(kind, field.spec.nullable))
    if placeholder := _placeholder(field):
        attrs["placeholder"] = placeholder
    if "min" in attrs:  # a number
        return forms.NumberInput(attrs={"inputmode": "decimal", **attrs})
    return forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", **attrs})


class InputField(forms.CharField):
    """A lenient text input (the contract validates) that knows whether the contract
    requires it: the page marks those with an asterisk."""

    def __init__(self, *, needed: bool, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.needed = needed


def django_field(field: FormField, *, with_help: bool = True) -> forms.Field:
    """The input for a contract field. Help shows under the input; for check boxes, mix
    shares (their fieldset explains them) and storage rows it is the input's tooltip."""
    label = field.spec.label
    inline = with_help and not field.percent and not isinstance(field.spec.kind, Bool)
    help_text = field.spec.help if inline else ""
    if isinstance(field.spec.kind, Bool):
        return forms.BooleanField(
            label=label,
            required=False,
            widget=forms.CheckboxInput(attrs={"title": field.spec.help} if field.spec.help else {}),
        )
    if field.percent:
        label = f"{label} (%)"
    widget = _widget(field)
    if not inline and field.spec.help:
        widget.attrs["title"] = field.spec.help
    return InputField(needed=needed(field), label=label, widget=widget, help_text=help_text)


def describe(form: forms.Form) -> None:
    """Point each input at its error container (and help text) for screen readers."""
    for name, field in form.fields.items():
        base = form[name].auto_id
        ids = [f"{base}-errors"] + ([f"{base}_helptext"] if field.help_text else [])
        field.widget.attrs["aria-describedby"] = " ".join(ids)


def preset_field() -> InputField:
    """The workload preset: a choice that stands for the four mix shares. The select
    carries each preset's shares for form.js, which fills the mix inputs when it changes."""
    shares = {key: presets.shares(key) for key in presets.PRESETS if key != presets.CUSTOM}
    attrs = {"data-presets": json.dumps(shares, separators=(",", ":"))}
    notes = "; ".join(f"{p.label}: {p.note}" for p in presets.PRESETS.values())
    return InputField(
        needed=False,
        label="Kind of work",
        widget=forms.Select(attrs=attrs, choices=presets.choices()),
        help_text=f"{notes}.",
    )


class InventoryForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in TOP:
            self.fields[field.name] = django_field(field)
        self.fields[CURRENT.name] = forms.CharField(required=False, widget=forms.HiddenInput)
        self.fields[presets.PRESET] = preset_field()
        self.fields[presets.FILLED] = forms.CharField(required=False, widget=forms.HiddenInput)
        # Errors that belong to a group of fields rather than one ("workload.mix").
        self.group_errors: dict[str, list[str]] = {}
        describe(self)

    @property
    def mix_open(self) -> bool:
        """Whether "Set the mix yourself" starts open: a mix of one's own, or one refused."""
        return self[presets.PRESET].value() == presets.CUSTOM or bool(self.mix_errors)

    @property
    def mix_errors(self) -> list[str]:
        return self.group_errors.get("workload.mix", [])

    @property
    def storage_errors(self) -> list[str]:
        return self.group_errors.get("storage", [])

    def mix_total(self) -> str:
        """The percentages' sum as typed, shown beside the mix (updated live by app.js)."""
        total = 0.0
        for field in MIX:
            try:
                total += float(self[field.name].value() or 0)
            except (TypeError, ValueError):
                continue
        return f"{total:g}"

    def group(self, fields: tuple[FormField, ...]) -> list[forms.BoundField]:
        return [self[f.name] for f in fields]

    def server_fields(self) -> list[forms.BoundField]:
        return self.group(SERVER)

    def sas_fields(self) -> list[forms.BoundField]:
        return self.group(SAS)

    def mix_fields(self) -> list[forms.BoundField]:
        return self.group(MIX)

    def size_fields(self) -> list[forms.BoundField]:
        return self.group(SIZES)


class StorageForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in STORAGE:  # help as a tooltip: a row repeats up to 512 times
            self.fields[field.name] = django_field(field, with_help=False)
        describe(self)

    def fields_html(self) -> SafeString:
        """The row's inputs as _field.html writes them, written here: through Django's
        widget templates 512 rows take seconds, and tests hold the two to the same HTML."""
        return mark_safe("".join(row_field(bound) for bound in self))


STORAGE_FIELDS: tuple[str, ...] = tuple(f.name for f in STORAGE)
STORAGE_PREFIX = "storage"

StorageFormSet = forms.formset_factory(
    StorageForm, extra=0, max_num=MAX_STORAGE, absolute_max=MAX_STORAGE, validate_max=True
)

# Names for the contract's objects, where a problem names a group rather than an input.
GROUP_LABELS = {
    "$": "The document", "server": "Server", "sas": "SAS", "sas.spds": "SPD Server version",
    "storage": "Storage", "workload": "Workload", "workload.mix": "Workload mix",
    "current": "Current settings", "schema_version": "Contract version",
}  # fmt: skip
_LABELS = {f.path: f.spec.label for f in (*TOP, *STORAGE)}
# The input of each contract path outside the storage rows: 'server.cpus' → 'cpus'.
INPUT_NAMES = {f.path: f.name for f in TOP}
_NAMES = INPUT_NAMES | {"sas.spds": "spds_version", "workload.mix": "mix_etl"}
_ROW = re.compile(r"^storage\[(\d{1,4})\](?:\.([a-z_]+))?")


def path_label(path: str) -> str:
    """What the form calls a contract path: 'storage[2].mount' → 'Storage 3 · Mount point'."""
    row = _ROW.match(path)
    if row is None:
        return _LABELS.get(path) or GROUP_LABELS.get(path) or path
    label = f"Storage {int(row.group(1)) + 1}"
    if row.group(2):
        label += f" · {_LABELS.get(f'storage[].{row.group(2)}', row.group(2))}"
    return label


def path_anchor(path: str) -> str:
    """The id of the input a contract path names ('' for one the form does not show)."""
    row = _ROW.match(path)
    if row is None:
        name = _NAMES.get(path)
        return f"id_{name}" if name else ("storage" if path == "storage" else "")
    field = row.group(2) if row.group(2) in STORAGE_FIELDS else "name"
    return f"id_{STORAGE_PREFIX}-{row.group(1)}-{field}"
