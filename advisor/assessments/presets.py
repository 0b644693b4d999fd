"""Workload presets: the inventory form's one choice that stands for the four mix shares.

A preset is a form convenience, not part of the contract: the server turns it into
`workload.mix` (in percent, as the form types the mix) before the contract sees the
document, so the API, the CLI and stored inventories never carry it. The mixes are ones
the rules read differently (rules/catalog): ETL alone; analytics at 60 %, past the 50 %
where the CPU advice follows chew's CPU-bound LOESS runs; summaries at 30 %, past the 25 %
where piping (pohl2007) is weighed; SPD Server queries at 70 %, bogacz2012's production
warehouse (examples/prime-spds-aix.json).

Which wins when both come: the typed percentages, whenever they differ from the mix of
the preset the page filled them with (`preset_filled`, a hidden input): those were typed
by hand. Percentages left as the page filled them (or empty) follow the preset chosen, so
changing the preset works without JavaScript too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PRESET = "preset"  # the select
FILLED = "preset_filled"  # hidden: the preset whose shares the page put in the mix inputs
CUSTOM = "custom"


@dataclass(frozen=True)
class Preset:
    label: str
    mix: dict[str, int]  # form name -> percent; absent shares are 0
    note: str


PRESETS: dict[str, Preset] = {
    "etl": Preset("ETL batch", {"mix_etl": 100}, "sort, merge and batch loads"),
    "analytics": Preset(
        "Analytics / statistics",
        {"mix_etl": 20, "mix_summary": 20, "mix_analytics": 60},
        "mostly CPU-bound modelling (REG, GLM, LOESS, IML)",
    ),
    "mixed": Preset(
        "Mixed",
        {"mix_etl": 40, "mix_summary": 30, "mix_analytics": 30},
        "ETL, summary pipelines and modelling together",
    ),
    "spds": Preset(
        "SPD Server warehouse",
        {"mix_etl": 30, "mix_spds_query": 70},
        "queries on an SPD Server warehouse; turns SPD Server on: give its version under SAS",
    ),
    CUSTOM: Preset("My own mix", {}, "the shares typed under “Set the mix yourself”"),
}
DEFAULT = "mixed"
MIX_NAMES = ("mix_etl", "mix_summary", "mix_analytics", "mix_spds_query")


def choices() -> list[tuple[str, str]]:
    return [(key, p.label) for key, p in PRESETS.items()]


def shares(key: str) -> dict[str, str]:
    """A preset's mix as the inputs show it: every share, '' for 0."""
    mix = PRESETS[key].mix
    return {name: str(mix[name]) if name in mix else "" for name in MIX_NAMES}


def _get(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    return str(value).strip() if value is not None else ""


def _percent(text: str) -> float | None:
    try:
        return float(text) if text else 0.0
    except ValueError:
        return None


def _same(typed: Mapping[str, str], key: str) -> bool:
    """Whether the typed shares are the preset's (as numbers: '40' is '40.0')."""
    mix = PRESETS[key].mix
    return all(_percent(typed[name]) == float(mix.get(name, 0)) for name in MIX_NAMES)


def preset_applies(data: Mapping[str, Any]) -> str | None:
    """The preset that gives the mix, or None when the typed percentages do."""
    key = _get(data, PRESET)
    if key not in PRESETS or key == CUSTOM:
        return None
    typed = {name: _get(data, name) for name in MIX_NAMES}
    if not any(typed.values()):
        return key
    filled = _get(data, FILLED)
    return key if filled in PRESETS and filled != CUSTOM and _same(typed, filled) else None


def matching(data: Mapping[str, Any]) -> str:
    """The preset whose mix the typed shares are (a loaded document's), else custom."""
    typed = {name: _get(data, name) for name in MIX_NAMES}
    return next((k for k in PRESETS if k != CUSTOM and _same(typed, k)), CUSTOM)


def started(data: Mapping[str, Any]) -> dict[str, Any]:
    """Form data with no mix at all (a reading of the server never gives one) on the
    default preset, as the blank form starts: not on an own mix of nothing, shown as a
    total of 0 % before the admin chose anything. Data with a mix keeps it."""
    out = dict(data)
    if not any(_get(data, name) for name in MIX_NAMES):
        out |= {PRESET: DEFAULT, FILLED: DEFAULT, **shares(DEFAULT)}
    return out


def with_preset(data: Mapping[str, Any]) -> dict[str, Any]:
    """The form data with the preset settled: the mix inputs hold the mix the document
    gets, `preset` names the preset that mix is (or custom) and `preset_filled` the same,
    for the next post to tell typed shares from filled ones. Data without a preset (a
    script's post, a reading of the server) keeps its typed mix; with no mix at all it
    takes the default preset."""
    out: dict[str, Any] = {k: data.get(k) for k in data}
    if PRESET not in data:
        typed = any(_get(data, name) for name in MIX_NAMES)
        out[PRESET] = matching(data) if typed else DEFAULT
    key = preset_applies(out)
    if key is not None:
        out |= shares(key)
    else:
        out[PRESET] = matching(out)
    out[FILLED] = out[PRESET]
    return out
