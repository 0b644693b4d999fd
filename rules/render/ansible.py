"""Renderers: Ansible playbooks for provisioning systems, one per OS family.

ansible_linux.yml hands the tuned.conf settings to the linux-system-roles kernel_settings
role (`fedora.linux_system_roles.kernel_settings`, also shipped as
`redhat.rhel_system_roles.kernel_settings`): `kernel_settings_sysctl` and
`kernel_settings_sysfs` as lists of {name, value}, `kernel_settings_transparent_hugepages`.
The role writes a tuned profile of its own, so it is idempotent and tuned reverts it. The
read-ahead linux_tuning.sh sets from a mount (the device it is mounted from, or its NFS
client: linux.readahead, linux.nfs_readahead) has no kernel_settings form: a task runs
ansible_readahead.sh, linux_tuning.sh's mount_item for one mount, and a second one writes
the udev rules that keep the values at boot, as linux_tuning.sh does.

ansible_aix.yml uses `ibm.power_aix.tunables` (action modify, change_type both: now and at
every boot, as aix_tuning.sh's -p) around `ibm.power_aix.tunfile_mgmt`: the tunables are
saved to /etc/tunables/sas-tuning-before once, before the first change, and the plays
tagged `rollback` restore that file. Both modules need AIX 7.1 TL3 or later. A restricted
tunable is never in the file (the rules emit none as a change; `restricted_tunables` stays
false). Read-only checks are listed as comments: aix_tuning.sh runs them.

Every scalar is written as a JSON string, which YAML reads as the same string, so no value
can become YAML syntax.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rules.inventory import Inventory
from rules.model import AIX_SCRIPT
from rules.payloads import Check, Tunable
from rules.render import tuned_profile
from rules.render._common import input_lines, one_line
from rules.render.base import Renderer, named
from rules.render.mount_readahead import mount_steps
from rules.render.shell import comment, shell_part

if TYPE_CHECKING:
    from rules.engine import Decisions

LINUX_FILE, AIX_FILE = "ansible_linux.yml", "ansible_aix.yml"
LINUX_ROLE = "fedora.linux_system_roles.kernel_settings"
SAVED = "/etc/tunables/sas-tuning-before"
AIX_MODULES_SINCE = (7, 1)  # ibm.power_aix.tunables and tunfile_mgmt need AIX 7.1 TL3+
HOSTS = "  hosts: \"{{ sas_hosts | default('sas_servers') }}\""
READAHEAD_SCRIPT = shell_part("ansible_readahead.sh")
MOUNT_RULES = "/etc/udev/rules.d/99-sas-readahead.rules"  # linux_tuning.sh's file


def q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _header(result: Decisions, name: str, usage: list[str]) -> list[str]:
    lines = [line for text in input_lines(result, name) for line in comment(text)]
    return ["---", *lines, *(line for text in usage for line in comment(text))]


def _pair(indent: str, rule: str, why: str, name: str, value: str) -> list[str]:
    return [
        *comment(f"{rule}: {one_line(why)}", indent=indent),
        f"{indent}- name: {q(name)}",
        f"{indent}  value: {q(value)}",
    ]


def _linux_vars(result: Decisions) -> tuple[list[str], list[str], list[str]]:
    sysctl: list[str] = []
    sysfs: list[str] = []
    thp: list[str] = []
    for rec, t in tuned_profile.tunables(result):
        value = rec.value.lstrip(">")  # sysfs takes the value itself: '>' is tuned's own
        if t.path.startswith("/proc/sys/"):
            name = t.path[len("/proc/sys/") :].replace("/", ".")
            sysctl += _pair("      ", rec.rule, rec.rationale, name, value)
        elif t.option == "transparent_hugepages":
            thp = [*comment(f"{rec.rule}: {one_line(rec.rationale)}", indent="    ")]
            thp.append(f"    kernel_settings_transparent_hugepages: {q(value)}")
        else:
            paths = [t.path.replace("{dev}", d) for d in t.devices] or [
                t.path.replace("{cpu}", "cpu*")
            ]
            for path in paths:
                sysfs += _pair("      ", rec.rule, rec.rationale, path, value)
    return sysctl, sysfs, thp


BYTE_LIMITS = (
    "vm.dirty_bytes and vm.dirty_background_bytes take the place of the active profile's "
    "vm.dirty_ratio and vm.dirty_background_ratio: the kernel keeps one limit of each pair "
    "(writing one zeroes the other), and tuned merges the role's profile after the active "
    "one, so the byte limits are the ones in effect; tuned-adm verify may then show the "
    "active profile's ratios as 0."
)


def _readahead_items(result: Decisions) -> tuple[list[str], list[str]]:
    """The why and one loop item per mount, as linux_tuning.sh's mounts()."""
    why: list[str] = []
    items: list[str] = []
    for rec, steps in mount_steps(result):
        why += comment(f"{rec.rule}: {one_line(rec.rationale)}", indent="    ")
        items += [f"        - {json.dumps(step._asdict(), ensure_ascii=False)}" for step in steps]
    return why, items


def _readahead_tasks(result: Decisions) -> list[str]:
    why, items = _readahead_items(result)
    if not items:
        return []
    script = ["{% raw %}", *READAHEAD_SCRIPT.splitlines(), "{% endraw %}"]
    rules_text = (
        "# Written by ansible_linux.yml (SAS Tuning Advisor).\n"
        "{{ sas_readahead.results | map(attribute='stdout_lines') | select | map('last') "
        "| select('match', 'SUBSYSTEM|ACTION') | unique | join('\\n') }}\n"
    )
    return [
        "  tasks:", *why,
        '    - name: "Read-ahead of what each SAS mount is mounted from"',
        "      ansible.builtin.shell:", "        cmd: |",
        *(f"          {line}" if line else "" for line in script),
        "      environment:", '        SAS_MOUNT: "{{ item.mount }}"',
        '        SAS_KB: "{{ item.kb }}"', '        SAS_MODE: "{{ item.mode }}"',
        '        SAS_KIND: "{{ item.kind }}"', "      loop:", *items,
        "      register: sas_readahead",
        "      changed_when: \"'changed:' in sas_readahead.stdout\"",
        '    - name: "Keep that read-ahead at boot (udev)"',
        "      ansible.builtin.copy:", f"        dest: {q(MOUNT_RULES)}",
        f"        content: {q(rules_text)}", '        mode: "0644"',
    ]  # fmt: skip


MOUNTS_NOTE = (
    "The read-ahead of the SAS mounts is set on the device each is mounted from (or its NFS "
    f"client) and kept at boot by {MOUNT_RULES}; to undo, remove that file and reboot."
)


def render_linux(result: Decisions) -> str:
    sysctl, sysfs, thp = _linux_vars(result)
    host = result.inventory.server.hostname
    bytes_note = [BYTE_LIMITS] if any("vm.dirty_bytes" in line for line in sysctl) else []
    mounts_note = [MOUNTS_NOTE] if any(True for _ in mount_steps(result)) else []
    usage = [
        f"Usage: ansible-playbook -i INVENTORY {LINUX_FILE} -e sas_hosts=GROUP (default: "
        "sas_servers). Needs the collection fedora.linux_system_roles (or "
        "redhat.rhel_system_roles: change the role name). A second run reports no change. "
        "The role writes its own tuned profile: to undo, run the role with "
        "kernel_settings_purge: true, or tuned-adm profile with the previous profile.",
        "Read-ahead is written as the value itself (tuned.conf's '>' keeps a larger one); "
        "the I/O scheduler is the first preference: check that the kernel offers it "
        "(cat /sys/block/DEV/queue/scheduler).",
        *mounts_note,
        *bytes_note,
    ]
    lines = [
        *_header(result, LINUX_FILE, usage),
        f"- name: {q(f'SAS tuning for {host} (kernel_settings)')}",
        HOSTS,
        "  become: true",
        "  vars:",
    ]
    if sysctl:
        lines += ["    kernel_settings_sysctl:", *sysctl]
    if sysfs:
        lines += ["    kernel_settings_sysfs:", *sysfs]
    lines += thp
    lines += [
        "  roles:",
        f"    - {LINUX_ROLE}",
        *_readahead_tasks(result),
        "  post_tasks:",
        '    - name: "Say whether a reboot is needed"',
        "      ansible.builtin.debug:",
        "        var: kernel_settings_reboot_required",
    ]
    return "\n".join(lines) + "\n"


def _aix_changes(result: Decisions) -> dict[str, list[str]]:
    per_command: dict[str, list[str]] = {}
    for rec in result.for_target(AIX_SCRIPT):
        if rec.kind == "change" and isinstance(rec.payload, Tunable):
            lines = per_command.setdefault(rec.payload.command, [])
            lines += comment(f"{rec.rule}: {one_line(rec.rationale)}", indent="          ")
            lines.append(f"          {rec.setting}: {q(rec.value)}")
    return per_command


def _aix_checks(result: Decisions) -> list[str]:
    lines = []
    for rec in result.for_target(AIX_SCRIPT):
        if isinstance(rec.payload, Check):
            text = f"check ({rec.rule}): {' '.join(rec.payload.argv)}; expect "
            lines += comment(text + one_line(rec.payload.expect), indent="    ")
    return lines


def render_aix(result: Decisions) -> str:
    host = result.inventory.server.hostname
    usage = [
        f"Usage: ansible-playbook -i INVENTORY {AIX_FILE} -e sas_hosts=GROUP (default: "
        "sas_servers). Needs the collection ibm.power_aix. The first run saves every tunable "
        f"to {SAVED} before any change; later runs keep that file and report no change. "
        f"Roll back: ansible-playbook -i INVENTORY {AIX_FILE} --tags rollback.",
    ]
    play = HOSTS
    lines = [
        *_header(result, AIX_FILE, usage),
        f"- name: {q(f'SAS tuning for {host} (ioo, vmo)')}", play, "  gather_facts: false",
        "  tasks:", *_aix_checks(result),
        '    - name: "Is there a saved state from before the first change?"',
        "      ansible.builtin.stat:", f"        path: {q(SAVED)}", "      register: saved",
        '    - name: "Save every tunable before the first change"',
        "      ibm.power_aix.tunfile_mgmt:", "        action: save",
        f"        filename: {q(SAVED)}", "        save_all_tunables: true",
        "      when: not saved.stat.exists",
    ]  # fmt: skip
    for command, values in _aix_changes(result).items():
        lines += [
            f"    - name: {q(f'{command}: now and at every boot')}",
            "      ibm.power_aix.tunables:", "        action: modify",
            f"        component: {command}", "        change_type: both",
            "        tunable_params_with_value:", *values,
        ]  # fmt: skip
    lines += [
        "", f"- name: {q(f'Roll back {host} to the saved tunables')}", play,
        "  gather_facts: false", "  tags: [never, rollback]", "  tasks:",
        '    - name: "Restore the tunables saved before the first change"',
        "      ibm.power_aix.tunfile_mgmt:", "        action: restore",
        f"        filename: {q(SAVED)}", "        make_nextboot: true",
    ]  # fmt: skip
    return "\n".join(lines) + "\n"


def linux_applies(inv: Inventory) -> bool:
    return inv.server.os == "linux"


def aix_applies(inv: Inventory) -> bool:
    return inv.server.os == "aix" and inv.server.version >= AIX_MODULES_SINCE


LINUX = Renderer(f"ansible:{LINUX_FILE}", "Ansible playbook (Linux)", named(LINUX_FILE),
                 linux_applies, render_linux)  # fmt: skip
AIX = Renderer(f"ansible:{AIX_FILE}", "Ansible playbook (AIX)", named(AIX_FILE), aix_applies,
               render_aix)  # fmt: skip
