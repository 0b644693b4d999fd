"""The advice an assessment gave, read back from its stored result (recommendations.json).

Verify holds a server against what it was told, never against a new run of today's rules:
an assessment made on older rules is checked against the settings those rules gave. The
stored result is read by `rules.result_read`, which reads every shape the product has
stored (SAS options under `sasv9.cfg` on 2026.11.0's SAS 9.1.3, then `sasv9_append.cfg` or
`sasv9_local.cfg`; tuned.conf settings whose `extra` names the tuned plugin, the /proc or
/sys path and the devices from 2026.11.5 on).

Only what verify needs is kept: each recommendation's target, setting, value and kind, the
`extra` that says where its value lives (ioo/vmo, tuned's plugin and path, a check's
command), the rules version, and the server's host name and OS the advice was given for.
A document that is not such a result is an `AdviceError` naming the path of each problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.model import Recommendation
from rules.payloads import Check, LinuxTunable, Payload, PayloadError, Tunable
from rules.problems import Problem
from rules.result_read import ResultError, read_result, stored_version
from rules.result_records import ResultDocument, ResultRecommendation

# sasv9.cfg (2026.11.0 on SAS 9.1.3), sasv9_append.cfg, sasv9_local.cfg
SAS_CONFIG_FILE = re.compile(r"sasv9(?:_[a-z]+)?\.cfg")
AdviceError = ResultError  # a document that is no stored result, each problem by path


@dataclass(frozen=True)
class Advice:
    rules_version: str  # '' where the document does not say
    result_version: int  # as stored: 1 for a result stored before results said theirs
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
    return advice_of(read_result(document), stored_version(document))


def advice_of(result: ResultDocument, version: int) -> Advice:
    """The advice in a result already read; `version` the result_version it was stored in."""
    problems: list[Problem] = []
    recs = [
        _recommendation(r, f"recommendations[{i}]", problems)
        for i, r in enumerate(result.recommendations)
    ]
    server = _server(result.inventory, problems)
    if problems:
        raise AdviceError(problems)
    return Advice(
        rules_version=result.rules_version,
        result_version=version,
        hostname=server.get("hostname", ""),
        os=server.get("os", ""),
        recommendations=tuple(r for r in recs if r is not None),
    )


def _server(inventory: Mapping[str, Any], problems: list[Problem]) -> dict[str, str]:
    server = inventory.get("server")
    if not isinstance(server, Mapping):
        return {}
    out = {}
    for key in ("hostname", "os"):
        value = server.get(key) or ""
        if not isinstance(value, str):
            problems.append(Problem(f"inventory.server.{key}", "must be a string"))
        out[key] = str(value)
    return out


def _recommendation(
    rec: ResultRecommendation, path: str, problems: list[Problem]
) -> Recommendation | None:
    before = len(problems)
    payload = _payload(rec.extra, f"{path}.extra", problems)
    if len(problems) > before:
        return None
    return Recommendation(
        rec.rule, rec.target, rec.setting, rec.value, "", (), kind=rec.kind, payload=payload
    )


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
