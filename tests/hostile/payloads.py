"""The crafted inputs of the hostile-input suite, each built in memory in well under a
second: documents a client may send on purpose (or a broken collector by accident) that
are cheap to send and expensive to read carelessly.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from typing import Any

from rules.parse.sections import BUNDLE_MAGIC
from tests.faults.services import ROOT

BUNDLE_BYTES = 250_000
# Python refuses to turn a longer run of digits into an int (sys.get_int_max_str_digits).
INT_DIGITS_LIMIT = 4300
FLEET_UPLOAD_BYTES = 60_000_000  # below MAX_FLEET_BYTES (64 MiB): read, not refused at the door
LOG_BYTES = 4_000_000
MANY_STEP_LOG_BYTES = 60_000_000  # below MAX_LOG_BYTES (64 MiB): read, not refused at the door
PROMPTS_BYTES = 8_000_000  # below MAX_BUNDLE_BYTES (8 MiB)
BOMB_MEMBER_BYTES = 24 * 1024 * 1024  # zeros: deflate packs them about 1,000 to 1
BOMB_ENTRIES = 128  # central directory entries, all naming the one member: 3 GiB unzipped
LOGO_BOMB_SIDE = 20_000  # pixels: 400 M, over Pillow's 178 M decompression-bomb error
EXAMPLES = ROOT / "examples"


def inventory(hostname: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "lemans-aix53-etl.json").read_text())
    document["server"]["hostname"] = hostname
    return document


def compact(document: Any) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode()


def ndjson(hostnames: list[str]) -> bytes:
    return b"\n".join(compact(inventory(name)) for name in hostnames) + b"\n"


# -- unterminated terminal escapes -------------------------------------------------------


def escape_bundle(size: int = BUNDLE_BYTES) -> str:
    """A collector bundle whose lscpu output holds terminal escapes that never end: CSI
    (ESC [) with a long run of parameters and no final letter, line after line, then the
    OSC opener a title-setting prompt writes (ESC ] 0;) with no BEL, over and over. A
    pattern that scans from each ESC to the end of the text is quadratic in it."""
    head = (
        f"{BUNDLE_MAGIC}1\n# hostname: hostile\n@@@ cmd: uname -a\n"
        "Linux hostile 6.1.0 #1 SMP x86_64 GNU/Linux\n@@@ end: rc=0\n@@@ cmd: lscpu\n"
    )
    tail = "\n@@@ end: rc=0\n"
    csi_line = "\x1b[" + "38;5;" * 400 + "\n"
    csi = csi_line * (size // 5 // len(csi_line))
    osc_room = size - len(head) - len(csi) - len(tail)
    osc = "\x1b]0;" * (osc_room // 4)
    return head + csi + osc + tail


def escape_fleet_zip(valid: int = 5) -> bytes:
    """A zip of the escape bundle (no workload.json: it cannot become an inventory, so it
    fails alone) and `valid` good inventories."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hostile/bundle.txt", escape_bundle())
        for n in range(valid):
            archive.writestr(f"hostile/server-{n}.json", compact(inventory(f"zip-valid-{n}")))
    return out.getvalue()


# -- fleet uploads that are large when read ----------------------------------------------


def zip_bomb(entries: int = BOMB_ENTRIES, member_bytes: int = BOMB_MEMBER_BYTES) -> bytes:
    """About 32 KB on the wire: one deflated member of zeros, listed `entries` times in the
    central directory (every entry points at the same local header, so each unzips to the
    full member: GiBs in all), each entry declaring its true size."""
    name = b"bomb.json"
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = bytes(1024 * 1024)
    data = b"".join(packer.compress(block) for _ in range(member_bytes // len(block)))
    data += packer.flush()
    crc = 0
    for _ in range(member_bytes // len(block)):
        crc = zlib.crc32(block, crc)
    sizes = (crc, len(data), member_bytes, len(name), 0)
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, *sizes) + name
    central = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, *sizes, 0, 0, 0, 0, 0)
    directory = (central + name) * entries
    end = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, entries, entries, len(directory),
        len(local) + len(data), 0,
    )  # fmt: skip
    return local + data + directory + end


def fleet_array(size: int = FLEET_UPLOAD_BYTES) -> bytes:
    """A JSON array of small inventories, `size` bytes: tens of thousands of documents,
    millions of objects once parsed."""
    one = compact(inventory("array-000000"))
    count = size // (len(one) + 1)
    items = (one.replace(b"array-000000", b"array-%06d" % n) for n in range(count))
    return b"[" + b",".join(items) + b"]"


def single_line_document(size: int = FLEET_UPLOAD_BYTES) -> bytes:
    """One inventory on one line whose storage list holds `size` bytes of rows."""
    document = inventory("one-line")
    row = compact(document["storage"][0])
    rows = b",".join([row] * (size // (len(row) + 1)))
    head = compact(document | {"storage": []})
    return head.replace(b'"storage":[]', b'"storage":[' + rows + b"]") + b"\n"


# -- numbers and text JSON readers choke on -----------------------------------------------


def huge_int_inventory(hostname: str) -> bytes:
    """An inventory whose CPU count is an integer of more digits than Python converts."""
    digits = b"9" * (INT_DIGITS_LIMIT + 100)
    return compact(inventory(hostname) | {"server": {}}).replace(
        b'"server":{}',
        b'"server":{"hostname":"' + hostname.encode() + b'","os":"aix","os_version":"7.3",'
        b'"cpus":' + digits + b',"ram_gb":16}',
    )


def huge_int_array() -> bytes:
    return b"[" + huge_int_inventory("huge-int") + b"]"


def nan_and_wide_int_inventory() -> bytes:
    """One document with a number past 64 bits beside NaN (not JSON, but what Python's
    json writes and reads by default)."""
    document = inventory("nan-and-wide")
    document["server"]["cpus"] = 2**64 + 1
    document["workload"]["largest_table_gb"] = float("nan")
    return json.dumps(document).encode()


# -- logs and transcripts ----------------------------------------------------------------


def release_line_log(size: int = LOG_BYTES) -> bytes:
    """SAS release notes whose build never closes: 'NOTE: SAS (r) Proprietary Software 9.4
    (TS1M' and a run of digits, continued on indented lines of digits (a wrapped NOTE),
    so the whole message is one long unclosed parenthesis."""
    run = "0" * 4000
    block = f"NOTE: SAS (r) Proprietary Software 9.4 (TS1M{run}\n" + f" {run}\n" * 20
    return (block * (size // len(block))).encode()


def many_step_log(size: int = MANY_STEP_LOG_BYTES) -> tuple[bytes, int]:
    """A night's log of about `size` bytes made of tests/logs_bounds/biglog.py's steps (the
    real SAS 9.4 layout, each over 30 s and each with a finding): 77,000 steps in 60 MB,
    13 s to parse and diagnose on a quiet 2-CPU machine. The bytes and the step count."""
    from tests.logs_bounds import biglog

    sample, _ = biglog.text(100)
    steps = size * 100 // len(sample)
    text, _ = biglog.text(steps)
    return text.encode(), steps


def bare_prompts(size: int = PROMPTS_BYTES) -> str:
    line = "[root@host ~]# \n"
    return line * (size // len(line))


def many_mounts(head: str, row: str, size: int = PROMPTS_BYTES) -> str:
    """`head`, then `row` with {i} counting up to `size` bytes: a file system a row, as many
    as fit (a df of distinct rows was quadratic: 128 KB took 13 s, 256 KB a worker)."""
    parts, length, i = [head], len(head), 0
    while length < size:
        line = row.format(i=i)
        parts.append(line)
        length, i = length + len(line), i + 1
    return "".join(parts)


DF_ROWS = ("# df -k\nFilesystem 1K-blocks Used Available Use% Mounted on\n",
           "/dev/sd{i} 1000 1 999 1% /m{i}\n")  # fmt: skip
LSVG_ROWS = ("# lsvg -l datavg\ndatavg:\nLV NAME  TYPE  LPs  PPs  PVs  LV STATE  MOUNT POINT\n",
             "lv{i} jfs2 1 1 1 open/syncd /m{i}\n")  # fmt: skip


# -- logos -------------------------------------------------------------------------------


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">L", len(data)) + body + struct.pack(">L", zlib.crc32(body))


def png_bomb(side: int = LOGO_BOMB_SIDE) -> bytes:
    """A paletted PNG `side` x `side` pixels (1 bit each) of one colour: tens of KB on disk,
    side² pixels once decoded. Written row by row, never held whole."""
    header = struct.pack(">2L5B", side, side, 1, 3, 0, 0, 0)  # bit depth 1, palette
    row = b"\x00" + bytes((side + 7) // 8)  # filter byte, then the row's pixels
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"PLTE", b"\x20\x40\x80")
        + _png_chunk(b"IDAT", idat)
        + _png_chunk(b"IEND", b"")
    )


def png_magic_svg() -> bytes:
    """PNG's eight signature bytes, then an SVG with a script."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        "<script>alert(document.cookie)</script></svg>"
    )
    return b"\x89PNG\r\n\x1a\n" + svg.encode()


def valid_logo() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (160, 48), (20, 60, 120)).save(out, format="PNG")
    return out.getvalue()
