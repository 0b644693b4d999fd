"""Which problems the live preview marks at their inputs: those of the inputs the user
changed. form.js lists them in the hidden `touched` input as they change, so a form
nobody has typed into shows no error and no red figure; a save (or a page without the
script) shows every problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from advisor.assessments.forms import INPUT_NAMES, STORAGE_PREFIX

_ROW = re.compile(r"^storage\[(\d+)\](?:\.([a-z_]+))?")


def _get(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    return str(value).strip() if value is not None else ""


def _input(path: str) -> str | None:
    """The input a contract path names ('sas.spds' names the SPD Server version)."""
    return INPUT_NAMES.get(path) or INPUT_NAMES.get(f"{path}.version")


TOUCHED = "touched"  # hidden: the inputs changed since the page loaded ('*': all count)
_MIX_INPUTS = ("preset", "mix_")


def touched(data: Mapping[str, Any], path: str) -> bool:
    """Whether the problem at a contract path is the user's to see yet: its input was
    changed (form.js lists the changed inputs in `touched`). Pages and posts without that
    list (no JavaScript, a loaded document, a refused save) show every problem."""
    names = _get(data, TOUCHED)
    if TOUCHED not in data or names == "*":
        return True
    listed = set(names.split())
    if path.startswith("workload.mix"):
        return any(n.startswith(_MIX_INPUTS) for n in listed)
    row = _ROW.match(path)
    if row is not None:
        start = f"{STORAGE_PREFIX}-{row.group(1)}-"
        return any(n == f"{start}{row.group(2)}" if row.group(2) else n.startswith(start)
                   for n in listed)  # fmt: skip
    if path == "storage":
        return any(n.startswith(f"{STORAGE_PREFIX}-") for n in listed)
    name = _input(path)
    return name in listed if name is not None else bool(listed)
