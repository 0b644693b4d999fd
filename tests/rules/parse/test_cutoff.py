"""Output cut off or wrapped at 80 columns is noted; complete real output is not.

Over the whole corpus: no complete capture gets a "seems cut off" note when it is the last
section of a paste (no prompt after it), and none a "seems wrapped" note; the captures
whose source says they stop early and that show it must get the cut note. Then each
capture damaged as a paste damages it: wrapped at 80 columns (same facts, or the wrap
note or a line-numbered problem, as tests/rules/parse/metamorphic.py holds whole
transcripts to), and cut in the middle of a row (the cut note, or the draft of the output
without that row or with it whole: a half row is never misread in silence).
"""

from __future__ import annotations

import random

import pytest

from rules.parse import draft, parse_text
from rules.parse.cutoff import ENDINGS, WRAP_COLUMNS
from rules.parse.registry import PARSERS
from tests.rules.parse.fixtures import corpus_names, header_and_output, section

MTAB = "linux/etc_mtab_btrfs_sshfs_ansible.txt"  # three real rows of exactly 80 characters
CUT_NOTE, WRAP_NOTE = "seems cut off", "seems wrapped at 80 columns"
# Their source says they stop early, and the last line shows it: these must be noted.
TRUNCATED = (
    "aix/vmstat_v_io_blocked_ibm_doc.txt",  # "part of an example", ending on the page's '...'
    "linux/btrfs_subvolume_list_a_s_httm85.txt",  # elided with '...' in its source
    "linux/btrfs_subvolume_list_p_btrfsprogs726.txt",  # elided with '...' in its source
    "linux/mdstat_raid10_ohai.txt",  # the spec leaves out mdstat's `unused devices:` line
    "solaris/prtdiag_t7_1_facter.txt",  # trimmed by facter at the IO Devices rule
    "solaris/zpool_status_raidz2_logs_cache_omnios_pr.txt",  # ends at the cache device's name
)
# Their source says they were trimmed, at a whole line a complete output could end on too
# (a table's row, a `key: value` line): no reader can see it, so neither note is asserted.
TRIMMED_AT_A_WHOLE_LINE = (
    "aix/ioo_L_wrapped_name_ahix.txt",  # after j2_maxPageReadAhead's row
    "aix/lparstat_shared_cut_percentage_glpi.txt",  # at 'Physical CPU Percentage : 1'
    "aix/lsattr_sys0_aix72_nodejs.txt",  # after conslogin
    "aix/lsdev_disk_sas_3par_ralph.txt",  # the first 8 of 86 disks
    "aix/prtconf_power7_45cpu_datadog.txt",  # after the first volume group's first disk
    "aix/prtconf_shared_power8_aix61_neofetch.txt",  # after rootvg's first disk
    "aix/smtctl_power9_smt8_powercampus.txt",  # in proc8's bind list
    "aix/vmo_a_na_ibm_doc.txt",  # after memplace_data
    "aix/vmstat_v_ibm_aix72_doc.txt",  # before the external pager line
    "aix/vmstat_v_shared_lpar_neofetch.txt",  # at the numperm line
    "linux/lscpu_power9_nested.txt",  # after the first Vulnerabilities lines
    "solaris/prtconf_openindiana_glpi_issue.txt",  # after the first PCI bridges
)
# The corpus's wrapped captures are wrapped by the command or the page, not by an 80-column
# console, and their parsers join them: no wrap note is due (ioo_L_wrapped_name_ahix: ioo's
# own two-line row; swap_s_wrapped_salt_pr: wrapped at 67 columns as pasted).
ROWS_ABOVE = 3  # a half row is judged against the lines above it: a heading and two rows
CUTS_PER_CAPTURE = 3
# Cuts no reader can see, with why.
UNSEEN_CUTS = {
    ("linux/sysctl_a_debian12_nobody.txt", 41): "a value of five words cut after two of them",
    ("windows/win32_logicaldisk_list_c_foreach_object_powershell_docs_it.txt", 6): (
        "a list view's last value (VolumeName 'Local Disk') cut inside its words: nothing in "
        "a list marks where a block or the output ends"
    ),
}


def notes_of(command: str, lines: list[str], *, closed: bool = True) -> list[str]:
    text = "\n".join([f"$ {command}", *lines, *(["$ "] if closed else [])])
    return [note for _, note in parse_text(text).notes]


def wrapped(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        while len(line) > WRAP_COLUMNS:
            out.append(line[:WRAP_COLUMNS])
            line = line[WRAP_COLUMNS:]
        out.append(line)
    return out


def facts(command: str, lines: list[str], *, closed: bool) -> tuple[object, list[str]]:
    """The draft's document and which fields are only guessed, for a one-command paste."""
    got = draft("\n".join([f"$ {command}", *lines, *(["$ "] if closed else [])]))
    return got.document, sorted(m.path for m in got.missing)


def test_real_rows_of_exactly_80_characters_are_not_taken_for_wrapping() -> None:
    lines = list(section(MTAB).lines)
    assert sum(len(line) == WRAP_COLUMNS for line in lines) >= 2
    assert not [n for n in notes_of("cat /etc/mtab", lines) if "wrapped" in n]


def test_the_same_output_wrapped_by_a_console_is_noted() -> None:
    lines = wrapped([*section(MTAB).lines, "tmpfs /run/user/1000 tmpfs " + "rw," * 30 + " 0 0"])
    assert "the output of `cat /etc/mtab` seems wrapped at 80 columns" in notes_of(
        "cat /etc/mtab", lines
    )


def test_the_endings_name_registered_parsers() -> None:
    assert set(ENDINGS) <= {p.name for p in PARSERS}
    listed = [*TRUNCATED, *TRIMMED_AT_A_WHOLE_LINE, *(name for name, _ in UNSEEN_CUTS)]
    assert set(listed) <= set(corpus_names())


@pytest.mark.parametrize("name", corpus_names())
def test_complete_real_output_gets_no_note_and_truncated_output_does(name: str) -> None:
    header, lines = header_and_output(name)
    notes = notes_of(header["command"], lines, closed=False)
    assert not [n for n in notes if WRAP_NOTE in n], name
    cut = [n for n in notes if CUT_NOTE in n]
    if name in TRUNCATED:
        assert cut, f"{name}: its source says it stops early, and no note says so"
    elif name not in TRIMMED_AT_A_WHOLE_LINE:
        assert not cut, f"{name}: a complete real output taken for cut off"


@pytest.mark.parametrize(
    "name", [n for n in corpus_names() if max(map(len, section(n).lines), default=0) > 80]
)
def test_a_capture_wrapped_at_80_columns_gives_the_same_facts_or_a_note(name: str) -> None:
    header, lines = header_and_output(name)
    command, split = header["command"], wrapped(lines)
    text = "\n".join([f"$ {command}", *split, "$ "])
    parsed = parse_text(text)
    if parsed.problems or any(WRAP_NOTE in n for _, n in parsed.notes):
        return  # named: a line-numbered problem or the wrap note
    assert facts(command, split, closed=True) == facts(command, lines, closed=True), name


def _rule(line: str) -> bool:
    return not set(line.strip()) - set("-= ")


def cut_lines(name: str) -> list[int]:
    """The rows that can be cut in the middle (two fields or more) with ROWS_ABOVE lines of
    the output above them (rules and the program's own complaints aside)."""
    s = section(name)
    program = s.argv[0].rsplit("/", 1)[-1] if s.argv else ""
    eligible, above = [], 0
    for j, line in enumerate(s.lines):
        if above >= ROWS_ABOVE and len(line.split()) >= 2:
            eligible.append(j)
        if line.strip() and not _rule(line) and not line.startswith(f"{program}: "):
            above += 1
    return eligible


def cut_failure(name: str, j: int) -> str | None:
    """Row `j` cut at a column of its own between its first character and the start of its
    last field, the rest of the output dropped, pasted with no prompt after it."""
    header, lines = header_and_output(name)
    row = lines[j]
    start, last = len(row) - len(row.lstrip()) + 1, len(row.rstrip()) - len(row.split()[-1])
    half = row[: random.Random(f"{name}:{j}").randrange(start, last)]
    command = header["command"]
    if any(CUT_NOTE in n for n in notes_of(command, [*lines[:j], half], closed=False)):
        return None
    read = facts(command, [*lines[:j], half], closed=False)
    if read in (
        facts(command, lines[:j], closed=False),
        facts(command, lines[: j + 1], closed=False),
    ):
        return None
    return f"{name} line {j + 1} cut to {half!r}: no note, and the half row was misread"


@pytest.mark.parametrize("name", corpus_names())
def test_a_row_cut_in_the_middle_is_noted_or_not_misread(name: str) -> None:
    rows = cut_lines(name)
    sample = random.Random(name).sample(rows, min(CUTS_PER_CAPTURE, len(rows)))
    failures = [cut_failure(name, j) for j in sample if (name, j) not in UNSEEN_CUTS]
    assert not [f for f in failures if f], failures


@pytest.mark.slow
def test_every_row_of_the_corpus_cut_in_the_middle_is_noted_or_not_misread() -> None:
    failures = {(name, j): cut_failure(name, j) for name in corpus_names() for j in cut_lines(name)}
    unseen = {case for case, failure in failures.items() if failure}
    assert unseen == set(UNSEEN_CUTS), [failures[c] for c in unseen - set(UNSEEN_CUTS)]
