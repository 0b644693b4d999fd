"""The fleet reader under the worst uploads: a 35 kB zip of 40 GiB, a 60 MB JSON array, a
60 MB line, documents built to parse into the most memory, numbers no column can store.
Each is refused, or fails its own entry, naming the member, line or JSON path, and the
memory it costs (tracemalloc's peak over the call) stays under WORST_CASE_BYTES."""

from __future__ import annotations

import io
import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from advisor.fleets import reading
from advisor.fleets.reading import FleetError, read_fleet
from tests.fleets.bombs import deflate_bomb, empty_objects, gigabyte_bomb, many_texts
from tests.fleets.conftest import fleet, ndjson, zipped

WORST_CASE_BYTES = 100 * 2**20
SIXTY_MB = 60 * 10**6


def peak_of(call: Callable[[], Any]) -> tuple[Any, int]:
    """(what the call returned or raised, the peak bytes it allocated on top of the start)."""
    tracemalloc.start()
    try:
        try:
            outcome: Any = call()
        except FleetError as exc:
            outcome = exc
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def refused(body: bytes, kind: str) -> tuple[FleetError, int]:
    outcome, peak = peak_of(lambda: read_fleet(body, kind))
    assert isinstance(outcome, FleetError), outcome
    return outcome, peak


def test_a_zip_bomb_in_bzip2_is_refused_before_anything_is_unpacked() -> None:
    bomb = gigabyte_bomb(40)
    assert len(bomb) < 36_000  # 40 GiB once unpacked

    error, peak = refused(bomb, "application/zip")

    assert (error.status, error.field) == (400, "file")
    assert error.message.startswith("bomb00.json is compressed with method 12")
    assert peak < 1_000_000


def test_a_deflated_zip_bomb_stops_at_the_first_member_bound() -> None:
    bomb = deflate_bomb(4)  # 4 MB, 4 GiB once unpacked

    error, peak = refused(bomb, "application/zip")

    assert error.status == 413 and error.message.startswith("bomb00.json is over 4.0 MiB")
    assert peak < 2 * reading.MAX_DOCUMENT_BYTES


def test_a_zip_stops_at_its_total_whatever_each_member_is() -> None:
    body = many_texts(70, reading.MAX_DOCUMENT_BYTES - 100_000)  # 266 MiB of text in all

    error, peak = refused(body, "application/zip")

    assert (error.status, error.field) == (413, "file") and "256.0 MiB" in error.message
    assert peak < 6 * reading.MAX_DOCUMENT_BYTES  # a member, joined, decoded: never two


def test_a_zip_whose_list_of_files_is_too_long_is_refused_before_it_is_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reading, "MAX_ZIP_DIRECTORY_BYTES", 1000)
    body = zipped({f"inventories/{n:05d}.json": {} for n in range(100)})

    error, _ = refused(body, "application/zip")

    assert error.status == 413 and "list of files" in error.message


def test_a_json_array_over_the_bound_is_refused_unread_with_the_way_out() -> None:
    body = empty_objects(SIXTY_MB)

    error, peak = refused(body, "application/json")

    assert (error.status, error.field) == (413, "file")
    assert "send NDJSON" in error.message and "zip" in error.message
    assert peak < 1_000_000


@pytest.mark.parametrize(
    ("kind", "message"),
    [("application/x-ndjson", "line 1 is over 4.0 MiB"),
     ("", "a JSON array or object of 57.2 MiB is read whole")],
)  # fmt: skip
def test_a_60_mb_document_is_refused_naming_its_line(kind: str, message: str) -> None:
    body = b'{"server": {"hostname": "' + b"x" * SIXTY_MB + b'"}}\n'

    error, peak = refused(body, kind)

    assert error.status == 413 and error.message.startswith(message)
    assert peak < 2 * reading.MAX_DOCUMENT_BYTES


def test_documents_that_parse_into_the_most_are_refused_before_they_are_parsed() -> None:
    line = b'{"a": ' + empty_objects(1_000_000) + b"}\n"  # 1 MB of text, 24 MB parsed
    body = line * 60

    error, peak = refused(body, "application/x-ndjson")

    assert error.status == 413 and error.message.startswith("the documents up to line 4")
    assert peak < WORST_CASE_BYTES


def test_a_json_array_under_the_bound_that_parses_into_the_most_is_refused_too() -> None:
    error, peak = refused(empty_objects(reading.MAX_JSON_BYTES - 10), "application/json")

    assert error.status == 413 and "split the fleet" in error.message
    assert peak < 1_000_000


@pytest.mark.slow
def test_ten_thousand_real_inventories_still_fit() -> None:
    body = ndjson(fleet(10_000))

    entries, peak = peak_of(lambda: read_fleet(body, "application/x-ndjson"))

    assert len(entries) == 10_000 and not any(e.problem for e in entries)
    assert peak < WORST_CASE_BYTES


BIG = "1" + "0" * 5000  # past Python's 4,300-digit conversion limit
NUMBERS = [
    (BIG, "an integer of 5,001 digits; numbers must fit in 64 bits"),
    ("123456789012345678901234567890", "an integer of 30 digits"),
    ("18446744073709551616", "18446744073709551616 does not fit in 64 bits"),
    ("NaN", "NaN is not a number JSON allows"),
    ("-Infinity", "-Infinity is not a number JSON allows"),
    ("1e999", "1e999 is too large for a number"),
]


@pytest.mark.parametrize(("number", "message"), NUMBERS)
def test_a_number_no_column_can_store_fails_its_line_naming_the_path(
    number: str, message: str
) -> None:
    good = json.dumps(fleet(1)[0]).encode()
    bad = b'{"server": {"hostname": "a", "cpus": ' + number.encode() + b"}}"

    entries = read_fleet(good + b"\n" + bad + b"\n", "application/x-ndjson")

    assert entries[0].problem == "" and entries[1].document is None
    assert entries[1].label == "line 2"
    assert entries[1].problem.startswith(f"server.cpus: {message}")


@pytest.mark.parametrize(("number", "message"), NUMBERS)
def test_a_json_array_with_such_a_number_is_refused_naming_the_path(
    number: str, message: str
) -> None:
    docs = json.dumps(fleet(2)).encode()
    body = docs[:-1] + b', {"storage": [{}, {"size_gb": ' + number.encode() + b"}]}]"

    error, _ = refused(body, "application/json")

    assert (error.status, error.field) == (400, "servers[2].storage[1].size_gb")
    assert error.message.startswith(message)


def test_the_reader_takes_a_file_as_it_takes_bytes() -> None:
    body = ndjson(fleet(3))
    from_file = read_fleet(io.BytesIO(body), "application/x-ndjson")
    assert from_file == read_fleet(body, "application/x-ndjson")
    assert [e.label for e in from_file] == ["line 1", "line 2", "line 3"]


class CountingFile(io.BytesIO):
    """A file that counts the reads made of it."""

    calls = 0

    def read(self, size: int | None = -1, /) -> bytes:
        self.calls += 1
        return super().read(size)

    def readline(self, size: int | None = -1, /) -> bytes:
        self.calls += 1
        return super().readline(size)


@pytest.mark.parametrize("blank", [b"\n", b"\r\n", b" \t\n"])
def test_an_upload_of_blank_lines_is_read_a_block_at_a_time(blank: bytes) -> None:
    body = CountingFile(blank * (20 * 2**20 // len(blank)))
    with pytest.raises(FleetError, match="the upload holds no inventory"):
        read_fleet(body, "application/x-ndjson")
    # A read a block, not one a line (20 million of them before).
    assert body.calls <= 20 * 2**20 // reading.READ_CHUNK + 10


def test_blank_lines_between_documents_keep_the_line_numbers() -> None:
    good = json.dumps(fleet(1)[0]).encode()
    body = b"\n\n  " + good + b"\n" + b"\r\n" * 100_000 + b"  \t{\n" + b"\n" * 3 + good + b"\n"
    entries = read_fleet(CountingFile(body), "application/x-ndjson")
    assert [(e.label, bool(e.problem)) for e in entries] == [
        ("line 3", False), ("line 100004", True), ("line 100008", False),
    ]  # fmt: skip


def test_nesting_too_deep_for_an_inventory_is_said_so() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    entries = read_fleet(
        json.dumps(fleet(1)[0]).encode() + b"\n" + deep + b"\n", "application/x-ndjson"
    )
    assert (entries[1].label, entries[1].problem) == ("line 2", reading.TOO_DEEP)

    error, _ = refused(b'{"servers": ' + deep + b"}", "application/json")
    assert (error.status, error.field, error.message) == (400, "servers", reading.TOO_DEEP)
