"""Two assessments side by side, as an admin reads them: the recommended settings that
differ first (the equal ones counted), then the inputs grouped (server, SAS, storage
matched by mount point, workload) and the current settings read summarised with a count.

Values read as the admin writes them: strings bare, booleans yes/no, lists with commas,
the workload mix's fractions as the form's percentages (1.0 is '100 %'), a choice marked
(`FieldRow.choice`) for the page to show by the form's label ('linux' is Linux), an
absent value `not given`. A field is marked only where both sides give a value and the
values differ, or where one side gives it and the other does not; a mount only one side
has is added or removed, never compared with another mount. Labels come from the
contract's declarations (`spec(label=...)`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.current import Current
from rules.fields import Choice, Obj, Spec, specs
from rules.inventory import Sas, Server, Workload
from rules.inventory_storage import Storage
from rules.result_records import ResultDocument, ResultRecommendation

NOT_GIVEN = "not given"
MountChange = Literal["added", "removed", "changed", "same"]
_SETTINGS_MAPS = ("sas_options", "spds_parameters", "aix_ioo", "aix_vmo", "linux_sysctl")
_STORAGE_SKIP = ("index",)
_MIX = "mix"  # the workload's shares: fractions in the contract, percentages on the form


def shown(value: Any) -> str:
    """A value as an admin writes it: no JSON quoting; None is `not given`."""
    if value is None:
        return NOT_GIVEN
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value) if value else "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {shown(v)}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True)
class FieldRow:
    """One input on both sides; `a`/`b` are None where that side does not give it."""

    label: str
    a: str | None
    b: str | None
    choice: bool = False  # a contract choice ('linux'): the page shows the form's label

    @property
    def differs(self) -> bool:
        return self.a != self.b


def percent(value: Any) -> str:
    """A mix fraction as the form types it: 1.0 → '100 %', 0.125 → '12.5 %'."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return shown(value)
    return f"{round(value * 100, 2):g} %"


def _row(label: str, a: Any, b: Any, sp: Spec | None = None, in_mix: bool = False) -> FieldRow:
    show = percent if in_mix else shown
    choice = sp is not None and isinstance(sp.kind, Choice)
    return FieldRow(label, None if a is None else show(a), None if b is None else show(b), choice)


@dataclass(frozen=True)
class Group:
    title: str
    rows: tuple[FieldRow, ...]

    @property
    def changed(self) -> int:
        return sum(r.differs for r in self.rows)


@dataclass(frozen=True)
class MountRow:
    mount: str
    change: MountChange
    rows: tuple[FieldRow, ...]  # differing fields when on both; every field when on one


@dataclass(frozen=True)
class SettingRow:
    setting: str
    target: str
    a: str | None  # None: not recommended on that side
    b: str | None
    why: str
    rule: str
    sources: tuple[str, ...]

    @property
    def change(self) -> str:
        """added, removed or changed (equal rows say `same`)."""
        if self.a == self.b:
            return "same"
        return "added" if self.a is None else "removed" if self.b is None else "changed"


@dataclass(frozen=True)
class CurrentSummary:
    read_a: int
    read_b: int
    rows: tuple[FieldRow, ...]  # the settings read that differ

    @property
    def differ(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Comparison:
    differ: tuple[SettingRow, ...]
    equal: tuple[SettingRow, ...]
    groups: tuple[Group, ...]
    storage: tuple[MountRow, ...]
    current: CurrentSummary


def _fields(
    cls: type, a: Mapping[str, Any], b: Mapping[str, Any], prefix: str = "", in_mix: bool = False
) -> list[FieldRow]:
    """Every contract field of `cls`, nested objects flattened under their label."""
    rows: list[FieldRow] = []
    for name, sp in specs(cls):
        if name in _STORAGE_SKIP:
            continue
        va, vb = a.get(name), b.get(name)
        label = f"{prefix}{sp.label}"
        if isinstance(sp.kind, Obj) and isinstance(va or vb, Mapping):
            mix = cls is Workload and name == _MIX
            rows += _fields(sp.kind.cls, _map(va), _map(vb), f"{label}: ", mix)
        else:
            rows.append(_row(label, va, vb, sp, in_mix))
    return rows


def _given(rows: list[FieldRow]) -> tuple[FieldRow, ...]:
    """The rows at least one side gives: a field neither gives says nothing."""
    return tuple(r for r in rows if r.a is not None or r.b is not None)


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _storage(a: Iterable[Mapping[str, Any]], b: Iterable[Mapping[str, Any]]) -> list[MountRow]:
    """Matched by mount point, in mount order; a mount one side lacks is added/removed."""
    left = {str(s.get("mount")): s for s in a}
    right = {str(s.get("mount")): s for s in b}
    out = []
    for mount in sorted(set(left) | set(right)):
        sa, sb = left.get(mount), right.get(mount)
        if sa is None or sb is None:
            change: MountChange = "added" if sa is None else "removed"
            rows = _fields(Storage, sa or {}, sb or {})
            out.append(MountRow(mount, change, tuple(r for r in rows if r.label != "Mount point")))
            continue
        rows = [r for r in _fields(Storage, sa, sb) if r.differs]
        out.append(MountRow(mount, "changed" if rows else "same", tuple(rows)))
    return out


def _settings_read(current: Mapping[str, Any]) -> dict[str, Any]:
    """Every current setting read, under a label: 'Linux sysctl: vm.swappiness'."""
    labels = dict((name, sp.label) for name, sp in specs(Current))
    read: dict[str, Any] = {}
    for name in _SETTINGS_MAPS:
        for key, value in _map(current.get(name)).items():
            read[f"{labels[name]}: {key}"] = value
    for device, attributes in _map(current.get("devices")).items():
        for key, value in _map(attributes).items():
            read[f"{labels['devices']}: {device} {key}"] = value
    for name in ("linux_thp", "tuned_profile"):
        if current.get(name) is not None:
            read[labels[name]] = current[name]
    return read


def _current(a: Mapping[str, Any], b: Mapping[str, Any]) -> CurrentSummary:
    left, right = _settings_read(a), _settings_read(b)
    rows = [_row(k, left.get(k), right.get(k)) for k in sorted(set(left) | set(right))]
    return CurrentSummary(len(left), len(right), tuple(r for r in rows if r.differs))


def _index(result: ResultDocument) -> dict[tuple[str, str], ResultRecommendation]:
    return {(r.target, r.setting): r for r in result.recommendations if r.kind != "check"}


def _value(rec: ResultRecommendation | None) -> str | None:
    if rec is None:
        return None
    return rec.value or "on"  # '' turns a flag on


def _settings(a: ResultDocument, b: ResultDocument) -> tuple[list[SettingRow], list[SettingRow]]:
    left, right = _index(a), _index(b)
    differ: list[SettingRow] = []
    equal: list[SettingRow] = []
    for key in sorted(set(left) | set(right)):
        ra, rb = left.get(key), right.get(key)
        given = rb if rb is not None else ra
        assert given is not None  # the key is on one side at least
        why = (
            given.rationale if rb is not None else f"no longer recommended (was: {given.rationale})"
        )
        row = SettingRow(key[1], key[0], _value(ra), _value(rb), why, given.rule, given.sources)
        (equal if row.a == row.b else differ).append(row)
    return differ, equal


def compare(
    inv_a: Mapping[str, Any], inv_b: Mapping[str, Any], res_a: ResultDocument, res_b: ResultDocument
) -> Comparison:
    """A (before) against B (after): inventory documents and their results."""
    differ, equal = _settings(res_a, res_b)
    groups = tuple(
        Group(title, _given(_fields(cls, _map(inv_a.get(key)), _map(inv_b.get(key)))))
        for title, key, cls in (("Server", "server", Server), ("SAS", "sas", Sas),
                                ("Workload", "workload", Workload))
    )  # fmt: skip
    storage = _storage(inv_a.get("storage") or (), inv_b.get("storage") or ())
    current = _current(_map(inv_a.get("current")), _map(inv_b.get("current")))
    return Comparison(tuple(differ), tuple(equal), groups, tuple(storage), current)
