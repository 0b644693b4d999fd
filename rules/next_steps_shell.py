"""The shell the next steps' commands are written for, and the SAS folder they name.

SAS's documentation writes its installation folder as !SASROOT (SAS 9.4 Companion for UNIX,
"Contents of the !SASROOT Directory"; Companion for Windows, "Files Used by SAS"). Pasted
into an interactive bash, `!SASROOT` is a history event ("event not found"), and cmd takes
it as a literal folder name; so the commands use a shell variable SASROOT, set once by a
marked line: from the inventory's `sas.install_path` when it gives one (SASHOME, under which
SAS 9.2 to 9.4 put SASFoundation/<version>), else an example to edit. UNIX commands are POSIX
sh (ksh on AIX, bash on Linux); Windows commands are for the Command Prompt (cmd.exe).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

UNIX_LABEL = "Commands for sh, ksh or bash"
WINDOWS_LABEL = "Commands for the Command Prompt (cmd.exe), run as administrator"
# SAS 9.1.3 has no SASHOME: its own folder (SAS_9.1, "SAS 9.1") is !SASROOT.
OLD_SAS = "9.1.3"
UNIX_EXAMPLE_HOME = "/opt/sas/SASHome"
UNIX_EXAMPLE_913 = "/usr/local/SAS/SAS_9.1"
WINDOWS_EXAMPLE_HOME = r"C:\Program Files\SASHome"
WINDOWS_EXAMPLE_913 = r"C:\Program Files\SAS\SAS 9.1"
_DRIVE = re.compile(r"[A-Za-z]:\\")
SETUP_WORDS = (
    "SAS's documentation calls this folder !SASROOT; set SASROOT once in the shell you paste "
    "the commands into (again in a new one)."
)


@dataclass(frozen=True)
class Shell:
    """The server's shell, and the SAS folder its SASROOT line sets."""

    windows: bool
    root: str
    given: bool  # from the inventory's sas.install_path, not an example

    @property
    def label(self) -> str:
        return WINDOWS_LABEL if self.windows else UNIX_LABEL

    @property
    def setup(self) -> str:
        """The one line that sets SASROOT, marked to check or to edit."""
        note = ("check: where SAS is installed (from the assessment)" if self.given
                else "edit: where SAS is installed")  # fmt: skip
        if self.windows:
            return f'set "SASROOT={self.root}" & rem {note}'
        return f"SASROOT={shlex.quote(self.root)}   # {note}"

    def place(self, *parts: str) -> str:
        """A file under SASROOT, as the shell names it (unquoted, for words)."""
        if self.windows:
            return "\\".join(("%SASROOT%", *parts))
        return "/".join(("$SASROOT", *parts))

    def path(self, *parts: str) -> str:
        """A file under SASROOT, quoted for the command line."""
        return f'"{self.place(*parts)}"'

    def copy(self, src: str, dst: str) -> str:
        # /Y: cmd's copy otherwise stops to ask before it overwrites.
        return f"copy /Y {src} {dst}" if self.windows else f"cp -p {src} {dst}"

    def append(self, name: str, dst: str) -> str:
        return f"type {name} >> {dst}" if self.windows else f"cat {name} >> {dst}"


def shell_for(inv: Mapping[str, Any]) -> Shell:
    """The shell of the inventory's OS, its SASROOT from sas.install_path when that is a
    path of this OS (a drive path on Windows, an absolute path elsewhere)."""
    windows = str((inv.get("server") or {}).get("os") or "").lower() == "windows"
    sas = inv.get("sas") or {}
    version = str(sas.get("version") or "9.4")
    given = str(sas.get("install_path") or "")
    if given and bool(_DRIVE.match(given)) == windows and (windows or given.startswith("/")):
        return Shell(windows, sas_root(given, version, windows=windows), True)
    if version == OLD_SAS:
        return Shell(windows, WINDOWS_EXAMPLE_913 if windows else UNIX_EXAMPLE_913, False)
    home = WINDOWS_EXAMPLE_HOME if windows else UNIX_EXAMPLE_HOME
    return Shell(windows, sas_root(home, version, windows=windows), False)


def sas_root(install_path: str, version: str, *, windows: bool) -> str:
    """!SASROOT under an installation folder: SASHOME/SASFoundation/<version> for SAS 9.2 to
    9.4, kept as it is when it already ends there (or for 9.1.3, which has no SASHOME)."""
    sep = "\\" if windows else "/"
    base = install_path.rstrip("\\/") or install_path
    if version == OLD_SAS:
        return base
    parts = [p.lower() if windows else p for p in base.split(sep)]
    foundation = "sasfoundation" if windows else "SASFoundation"
    if parts[-2:] == [foundation, version]:
        return base
    if parts[-1] == foundation:
        return f"{base}{sep}{version}"
    return sep.join((base.rstrip(sep), "SASFoundation", version))
