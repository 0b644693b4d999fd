"""lsattr -El, lsdev -C and lspath on real captures (tests/fixtures/parse/aix/)."""

from __future__ import annotations

import pytest

from rules.parse.aix import lspath
from rules.parse.aix_devices import bytes_to_kb, lsattr_device, lsattr_disk, lsattr_sys0
from rules.parse.aix_lsdev import (
    lsdev_adapter,
    lsdev_any,
    lsdev_disk,
    lsdev_format,
    lsdev_processor,
)
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section


@pytest.mark.parametrize(
    ("name", "parser"),
    [
        ("aix/lsattr_hdisk4_sddpcm_bondhuang.txt", "aix_lsattr_disk"),
        ("aix/lsattr_hdisk0_size_only_glpi.txt", "aix_lsattr_disk"),
        ("aix/lsattr_sys0_realmem_ralph.txt", "aix_lsattr_sys0"),
        ("aix/lsdev_processor_younsl.txt", "aix_lsdev_processor"),
        ("aix/lsdev_disk_sas_3par_ralph.txt", "aix_lsdev_disk"),
        ("aix/lspath_format_bondhuang.txt", "aix_lspath"),
    ],
)
def test_routing(name: str, parser: str) -> None:
    found = find(section(name).argv)
    assert found is not None and found.name == parser


def test_routing_of_other_devices_and_linux_lsattr() -> None:
    assert find(("lsattr", "-El", "fcs0")).name == "aix_lsattr_fcs"  # type: ignore[union-attr]
    assert find(("lsattr", "-El", "en0")).name == "aix_lsattr"  # type: ignore[union-attr]
    assert find(("lsattr", "-Elmem0")).name == "aix_lsattr"  # type: ignore[union-attr]
    assert find(("lsattr", "-d", "/etc")) is None  # e2fsprogs' lsattr on Linux


def test_device_from_the_command_line() -> None:
    assert lsattr_device(("lsattr", "-El", "hdisk4", "-a", "max_transfer")) == "hdisk4"
    assert lsattr_device(("lsattr", "-E", "-l", "fcs1")) == "fcs1"
    assert lsattr_device(("lsattr", "-Elmem0")) == "mem0"


def test_max_transfer_hex_bytes_to_kb() -> None:
    assert (bytes_to_kb("0x40000"), bytes_to_kb("0x100000"), bytes_to_kb("262144")) == (
        256,
        1024,
        256,
    )
    assert bytes_to_kb("n/a") is None


def test_svc_lun_under_sddpcm() -> None:
    disk = lsattr_disk(section("aix/lsattr_hdisk4_sddpcm_bondhuang.txt"))
    assert disk.device == "hdisk4"
    assert (disk.max_transfer, disk.max_transfer_kb) == ("0x40000", 256)
    assert (disk.queue_depth_raw, disk.queue_depth) == ("20", 20)
    assert disk.attrs["algorithm"] == "load_balance"
    assert disk.attrs["reserve_policy"] == "no_reserve"
    assert disk.attrs["location"] == ""  # an empty value, not the description's first word
    assert disk.attrs["unique_id"] == "33213600507110180813E50000000000003F304214503IBMfcp"
    assert len(disk.attrs) == 31


def test_same_lun_under_aixpcm_with_true_plus() -> None:
    disk = lsattr_disk(section("aix/lsattr_hdisk4_aixpcm_bondhuang.txt"))
    assert (disk.max_transfer_kb, disk.queue_depth) == (512, 20)
    assert (disk.attrs["PCM"], disk.attrs["algorithm"]) == ("PCM/friend/fcpother", "shortest_queue")


def test_emc_invista_lun() -> None:
    disk = lsattr_disk(section("aix/lsattr_hdisk2_emc_invista_andy.txt"))
    assert (disk.device, disk.max_transfer_kb, disk.queue_depth) == ("hdisk2", 512, 32)
    assert disk.attrs["hcheck_cmd"] == "test_unit_rdy"
    assert disk.attrs["unique_id"] == "362136000144000000010301F14BAD89B486607Invista03EMCfcp"


def test_disk_without_max_transfer() -> None:
    disk = lsattr_disk(section("aix/lsattr_hdisk0_size_only_glpi.txt"))
    assert disk.attrs == {"size_in_mb": "69797"}
    assert (disk.max_transfer, disk.max_transfer_kb, disk.queue_depth) == (None, None, None)


def test_sys0_realmem_in_kb() -> None:
    sys0 = lsattr_sys0(section("aix/lsattr_sys0_realmem_ralph.txt"))
    assert (sys0.device, sys0.realmem_kb) == ("sys0", 4194304)


def test_full_sys0_listing_trimmed_before_realmem() -> None:
    sys0 = lsattr_sys0(section("aix/lsattr_sys0_aix72_nodejs.txt"))
    assert sys0.realmem_kb is None
    assert (sys0.attrs["capacity_inc"], sys0.attrs["capped"]) == ("0.01", "false")
    assert sys0.attrs["boottype"] == "disk"  # its description is 'N/A'
    assert len(sys0.attrs) == 8


def test_sys0_without_realmem() -> None:
    sys0 = lsattr_sys0(section("aix/lsattr_sys0_modelname_ralph.txt"))
    assert (sys0.realmem_kb, sys0.attrs) == (None, {"modelname": "IBM,8233-E8B"})


def test_lsattr_error_is_garbled() -> None:
    lines = ("lsattr: 0514-519 The following device was not found in the customized",)
    with pytest.raises(Garbled):
        lsattr_disk(Section("lsattr -El hdisk9", ("lsattr", "-El", "hdisk9"), lines, 1))


def test_processors_with_one_defined() -> None:
    procs = lsdev_processor(section("aix/lsdev_processor_defined_ohai.txt"))
    assert [(r.name, r.state, r.location) for r in procs.rows] == [
        ("proc0", "Available", "00-00"),
        ("proc4", "Defined", "00-04"),
    ]
    assert [r.name for r in procs.available] == ["proc0"]


def test_processors_of_gcc119_and_a_power8_lpar() -> None:
    assert len(lsdev_processor(section("aix/lsdev_processor_gcc119_ansible.txt")).rows) == 10
    procs = lsdev_processor(section("aix/lsdev_processor_younsl.txt"))
    assert [r.name for r in procs.available] == ["proc0", "proc8"]


def test_vscsi_disk_is_not_fc_and_has_no_location() -> None:
    disks = lsdev_disk(section("aix/lsdev_disk_vscsi_svc_bondhuang.txt")).rows
    assert (disks[0].name, disks[0].location, disks[0].fibre_channel) == ("hdisk0", None, False)
    assert disks[0].description == "Virtual SCSI Disk Drive"
    assert (disks[1].location, disks[1].description, disks[1].fibre_channel) == (
        "24-T1-01",
        "MPIO FC 2145",
        True,
    )


def test_scsi_disks_and_xiv_luns() -> None:
    disks = lsdev_disk(section("aix/lsdev_disk_scsi_xiv_bondhuang.txt")).rows
    assert [(d.location, d.fibre_channel) for d in disks] == [
        ("05-08-00-3,0", False),
        ("05-08-00-4,0", False),
        ("05-08-00-5,0", False),
        ("06-08-02", True),
        ("06-08-02", True),
    ]
    assert disks[0].description == "16 Bit LVD SCSI Disk Drive"


def test_defined_fc_luns() -> None:
    disks = lsdev_disk(section("aix/lsdev_disk_defined_andy.txt"))
    assert len(disks.rows) == 17 and all(d.fibre_channel for d in disks.rows)
    assert [d.name for d in disks.rows if d.state == "Defined"][:2] == ["hdisk4", "hdisk5"]
    assert len(disks.available) == 9


def test_sas_disks_and_3par_volumes_run_without_c() -> None:
    disks = lsdev_disk(section("aix/lsdev_disk_sas_3par_ralph.txt")).rows
    assert [d.description for d in disks[3:5]] == ["SAS Disk Drive", "3PAR InServ Virtual Volume"]
    # The description names neither FC nor an FC machine type: the hint stays off.
    assert not any(d.fibre_channel for d in disks)


def test_every_device_filtered_to_fc() -> None:
    found = find(section("aix/lsdev_C_grep_fc_andy.txt").argv)
    assert found is not None and found.name == "aix_lsdev"
    rows = lsdev_any(section("aix/lsdev_C_grep_fc_andy.txt")).rows
    assert [(r.name, r.location, r.fibre_channel) for r in rows] == [
        ("fscsi0", "C2-T1-01", True),
        ("fscsi1", "C3-T1-01", True),
    ]


def test_lsdev_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        lsdev_disk(Section("lsdev -Cc disk", ("lsdev", "-Cc", "disk"), ("Device: foo",), 1))


def test_paths_of_one_disk() -> None:
    paths = lspath(section("aix/lspath_l_hdisk3_bondhuang.txt"))
    assert [(p.status, p.device, p.parent) for p in paths.paths] == [
        ("Enabled", "hdisk3", "fscsi0"),
        ("Enabled", "hdisk3", "fscsi1"),
    ]
    assert paths.parents("hdisk3") == ("fscsi0", "fscsi1")


def test_eight_paths_over_two_adapters() -> None:
    paths = lspath(section("aix/lspath_l_hdisk2_andy.txt"))
    assert len(paths.paths) == 8
    assert paths.parents("hdisk2") == ("fscsi1", "fscsi0")


def test_paths_with_custom_columns() -> None:
    paths = lspath(section("aix/lspath_format_bondhuang.txt"))
    assert [(p.parent, p.connection) for p in paths.paths] == [
        ("fscsi0", "500173800ccd0150,1000000000000"),
        ("fscsi1", "500173800ccd0140,1000000000000"),
    ]


@pytest.mark.parametrize(
    ("name", "count", "first"),
    [
        ("aix/lsdev_disk_fcp_names_glpi.txt", 16, ("hdisk2", "Other FC SCSI Disk Drive", True)),
        ("aix/lsdev_disk_sas_mpio_glpi.txt", 7, ("hdisk0", "SAS RAID 10 Disk Array", False)),
        ("aix/lsdev_disk_vscsi_names_glpi.txt", 2, ("hdisk0", "Virtual SCSI Disk Drive", False)),
    ],
)
def test_lsdev_name_description_format(name: str, count: int, first: tuple) -> None:
    devices = lsdev_disk(section(name))
    assert len(devices.rows) == count
    row = devices.rows[0]
    assert (row.name, row.description, row.fibre_channel) == first
    assert (row.state, row.location) == (None, None)


def test_lsdev_three_field_format_keeps_a_comma_in_the_type() -> None:
    devices = lsdev_adapter(section("aix/lsdev_adapter_type_glpi.txt"))
    assert len(devices.rows) == 12
    rows = {r.name: r for r in devices.rows}
    assert rows["ent0"].description == "Virtual I/O Ethernet Adapter (l-lan)"
    assert rows["fcs0"].fibre_channel and rows["fcs4"].fibre_channel
    assert not rows["vscsi0"].fibre_channel


def test_lsdev_format_is_read_from_the_command_line() -> None:
    assert lsdev_format(("lsdev", "-Cc", "disk", "-F", "name:description")) == (
        ["name", "description"], ":",
    )  # fmt: skip
    assert lsdev_format(("lsdev", "-Cc", "processor", "-F", "name")) == (["name"], " ")
    assert lsdev_format(("lsdev", "-Cc", "disk")) is None


def test_lsattr_squeezed_to_single_spaces() -> None:
    """A page's text keeps one space between columns: each value is the word after the
    name, so max_transfer and queue_depth are read; an empty value is not visible."""
    disk = lsattr_disk(section("aix/lsattr_hdisk10_hitachi_squeezed_csdn.txt"))
    assert (disk.max_transfer, disk.max_transfer_kb) == ("0x40000", 256)
    assert (disk.queue_depth, disk.attrs["reserve_policy"], disk.attrs["PCM"]) == (
        2, "no_reserve", "PCM/friend/hitachifcp",
    )  # fmt: skip
    assert len(disk.attrs) == 19


def test_one_lsattr_row_reads_the_same_either_way() -> None:
    rows = ("max_transfer 0x40000 Maximum TRANSFER Size True",)
    disk = lsattr_disk(
        Section("lsattr -El hdisk1 -a max_transfer", ("lsattr", "-El", "hdisk1"), rows, 1)
    )
    assert disk.max_transfer_kb == 256


def test_lsdev_in_a_french_locale_reads_its_rows() -> None:
    from rules.parse.aix_lsdev import device_row

    row = device_row("sisscsia0 Disponible 1S-08    PCI-X Dual Channel Ultra320 SCSI Adapter")
    assert row is not None and (row.state, row.location) == ("Available", "1S-08")
    other = device_row("fcs0      Verfügbar 05-08    FC Adapter")
    assert other is not None and other.state is None and other.fibre_channel
    assert device_row("Name Status Location Description") is None
