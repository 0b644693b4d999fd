"""A fleet upload read into entries: NDJSON (one inventory a line), a JSON array (or
{"servers": [...]}), or a zip of inventory .json files and collector bundles (.txt files
that begin as the collector writes them; a workload.json in the zip gives them the
workload the server cannot tell). A bundle becomes {"bundle": text, "workload": …} and
is read into an inventory on the worker.

The upload is untrusted, and read from a file (the request body spooled to disk), never
held whole. Every bound is judged from what is actually read, never from a size the
upload declares (a zip's own size fields least of all):
- settings.MAX_FLEET_BYTES on the wire (the middleware), MAX_SERVERS documents;
- one document (an NDJSON line, a zip member) at most MAX_DOCUMENT_BYTES, read up to
  that bound and no further; a zip at most MAX_UNZIPPED_BYTES decompressed in all;
- a JSON array or object at most MAX_JSON_BYTES: its documents can only be read all at
  once, so a larger one is refused with a pointer to NDJSON or a zip;
- what the documents take once parsed at most MAX_PARSED_BYTES in all, estimated from
  their text before each is parsed (`jsonsafe.parsed_bytes`): the whole fleet is held
  while it is stored, and 3 bytes of `{},` become a 64-byte dict.
A size over a bound refuses the upload (FleetError, status 413) naming the document. A
document that is not JSON, or holds a number no column can store (NaN, 10**30), is an
entry with a problem, not a failed upload; an upload that is no fleet at all is a
FleetError naming the field.
"""

from __future__ import annotations

import io
import lzma
import re
import zipfile
import zlib
from typing import IO, Any, NamedTuple

from advisor.core import jsonsafe
from advisor.core.text import is_storable, storable
from rules.parse.sections import BUNDLE_MAGIC

MAX_SERVERS = 20_000
MAX_DOCUMENT_BYTES = 4 * 2**20  # one server's document: a 512-LUN inventory is ~150 kB
MAX_UNZIPPED_BYTES = 256 * 2**20
MAX_JSON_BYTES = 16 * 2**20  # ~16,000 inventories of the examples' size in one array
# The documents of one upload once parsed: ~18,000 inventories of the examples' size
# (805 bytes of JSON, 5 kB parsed). The fleet is held whole while its items are stored.
MAX_PARSED_BYTES = 96 * 2**20
# A zip's central directory is parsed whole into ZipInfo objects (~10x its size): 4 MiB
# holds 20,000 entries with names of 150 characters.
MAX_ZIP_DIRECTORY_BYTES = 4 * 2**20
READ_CHUNK = 64 * 1024
ZIP_MAGIC = b"PK\x03\x04"
TOO_DEEP = "nested too deeply to be an inventory"
BUNDLE_KEY = "bundle"  # a collector bundle stands in a zip as {"bundle": text}
WORKLOAD_FILE = "workload.json"  # in a zip of bundles: the workload they all share
ZIP_KINDS = ("application/zip", "application/x-zip-compressed")
NDJSON_KINDS = ("application/x-ndjson", "application/ndjson", "application/jsonl")
UNZIP_ERRORS = (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError,
                RuntimeError, zlib.error, lzma.LZMAError)  # fmt: skip
TOO_LARGE = 413
WHOLE_BODY = "the JSON body"
# zipfile inflates deflate a bounded read at a time, but hands bzip2 and LZMA the whole
# compressed member at once: 800 bytes of bzip2 become 1 GiB in one call.
BOUNDED_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


class FleetError(ValueError):
    def __init__(self, field: str, message: str, status: int = 400) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.status = status


class Entry(NamedTuple):
    document: Any  # the parsed JSON, or None when it could not be read
    label: str  # "line 3", "servers.json", "[417]"
    problem: str = ""


def _too_large(label: str, size: str, limit: int, what: str) -> FleetError:
    message = f"{label} is {size}; {what} may be at most {jsonsafe.mib(limit)}"
    return FleetError("servers", storable(message), TOO_LARGE)


class _Budget:
    """What the upload's documents take once parsed, summed before each is parsed."""

    def __init__(self) -> None:
        self.parsed = 0

    def take(self, label: str, estimate: int) -> None:
        self.parsed += estimate
        if self.parsed > MAX_PARSED_BYTES:
            what = label if label == WHOLE_BODY else f"the documents up to {label}"
            message = (
                f"{what} would take more than "
                f"{jsonsafe.mib(MAX_PARSED_BYTES)} once read: split the fleet into "
                "several uploads"
            )
            raise FleetError("servers", storable(message), TOO_LARGE)


def _parse(data: bytes, label: str, budget: _Budget) -> Entry:
    budget.take(label, jsonsafe.parsed_bytes(data))
    try:
        document = jsonsafe.loads(data)
    except jsonsafe.UnsafeJSON as exc:
        return Entry(None, storable(label), str(exc))
    except RecursionError:
        return Entry(None, storable(label), TOO_DEEP)
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        return Entry(None, storable(label), f"not JSON: {exc}")
    return checked(Entry(document, label), suspect=_suspect(data))


def checked(entry: Entry, *, suspect: bool = True) -> Entry:
    """The entry, or a problem when a string in it holds NUL or a lone surrogate. JSON can
    only carry those as \\u escapes, so an upload without one (`suspect` False) needs no
    walk through its documents."""
    label = storable(entry.label)
    if suspect and not is_storable(entry.document):
        return Entry(None, label, "holds NUL or unpaired surrogate characters: not text")
    return entry if label == entry.label else entry._replace(label=label)


# \u0000, or a \uD800-\uDFFF escape (a surrogate, paired or not): the only ways JSON text
# can carry a character PostgreSQL cannot store.
SUSPECT = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")


def _suspect(body: bytes) -> bool:
    return SUSPECT.search(body) is not None


def _ndjson(source: IO[bytes], budget: _Budget) -> list[Entry]:
    """Line by line: no line is read past MAX_DOCUMENT_BYTES."""
    entries: list[Entry] = []
    number = 0
    while len(entries) <= MAX_SERVERS:
        number += _skip_blank(source)
        if not (line := source.readline(MAX_DOCUMENT_BYTES + 2)):
            break
        number += 1
        text = line.rstrip(b"\r\n")
        if len(text) > MAX_DOCUMENT_BYTES:
            raise _too_large(f"line {number}", f"over {jsonsafe.mib(MAX_DOCUMENT_BYTES)}",
                             MAX_DOCUMENT_BYTES, "one server's inventory")  # fmt: skip
        if text.strip():
            entries.append(_parse(text, f"line {number}", budget))
    return entries


def _skip_blank(source: IO[bytes]) -> int:
    """Moves past the blank lines and spaces ahead, a block at a time (a line at a time,
    60 MB of newlines took minutes); the lines passed. JSON does not see the spaces."""
    passed = 0
    while block := source.read(READ_CHUNK):
        rest = block.lstrip()
        passed += block.count(b"\n", 0, len(block) - len(rest))
        if rest:
            source.seek(-len(rest), io.SEEK_CUR)
            break
    return passed


def _servers_path(path: str) -> str:
    """A path in the uploaded JSON as the fleet names it: `[3].cpus` is `servers[3].cpus`."""
    return "servers" + path if path.startswith("[") else path


def _json(source: IO[bytes], budget: _Budget) -> list[Entry]:
    size = _size(source)
    if size > MAX_JSON_BYTES:
        message = (
            f"a JSON array or object of {jsonsafe.mib(size)} is read whole, and may be at "
            f"most {jsonsafe.mib(MAX_JSON_BYTES)}: send NDJSON (one inventory a line) or a "
            "zip of inventories"
        )
        raise FleetError("file", message, TOO_LARGE)
    body = source.read()
    budget.take(WHOLE_BODY, jsonsafe.parsed_bytes(body))
    try:
        data = jsonsafe.loads(body)
    except jsonsafe.UnsafeJSON as exc:
        raise FleetError(_servers_path(exc.path), exc.message) from None
    except RecursionError:
        raise FleetError("servers", TOO_DEEP) from None
    except ValueError as exc:
        raise FleetError("servers", f"not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("servers"), list):
        if extra := sorted(set(data) - {"servers"}):
            raise FleetError(extra[0], "is not a field of a fleet upload (it takes servers)")
        data = data["servers"]
    if not isinstance(data, list):
        raise FleetError("servers", 'send a JSON array of inventories or {"servers": [...]}')
    suspect = _suspect(body)
    return [
        checked(Entry(doc, f"[{n}]"), suspect=suspect)
        for n, doc in enumerate(data[: MAX_SERVERS + 1])
    ]


def _zip_directory_size(source: IO[bytes]) -> int:
    # zipfile's own reader of the end record (zip64 too): a stable private helper since
    # Python 2. Its size is checked before ZipFile parses the whole directory.
    record = zipfile._EndRecData(source)  # type: ignore[attr-defined]
    if not record:
        raise FleetError("file", "not a readable zip: no end of central directory")
    return int(record[zipfile._ECD_SIZE])  # type: ignore[attr-defined]


def _zip(source: IO[bytes], budget: _Budget) -> list[Entry]:
    try:
        directory = _zip_directory_size(source)
        if directory > MAX_ZIP_DIRECTORY_BYTES:
            raise _too_large("the zip's list of files", jsonsafe.mib(directory),
                             MAX_ZIP_DIRECTORY_BYTES, "it")  # fmt: skip
        archive = zipfile.ZipFile(source)
        members = [m for m in archive.infolist() if _is_inventory(m.filename)]
    except FleetError:
        raise
    except UNZIP_ERRORS as exc:
        raise FleetError("file", f"not a readable zip: {exc}") from None
    entries = _members(archive, members, budget)
    workloads = [e for e in entries if e.label.rsplit("/", 1)[-1] == WORKLOAD_FILE]
    workload = workloads[0].document if workloads else None
    if isinstance(workload, dict):
        workload = workload.get("workload", workload)
    return [
        Entry(e.document | {"workload": workload}, e.label) if _is_bundle(e) and workload else e
        for e in entries
        if e not in workloads
    ]


def _is_bundle(entry: Entry) -> bool:
    return isinstance(entry.document, dict) and set(entry.document) == {BUNDLE_KEY}


def _unzip(archive: zipfile.ZipFile, member: zipfile.ZipInfo, unzipped: int) -> bytes:
    """The member's bytes, decompressed a chunk at a time: refused at MAX_DOCUMENT_BYTES,
    or when the zip's total passes MAX_UNZIPPED_BYTES, whatever its header says."""
    parts, size = [], 0
    with archive.open(member) as handle:
        while chunk := handle.read(READ_CHUNK):
            size += len(chunk)
            if size > MAX_DOCUMENT_BYTES:
                raise _too_large(member.filename, f"over {jsonsafe.mib(MAX_DOCUMENT_BYTES)}",
                                 MAX_DOCUMENT_BYTES, "one file of a zip")  # fmt: skip
            if unzipped + size > MAX_UNZIPPED_BYTES:
                limit = jsonsafe.mib(MAX_UNZIPPED_BYTES)
                raise FleetError("file", f"unzips to more than {limit}", TOO_LARGE)
            parts.append(chunk)
    return b"".join(parts)


def _members(
    archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], budget: _Budget
) -> list[Entry]:
    entries, unzipped = [], 0
    for member in sorted(members, key=lambda m: m.filename)[: MAX_SERVERS + 1]:
        label = storable(member.filename)
        if member.compress_type not in BOUNDED_METHODS:
            raise FleetError("file", f"{label} is compressed with method "
                             f"{member.compress_type}: zip the inventories with deflate, "
                             "as zip tools do by default")  # fmt: skip
        try:
            data = _unzip(archive, member, unzipped)
        except FleetError:
            raise
        except UNZIP_ERRORS as exc:
            entries.append(Entry(None, label, f"cannot be unzipped: {exc}"))
            continue
        unzipped += len(data)
        if member.filename.lower().endswith((".txt", ".bundle")):
            text = storable(data.decode("utf-8", errors="replace"))
            if text.startswith(BUNDLE_MAGIC):
                budget.take(label, len(data) * (1 if data.isascii() else jsonsafe.WIDEST_CHAR))
                entries.append(Entry({BUNDLE_KEY: text}, label))
            continue
        entries.append(_parse(data, member.filename, budget))
    return entries


def _is_inventory(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    wanted = name.lower().endswith((".json", ".txt", ".bundle"))
    return wanted and not base.startswith(".") and "__MACOSX" not in name


def _size(source: IO[bytes]) -> int:
    size = source.seek(0, io.SEEK_END)
    source.seek(0)
    return size


def _has_lines(source: IO[bytes]) -> bool:
    """Whether a newline is followed by `{` anywhere: NDJSON sent without its type."""
    previous = b""
    while chunk := source.read(READ_CHUNK):
        if b"\n{" in previous[-1:] + chunk:
            break
        previous = chunk
    found = bool(chunk)
    source.seek(0)
    return found


def read_fleet(body: bytes | IO[bytes], content_type: str) -> list[Entry]:
    """The entries of an upload (its bytes, or a seekable binary file), in order;
    FleetError when it is no fleet at all or passes a bound."""
    source = io.BytesIO(body) if isinstance(body, bytes) else body
    source.seek(0)
    head = source.read(READ_CHUNK).lstrip()[:1]
    source.seek(0)
    budget = _Budget()
    kind = content_type.split(";", 1)[0].strip().lower()
    if _starts_as_zip(source) or kind in ZIP_KINDS:
        entries = _zip(source, budget)
    elif kind in NDJSON_KINDS:
        entries = _ndjson(source, budget)
    elif kind == "application/json" or head in (b"[", b"{"):
        is_lines = head == b"{" and kind != "application/json" and _has_lines(source)
        entries = _ndjson(source, budget) if is_lines else _json(source, budget)
    else:
        raise FleetError("file", "send NDJSON, a JSON array of inventories or a zip of them")
    if not entries:
        raise FleetError("servers", "the upload holds no inventory")
    if len(entries) > MAX_SERVERS:
        raise FleetError("servers", f"more than {MAX_SERVERS:,} servers in one fleet")
    return entries


def _starts_as_zip(source: IO[bytes]) -> bool:
    magic = source.read(len(ZIP_MAGIC))
    source.seek(0)
    return magic == ZIP_MAGIC
