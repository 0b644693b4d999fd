"""A measurement as admins run it: behind `cd DIR &&` or a wrapper, and too long to read.

`cd /opt/sastsst && ./rhel_iotest.sh -t /saswork` is read as the script it runs (the
section's line numbers unchanged); the same server's paste with `cd /tmp && ` before each
command gives the same draft; fio's JSON cut at the output's line limit is said to be
too long, with how to make fio print less, never "not fio's JSON".
"""

from __future__ import annotations

import json

import pytest

from rules.parse import draft, parse_text
from rules.parse.fio import fio
from rules.parse.registry import Section, find
from rules.parse.sections import MAX_OUTPUT_LINES, split
from rules.parse.spans import argv_of
from tests.rules.parse.fixtures import header_and_output, transcript, transcript_file
from tests.rules.parse.metamorphic import chunks, differences, facts, join

# The RESULTS block as rhel_iotest.sh's echo lines write it (the format of the Apache-2.0
# port, sascommunities/technical-support-code fact-gathering/k8s-iotest-vk); the figures
# are made up.
RHEL_IOTEST = (
    "RESULTS\n-------\nINVOCATION:  rhel_iotest.sh -t /saswork\n\nTARGET DETAILS\n"
    "  target dir:   /saswork\n  iterations:   16\n\nSTATISTICS\n"
    "  read throughput rate:   157.87 megabytes/second per physical core\n"
    "  write throughput rate:  100.45 megabytes/second per physical core\n"
)
DF = (
    "[root@rhel9 ~]# df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
    "/dev/sda2 312371180 223769992 88601188 72% /\n"
    "/dev/sdb1 312371180 223769992 88601188 72% /saswork\n"
)


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("cd /opt/sastsst && ./rhel_iotest.sh -t /saswork", ("./rhel_iotest.sh", "-t", "/saswork")),
        ("cd /opt/sastsst; ./rhel_iotest.sh -t /saswork", ("./rhel_iotest.sh", "-t", "/saswork")),
        ("cd /opt/sastsst;./rhel_iotest.sh", ("./rhel_iotest.sh",)),
        ("cd '/opt/SAS tools' && cd bin; ./iotest.sh -i 8", ("./iotest.sh", "-i", "8")),
        ("cd && lsblk -f", ("lsblk", "-f")),
        ("pushd /tmp && df -h", ("df", "-h")),
        ("sudo lsblk", ("lsblk",)),
        ("sudo -u sas ./rhel_iotest.sh -t /w", ("./rhel_iotest.sh", "-t", "/w")),
        ("time ./rhel_iotest.sh -t /w", ("./rhel_iotest.sh", "-t", "/w")),
        ("time -p nice -n 5 df -h", ("df", "-h")),
        ("env X=1 df -h", ("df", "-h")),
        ("env -i LANG=C lscpu", ("lscpu",)),
        ("nohup ./rhel_iotest.sh -t /w", ("./rhel_iotest.sh", "-t", "/w")),
        ("cd /opt && sudo env X=1 nohup lsblk | grep sd", ("lsblk",)),
        # Only a leading cd chain is passed over: where every command may print, the first
        # is the section's, as before.
        ("lsblk && df -h", ("lsblk",)),
        ("lsblk | grep sd", ("lsblk",)),
        ("df -h && cd /tmp && lsblk", ("df", "-h")),
        # A cd with nothing after it is the command itself.
        ("cd /tmp", ("cd", "/tmp")),
        ("cd /tmp && ", ("cd", "/tmp")),
        ("cdrecord -scanbus", ("cdrecord", "-scanbus")),
    ],
)
def test_the_argv_is_the_command_that_prints_the_output(
    command: str, argv: tuple[str, ...]
) -> None:
    assert argv_of(command) == argv


def test_an_iotest_run_after_cd_reads_as_the_script_with_its_line_numbers() -> None:
    command = "./rhel_iotest.sh -t /saswork"
    plain = DF + f"[root@rhel9 ~]# {command}\n" + RHEL_IOTEST
    prefixed = DF + f"[root@rhel9 ~]# cd /opt/sastsst && {command}\n" + RHEL_IOTEST
    before, after = parse_text(plain), parse_text(prefixed)
    assert not after.unknown and not after.problems
    (was,), (now,) = before.found["iotest"], after.found["iotest"]
    assert now.value == was.value and now.section.line == was.section.line == 5
    assert now.section.command == f"cd /opt/sastsst && {command}"
    entry = draft(prefixed).document["storage"][1]
    assert entry["mount"] == "/saswork" and entry["measured_streams"] == 16
    assert entry == draft(plain).document["storage"][1]


@pytest.mark.parametrize("lead", ["cd /opt/sastsst; ", "sudo ", "time ", "env X=1 ", "nohup "])
def test_each_leading_word_admins_type_keeps_the_measurement(lead: str) -> None:
    text = DF + f"[root@rhel9 ~]# {lead}./rhel_iotest.sh -t /saswork\n" + RHEL_IOTEST
    found = parse_text(text)
    assert not found.unknown and len(found.found["iotest"]) == 1


def test_a_bare_prompt_and_an_unprompted_line_read_past_cd_too() -> None:
    bare = transcript("iotest/viya_perf_tool_cdc_node1.txt")
    command = header_and_output("iotest/viya_perf_tool_cdc_node1.txt")[0]["command"]
    prefixed = bare.replace(f"# {command}", f"# cd /opt/vpt && {command}", 1)
    assert prefixed != bare
    assert (
        parse_text(prefixed).found["iotest"][0].value == parse_text(bare).found["iotest"][0].value
    )
    # No prompt at all: the command line is told by the output under it.
    unprompted = split("cd /opt/sastsst && ./rhel_iotest.sh -t /saswork\n" + RHEL_IOTEST)
    (section,) = unprompted.sections
    assert section.line == 1 and getattr(find(section.argv), "name", None) == "iotest"


def _after_cd(text: str) -> str:
    """Every command of the paste run as `cd /tmp && COMMAND`."""
    pre, parts = chunks(text)
    out = []
    for prompt, (command_line, *output) in parts:
        typed = command_line[len(prompt) :]
        out.append((prompt, [f"{prompt}cd /tmp && {typed}", *output]))
    return join(pre, out)


# Real whole-server pastes of every shape: bracket and host:path prompts, bare `#`, a
# `script` log without prompts, AIX, Solaris.
PASTES = (
    "rhel7_jc.txt",
    "rhel9_wazuh21357.txt",
    "ubuntu_jc.txt",
    "sles15_wazuh20204.txt",
    "ol88_wazuh20014_script_log.txt",
    "aix71_gcc111_ansible.txt",
    "solaris11_glpi.txt",
)


@pytest.mark.parametrize("name", PASTES)
def test_the_same_paste_run_after_cd_gives_the_same_facts(name: str) -> None:
    _, lines, text = transcript_file(name)
    changed = _after_cd(text)
    assert changed.count("cd /tmp && ") == len(chunks(text)[1]) > 0
    before, found = draft(text), draft(changed)
    assert differences(facts(before, lines), facts(found, lines)) == []
    assert [p.line for p in found.problems] == [p.line for p in before.problems]


def _many_jobs(count: int) -> tuple[str, str]:
    """fio's JSON with `count` jobs and no --group_reporting: the jobs of a real run
    (tests/fixtures/parse/fio/fio_json_2streams_write_read_debian12.txt, fio-3.33 on
    Debian 12) repeated, as `--numjobs` prints one result a job."""
    header, lines = header_and_output("fio/fio_json_2streams_write_read_debian12.txt")
    doc = json.loads("\n".join(lines))
    jobs = doc["jobs"]
    doc["jobs"] = [dict(jobs[i % len(jobs)], jobname=f"job{i}") for i in range(count)]
    return header["command"], json.dumps(doc, indent=2)


def test_fio_json_cut_at_the_line_limit_says_so_and_how_to_make_it_fit() -> None:
    command, text = _many_jobs(300)
    assert text.count("\n") > MAX_OUTPUT_LINES  # some 73,000 lines, 1.6 MB
    found = parse_text(f"$ {command}\n{text}\n")
    (problem,) = found.problems
    assert "not fio's JSON" not in problem.message
    assert f"longer than the {MAX_OUTPUT_LINES:,} lines read" in problem.message
    assert "--group_reporting" in problem.message
    assert problem.line == 1 + MAX_OUTPUT_LINES  # the last line read
    assert any("65,536 lines not read" in note for _, note in found.notes)


def test_fio_json_that_fits_reads_and_a_broken_one_is_still_not_fios() -> None:
    command, text = _many_jobs(8)
    (one,) = parse_text(f"$ {command}\n{text}\n").found["fio"][0].value
    assert one.streams == 4  # the best of the stonewalled groups: four a direction
    broken = text.replace('"jobs"', "'jobs'", 1).split("\n")
    with pytest.raises(Exception, match="not fio's JSON"):
        fio(Section(command, argv_of(command), tuple(broken), 1))
