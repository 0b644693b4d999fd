"""`python -m rules verify RECOMMENDATIONS.json BUNDLE`: drift, for cron and CI.

Holds a server's newer reading (a collector bundle or a pasted transcript) against the
advice a recommendations.json gave (`rules.verify`), and prints each setting with the value
expected, the value read and its status: compliant, drift, or unknown (not read). The exit
code says it all, as `tuned-adm verify` and `saptune note verify` do:

- 0: compliant. Unknown is not drift: a setting the reading does not show (a bundle without
  `sysctl -a`) is listed and counted but does not fail, as saptune reports a setting it
  cannot read with '-' and `tuned-adm verify --ignore-missing` passes a missing value.
  `--strict` fails it instead (exit 1), as `tuned-adm verify` does by default.
- 1: drift: at least one setting read with another value (or read as absent from its file).
- 2: bad input: a file that cannot be read, JSON that is not a recommendations.json, a
  bundle over the size limit or in which nothing could be read, a reading that holds none
  of the advice's settings (nothing verified), a reading of another OS, or of another host
  name unless `--allow-renamed-host` says the server was renamed.

`--json` prints the verification (`rules.verify.Verification.to_dict`) with its verdict and
exit code, for CI, and `measured`: the measured throughput before → after per file system
the bundle measured (`rules.measured_verify`), the recommendations.json's inventory being
before. Checks and advice set no value and are counted, not judged.

Under the table, each setting the reading did not show says how it could be verified
(`rules.verify_how`: the collector option or listing that reads it), and each row of the
JSON says it in `how`; the counts stay the last line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import rules
from rules.compare import Row
from rules.measured_verify import measured_list
from rules.parse import TooLarge
from rules.verify import (
    AdviceError,
    ReadingMismatch,
    Verification,
    read_advice,
    unjudgeable,
    verify,
)

Say = Callable[[str], None]
Reader = Callable[[str], Any]
COMPLIANT, DRIFT, BAD_INPUT = 0, 1, 2
WORDS = {"keep": "compliant", "change": "drift", "unknown": "unknown"}
ORDER = {"change": 0, "keep": 1, "unknown": 2}  # drift first, as the verify page shows it
WIDTH = 40  # characters of a column a value is cut to in the table (the JSON has it whole)


class BadInput(ValueError):
    """Input verify cannot judge by; each line says which file and what."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("\n".join(lines))


def add_parser(commands: Any) -> None:
    cmd = commands.add_parser("verify", help="hold a newer bundle against recommendations.json")
    cmd.add_argument("recommendations", help="the recommendations.json the advice was given in")
    cmd.add_argument("bundle", help="a newer bundle or transcript of the server, - for stdin")
    cmd.add_argument("--json", action="store_true", help="print the verification as JSON")
    cmd.add_argument(
        "--allow-renamed-host", action="store_true",
        help="verify a reading that names another host: the server was renamed (never "
        "another OS)",
    )  # fmt: skip
    cmd.add_argument(
        "--strict", action="store_true",
        help="a setting the bundle does not show fails (exit 1) instead of passing as unknown",
    )  # fmt: skip


def verify_files(
    args: argparse.Namespace, *, read_json: Reader, read_text: Reader, say: Say, complain: Say
) -> int:
    """The verify command: 0 compliant, 1 drift, 2 bad input (each problem to stderr)."""
    try:
        document, checked = _verified(args, read_json, read_text)
    except BadInput as exc:
        for line in exc.lines:
            complain(line)
        return BAD_INPUT
    code, verdict = judge(checked, strict=args.strict)
    if args.json:
        inventory = document.get("inventory") if isinstance(document, dict) else None
        measured = measured_list(inventory, checked.draft.document)
        say(json.dumps({"verdict": verdict, "exit": code, **checked.to_dict(),
                        "measured": measured}, indent=2, ensure_ascii=False))  # fmt: skip
    else:
        inventory = document.get("inventory") if isinstance(document, dict) else None
        measured = measured_list(inventory, checked.draft.document)
        for line in report(checked, verdict) + measured_lines(measured):
            say(line)
    for note in checked.host.notes:
        complain(f"note: {note}")
    return code


def _verified(
    args: argparse.Namespace, read_json: Reader, read_text: Reader
) -> tuple[Any, Verification]:
    """The recommendations.json as read, and the bundle verified against its advice."""
    source, bundle = args.recommendations, args.bundle
    try:
        document = read_json(source)
        advice = read_advice(document)
    except AdviceError as exc:
        raise BadInput([f"{source}: {p}" for p in exc.problems]) from None
    except ValueError as exc:
        raise BadInput([f"{source}: cannot read a JSON document: {exc}"]) from None
    try:
        checked = verify(advice, read_text(bundle), allow_renamed_host=args.allow_renamed_host)
    except ReadingMismatch as exc:
        lines = [f"{bundle}: {p}" for p in exc.problems]
        if exc.renamable:
            lines.append(f"{bundle}: --allow-renamed-host verifies it if the server was renamed")
        raise BadInput(lines) from None
    except rules.InventoryError as exc:
        raise BadInput([f"{bundle}: {p}" for p in exc.problems]) from None
    except (TooLarge, ValueError) as exc:
        raise BadInput([f"{bundle}: {exc}"]) from None
    _judgeable(checked, bundle)
    return document, checked


def _judgeable(checked: Verification, bundle: str) -> None:
    """Bad input when the reading can verify nothing: a green cron job must mean something."""
    problems = unjudgeable(checked)
    if problems:
        raise BadInput([f"{bundle}: {p}" for p in problems])


def judge(checked: Verification, *, strict: bool = False) -> tuple[int, str]:
    """(exit code, verdict): drift first; unknown fails only when strict."""
    if checked.non_compliant:
        return DRIFT, "drift"
    if strict and checked.unread:
        return DRIFT, "unknown"
    return COMPLIANT, "compliant"


def report(checked: Verification, verdict: str) -> list[str]:
    """The table of settings (expected, current, status) and the counts."""
    host = checked.host
    lines = [f"advice of rules {checked.rules_version or '(not stored)'} for "
             f"{host.hostname or '(no host named)'}; reading of "
             f"{host.read_hostname or '(no host named)'}"]  # fmt: skip
    settings = [r for r in checked.rows if r.status != "check"]
    settings.sort(key=lambda r: ORDER[r.status])
    table = [("STATUS", "SETTING", "FILE", "EXPECTED", "CURRENT")] + [_cells(r) for r in settings]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    lines += ["  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[4]])
              for row in table]  # fmt: skip
    lines += how_lines(settings)
    counts = {word: sum(1 for r in settings if WORDS[r.status] == word) for word in WORDS.values()}
    lines.append(
        f"{counts['compliant']} compliant, {counts['drift']} drift, {counts['unknown']} unknown "
        f"(not read); {len(checked.rows) - len(settings)} checks and advice not judged: "
        f"{verdict}"
    )
    return lines


def how_lines(settings: list[Row]) -> list[str]:
    """How each setting the reading did not show could be verified (`rules.verify_how`)."""
    unread = [r for r in settings if r.status == "unknown" and r.how]
    if not unread:
        return []
    return ["to verify what was not read:"] + [f"  {r.setting}: {r.how}" for r in unread]


def measured_lines(records: list[dict[str, Any]]) -> list[str]:
    """Measured throughput before → after, a line a file system and direction; none when
    the bundle measured nothing the advice's inventory holds."""
    if not records:
        return []
    lines = ["measured throughput, MB/s per core in use (all streams), before -> after:"]
    for r in records:
        sides = [_side(r[k]) for k in ("before", "after")]
        changed = f" ({r['method_change']})" if r["method_change"] else ""
        lines.append(f"  {r['mount']} {r['direction']}: {sides[0]} -> {sides[1]}{changed}")
    return lines


def _side(side: dict[str, Any] | None) -> str:
    if side is None:
        return "not measured"
    return f"{side['per_core']:g} ({side['mb_s']:g} MB/s) {side['words']}"


def _cells(row: Row) -> tuple[str, str, str, str, str]:
    expected = row.recommended if row.recommended != "" else "(on)"
    current = "(not read)" if row.current is None else row.current
    cut = [v if len(v) <= WIDTH else v[: WIDTH - 1] + "…" for v in (row.setting, expected)]
    return WORDS[row.status], cut[0], row.target, cut[1], current[:WIDTH]
