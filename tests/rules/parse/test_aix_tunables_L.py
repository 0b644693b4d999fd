"""ioo/vmo -L as nmon recordings keep it: wrapped names with indented numbers, static
tunables with CUR and BOOT only, the legend of one-letter keys after the table."""

from __future__ import annotations

from rules.parse.aix_tunables import ioo, vmo
from rules.parse.registry import Section
from tests.rules.parse.fixtures import section

LEGEND = (
    "Parameter types:",
    "    S = Static: cannot be changed",
    "    D = Dynamic: can be freely changed",
    "Value conventions:",
    "    K = Kilo: 2^10       G = Giga: 2^30       P = Peta: 2^50      ",
)


def test_the_legend_after_the_table_is_no_tunable() -> None:
    row = "maxpgahead                8      8      8      0      4K     4KB pages         D"
    lines = (row, *LEGEND)
    assert ioo(Section("ioo -L", ("ioo", "-L"), lines, 1)).values == {"maxpgahead": "8"}


def test_a_wrapped_name_with_its_numbers_indented_below() -> None:
    t = ioo(section("aix/ioo_L_aix61_sampleC_nmonchart.txt"))
    wrapped = ("j2_dynamicBufferPreallocation", "j2_nPagesPerWriteBehindCluster")
    assert [t.values[n] for n in wrapped] == ["16", "32"]
    assert t.defaults["posix_aio_server_inactivity"] == "300"


def test_a_static_tunable_prints_cur_and_boot_only() -> None:
    t = vmo(section("aix/vmo_L_aix61_sampleC_nmonchart.txt"))
    assert (t.values["memory_frames"], t.values["maxperm"]) == ("15872K", "13842K")
    assert "memory_frames" not in t.defaults
    assert ioo(section("aix/ioo_L_aix61_sampleC_nmonchart.txt")).values["aio_active"] == "1"


def test_every_row_of_a_recorded_vmo_F_L_is_read() -> None:
    """102 rows: 94 values and 8 n/a, 55 of them after the restricted marker, no legend key."""
    t = vmo(section("aix/vmo_F_L_aix71_nmon2influxdb.txt"))
    assert (len(t.values), len(t.not_applicable), len(t.restricted)) == (94, 8, 55)
    assert not [name for name in t.values if len(name) < 2]
    assert t.values["minperm%"] == "3" and "maxclient%" in t.restricted
