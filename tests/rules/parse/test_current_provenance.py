"""The draft's `current` block: each value names the section and line it was read from, and
the accounting credits each section with exactly the fields it filled.

Real transcripts with real captures run after them, at the transcript's own prompt:
- rhel7_jc.txt, jc's CentOS 7.7 VM, and jc's `sysctl -a` of the same VM (its vm.* lines);
- the Debian 12 build machine's own captures (fixtures.DEBIAN12) and its `sysctl -a`;
- aix61_glpi.txt (GLPI's AIX 6.1 LPAR) with ahix's `ioo -a` and `ioo -L` of an AIX 6.1 box,
  IBM's `vmo -a` sample (n/a values), a csdn admin's `vmo -a |grep maxperm%`, lsattr of
  Andy0583's VPLEX LUN and of GLPI's AIX 5.3 hdisk0, StatCan's sasv9_local.cfg and the
  sas-apro workshop's sasv9_usermods.cfg;
- THP and tuned-adm captures of insights-core, azurelinux and tuned after rhel7_jc.txt.
Captures of other machines stand for what another admin pastes; the test is what the
accounting and the provenance say of them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.parse import draft, parse_text
from rules.parse.draft import Draft, Provenance
from tests.rules.parse.fixtures import DEBIAN12, header_and_output, transcript, transcript_file

RHEL_PROMPT = "[root@localhost ~]# "
PROMPT = re.compile(r"# |\[[^\]]{1,80}\][#$] ")  # the transcripts' prompts: AIX's and RHEL's
SYSCTL = "linux/sysctl_a_vm_centos77_jc.txt"
AIX_EXTRA = (
    "aix/ioo_a_aix61_ahix.txt",
    "aix/ioo_L_wrapped_name_ahix.txt",
    "aix/vmo_a_na_ibm_doc.txt",
    "aix/vmo_a_grep_maxperm_csdn.txt",
    "aix/lsattr_hdisk2_emc_invista_andy.txt",
    "aix/lsattr_hdisk0_size_aix53_glpi.txt",
    "sas/sasv9_local_statcan.txt",
    "sas/sasv9_usermods_sas_apro_workshop.txt",
)
LINUX_EXTRA = (
    "linux/thp_enabled_never_insights.txt",
    "linux/thp_defrag_azurelinux.txt",
    "linux/tuned_list_daemon_not_running.txt",
    "linux/tuned_active_balanced.txt",
)


def pasted(base: str, names: tuple[str, ...], prompt: str) -> str:
    """The transcript `base` with the captures `names` run after it."""
    _, _, text = transcript_file(base)
    lines = text.rstrip("\n").split("\n")
    for name in names:
        header, output = header_and_output(name)
        lines += [prompt + header["command"], *output]
    return "\n".join(lines) + "\n"


def line_of(text: str, command: str) -> int:
    lines = text.split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.endswith(f"# {command}"))


def output_of(text: str, line: int) -> list[str]:
    """The output lines of the command at `line`, up to the next prompt."""
    lines = text.split("\n")[line:]
    end = next((i for i, ln in enumerate(lines) if PROMPT.match(ln)), len(lines))
    return lines[:end]


def used(found: Draft) -> dict[int, set[str]]:
    return {u["line"]: set(u["fields"]) for u in found.used}


def unused(found: Draft) -> dict[int, str]:
    return {u["line"]: u["why"] for u in found.unused}


def current(found: Draft) -> dict[str, Provenance]:
    return {p: v for p, v in found.provenance.items() if p.startswith("current.")}


def reading(name: str) -> Any:
    """The parser's own reading of a capture, as a whole paste of it gives."""
    header, lines = header_and_output(name)
    parsed = parse_text("\n".join(["# " + header["command"], *lines]) + "\n")
    return next(iter(parsed.found.values()))[0].value


def test_sysctl_values_name_the_sysctl_section() -> None:
    text = pasted("rhel7_jc.txt", (SYSCTL,), RHEL_PROMPT)
    found = draft(text)
    at = line_of(text, "sysctl -a")
    assert at == 60
    keys = reading(SYSCTL)
    assert used(found)[at] == {f"current.linux_sysctl.{k}" for k in keys}
    swappiness = found.provenance["current.linux_sysctl.vm.swappiness"]
    assert (swappiness.value, swappiness.command, swappiness.line) == ("30", "sysctl -a", 60)
    assert "vm.swappiness = 30" in output_of(text, at)
    assert found.document["current"]["linux_sysctl"]["vm.swappiness"] == "30"
    assert found.accounting == {"used": 6, "unused": 1, "unknown": 0, "problems": 0}
    assert at not in unused(found)


@pytest.mark.parametrize("grep_first", [True, False])
def test_a_grepped_sysctl_beside_the_full_one_is_named_as_read_there(grep_first: bool) -> None:
    """`sysctl -a | grep swappiness` prints the full capture's own line: the full `sysctl
    -a` is credited with every value, the grep is not used and says why."""
    _, lines = header_and_output(SYSCTL)
    grep = [
        f"{RHEL_PROMPT}sysctl -a | grep swappiness",
        *[ln for ln in lines if "swappiness" in ln],
    ]
    full = [f"{RHEL_PROMPT}sysctl -a", *lines]
    _, _, base = transcript_file("rhel7_jc.txt")
    text = base.rstrip("\n") + "\n" + "\n".join(grep + full if grep_first else full + grep) + "\n"
    found = draft(text)
    at, grepped = line_of(text, "sysctl -a"), line_of(text, "sysctl -a | grep swappiness")
    assert found.provenance["current.linux_sysctl.vm.swappiness"].line == at
    assert "current.linux_sysctl.vm.swappiness" in used(found)[at]
    assert grepped not in used(found)
    assert unused(found)[grepped] == (
        "each value it prints was read from another section that prints it too"
    )


def test_a_sysctl_of_no_key_the_block_keeps_says_so() -> None:
    """The Debian 12 machine's captures and its `sysctl -a` line of net.core.somaxconn
    grepped, alone: no value of it is one the block keeps. Beside the full `sysctl -a`,
    which prints that line too, it is a repeat."""
    _, lines = header_and_output("linux/sysctl_a_debian12_nobody.txt")
    somaxconn = [ln for ln in lines if ln.startswith("net.core.somaxconn")]
    assert somaxconn == ["net.core.somaxconn = 4096"]
    grep = "# sysctl -a | grep somaxconn\n" + "\n".join(somaxconn) + "\n"
    alone = transcript(*DEBIAN12) + grep
    why = unused(draft(alone))[line_of(alone, "sysctl -a | grep somaxconn")]
    assert why == (
        "read as sysctl: none of its keys starts as those read do (vm., kernel.sched, "
        "kernel.numa, kernel.shm, kernel.sem, fs.file-max, fs.aio-max-nr, fs.nr_open)"
    )
    beside = transcript(*DEBIAN12, "linux/sysctl_a_debian12_nobody.txt") + grep
    found = draft(beside)
    why = unused(found)[line_of(beside, "sysctl -a | grep somaxconn")]
    assert why == "each value it prints was read from another section that prints it too"
    full = used(found)[line_of(beside, "sysctl -a")]
    assert "current.linux_sysctl.kernel.shmmax" in full
    assert not any("somaxconn" in f for f in full)


def test_thp_and_tuned_name_their_sections_and_the_others_say_why() -> None:
    text = pasted("rhel7_jc.txt", LINUX_EXTRA, RHEL_PROMPT)
    found = draft(text)
    enabled = line_of(text, "cat /sys/kernel/mm/transparent_hugepage/enabled")
    defrag = line_of(text, "cat /sys/kernel/mm/transparent_hugepage/defrag")
    listed, active = line_of(text, "tuned-adm list"), line_of(text, "tuned-adm active")
    assert used(found)[enabled] == {"current.linux_thp"}
    assert used(found)[active] == {"current.tuned_profile"}
    thp, tuned = found.provenance["current.linux_thp"], found.provenance["current.tuned_profile"]
    assert (thp.value, thp.line, tuned.value, tuned.line) == ("never", enabled, "balanced", active)
    assert unused(found)[defrag] == (
        "read as thp: only transparent_hugepage/enabled is read, and this is defrag"
    )
    assert unused(found)[listed] == (
        "read as tuned_active: it names no active profile; the tuned daemon is not running"
    )


@pytest.fixture(scope="module")
def aix() -> tuple[str, Draft]:
    text = pasted("aix61_glpi.txt", AIX_EXTRA, "# ")
    return text, draft(text)


def test_ioo_and_vmo_are_credited_with_the_tunables_they_gave(aix: tuple[str, Draft]) -> None:
    text, found = aix
    ioo, vmo = line_of(text, "ioo -a"), line_of(text, "vmo -a")
    tunables = reading("aix/ioo_a_aix61_ahix.txt")
    assert used(found)[ioo] == {f"current.aix_ioo.{k}" for k in tunables.values}
    vmo_values = reading("aix/vmo_a_na_ibm_doc.txt")
    assert "ame_cpus_per_pool" in vmo_values.not_applicable
    assert used(found)[vmo] == {f"current.aix_vmo.{k}" for k in vmo_values.values}
    assert "current.aix_vmo.ame_cpus_per_pool" not in found.provenance
    read_ahead = found.provenance["current.aix_ioo.j2_maxPageReadAhead"]
    assert (read_ahead.value, read_ahead.command, read_ahead.line) == ("128", "ioo -a", ioo)
    maxfree = found.provenance["current.aix_vmo.maxfree"]
    assert (maxfree.value, maxfree.command, maxfree.line) == ("1088", "vmo -a", vmo)


def test_the_repeats_of_ioo_and_vmo_say_which_section_was_read(aix: tuple[str, Draft]) -> None:
    text, found = aix
    ioo, vmo = line_of(text, "ioo -a"), line_of(text, "vmo -a")
    why = unused(found)
    assert (
        why[line_of(text, "ioo -L")]
        == f"`ioo -L` (11 lines) not used: `ioo -a` at line {ioo} says more"
    )
    # IBM's vmo -a sample prints no maxperm% (only maxperm): the grep's tunable is its own
    grep = line_of(text, "vmo -a |grep maxperm%")
    assert grep not in why and vmo not in why
    assert used(found)[grep] == {"current.aix_vmo.maxperm%"}


def test_lsattr_sections_are_credited_with_their_attributes(aix: tuple[str, Draft]) -> None:
    text, found = aix
    hdisk2 = line_of(text, "lsattr -El hdisk2")
    attrs = reading("aix/lsattr_hdisk2_emc_invista_andy.txt").attrs
    device_fields = {f for f in used(found)[hdisk2] if f.startswith("current.")}
    assert device_fields == {f"current.devices.hdisk2.{k}" for k in attrs}
    size = line_of(text, "lsattr -EOl hdisk0 -a 'size_in_mb'")
    assert used(found)[size] == {"current.devices.hdisk0.size_in_mb"}
    assert found.provenance["current.devices.hdisk0.size_in_mb"].line == size


def test_a_later_sas_config_wins_and_is_credited_with_what_it_set(aix: tuple[str, Draft]) -> None:
    text, found = aix
    local = line_of(text, "cat /usr/local/SASHome/SASFoundation/9.4/sasv9_local.cfg")
    usermods = line_of(text, "cat /sasinside/sasv9_usermods.cfg")
    assert used(found)[usermods] == {"current.sas_options.WORK", "current.sas_options.UTILLOC"}
    options = reading("sas/sasv9_local_statcan.txt").options
    from_local = {f for f in used(found)[local] if f.startswith("current.")}
    assert from_local == {f"current.sas_options.{k}" for k in options if k != "WORK"}
    work = found.provenance["current.sas_options.WORK"]
    assert (work.value, work.line) == ("/sastmp/saswork", usermods)


def test_the_extra_aix_sections_are_all_accounted_for(aix: tuple[str, Draft]) -> None:
    _, found = aix
    _, _, base = transcript_file("aix61_glpi.txt")
    before = draft(base).accounting
    assert found.accounting == {
        **before,
        "used": before["used"] + 7,
        "unused": before["unused"] + 1,
    }


@pytest.mark.parametrize(
    ("base", "names", "prompt"),
    [
        ("aix61_glpi.txt", AIX_EXTRA, "# "),
        ("rhel7_jc.txt", (SYSCTL, *LINUX_EXTRA), RHEL_PROMPT),
        ("rhel_nvme_chhanz_ec2.txt", (), ""),
    ],
)
def test_each_current_value_s_line_runs_the_command_that_printed_it(
    base: str, names: tuple[str, ...], prompt: str
) -> None:
    text = pasted(base, names, prompt)
    lines = text.split("\n")
    found = current(draft(text))
    assert found
    for path, where in found.items():
        assert lines[where.line - 1].endswith(f"# {where.command}"), path
        output = output_of(text, where.line)
        if path.startswith("current.sas_options."):  # `-NAME value`, a list over lines
            option = "-" + path.rsplit(".", 1)[-1].lower()
            assert any(line.lower().startswith(option) for line in output), path
        else:
            printed = where.raw or str(where.value)
            assert any(printed in line for line in output), path


def test_a_tunable_asked_alone_after_ioo_a_names_the_section_it_was_read_from() -> None:
    """`ioo -o j2_maxPageReadAhead` prints the line `ioo -a` printed for it (ahix's box):
    the value is read from the fuller `ioo -a`, and the single one says so."""
    _, lines = header_and_output("aix/ioo_a_aix61_ahix.txt")
    one = [ln for ln in lines if ln.startswith("j2_maxPageReadAhead ")]
    assert one == ["j2_maxPageReadAhead = 128"]
    text = pasted("aix61_glpi.txt", ("aix/ioo_a_aix61_ahix.txt",), "# ")
    text += "# ioo -o j2_maxPageReadAhead\n" + one[0] + "\n"
    found = draft(text)
    full, single = line_of(text, "ioo -a"), line_of(text, "ioo -o j2_maxPageReadAhead")
    assert found.provenance["current.aix_ioo.j2_maxPageReadAhead"].line == full
    assert unused(found)[single] == f"its values were read from `ioo -a` (line {full}) instead"
