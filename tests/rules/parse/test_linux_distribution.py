"""The OS and the Linux distribution from what a paste still shows without a release
file: a kernel build's mark, an .el kernel's installer-named volume group, a `uname -r`,
the devices df and mount name (real captures of tests/fixtures/parse/)."""

from __future__ import annotations

from rules.parse import draft
from tests.rules.parse.fixtures import transcript, transcript_file


def _server(text: str) -> tuple[dict[str, object], dict[str, object]]:
    found = draft(text)
    return found.document["server"], found.provenance


def test_an_ubuntu_kernel_build_names_ubuntu() -> None:
    server, provenance = _server(transcript_file("ubuntu_jc.txt")[2])
    assert server["distribution"] == "ubuntu"
    assert provenance["server.distribution"].note == "an Ubuntu kernel build"  # type: ignore[attr-defined]


def test_an_el_kernel_and_the_installers_volume_group_name_centos() -> None:
    server, provenance = _server(transcript_file("rhel7_jc.txt")[2])
    assert server["distribution"] == "centos"
    assert provenance["server.distribution"].raw == "/dev/mapper/centos-root"  # type: ignore[attr-defined]


def test_a_volume_group_name_alone_is_only_a_guess_naming_its_line() -> None:
    # df -h of the same CentOS VM names centos-root, but without an .el kernel it is a name:
    # never read as the distribution, only guessed for the admin to confirm, with its line
    found = draft(transcript("unix/df_h_centos77_jc.txt"))
    assert "server.distribution" not in found.provenance
    guess = next(m for m in found.missing if m.path == "server.distribution")
    assert guess.guess == "centos"
    assert "/dev/mapper/centos-root in `df -h` (line 1)" in guess.reason


def test_a_release_file_outranks_the_kernel() -> None:
    text = transcript("unix/uname_a_ubuntu1804_jc.txt", "linux/os_release_debian12.txt")
    server, provenance = _server(text)
    assert server["distribution"] == "debian"
    assert provenance["server.distribution"].command == "cat /etc/os-release"  # type: ignore[attr-defined]


def test_uname_r_of_any_linux_kernel_tells_linux() -> None:
    server, provenance = _server(transcript("unix/uname_r_custom_build_lore.txt"))
    assert server["os"] == "linux" and "server.os" in provenance
    elrepo, _ = _server(transcript("unix/uname_r_elrepo_mainline_el8_otus.txt"))
    assert (elrepo["os"], elrepo["os_version"]) == ("linux", "8")


def test_linux_devices_in_df_tell_linux_and_others_do_not() -> None:
    server, provenance = _server(transcript("unix/df_h_centos77_jc.txt"))
    assert server["os"] == "linux" and "server.os" in provenance
    for name in ("unix/df_pk_aix_lpar.txt", "unix/df_pka_solaris11.txt"):  # /dev/hd4, rpool
        found = draft(transcript(name))
        assert "server.os" not in found.provenance or found.document["server"]["os"] != "linux"


def test_since_rhel_8_the_volume_group_carries_the_host_name() -> None:
    # constructed, not a capture: anaconda's vg_HOST-root as device-mapper names it
    for device, name in (("cs_localhost-root", "centos"), ("rhel_db--01-root", "rhel"),
                         ("vg_data-root", None)):  # fmt: skip
        text = (
            "# uname -r\n4.18.0-513.el8.x86_64\n# df -h /\n"
            "Filesystem Size Used Avail Use% Mounted on\n"
            f"/dev/mapper/{device} 17G 1.8G 16G 11% /\n"
        )
        server, _ = _server(text)
        assert server.get("distribution") == name, device
