"""What to do with the files, in order: back up, dry run, apply, restart, verify, roll back.

The commands and paths are those the files' own headers give (linux_tuning.sh and
aix_tuning.sh write their backup and rollback.sh themselves; a .cfg or .parm is copied by
hand). Only the files the assessment produced and the server's own OS are named, so the
result page and the report's action plan can share the text. Every command can be pasted as
it is: the SAS folder is the shell variable SASROOT (rules.next_steps_shell), and what only
the server knows (the backup folder a script printed) is set by one line marked to edit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.model import AIX_SCRIPT, LIBNAMES, LINUX_SCRIPT, SPDSSERV, TUNED
from rules.next_steps_shell import SETUP_WORDS, Shell, shell_for
from rules.next_steps_verify import verify_commands, verify_words
from rules.render.ansible import AIX_FILE as ANSIBLE_AIX
from rules.render.ansible import LINUX_FILE as ANSIBLE_LINUX

LINUX_BACKUP = "/var/backups/sas-tuning"
AIX_BACKUP = "/var/adm/sas-tuning"
# The folder name the scripts give their backup: date +%Y%m%d-%H%M%S, then their process id.
BACKUP_EXAMPLE = "YYYYMMDD-HHMMSS-PID"


@dataclass(frozen=True)
class Step:
    """One step: its title, what to know, and the commands to type (maybe none)."""

    title: str
    words: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    link: tuple[str, str] | None = None  # (words, href) to a page of the advisor


@dataclass(frozen=True)
class Plan:
    """What the steps need to know about the server and its files."""

    os: str
    files: frozenset[str]
    cfg: str | None  # the SAS options file produced, if any
    shell: Shell
    cfg_parts: tuple[str, ...]  # where it goes on the server, under SASROOT

    @property
    def cfg_target(self) -> str:
        """The file it goes to, quoted for the command line."""
        return self.shell.path(*self.cfg_parts)

    @property
    def cfg_backup(self) -> str:
        """Its copy taken before the change, quoted."""
        return self.shell.path(*self.cfg_parts[:-1], self.cfg_parts[-1] + ".orig")

    @property
    def cfg_place(self) -> str:
        """The same, as words name it."""
        return self.shell.place(*self.cfg_parts)

    @property
    def script(self) -> str | None:
        for name in (LINUX_SCRIPT, AIX_SCRIPT):
            if name in self.files:
                return name
        return None

    @property
    def windows(self) -> bool:
        return self.os == "windows"

    @property
    def spds(self) -> list[str]:
        return [name for name in (SPDSSERV, LIBNAMES) if name in self.files]


class Steps(list[Step]):
    """The steps, and what opens them: the shell they are written for and, when a command
    names the SAS folder, the line that sets SASROOT."""

    def __init__(self, found: Iterable[Step], shell: Shell, *, uses_root: bool) -> None:
        super().__init__(found)
        self.label = shell.label
        self.setup = shell.setup if uses_root else None
        self.setup_words = SETUP_WORDS if uses_root else None


def plan(inv: Mapping[str, Any], files: Iterable[str]) -> Plan:
    names = frozenset(files)
    os = str((inv.get("server") or {}).get("os") or "").lower()
    cfg = next((n for n in sorted(names) if n.endswith(".cfg")), None)
    if os == "windows":
        parts: tuple[str, ...] = ("nls", "en", "sasv9.cfg")
    elif cfg == "sasv9_append.cfg":
        parts = ("sasv9.cfg",)
    else:
        parts = (cfg or "sasv9_local.cfg",)
    return Plan(os, names, cfg, shell_for(inv), parts)


def steps(
    inv: Mapping[str, Any],
    files: Iterable[str],
    *,
    verify_page: str | None = None,
    api_verify: str | None = None,
) -> Steps:
    """The six steps for this server and these files, in the order to take them.
    `verify_page`: the assessment's Verify page; `api_verify`: its API verify URL (a path
    alone where the text leaves the advisor, as the PDF does)."""
    p = plan(inv, files)
    found = [backup(p), dry_run(p), apply(p), restart(p), verify(p, verify_page, api_verify),
             rollback(p)]  # fmt: skip
    return Steps(found, p.shell, uses_root=p.cfg is not None)


def _copy(p: Plan, src: str, dst: str) -> str:
    return p.shell.copy(src, dst)


def backup(p: Plan) -> Step:
    words, commands = [], []
    if p.script == LINUX_SCRIPT:
        words.append(
            f"{LINUX_SCRIPT} saves the active tuned profile, every value it changes and "
            f"every file it replaces in {LINUX_BACKUP}/<timestamp>/ before any change."
        )
    elif p.script == AIX_SCRIPT:
        words.append(
            f"{AIX_SCRIPT} saves the current values (ioo -a, vmo -a, lsattr -El) in "
            f"{AIX_BACKUP}/<timestamp>/ before any change."
        )
    if p.cfg:
        words.append(
            f"Copy the SAS configuration file by hand before changing it ({p.cfg} goes "
            "into it); skip this if it does not exist yet."
        )
        commands.append(_copy(p, p.cfg_target, p.cfg_backup))
    for name in p.spds:
        words.append(f"Copy the SPD Server's {name} (in its site directory) by hand.")
        commands.append(f"cp -p {name} {name}.orig")
    return Step("Back up", tuple(words), tuple(commands))


def dry_run(p: Plan) -> Step:
    if p.script:
        what = "current → new for every value" if p.script == LINUX_SCRIPT else "what would change"
        return Step(
            "Dry run",
            (f"As root: prints {what}; changes nothing, writes nothing.",),
            (f"sh {p.script} -n",),
        )
    words = (
        "There is no script for this server: read each file's lines against the "
        "current → recommended table on this page."
    )
    return Step("Dry run", (words,))


def apply(p: Plan) -> Step:
    words, commands = _script_apply(p)
    for playbook in (n for n in (ANSIBLE_LINUX, ANSIBLE_AIX) if n in p.files):
        words.append(
            f"Or set the same values on a group of servers with Ansible: "
            f"ansible-playbook -i INVENTORY {playbook} -e sas_hosts=GROUP (its header "
            "says what it needs and how to undo it)."
        )
    if p.cfg:
        words.append(_cfg_apply_words(p))
        commands.append(_cfg_apply_command(p))
    for name in p.spds:
        words.append(f"Put {name} in the SPD Server's site directory, in place of its own.")
    return Step("Apply", tuple(words), tuple(commands))


def _script_apply(p: Plan) -> tuple[list[str], list[str]]:
    if p.script == LINUX_SCRIPT:
        return [
            f"As root. With tuned installed it installs {TUNED} as the profile "
            "sas-performance and selects it; without tuned, or to leave tuned alone, "
            f"sh {LINUX_SCRIPT} --without-tuned applies the same values through /proc/sys, "
            "/sys, sysctl.d and udev. It checks every change first and changes nothing if "
            "one would be refused."
        ], [f"sh {LINUX_SCRIPT}"]
    if p.script == AIX_SCRIPT:
        return [
            "As root. It checks every change against the ranges ioo -L and vmo -L give "
            "and changes nothing if one would be refused; --with-dio-mounts and "
            "--with-spds-dirs also do what the script lists for them."
        ], [f"sh {AIX_SCRIPT}"]
    return [], []


def _cfg_apply_words(p: Plan) -> str:
    if p.windows:
        return (
            f"Append {p.cfg} to the end of the language file SAS reads (an option set twice "
            "takes its last value); a SAS Intelligence Platform context takes the lines in its "
            "sasv9_usermods.cfg instead."
        )
    if p.cfg == "sasv9_append.cfg":
        return f"Append {p.cfg} to the end of the installed sasv9.cfg; never save it as sasv9.cfg."
    return (
        f"Save {p.cfg} as {p.cfg_place} (append to it if it exists); a SAS Intelligence "
        "Platform context takes the lines in its sasv9_usermods.cfg instead, never sasv9.cfg."
    )


def _cfg_apply_command(p: Plan) -> str:
    return p.shell.append(str(p.cfg), p.cfg_target)


def restart(p: Plan) -> Step:
    words = []
    if p.cfg:
        words.append(
            "SAS reads its options when a session starts: new SAS sessions take them; "
            "restart the workspace, stored process and batch servers of a SAS "
            "Intelligence Platform context, and the object spawner that starts them."
        )
    if p.spds:
        words.append(f"Restart SPD Server so that it reads {' and '.join(p.spds)}.")
    if p.script == LINUX_SCRIPT:
        words.append(
            "The kernel values apply at once and are kept at boot (the tuned profile, "
            "or sysctl.d and udev rules); transparent huge pages already in use are "
            "freed only as processes end, so a reboot in a maintenance window shows "
            "the boot-time values in full."
        )
    elif p.script == AIX_SCRIPT:
        words.append(
            "ioo and vmo values apply at once and are kept at boot; a disk or adapter "
            "attribute set with chdev -P on a device in use takes effect only at the "
            "next reboot."
        )
    return Step("Restart", tuple(words))


def verify(p: Plan, verify_page: str | None, api_verify: str | None) -> Step:
    """Read the server again and hold the reading against this assessment's advice, on its
    Verify page or through the API (the advisor's own `verify`, which the server lacks)."""
    config = [f"--sas-config {p.cfg_target}"] if p.cfg else []
    parms = [f"--{n.split('.')[0].replace('spdsserv', 'spds')}-parm {n}" for n in p.spds]
    api_url = api_verify if api_verify and api_verify.startswith(("http://", "https://")) else None
    words = verify_words(windows=p.windows, has_page=verify_page is not None,
                         api_verify=api_verify, with_curl=api_url is not None)  # fmt: skip
    commands = verify_commands(windows=p.windows, args=[*config, *parms], api_url=api_url)
    link = ("Verify page of this assessment", verify_page) if verify_page else None
    return Step("Verify", words, commands, link)


def rollback(p: Plan) -> Step:
    words, commands = [], []
    if p.script:
        root = LINUX_BACKUP if p.script == LINUX_SCRIPT else AIX_BACKUP
        words.append(
            f"As root, run the rollback.sh that {p.script} wrote in the folder it printed "
            f"(ls {root} lists them, oldest first); it undoes every change."
        )
        commands.append(f"BACKUP={root}/{BACKUP_EXAMPLE}   # edit: the folder {p.script} printed")
        commands.append('sh "$BACKUP/rollback.sh"')
    if p.cfg:
        words.append("Put the configuration file's backup back, then restart SAS as above.")
        commands.append(_copy(p, p.cfg_backup, p.cfg_target))
    for name in p.spds:
        commands.append(f"cp -p {name}.orig {name}")
    if p.spds:
        words.append("Put the SPD Server files' backups back and restart SPD Server.")
    return Step("Roll back", tuple(words), tuple(commands))
