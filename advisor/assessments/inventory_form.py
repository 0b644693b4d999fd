"""Between the HTML form and the inventory contract, in both directions.

Form data (flat strings, storage rows as a Django formset) becomes a contract document;
a document (an example or a stored assessment) becomes form data; the contract's problems
(`storage[1].mount`, `workload.mix`) are placed on the field or row that caused them.
Values that do not parse as numbers are passed on as text so that the contract, not the
form, words the error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.http import QueryDict

from advisor.assessments.forms import STORAGE_FIELDS, STORAGE_PREFIX, InventoryForm, StorageFormSet
from rules import Problem
from rules.inventory import MIX_KEYS, SCHEMA_VERSION
from rules.validate import MAX_STORAGE

FormData = dict[str, str]

SERVER_KEYS = ("hostname", "os", "os_version", "cpus", "ram_gb")
NUMERIC_SERVER_KEYS = ("cpus", "ram_gb")
SAS_MAP = {"version": "sas_version", "connect_licensed": "connect_licensed"}
WORKLOAD_KEYS = ("concurrent_sessions", "largest_table_gb", "total_data_gb", "growth_gb_per_week")
INT_FIELDS = frozenset({"cpus", "disks", "stripe_kb", "max_transfer_kb", "concurrent_sessions"})
OPTIONAL_NULL = ("stripe_kb", "max_transfer_kb")  # empty means "unknown" (null) in the contract
BLANK_ROW: FormData = {
    "name": "", "mount": "", "role": "data", "raid": "5", "disks": "", "stripe_kb": "",
    "max_transfer_kb": "", "size_gb": "", "media": "hdd", "filesystem": "jfs2", "adapters": "",
}  # fmt: skip
_ROW_PATH = re.compile(r"^storage\[(\d+)\](?:\.([a-z_]+))?")
_ACTION = re.compile(r"^(remove_row|duplicate_row)-(\d+)$")


def _get(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    return str(value).strip() if value is not None else ""


def _number(text: str, *, integer: bool) -> Any:
    """'8' -> 8, '998.5' -> 998.5; anything else stays text for the contract to reject."""
    try:
        return int(text) if integer else float(text)
    except ValueError:
        return text


def _put(out: dict[str, Any], key: str, text: str) -> None:
    if text != "":
        out[key] = _number(text, integer=key in INT_FIELDS)


def _storage_entry(row: Mapping[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for key in ("name", "mount", "role", "raid", "media", "filesystem"):
        if row.get(key, "") != "":
            entry[key] = row[key]
    for key in ("disks", "size_gb"):
        _put(entry, key, row.get(key, ""))
    for key in OPTIONAL_NULL:
        text = row.get(key, "")
        entry[key] = _number(text, integer=True) if text else None
    adapters = row.get("adapters", "").replace(",", " ").split()
    if adapters:
        entry["adapters"] = adapters
    return entry


def document_from_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The contract document the form describes (not yet validated)."""
    server: dict[str, Any] = {}
    for key in SERVER_KEYS:
        text = _get(data, key)
        if key in NUMERIC_SERVER_KEYS:
            _put(server, key, text)
        elif text:
            server[key] = text
    spds = _get(data, "spds_version")
    sas = {
        "version": _get(data, "sas_version"),
        "connect_licensed": _get(data, "connect_licensed").lower() in ("on", "true", "1"),
        "spds": {"version": spds} if spds else None,
    }
    workload: dict[str, Any] = {}
    for key in WORKLOAD_KEYS:
        _put(workload, key, _get(data, key))
    mix: dict[str, Any] = {}
    for key in MIX_KEYS:
        pct = _number(_get(data, f"mix_{key}"), integer=False) if _get(data, f"mix_{key}") else 0
        mix[key] = round(pct / 100, 6) if isinstance(pct, float | int) else pct
    workload["mix"] = {k: v for k, v in mix.items() if v != 0}
    return {
        "schema_version": SCHEMA_VERSION,
        "name": _get(data, "name"),
        "server": server,
        "sas": sas,
        "storage": [_storage_entry(row) for row in rows_from_data(data)],
        "workload": workload,
    }


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def data_from_document(doc: Mapping[str, Any]) -> FormData:
    """Form data that shows this document (an example or a stored inventory)."""
    server, sas, workload = doc.get("server", {}), doc.get("sas", {}), doc.get("workload", {})
    data: FormData = {"name": _text(doc.get("name", ""))}
    data |= {key: _text(server.get(key)) for key in SERVER_KEYS}
    data["sas_version"] = _text(sas.get("version"))
    if sas.get("connect_licensed"):
        data["connect_licensed"] = "on"
    data["spds_version"] = _text((sas.get("spds") or {}).get("version"))
    data |= {key: _text(workload.get(key)) for key in WORKLOAD_KEYS}
    mix = workload.get("mix", {})
    for key in MIX_KEYS:
        share = mix.get(key)
        data[f"mix_{key}"] = f"{share * 100:g}" if share else ""
    rows = [
        {**BLANK_ROW, **{k: _text(v) for k, v in entry.items() if k != "adapters"}}
        | {"adapters": " ".join(entry.get("adapters") or [])}
        for entry in doc.get("storage", [])
    ]
    return data_with_rows(data, rows)


def blank_data() -> FormData:
    base: FormData = {"os": "aix", "sas_version": "9.4", "mix_etl": "100"}
    return data_with_rows(base, [dict(BLANK_ROW)])


def rows_from_data(data: Mapping[str, Any]) -> list[FormData]:
    try:
        count = int(_get(data, f"{STORAGE_PREFIX}-TOTAL_FORMS") or 0)
    except ValueError:
        count = 0
    count = max(0, min(count, MAX_STORAGE))
    return [
        {key: _get(data, f"{STORAGE_PREFIX}-{i}-{key}") for key in STORAGE_FIELDS}
        for i in range(count)
    ]


def data_with_rows(data: Mapping[str, Any], rows: list[FormData]) -> FormData:
    """The same form data with the storage rows replaced (and renumbered)."""
    prefix = f"{STORAGE_PREFIX}-"
    out: FormData = {
        k: _get(data, k) for k in data if not k.startswith(prefix) and k != "csrfmiddlewaretoken"
    }
    out |= {
        f"{prefix}TOTAL_FORMS": str(len(rows)),
        f"{prefix}INITIAL_FORMS": "0",
        f"{prefix}MIN_NUM_FORMS": "0",
        f"{prefix}MAX_NUM_FORMS": str(MAX_STORAGE),
    }
    for i, row in enumerate(rows):
        out |= {f"{prefix}{i}-{key}": row.get(key, "") for key in STORAGE_FIELDS}
    return out


def row_action(data: QueryDict | Mapping[str, Any]) -> FormData | None:
    """Apply an add/remove/duplicate button to the rows; None when no such button was sent."""
    rows = rows_from_data(data)
    if "add_row" in data:
        if len(rows) < MAX_STORAGE:
            rows.append(dict(BLANK_ROW))
        return data_with_rows(data, rows)
    for key in data:
        match = _ACTION.match(key)
        if not match or int(match.group(2)) >= len(rows):
            continue
        index = int(match.group(2))
        if match.group(1) == "remove_row":
            rows.pop(index)
        elif len(rows) < MAX_STORAGE:
            rows.insert(index + 1, dict(rows[index]))
        return data_with_rows(data, rows)
    return None


def bind(data: Mapping[str, Any]) -> tuple[InventoryForm, Any]:
    form = InventoryForm(data)
    formset = StorageFormSet(data, prefix=STORAGE_PREFIX)
    form.full_clean()
    formset.full_clean()
    return form, formset


def _form_field(path: str) -> str | None:
    head, _, rest = path.partition(".")
    if head == "name" and not rest:
        return "name"
    if head == "server" and rest in SERVER_KEYS:
        return rest
    if head == "sas":
        return "spds_version" if rest.startswith("spds") else SAS_MAP.get(rest)
    if head == "workload":
        if rest.startswith("mix."):
            return "mix_" + rest.removeprefix("mix.")
        return rest if rest in WORKLOAD_KEYS else None
    return None


def place_problems(form: InventoryForm, formset: Any, problems: list[Problem]) -> None:
    """Put each contract problem on the field (or row, or group) its path names."""
    for problem in problems:
        row = _ROW_PATH.match(problem.path)
        if row and int(row.group(1)) < len(formset.forms):
            target = formset.forms[int(row.group(1))]
            field = row.group(2)
            target.add_error(field if field in target.fields else None, problem.message)
            continue
        if problem.path in ("workload.mix", "storage"):
            form.group_errors.setdefault(problem.path, []).append(problem.message)
            continue
        field = _form_field(problem.path)
        if field is not None and field in form.fields:
            form.add_error(field, problem.message)
        else:
            form.add_error(None, f"{problem.path}: {problem.message}")
