"""The advice an assessment gave, read back from its stored result (recommendations.json).

Verify holds a server against what it was told, never against a new run of today's rules:
an assessment made on older rules is checked against the settings those rules gave. This
module is verify's one reader of a stored result, and it reads every shape the product has
stored (the golden files' history shows them):

- rules 2026.11.0: SAS options under the file they went to then (`sasv9.cfg` on 9.1.3), no
  `not_applicable`, no `current`, `status` or `measured_gain_pct`;
- 2026.11.1 on: `sasv9_append.cfg` or `sasv9_local.cfg`; 2026.11.4 on: `current` and
  `status` (ignored here: verify reads the server anew); 2026.11.5 on: tuned.conf settings
  whose `extra` names the tuned plugin, the /proc or /sys path and the devices;
- a `result_version`, where the result declares one.

Only what verify needs is read: each recommendation's target, setting, value and kind, the
`extra` that says where its value lives (ioo/vmo, tuned's plugin and path, a check's
command), the rules version, and the server's host name and OS the advice was given for.
A document that is not such a result is an `AdviceError` naming the path of each problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from rules.model import Kind, Recommendation
from rules.payloads import Check, LinuxTunable, Payload, PayloadError, Tunable
from rules.problems import Problem

# sasv9.cfg (2026.11.0 on SAS 9.1.3), sasv9_append.cfg, sasv9_local.cfg
SAS_CONFIG_FILE = re.compile(r"sasv9(?:_[a-z]+)?\.cfg")
KINDS: tuple[str, ...] = get_args(Kind)


class AdviceError(ValueError):
    """A document that is not a stored result; `problems` names each by JSON path."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class Advice:
    rules_version: str  # '' where the document does not say
    result_version: int | None  # None: stored before results declared one
    hostname: str  # the server the advice was given for ('' where the document does not say)
    os: str
    recommendations: tuple[Recommendation, ...]

    @property
    def config_file(self) -> str:
        """The file the SAS options went to, as this advice named it ('' if none)."""
        targets = (r.target for r in self.recommendations)
        return next((t for t in targets if SAS_CONFIG_FILE.fullmatch(t)), "")


def read_advice(document: Any) -> Advice:
    """The advice in a stored result or recommendations.json, of any shape stored so far."""
    problems: list[Problem] = []
    if not isinstance(document, Mapping):
        raise AdviceError([Problem("$", 'must be a result: an object with "recommendations"')])
    found = document.get("recommendations")
    if not isinstance(found, list):
        what = "is missing" if found is None else "must be a list"
        raise AdviceError([Problem("recommendations", f"{what}: not a recommendations.json")])
    recs = [_recommendation(r, f"recommendations[{i}]", problems) for i, r in enumerate(found)]
    server = _server(document, problems)
    rules_version = _text(document, "rules_version", "rules_version", problems)
    version = document.get("result_version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        problems.append(Problem("result_version", "must be an integer"))
    if problems:
        raise AdviceError(problems)
    return Advice(
        rules_version=rules_version,
        result_version=version,
        hostname=server.get("hostname", ""),
        os=server.get("os", ""),
        recommendations=tuple(r for r in recs if r is not None),
    )


def _server(document: Mapping[str, Any], problems: list[Problem]) -> dict[str, str]:
    inventory = document.get("inventory")
    server = inventory.get("server") if isinstance(inventory, Mapping) else None
    if not isinstance(server, Mapping):
        return {}
    return {k: _text(server, k, f"inventory.server.{k}", problems) for k in ("hostname", "os")}


def _text(record: Mapping[str, Any], key: str, path: str, problems: list[Problem]) -> str:
    value = record.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        problems.append(Problem(path, "must be a string"))
        return ""
    return value


def _recommendation(rec: Any, path: str, problems: list[Problem]) -> Recommendation | None:
    if not isinstance(rec, Mapping):
        problems.append(Problem(path, "must be an object"))
        return None
    before = len(problems)
    rule, target, setting, value = (
        _text(rec, key, f"{path}.{key}", problems) for key in ("rule", "target", "setting", "value")
    )
    kind = rec.get("kind", "change")
    if kind not in KINDS:
        problems.append(Problem(f"{path}.kind", f"must be one of {', '.join(KINDS)}"))
    for key in ("target", "setting"):
        if not rec.get(key):
            problems.append(Problem(f"{path}.{key}", "is missing"))
    payload = _payload(rec.get("extra") or {}, f"{path}.extra", problems)
    if len(problems) > before:
        return None
    return Recommendation(rule, target, setting, value, "", (), kind=kind, payload=payload)


def _payload(extra: Any, path: str, problems: list[Problem]) -> Payload | None:
    """The typed record a renderer had, rebuilt from `extra`: where the value lives."""
    if not isinstance(extra, Mapping):
        problems.append(Problem(path, "must be an object"))
        return None
    try:
        return _rebuilt(extra)
    except KeyError as exc:
        problems.append(Problem(f"{path}.{exc.args[0]}", "is missing"))
    except (PayloadError, TypeError, AttributeError) as exc:
        problems.append(Problem(path, f"does not say where the value lives: {exc}"))
    return None


def _rebuilt(extra: Mapping[str, Any]) -> Payload | None:
    command = extra.get("command")
    if command in ("ioo", "vmo"):
        return Tunable(command, extra["default"])
    if command == "tuned":
        return LinuxTunable(
            plugin=extra["plugin"],
            option=extra["option"],
            path=extra["path"],
            devices=tuple(extra.get("devices", "").split()),
            default=extra.get("default", ""),
            alternatives=tuple(extra.get("alternatives", "").split()),
        )
    if command == "check" and "argv" in extra:
        return Check(tuple(extra["argv"].split()), str(extra.get("expect", "")))
    return None  # advice for a person (a tool to watch, SAS code): no value to read
