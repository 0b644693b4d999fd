"""advisor.core.words: the rules' text, names and values as a reader says them."""

from __future__ import annotations

import pytest

from advisor.core import words
from rules.sources import PAPERS


def test_papers_are_cited_as_people_cite_them() -> None:
    assert words.short_name("bartucca2005") == "Bartucca 2005"
    assert words.short_name("pohl2007") == "Pohl et al. 2007"
    assert words.short_name("chew") == "Chew 2002"
    assert words.citation("bartucca2005") == (
        "Bartucca 2005, 'Setting up and tuning direct IO for SAS 9 on AIX'"
    )
    assert words.short_name("sas94-cpucount") == "CPUCOUNT= System Option"
    assert words.short_name("no-such-source") == "no-such-source"
    assert all(not words.short_name(p)[0].islower() for p in PAPERS)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("chew's cap of 4–6 (l.96) is for many users (bartucca2005 l.412).",
         "Chew's cap of 4–6 is for many users (Bartucca 2005)."),
        ("(chew LOESS still gaining at 8, l.582; pohl2007 Table 3 no loss at 8)",
         "(Chew 2002 LOESS still gaining at 8; Pohl et al. 2007 Table 3 no loss at 8)"),
        ("a ceiling: bogacz2012 (l.211, l.254) ran", "a ceiling: Bogacz et al. 2012 ran"),
        ("(l.533–562: LOESS 4.5 h → 1.5 h)", "(LOESS 4.5 h → 1.5 h)"),
        ("6:47 each, 6:34 at l.580).", "6:47 each, 6:34)."),
        ("neither server.cores nor server.smt_threads gives",
         "neither Physical cores nor SMT threads per core gives"),
        ("enter today's data in total_data_gb, not", "enter today's data in Total data (GB), not"),
        ("its cap (storage[].throughput_cap_mb_s)", "its cap (Throughput cap (MB/s))"),
        ("storage[0].role is work", "/saswork · Role is work"),
        ("(sas94-config, sas94-cpucount: SAS 9.4 docs)",
         "(SAS 9.4 Companion for UNIX Environments, CPUCOUNT= System Option: SAS 9.4 docs)"),
        ("read /etc/sas94-config here", "read /etc/sas94-config here"),
        ("storage[1].role is data", "Storage 2 · Role is data"),
        ("in /etc/security/limits.d/99-sas.conf", "in /etc/security/limits.d/99-sas.conf"),
        ("see https://support.sas.com/documentation", "see https://support.sas.com/documentation"),
    ],
)  # fmt: skip
def test_plain_text_has_no_line_references_paths_or_field_names(text: str, said: str) -> None:
    assert words.plain(text, ["/saswork"]) == said


def test_the_lines_cited_are_kept_by_paper() -> None:
    texts = ["chew's cap (l.96); idle threads (bartucca2005 l.412, l.420)", "at l.580"]
    assert words.cited_lines(texts, ["chew", "bartucca2005"]) == (
        "Chew 2002 l.96, l.580; Bartucca 2005 l.412, l.420"
    )
    assert words.cited_lines(["no lines here"], ["chew"]) == ""


@pytest.mark.parametrize(
    ("setting", "value", "phrase", "name", "shown"),
    [
        ("THREADS", "", "THREADS on", "THREADS", "on"),
        ("THREADS", "(on)", "THREADS on", "THREADS", "on"),
        ("limits:nofile", "nofile 10240", "nofile 10240", "nofile", "10240"),
        ("readahead", ">16384", "read-ahead ≥ 16384 KB", "read-ahead", "≥ 16384 KB"),
        ("read_ahead_kb:mount", ">16384", "read-ahead (mount) ≥ 16384 KB",
         "read-ahead (mount)", "≥ 16384 KB"),
        ("elevator:flash", "none", "I/O scheduler (flash) none", "I/O scheduler (flash)", "none"),
        ("MEMSIZE", "8G", "MEMSIZE=8G", "MEMSIZE", "8G"),
        ("vm.swappiness", "10", "vm.swappiness=10", "vm.swappiness", "10"),
    ],
)  # fmt: skip
def test_settings_read_as_an_admin_writes_them(
    setting: str, value: str, phrase: str, name: str, shown: str
) -> None:
    assert words.setting_phrase(setting, value) == phrase
    assert words.setting_name(setting) == name
    assert words.value_words(setting, value) == shown
    assert words.value_words(setting, None) == ""


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("must be 1-64 characters of [A-Za-z0-9_.-], not starting with '-'",
         "must be 1-64 characters of letters, digits, '_', '.' and '-', not starting with '-'"),
        ("a UNC path (\\\\server\\share) of [A-Za-z0-9_.$-]",
         "a UNC path (\\\\server\\share) of letters, digits, '_', '.', '$' and '-'"),
        ("must be a sysctl name", "must be a sysctl name"),
    ],
)  # fmt: skip
def test_error_messages_say_character_classes_in_words(message: str, said: str) -> None:
    assert words.without_regex(message) == said
