"""A fleet upload read into entries: NDJSON (one inventory a line), a JSON array (or
{"servers": [...]}), or a zip of inventory .json files and collector bundles (.txt files
that begin as the collector writes them; a workload.json in the zip gives them the
workload the server cannot tell). A bundle becomes {"bundle": text, "workload": …} and
is read into an inventory on the worker.

The upload is untrusted: at most settings.MAX_FLEET_BYTES on the wire, MAX_SERVERS
documents, and for a zip MAX_MEMBER_BYTES a member and MAX_UNZIPPED_BYTES in all, judged
from what is actually read (never from the zip's own size fields). A document that is not
JSON is an entry with a problem, not a failed upload; an upload that is no fleet at all
is a FleetError naming the field.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from typing import Any, NamedTuple

from advisor.core.text import is_storable, storable
from rules.parse.sections import BUNDLE_MAGIC

MAX_SERVERS = 20_000
MAX_MEMBER_BYTES = 4 * 1024 * 1024  # a 512-LUN inventory is about 150 kB
MAX_UNZIPPED_BYTES = 256 * 1024 * 1024
ZIP_MAGIC = b"PK\x03\x04"
BUNDLE_KEY = "bundle"  # a collector bundle stands in a zip as {"bundle": text}
WORKLOAD_FILE = "workload.json"  # in a zip of bundles: the workload they all share


class FleetError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Entry(NamedTuple):
    document: Any  # the parsed JSON, or None when it could not be read
    label: str  # "line 3", "servers.json", "[417]"
    problem: str = ""


def _parse(text: bytes | str, label: str, *, suspect: bool = True) -> Entry:
    try:
        return checked(Entry(json.loads(text), label), suspect=suspect)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        return Entry(None, storable(label), f"not JSON: {exc}")


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


def _ndjson(body: bytes) -> list[Entry]:
    entries = []
    suspect = _suspect(body)
    for number, line in enumerate(body.splitlines(), start=1):
        if line.strip():
            entries.append(_parse(line, f"line {number}", suspect=suspect))
            if len(entries) > MAX_SERVERS:
                break
    return entries


def _json(body: bytes) -> list[Entry]:
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise FleetError("servers", f"not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("servers"), list):
        data = data["servers"]
    if not isinstance(data, list):
        raise FleetError("servers", 'send a JSON array of inventories or {"servers": [...]}')
    suspect = _suspect(body)
    return [
        checked(Entry(doc, f"[{n}]"), suspect=suspect)
        for n, doc in enumerate(data[: MAX_SERVERS + 1])
    ]


def _zip(body: bytes) -> list[Entry]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
        members = [m for m in archive.infolist() if _is_inventory(m.filename)]
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise FleetError("file", f"not a readable zip: {exc}") from None
    entries = _members(archive, members)
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


def _members(archive: zipfile.ZipFile, members: list[zipfile.ZipInfo]) -> list[Entry]:
    entries, total = [], 0
    for member in sorted(members, key=lambda m: m.filename)[: MAX_SERVERS + 1]:
        try:
            with archive.open(member) as handle:
                data = handle.read(MAX_MEMBER_BYTES + 1)
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as exc:
            entries.append(Entry(None, storable(member.filename), f"cannot be unzipped: {exc}"))
            continue
        total += len(data)
        if total > MAX_UNZIPPED_BYTES:
            raise FleetError("file", f"unzips to more than {MAX_UNZIPPED_BYTES // 2**20} MiB")
        if len(data) > MAX_MEMBER_BYTES:
            problem = "larger than 4 MiB: not an inventory"
            entries.append(Entry(None, storable(member.filename), problem))
            continue
        if member.filename.lower().endswith((".txt", ".bundle")):
            text = storable(data.decode("utf-8", errors="replace"))
            if text.startswith(BUNDLE_MAGIC):
                entries.append(Entry({BUNDLE_KEY: text}, storable(member.filename)))
            continue
        entries.append(_parse(data, member.filename))
    return entries


def _is_inventory(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    wanted = name.lower().endswith((".json", ".txt", ".bundle"))
    return wanted and not base.startswith(".") and "__MACOSX" not in name


def read_fleet(body: bytes, content_type: str) -> list[Entry]:
    """The entries of an upload, in order; FleetError when it is no fleet at all."""
    kind = content_type.split(";", 1)[0].strip().lower()
    if body.startswith(ZIP_MAGIC) or kind in ("application/zip", "application/x-zip-compressed"):
        entries = _zip(body)
    elif kind in ("application/x-ndjson", "application/ndjson", "application/jsonl"):
        entries = _ndjson(body)
    elif kind == "application/json" or body.lstrip()[:1] in (b"[", b"{"):
        stripped = body.lstrip()
        is_lines = stripped[:1] == b"{" and b"\n{" in stripped and kind != "application/json"
        entries = _ndjson(body) if is_lines else _json(body)
    else:
        raise FleetError("file", "send NDJSON, a JSON array of inventories or a zip of them")
    if not entries:
        raise FleetError("servers", "the upload holds no inventory")
    if len(entries) > MAX_SERVERS:
        raise FleetError("servers", f"more than {MAX_SERVERS:,} servers in one fleet")
    return entries
