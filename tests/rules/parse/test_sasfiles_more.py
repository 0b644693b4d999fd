"""More real sasv9*.cfg, spdsserv.parm and libnames.parm files (tests/fixtures/parse/sas/).

The SPD Server administrator's guides print parameter files in two shapes the parsers do
not read yet: spdsserv.parm with `---MED---`-style performance-class sections, and
libnames.parm statements that run over several lines up to their `;`. Those tests are
strict expected failures holding the values a fixed parser must give.
"""

from __future__ import annotations

from rules.parse import parse_text
from rules.parse.sasfiles import sas_config, spds_libnames, spds_parm
from tests.rules.parse.fixtures import section, transcript

WINDOWS = "sas/sasv9_nls_en_scarnecchia_windows.txt"
USERMODS = "sas/sasv9_usermods_sas_apro_workshop.txt"
PERFORMANCE_LEVELS = "sas/spdsserv_spdsag53_performance_levels.txt"
ACL_DOMAINS = "sas/libnames_spdsag53_acl_examples.txt"
SKULIST = "sas/libnames_spdsag45_skulist_paths.txt"
DOMAIN_NAMING = "sas/libnames_spdsag45_domain_naming.txt"


def test_a_windows_sasv9_cfg_with_user_tuning_above_the_install_box() -> None:
    found = sas_config(section(WINDOWS))
    assert found.path == "/mnt/c/Program Files/SASHome/SASFoundation/9.4/nls/en/sasv9.cfg"
    assert found.options["MEMSIZE"] == "4G"
    assert found.options["SORTSIZE"] == "2G"
    assert found.options["SUMSIZE"] == "4G"
    assert found.options["BUFSIZE"] == "64K"
    assert found.options["IBUFSIZE"] == "32767"
    assert found.options["BUFNO"] == "10"
    assert found.options["ALIGNSASIOFILES"] == ""
    assert found.options["ENCODING"] == "wlatin1"
    assert found.options["LOCALE"] == "en_US"


def test_the_windows_cfg_keeps_the_last_work_and_odd_values_whole() -> None:
    options = sas_config(section(WINDOWS)).options
    # -WORK "C:\SASWork" is given first; SAS uses the later setting in the same file
    assert options["WORK"] == r"!TEMP\SAS Temporary Files"
    assert options["TRAINLOC"] == ""
    assert options["FORMCHAR"] == "|----|+|---+=|-/\\<>*"  # '/' and '*' apart: no comment
    assert options["FONTSLOC"] == r"C:\Windows\Fonts"
    assert options["JREOPTIONS"].startswith(r"( -DPFS_TEMPLATE=!SASROOT\tkjava")
    assert options["JREOPTIONS"].endswith("-Xms128m -Xmx128m )")
    assert options["RESOURCESLOC"] == r'( "!SASROOT\core\resource" )'
    assert options["PATH"].count("sasexe") == 36
    assert not {"SET", "SASROOT", "SASAUTOS", "SAMPSIO"} & options.keys()
    assert len(options) == 32  # the distinct names; the 12 -SET lines are not options


def test_a_container_sasv9_usermods_cfg_in_lower_case() -> None:
    found = sas_config(section(USERMODS))
    assert found.path == "/sasinside/sasv9_usermods.cfg"
    assert found.options == {"WORK": "/sastmp/saswork", "UTILLOC": "/sastmp/utilloc"}


def test_windows_domain_declarations_one_a_line_with_blank_lines_between() -> None:
    domains = spds_libnames(section(DOMAIN_NAMING))
    assert [d.name for d in domains] == ["SPDS123", "123SPDS", "_UNDER", "UNDER_"]
    assert domains[0].pathname == r"c:\data\spds123"
    assert domains[3].pathname == r"c:\data\under_"
    assert all(d.datapath == d.indexpath == d.metapath == () for d in domains)


def test_the_files_are_found_by_name_in_a_pasted_session() -> None:
    parsed = parse_text(transcript(WINDOWS, USERMODS, DOMAIN_NAMING))
    assert parsed.problems == []
    configs = [f.value for f in parsed.all("sas_config")]
    assert [c.path.rsplit("/", 1)[-1] for c in configs] == ["sasv9.cfg", "sasv9_usermods.cfg"]
    assert [len(f.value) for f in parsed.all("spds_libnames")] == [4]


def test_spdsserv_parm_with_performance_class_sections() -> None:
    parameters = spds_parm(section(PERFORMANCE_LEVELS)).parameters
    # the unlabelled lines are what LOW users get; MED/HIGH/LOCKING only override them
    assert parameters["SORTSIZE"] == "256M"
    assert parameters["BINBUFSIZE"] == "32K"
    assert parameters["MAXWHTHREADS"] == "4"
    assert parameters["WORKPATH"] == '"/var/tmp"'
    classes = spds_parm(section(PERFORMANCE_LEVELS)).classes
    assert classes["HIGH"] == {"SORTSIZE": "1G", "MAXWHTHREADS": "8", "WORKPATH": '"/var/hightmp"'}
    assert classes["LOCKING"] == {"MAXWHTHREADS": "2"}


def test_libnames_parm_statements_over_several_lines() -> None:
    domains = spds_libnames(section(ACL_DOMAINS))
    assert [d.name for d in domains] == ["D1", "D2", "COLSEC", "ONEPATH"]
    assert domains[0].pathname == "/IDX1/spdsmgr/d1"
    assert domains[3].pathname == "/IDX1/spdsmgr/onepath"
    assert domains[3].datapath == ()


def test_libnames_parm_path_lists_over_several_lines() -> None:
    (domain,) = spds_libnames(section(SKULIST))
    assert (domain.name, domain.pathname) == ("SKULIST", "/metadata/skulist")
    assert domain.datapath == tuple(f"/data0{n}/skulist" for n in range(1, 7))
    assert domain.indexpath == tuple(f"/idx0{n}/skulist" for n in range(1, 5))
    assert domain.metapath == ()
