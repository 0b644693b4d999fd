"""Hostile fleet uploads, built fast: zips written byte by byte around precompressed data
(so a member can unpack to a gigabyte without the test compressing one), and the
JSON shapes that cost the most memory once parsed."""

from __future__ import annotations

import base64
import struct
import zlib
from typing import NamedTuple

# 1 GiB of spaces as one bzip2 stream (785 bytes; made once with bz2.BZ2Compressor(9)
# over 1,024 chunks of 1 MiB, which takes a minute).
GIB_OF_SPACES_BZ2 = base64.b64decode(
    "QlpoOTFBWSZTWbUiZb8BX44QAMAAAAggADCATUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAAMIBNRkKg"
    "JakKgJcxQVkmU1m1ImW/AV+OEADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWbUiZb8BX44QAMAAAAggADCATUZC"
    "oCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1m1ImW/AV+OEADAAAAIIAAwgE1G"
    "QqAlqQqAlzFBWSZTWbUiZb8BX44QAMAAAAggADCATUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAAMIBN"
    "RkKgJakKgJcxQVkmU1m1ImW/AV+OEADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWbUiZb8BX44QAMAAAAggADCA"
    "TUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1m1ImW/AV+OEADAAAAIIAAw"
    "gE1GQqAlqQqAlzFBWSZTWbUiZb8BX44QAMAAAAggADCATUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAA"
    "MIBNRkKgJakKgJcxQVkmU1m1ImW/AV+OEADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWbUiZb8BX44QAMAAAAgg"
    "ADCATUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1m1ImW/AV+OEADAAAAI"
    "IAAwgE1GQqAlqQqAlzFBWSZTWbUiZb8BX44QAMAAAAggADCATUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAA"
    "CCAAMIBNRkKgJakKgJcxQVkmU1m1ImW/AV+OEADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWbUiZb8BX44QAMAA"
    "AAggADCATUZCoCWpCoCXMUFZJlNZtSJlvwFfjhAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1mcxvHHAIpSmADA"
    "AAAEAAggADDMBSmmkSJDYUSJDxdyRThQkNBpqTE="
)
GIB = 2**30
GIB_OF_SPACES_CRC = 0x9AC47FA6
STORED, DEFLATED, BZIP2 = 0, 8, 12


class Member(NamedTuple):
    name: str
    method: int
    data: bytes  # as stored in the zip (compressed)
    crc: int
    size: int  # the uncompressed size the headers declare


def raw_zip(members: list[Member]) -> bytes:
    """A zip (APPNOTE 4.3) of members whose data is given already compressed."""
    body, directory = bytearray(), bytearray()
    for m in members:
        name = m.name.encode()
        version = 46 if m.method == BZIP2 else 20
        fields = (version, 0, m.method, 0, 0x21, m.crc, len(m.data), m.size, len(name))
        directory += struct.pack("<IH", 0x02014B50, 20) + struct.pack("<HHHHHIIIH", *fields)
        directory += struct.pack("<HHHHII", 0, 0, 0, 0, 0, len(body)) + name
        body += struct.pack("<I", 0x04034B50) + struct.pack("<HHHHHIIIH", *fields)
        body += struct.pack("<H", 0) + name + m.data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members),
                      len(directory), len(body), 0)  # fmt: skip
    return bytes(body + directory + end)


def gigabyte_bomb(members: int) -> bytes:
    """`members` files of 1 GiB each in 800 bytes apiece: 40 make a 32 kB zip of 40 GiB."""
    one = GIB_OF_SPACES_BZ2
    return raw_zip([Member(f"bomb{n:02d}.json", BZIP2, one, GIB_OF_SPACES_CRC, GIB)
                    for n in range(members)])  # fmt: skip


def deflate_bomb(members: int) -> bytes:
    """`members` files of 1 GiB of spaces each, deflated: 1 MB apiece (deflate's ratio is
    at most 1032:1). One MiB is compressed once; blocks ended by a full flush stand alone,
    so the stream is that block 1,024 times and a final empty block."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(b" " * 2**20) + packer.flush(zlib.Z_FULL_FLUSH)
    stream = block * (GIB // 2**20) + packer.flush()
    one = Member("", DEFLATED, stream, GIB_OF_SPACES_CRC, GIB)
    return raw_zip([one._replace(name=f"bomb{n:02d}.json") for n in range(members)])


def deflated(data: bytes) -> Member:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return Member("", DEFLATED, packer.compress(data) + packer.flush(), zlib.crc32(data),
                  len(data))  # fmt: skip


def many_texts(count: int, size: int) -> bytes:
    """`count` .txt members of `size` spaces each (compressed once, stored `count` times)."""
    one = deflated(b" " * size)
    return raw_zip([one._replace(name=f"notes/{n:04d}.txt") for n in range(count)])


def empty_objects(size: int) -> bytes:
    """A JSON array of about `size` bytes of `{}`: the text that parses into the most."""
    count = max(1, size // 3)
    return b"[" + b"{}," * (count - 1) + b"{}]"
