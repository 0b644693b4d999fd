"""Wired by type: every parser's value is read by a combiner that declares it, and a
combiner reads nothing it does not declare (rules/parse/wiring.py).

The corpus, transcript and any-text tests draft every parser's output through the
combiners, so an undeclared read anywhere fails them with UndeclaredRead; here the
declarations are held against the registry, and the view itself is tested.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import rules.parse.combine  # noqa: F401  (imports every combiner, so all are declared)
from rules.parse import Parsed, UndeclaredRead, parse_text, wiring
from rules.parse.registry import PARSERS
from rules.parse.wiring import DECLARED, declared, reads

# Parsers whose values are read outside the combiners, each with where. None today: the
# SAS configuration and SPD Server files are read by combine._sas and current_block,
# libnames.parm by combine_spds.spds_roles, the collector's --measure by measured.
READ_ELSEWHERE: dict[str, str] = {}
# The combiners the draft is built from (combine.combine calls each).
ENTRIES = (
    "rules.parse.combine._os", "rules.parse.combine._hostname", "rules.parse.combine._sas",
    "rules.parse.combine._prompt_host", "rules.parse.combine_aix.aix_server",
    "rules.parse.aix_storage.aix_storage", "rules.parse.combine_linux_host.linux_server",
    "rules.parse.combine_linux.linux_storage", "rules.parse.combine_solaris.solaris_server",
    "rules.parse.combine_solaris.solaris_storage", "rules.parse.combine_storage.measured",
    "rules.parse.combine_current.current_block", "rules.parse.combine_spds.spds_roles",
)  # fmt: skip
PASTE = (
    "# uname -a\nLinux db01 5.14.0 #1 SMP x86_64 GNU/Linux\n# df -k\n/dev/sda1 1024 512 512 50% /\n"
)


def _registered() -> set[str]:
    return {p.name for p in PARSERS}


def test_every_parser_is_read_by_a_combiner() -> None:
    unread = _registered() - declared() - READ_ELSEWHERE.keys()
    assert not unread, (
        f"parsers no combiner declares (their values are read for nothing): {sorted(unread)}; "
        "declare each in the @reads of the combiner that reads it"
    )
    both = READ_ELSEWHERE.keys() & declared()
    assert not both, f"declared by a combiner now, remove from READ_ELSEWHERE: {sorted(both)}"


def test_every_declared_name_is_a_registered_parser() -> None:
    stray = {
        f"{combiner}: {name}"
        for combiner, names in DECLARED.items()
        for name in names - _registered()
        if combiner.startswith("rules.")
    }
    assert not stray, f"declared names no parser registers: {sorted(stray)}"


def test_the_combiners_of_the_draft_declare_their_parsers() -> None:
    assert set(ENTRIES) <= DECLARED.keys(), sorted(set(ENTRIES) - DECLARED.keys())
    assert READ_ELSEWHERE.keys() <= _registered()


@pytest.fixture
def scratch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Combiners declared by a test stay out of the project's DECLARED."""
    monkeypatch.setattr(wiring, "DECLARED", {})


@pytest.mark.usefixtures("scratch")
def test_a_combiner_reads_what_it_declares() -> None:
    @reads("uname")
    def host(parsed: Parsed) -> str:
        found = parsed.first("uname")
        assert found is not None and parsed.all("uname") == [found]
        assert "uname" in parsed.found and list(parsed.found) == ["uname"]
        return str(found.value.hostname)

    assert host(parse_text(PASTE)) == "db01"
    assert {f"{__name__}.{host.__qualname__}": frozenset({"uname"})} == wiring.DECLARED


@pytest.mark.usefixtures("scratch")
@pytest.mark.parametrize(
    "read",
    [
        lambda p: p.first("df"),
        lambda p: p.all("df"),
        lambda p: p.found.get("df"),
        lambda p: p.found["df"],
        lambda p: "df" in p.found,
    ],
)
def test_reading_an_undeclared_parser_fails_naming_both(read: Callable[[Parsed], object]) -> None:
    @reads("uname")
    def storage(parsed: Parsed) -> object:
        return read(parsed)

    with pytest.raises(UndeclaredRead) as failed:
        storage(parse_text(PASTE))
    reader = f"{__name__}.{storage.__qualname__}"
    assert str(failed.value) == (
        f"combiner {reader} reads undeclared parser 'df': declare it in @reads"
    )


@pytest.mark.usefixtures("scratch")
def test_a_helper_is_covered_by_its_callers_declaration() -> None:
    def helper(parsed: Parsed) -> object:
        return parsed.first("df")

    @reads("uname")
    def outer(parsed: Parsed) -> object:
        return helper(parsed)

    with pytest.raises(UndeclaredRead, match="outer reads undeclared parser 'df'"):
        outer(parse_text(PASTE))


@pytest.mark.usefixtures("scratch")
def test_a_combiner_called_by_another_reads_through_its_own_declaration() -> None:
    @reads("df")
    def inner(parsed: Parsed) -> int:
        found = parsed.first("df")
        return 0 if found is None else len(found.value)

    @reads("uname")
    def outer(parsed: Parsed) -> int:
        with pytest.raises(UndeclaredRead):
            parsed.first("df")
        return inner(parsed)

    assert outer(parse_text(PASTE)) == 1


@pytest.mark.usefixtures("scratch")
def test_what_a_combiner_notes_is_the_parses_and_it_cannot_change_the_readings() -> None:
    @reads("uname")
    def noting(parsed: Parsed) -> None:
        parsed.notes.append((1, "seen"))
        with pytest.raises(UndeclaredRead, match="replaces the readings of 'uname'"):
            parsed.found["uname"] = []

    parsed = parse_text(PASTE)
    noting(parsed)
    assert (1, "seen") in parsed.notes
    assert parsed.first("df") is not None  # the parse itself still answers for all


@pytest.mark.usefixtures("scratch")
def test_a_combiner_is_declared_once() -> None:
    def twice(parsed: Parsed) -> None:
        return None

    reads("df")(twice)
    with pytest.raises(ValueError, match="declared twice"):
        reads("df")(twice)
