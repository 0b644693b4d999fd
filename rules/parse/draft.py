"""What reading a server gives: a draft inventory, where each field came from, what is missing.

`Draft.document` is an inventory document (contract v1) with every field the server told
filled in and the rest guessed where the contract needs a value (each guess is listed in
`missing`, so the admin confirms it); the workload is never guessed and is always missing.
`provenance` maps a field's JSON path to the command and line it was read from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The command of a value read from a shell prompt rather than a command's output.
PROMPT = "the prompt of "


# Not frozen: a 200-LUN bundle makes 11,000 of them, each in a third of a frozen one's time.
@dataclass(slots=True)
class Provenance:
    path: str  # 'storage[2].max_transfer_kb'
    value: Any
    command: str  # 'lsattr -El hdisk4'
    line: int  # the input's line the value was read from (0: the section as a whole)
    raw: str = ""  # the text as the command printed it: '0x40000'
    note: str = ""  # how it was derived: 'lowest of hdisk4, hdisk5'

    @property
    def text(self) -> str:
        """'max_transfer_kb 256 from `lsattr -El hdisk4` (line 120), 0x40000'."""
        name = _field(self.path)
        where = f" (line {self.line})" if self.line else ""
        tail = "".join(f", {part}" for part in (self.raw, self.note) if part)
        source = self.command if self.command.startswith(PROMPT) else f"`{self.command}`"
        return f"{name} {_shown(self.value)} from {source}{where}{tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "value": self.value,
            "command": self.command,
            "line": self.line,
            "raw": self.raw,
            "note": self.note,
            "text": self.text,
        }


def _field(path: str) -> str:
    """'storage[2].max_transfer_kb' → 'max_transfer_kb'; under `current`, a setting keeps its
    whole name: 'current.linux_sysctl.vm.swappiness' → 'vm.swappiness',
    'current.devices.hdisk4.max_transfer' → 'hdisk4.max_transfer'."""
    parts = path.split(".", 2)
    if parts[0] == "current" and len(parts) == 3:
        return parts[2]
    return path.rsplit(".", 1)[-1]


def _shown(value: Any) -> str:
    """A value as an admin reads it: a list as 'nvme0n1, nvme1n1', not Python's repr."""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Missing:
    path: str  # 'workload', 'storage[0].role', 'sas.version'
    reason: str  # why the server could not tell it
    guess: Any = None  # the value the draft holds meanwhile (None: none, the path is absent)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "reason": self.reason, "guess": self.guess}


@dataclass
class Draft:
    document: dict[str, Any]
    provenance: dict[str, Provenance] = field(default_factory=dict)
    missing: list[Missing] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)  # {line, command, message}
    unknown: list[dict[str, Any]] = field(default_factory=list)  # {line, command}
    notes: list[str] = field(default_factory=list)  # what was left out and why
    # How much of the paste the draft used: each section read and the fields it gave
    # ({line, command, fields}), each read and not used ({line, command, why}).
    used: list[dict[str, Any]] = field(default_factory=list)
    unused: list[dict[str, Any]] = field(default_factory=list)

    @property
    def accounting(self) -> dict[str, int]:
        """Sections used, recognised but unused, unknown, and unreadable (problems)."""
        return {
            "used": len(self.used),
            "unused": len(self.unused),
            "unknown": len(self.unknown),
            "problems": len(self.problems),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "inventory": self.document,
            "provenance": {p: v.to_dict() for p, v in self.provenance.items()},
            "missing": [m.to_dict() for m in self.missing],
            "problems": self.problems,
            "unknown_commands": self.unknown,
            "notes": self.notes,
            "used_sections": self.used,
            "unused_sections": self.unused,
            "accounting": self.accounting,
        }
