"""Is a reading of the server the advice was given for? Its host name and its OS.

A reading of another server says nothing about this one: verify refuses it rather than
report drift against it. A host name that differs is refused unless the caller says the
server was renamed (each front end has its own explicit override); another OS never
verifies, whatever the caller says. A reading that names no host, or does not tell its OS,
is verified and the result says what could not be checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.derive.labels import OS_LABELS
from rules.parse.draft import PROMPT, Draft, Provenance
from rules.problems import Problem
from rules.verify_advice import Advice


class ReadingMismatch(ValueError):
    """A reading of another host or OS; `problems` names each by field, both values in it.
    `renamable` is true when only the host name differs (an override may accept it)."""

    def __init__(self, problems: list[Problem], *, renamable: bool) -> None:
        self.problems = problems
        self.renamable = renamable
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class HostCheck:
    hostname: str  # the advice's server
    os: str
    read_hostname: str | None  # None: the reading names no host
    read_os: str | None  # None: the reading does not tell its OS
    renamed: bool = False  # another host name, accepted as this server renamed

    @property
    def notes(self) -> list[str]:
        """What could not be checked, or was accepted on the caller's word."""
        out = []
        if not self.hostname:
            out.append("The advice names no host, so the reading's host was not checked.")
        elif self.read_hostname is None:
            out.append(f"The reading names no host, so it could not be checked that it is "
                       f"{self.hostname}.")  # fmt: skip
        elif self.renamed:
            out.append(f"The reading is of host {self.read_hostname}, the assessment of "
                       f"{self.hostname}: verified as the same server renamed.")  # fmt: skip
        if self.os and self.read_os is None:
            out.append(f"The reading does not tell its OS, so it could not be checked that "
                       f"it is {_os(self.os)}.")  # fmt: skip
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "hostname": self.hostname,
            "os": self.os,
            "read_hostname": self.read_hostname,
            "read_os": self.read_os,
            "renamed": self.renamed,
            "notes": self.notes,
        }


def same_host(a: str, b: str) -> bool:
    """One host: 'lemans' is 'LEMANS.example.com.' ('hostname -s' against the FQDN); two
    fully qualified names must be equal, and so must addresses."""
    a, b = (h.strip().rstrip(".").lower() for h in (a, b))
    if a == b:
        return True
    if ("." in a) == ("." in b) or any(h.replace(".", "").isdigit() for h in (a, b)):
        return False
    return a.split(".", 1)[0] == b.split(".", 1)[0]


def check_host(advice: Advice, found: Draft, *, allow_renamed_host: bool = False) -> HostCheck:
    """The reading's host and OS against the advice's; raises ReadingMismatch."""
    host, os = found.provenance.get("server.hostname"), found.provenance.get("server.os")
    read_host = None if host is None else str(host.value)
    read_os = None if os is None else str(os.value)
    problems = []
    if os is not None and advice.os and read_os != advice.os:
        problems.append(Problem("server.os", (
            f"the reading is of {_os(read_os)} ({_where(os)}), the assessment of "
            f"{_os(advice.os)}: a reading of another OS cannot verify this advice"
        )))  # fmt: skip
    renamed = bool(advice.hostname) and read_host is not None
    renamed = renamed and not same_host(read_host or "", advice.hostname)
    if renamed and host is not None and (problems or not allow_renamed_host):
        problems.append(Problem("server.hostname", (
            f"the reading is of host {read_host} ({_where(host)}), the assessment of "
            f"{advice.hostname}"
        )))  # fmt: skip
    if problems:
        renamable = all(p.path == "server.hostname" for p in problems)
        raise ReadingMismatch(problems, renamable=renamable)
    return HostCheck(advice.hostname, advice.os, read_host, read_os, renamed=renamed)


def _os(os: str | None) -> str:
    return OS_LABELS.get(os or "", os or "an unknown OS")


def _where(p: Provenance) -> str:
    """'`hostname`, line 3' or 'the prompt of `…`, line 9'."""
    source = p.command if p.command.startswith(PROMPT) else f"`{p.command}`"
    return f"from {source}" + (f", line {p.line}" if p.line else "")
