"""A pasted AIX session reaches the AIX parsers through parse_text."""

from __future__ import annotations

from typing import Any

from rules.parse import Parsed, parse_text
from tests.rules.parse.fixtures import transcript

SESSION = (
    "aix/oslevel_s_aix61_wazuh.txt",
    "aix/prtconf_power7_header_wazuh.txt",
    "aix/lparstat_shared_smt4_glpi.txt",
    "aix/smtctl_power8_smt4_younsl.txt",
    "aix/lsattr_sys0_realmem_ralph.txt",
    "aix/lsdev_processor_younsl.txt",
    "aix/lsvg_applivg_wikidoc.txt",
    "aix/lsvg_l_applivg_wikidoc.txt",
    "aix/lsvg_p_testvg_ansible.txt",
    "aix/lslv_hd2_glpi.txt",
    "aix/lspv_qemu_bondhuang.txt",
    "aix/lsdev_disk_vscsi_svc_bondhuang.txt",
    "aix/lsattr_hdisk4_sddpcm_bondhuang.txt",
    "aix/lspath_l_hdisk3_bondhuang.txt",
    "aix/ioo_a_aix61_ahix.txt",
    "aix/vmstat_v_ibm_aix72_doc.txt",
)


def value(parsed: Parsed, name: str) -> Any:
    found = parsed.first(name)
    assert found is not None, name
    return found.value


def test_every_section_is_read_by_its_parser() -> None:
    parsed = parse_text(transcript(*SESSION, prompt="aix01:/> "))
    assert parsed.problems == []
    assert parsed.unknown == []
    assert value(parsed, "aix_oslevel").release == "6.1"
    assert value(parsed, "prtconf").os == "aix"
    assert value(parsed, "aix_lparstat").smt_threads == 4
    assert value(parsed, "aix_smtctl").threads == 4
    assert value(parsed, "aix_lsattr_sys0").realmem_kb == 4194304
    assert len(value(parsed, "aix_lsdev_processor").rows) == 2
    assert value(parsed, "aix_lsvg").pp_size_mb == 128
    assert len(value(parsed, "aix_lsvg_lvs").lvs) == 4
    assert len(value(parsed, "aix_lsvg_pvs").pvs) == 3
    assert value(parsed, "aix_lslv").mount_point == "/usr"
    assert value(parsed, "aix_lspv").pvs[0].vg == "rootvg"
    assert value(parsed, "aix_lsdev_disk").rows[1].fibre_channel is True
    assert value(parsed, "aix_lsattr_disk").max_transfer_kb == 256
    assert value(parsed, "aix_lspath").parents("hdisk3") == ("fscsi0", "fscsi1")
    assert value(parsed, "ioo").values["j2_maxPageReadAhead"] == "128"
    assert value(parsed, "aix_vmstat_v").fsbuf_blocked == 2228


def test_a_bare_hash_prompt_also_splits_an_aix_session() -> None:
    parsed = parse_text(transcript(*SESSION, prompt="# "))
    assert parsed.problems == [] and parsed.unknown == []
    assert value(parsed, "aix_smtctl").processors == ("proc0", "proc8")


def test_a_solaris_session() -> None:
    names = ("solaris/psrinfo_t1_cores_glpi.txt", "solaris/prtconf_openindiana_glpi_issue.txt")
    parsed = parse_text(transcript(*names, prompt="bash-5.1$ "))
    assert parsed.problems == []
    assert value(parsed, "psrinfo").cores == 8
    assert (value(parsed, "prtconf").os, value(parsed, "prtconf").memory_mb) == ("solaris", 32756)
