"""ioo/vmo and vmstat -v on real captures (tests/fixtures/parse/aix/)."""

from __future__ import annotations

import pytest

from rules.parse.aix_tunables import ioo, vmo, vmstat_v
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section


@pytest.mark.parametrize(
    ("argv", "parser"),
    [
        (("ioo", "-a"), "ioo"),
        (("ioo", "-F", "-a"), "ioo"),
        (("ioo", "-L"), "ioo"),
        (("vmo", "-a"), "vmo"),
        (("vmo", "-o", "maxperm%"), "vmo"),
        (("vmstat", "-v"), "aix_vmstat_v"),
        (("vmstat", "-vs"), "aix_vmstat_v"),
    ],
)
def test_routing(argv: tuple[str, ...], parser: str) -> None:
    found = find(argv)
    assert found is not None and found.name == parser


def test_commands_that_change_values_are_not_read() -> None:
    assert find(("ioo", "-p", "-o", "j2_maxPageReadAhead=128")) is None
    assert find(("vmo", "-d", "maxperm%")) is None


def test_ioo_a_aix61() -> None:
    t = ioo(section("aix/ioo_a_aix61_ahix.txt"))
    assert t.program == "ioo" and len(t.values) == 30
    assert t.values["j2_maxPageReadAhead"] == "128"
    assert t.values["j2_dynamicBufferPreallocation"] == "16"
    assert (t.values["numfsbufs"], t.values["pv_min_pbuf"]) == ("196", "512")
    assert t.restricted == frozenset() and t.defaults == {}


def test_ioo_L_with_a_wrapped_name() -> None:
    t = ioo(section("aix/ioo_L_wrapped_name_ahix.txt"))
    assert t.values == {
        "j2_atimeUpdateSymlink": "0",
        "j2_dynamicBufferPreallocation": "16",
        "j2_inodeCacheSize": "400",
        "j2_maxPageReadAhead": "128",
    }
    assert t.defaults["j2_maxPageReadAhead"] == "128"
    assert t.boot["j2_dynamicBufferPreallocation"] == "16"


def test_restricted_tunables_after_the_marker() -> None:
    # The -F shape: the listing goes on past IBM's marker line (ioo and vmo print both parts).
    lines = ("j2_maxPageReadAhead = 128", "##Restricted tunables", "aio_fastpath = 1")
    t = ioo(Section("ioo -F -a", ("ioo", "-F", "-a"), lines, 1))
    assert t.values == {"j2_maxPageReadAhead": "128", "aio_fastpath": "1"}
    assert t.restricted == frozenset({"aio_fastpath"})


def test_vmo_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled) as err:
        vmo(Section("vmo -a", ("vmo", "-a"), ("", "vmo: Permission denied"), 1))
    assert err.value.offset == 1


def test_vmstat_v_aix72_doc() -> None:
    v = vmstat_v(section("aix/vmstat_v_ibm_aix72_doc.txt"))
    assert v.memory_pages == 1048576
    assert (v.minperm_pct, v.maxperm_pct, v.numperm_pct) == (3.0, 90.0, 5.6)
    assert (v.maxclient_pct, v.numclient_pct) == (90.0, 5.6)
    assert (v.pbuf_blocked, v.psbuf_blocked) == (0, 0)
    assert (v.fsbuf_blocked, v.client_fsbuf_blocked) == (2228, 31)
    assert v.external_fsbuf_blocked is None  # trimmed before that line
    assert v.counters["lruable pages"] == 936784


def test_vmstat_v_shared_lpar_trimmed() -> None:
    v = vmstat_v(section("aix/vmstat_v_shared_lpar_neofetch.txt"))
    assert (v.memory_pages, v.minperm_pct, v.maxperm_pct) == (1048576, 3.0, 90.0)
    assert v.counters["maxpin percentage"] == 80.0
    assert (v.numperm_pct, v.pbuf_blocked) == (None, None)


def test_vmstat_v_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        vmstat_v(Section("vmstat -v", ("vmstat", "-v"), ("usage: vmstat",), 1))


def test_vmo_a_with_right_aligned_names_and_n_a_values() -> None:
    """IBM's sample vmo -a: every name is indented to line up the '=' signs (the first after
    a tab), and the tunables of features the LPAR does not use print n/a."""
    t = vmo(section("aix/vmo_a_na_ibm_doc.txt"))
    assert t.not_applicable == (
        "ame_cpus_per_pool", "ame_maxfree_mem", "ame_min_ucpool_size", "ame_minfree_mem",
        "ams_loan_policy",
    )  # fmt: skip
    assert len(t.values) == 14
    assert (t.values["maxfree"], t.values["maxpin%"], t.values["memory_frames"]) == (
        "1088", "90", "1048576",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("name", "tunable", "value"),
    [
        ("aix/vmo_a_grep_minperm_csdn.txt", "minperm%", "20"),
        ("aix/vmo_a_grep_maxperm_csdn.txt", "maxperm%", "80"),
    ],
)
def test_vmo_a_filtered_to_one_line(name: str, tunable: str, value: str) -> None:
    assert vmo(section(name)).values == {tunable: value}


def test_vmstat_v_part_with_the_pages_own_ellipses() -> None:
    v = vmstat_v(section("aix/vmstat_v_io_blocked_ibm_doc.txt"))
    assert (v.psbuf_blocked, v.fsbuf_blocked, v.external_fsbuf_blocked) == (0, 2740, 0)
    assert v.memory_pages is None
