"""Prompts as real pastes have them: `#cmd` with no blank, `/# ` (a PS1 of $PWD# ), bare
`# ` before commands no parser knows, an arrow key's `^[[A` or a stray word before the
prompt, a one-line output followed by an unprompted command, a second `lsattr` listing
pasted into the first. The pieces are real sessions (tests/fixtures/pastes/, each naming
its source): an AIX admin's blog post, ahix.fr's ioo page and a csdn admin's vmo notes,
a Korean Slurm session log, an nvme-cli issue, Chinese RHEL 8 notes, Linux-PAM's
limits.conf.
"""

from __future__ import annotations

import pytest

from rules.parse import draft, parse_text
from rules.parse.sections import split
from tests.rules.parse.fixtures import transcript
from tests.rules.parse.pastes import line_of, paste

LSATTR = "aix_blog_lsattr_hash_no_blank.txt"
HDISK0 = {  # the blog's `lsattr -El hdisk0` (its lines 151-164)
    "PCM": "PCM/friend/scsiscsd", "algorithm": "fail_over", "queue_depth": "16",
    "reserve_policy": "no_reserve", "size_in_mb": "146800", "max_transfer": "0x100000",
    "pvid": "00f8c13b65847a820000000000000000",
}  # fmt: skip


def commands(text: str) -> list[str]:
    return [s.command for s in split(text).sections]


def test_a_hash_with_no_blank_starts_the_next_command() -> None:
    text = paste(LSATTR)
    assert commands(text) == [
        "lsattr -El hdisk0", "lsattr -El hdiskpower3", "lsvg -o", "lspv hdiskpower1",
    ]  # fmt: skip
    devices = draft(text).document["current"]["devices"]
    assert HDISK0.items() <= devices["hdisk0"].items()
    assert not {"PR_key_value", "lun_id", "q_err", "ww_name"} & set(devices["hdisk0"])
    power3 = devices["hdiskpower3"]
    assert (power3["queue_depth"], power3["reserve_policy"]) == ("32", "single_path")
    assert power3["pvid"] == "00f8c13b3303bc100000000000000000"


def test_a_hash_with_no_blank_before_a_command_no_parser_knows_is_listed() -> None:
    # The blog's mkvg … crfs lines typed as it typed #lsvg -o, after its `# lsps -a`
    # (the post's lines 46-69, then 96-149): "# " is the paste's prompt by then
    text = paste("aix_blog_lsps_chps.txt") + paste("aix_blog_mklv_crfs_chfs_df.txt")
    tight = "\n".join(
        "#" + line[2:] if line.startswith(("# mk", "# crfs")) else line for line in text.split("\n")
    )
    assert [u["command"] for u in draft(tight).unknown] == [
        u["command"] for u in draft(text).unknown
    ]


def test_a_heading_of_hash_and_a_name_stays_output() -> None:
    # lsattr -EO prints '#size_in_mb' over its values (GLPI's AIX 5.3 capture)
    text = transcript("aix/lsattr_hdisk0_size_aix53_glpi.txt", prompt="# ")
    (section,) = split(text).sections
    assert section.lines[0] == "#size_in_mb"


def test_a_second_lsattr_listing_without_its_command_is_cut_off_with_a_note() -> None:
    # The same paste with the `#lsattr -El hdiskpower3` line lost: hdiskpower3's
    # attributes follow hdisk0's in one section, and pvid, max_transfer … come twice.
    lines = paste(LSATTR).split("\n")
    lost = line_of(paste(LSATTR), "#lsattr -El hdiskpower3")
    text = "\n".join(lines[: lost - 1] + lines[lost:])
    found = draft(text)
    hdisk0 = found.document["current"]["devices"]["hdisk0"]
    assert HDISK0.items() <= hdisk0.items() and "PR_key_value" not in hdisk0
    note = next(n for n in found.notes if "twice" in n)
    # hdisk0's names run PCM … ww_id in order; PR_key_value (line 16) starts over
    assert note.startswith(f"line {lost}: `lsattr -El hdisk0` prints `max_coalesce` twice")
    assert f"from line {lost} on it is another listing" in note and "left out" in note


def test_an_unprompted_lsattr_command_inside_a_listing_starts_its_own_section() -> None:
    text = paste(LSATTR).replace("#lsattr -El hdiskpower3", "lsattr -El hdiskpower3")
    assert commands(text)[:2] == ["lsattr -El hdisk0", "lsattr -El hdiskpower3"]


def test_the_aix_root_prompt_of_pwd_starts_a_command() -> None:
    text = paste("aix_ahix_su_pwd_prompt_ioo.txt")
    found = draft(text)
    ioo = found.document["current"]["aix_ioo"]
    assert len(ioo) == 30
    assert (ioo["j2_minPageReadAhead"], ioo["j2_nPagesPerWriteBehindCluster"]) == ("2", "32")
    assert found.provenance["current.aix_ioo.numfsbufs"].line == line_of(text, "/# ioo -a")


@pytest.mark.parametrize("prompt", ["/# ", "/tmp# ", "/home/sasdemo$ ", "~# "])
def test_a_path_prompt_starts_a_command(prompt: str) -> None:
    text = transcript("aix/ioo_a_aix61_ahix.txt", "aix/vmo_a_grep_maxperm_csdn.txt", prompt=prompt)
    assert [s.argv[0] for s in split(text).sections] == ["ioo", "vmo"]


def test_su_at_a_bare_prompt_is_listed_not_swallowed() -> None:
    # The younsl LPAR's `$ lparstat -i` (tests/fixtures/transcripts/aix_dedicated_younsl.txt)
    # then the ahix piece's `$ su -`: lparstat's section ends before it.
    text = transcript("aix/lparstat_dedicated_smt4_younsl.txt", prompt="$ ") + paste(
        "aix_ahix_su_pwd_prompt_ioo.txt"
    )
    found = draft(text)
    assert {"line": line_of(text, "$ su -"), "command": "su -"} in found.unknown
    lparstat = split(text).sections[0]
    assert lparstat.argv[0] == "lparstat" and "su -" not in " ".join(lparstat.lines)


def test_commands_no_parser_knows_at_a_bare_prompt_are_listed() -> None:
    text = paste("aix_blog_mklv_crfs_chfs_df.txt")
    found = draft(text)
    unknown = [u["command"] for u in found.unknown]
    assert unknown == [
        "mkvg -y oravg -s 128M hdisk1", "mklv -t jfs2 -y oralv rootvg 24 hdisk0",
        "mkdir /oracle", "crfs -v jfs2 -d oralv -A yes -m /oracle", "mount /oracle",
        "extendlv oralv 240", "chfs -a size=+30G /oracle",
    ]  # fmt: skip
    sections = {s.line: s for s in split(text).sections}
    first_df = sections[line_of(text, "# df -g")]
    assert len(first_df.lines) == 11  # extendlv's warning is no df row
    assert not found.problems  # `mount /oracle` mounts, it prints no table


def test_a_lquerypv_warning_stays_with_chps() -> None:
    text = paste("aix_blog_lsps_chps.txt")
    chps = next(s for s in split(text).sections if s.argv[0] == "chps")
    assert chps.lines[0].startswith("lquerypv: Warning")
    assert {"line": chps.line, "command": "chps -s 64 hd6"} in draft(text).unknown


def test_comments_of_a_printed_file_stay_its_output() -> None:
    # `# nproc` makes "# " the paste's prompt; limits.conf's "#ftp …" and "# End of file"
    # are the file's lines, not commands.
    text = transcript("linux/nproc_3_lxd_limits_cpu_fluffi176.txt") + paste(
        "limits_conf_linux_pam.txt"
    )
    cut = split(text)
    assert [s.command for s in cut.sections] == ["nproc", "cat /etc/security/limits.conf"]
    assert cut.sections[1].lines[-1] == "# End of file"
    assert [u["command"] for u in draft(text).unknown] == ["cat /etc/security/limits.conf"]


def test_an_arrow_key_or_a_word_before_the_prompt_hides_no_command() -> None:
    text = paste("rhel9_slurm_session_korean.txt")
    unknown = {u["line"]: u["command"] for u in draft(text).unknown}
    assert unknown[line_of(text, "sudo [root@localhost ~]# su")] == "su"
    status = "^[[A[root@localhost ~]# systemctl status slurmctld"
    assert unknown[line_of(text, status)] == "systemctl status slurmctld"
    sbatch = line_of(text, "[root@localhost ~]# sbatch test_job.sh")
    assert unknown[sbatch] == "sbatch test_job.sh"  # the status output ends before it


def test_a_stray_letter_typed_before_a_prompt_hides_no_command() -> None:
    text = paste("rhel9_slurm_session_korean.txt").replace(
        "[root@localhost ~]# sinfo", "s[root@localhost ~]# sinfo"
    )
    assert "sinfo" in [u["command"] for u in draft(text).unknown]


def test_a_one_line_output_ends_before_an_unprompted_command() -> None:
    text = paste("rocky95_uname_kernel_nvme_list_no_prompt.txt")
    assert commands(text) == ["cat /etc/rocky-release", "uname -a", "nvme list"]
    found = draft(text)
    server = found.document["server"]
    assert server["hostname"] != "Generic"  # nvme list's heading
    assert "server.hostname" in {m.path for m in found.missing}
    assert (server["os"], server["os_version"]) == ("linux", "9.5")
    nvme = parse_text(text).all("nvme_list")
    assert len(nvme) == 1 and nvme[0].section.line == line_of(text, "nvme list")


def test_a_kernel_release_alone_is_read_as_linux_s_uname() -> None:
    uname = parse_text(paste("rocky95_uname_kernel_nvme_list_no_prompt.txt")).first("uname")
    assert uname is not None
    assert (uname.value.system, uname.value.hostname) == ("Linux", "")
    assert (uname.value.release, uname.value.machine) == ("5.14.0-503.14.1.el9_5.x86_64", "x86_64")


def test_a_mount_with_operands_is_an_action_not_an_unreadable_table() -> None:
    text = paste("rhel8_mount_then_df_zh.txt")
    found = draft(text)
    assert found.problems == []
    assert found.unknown == [{"line": 1, "command": "mount /dev/nvme0n2p1 /test"}]
    test = next(s for s in found.document["storage"] if s["mount"] == "/test")
    assert test["size_gb"] == 10.0


@pytest.mark.parametrize("chopped", ["]# ", "~]# ", "vs ~]# "])
def test_a_first_prompt_chopped_by_the_selection_still_starts_its_command(chopped: str) -> None:
    """The RHEL 8 notes selected from inside their first prompt, `[root@Canv` left out."""
    text = paste("rhel8_lsblk_f_installer_label_zh.txt")
    cut = text.replace("[root@Canvs ~]# ", chopped, 1)
    assert cut.startswith(chopped + "lsblk -f")
    assert commands(cut) == ["lsblk -f", "df -Th"]
    assert draft(cut).document["storage"] == draft(text).document["storage"]


def test_a_word_and_a_bracket_in_output_start_nothing() -> None:
    """A chopped prompt's tail is one or two words and a `]` right before the sign: an
    output line with more words before a `]# ` stays output."""
    assert commands("[root@h ~]# cat notes\nsee [1] and a b]# c\n") == ["cat notes"]
