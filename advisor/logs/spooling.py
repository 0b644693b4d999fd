"""A large log's upload in the default storage while it waits for a worker: written as it
streams in (a chunk at a time, never held whole), read back a chunk at a time, deleted
once the log is done or failed.

A body refused part-way (too large, binary, the client gone) leaves nothing behind: its
partial file is deleted before the error goes on.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterable, Iterator

from django.core.files import File

from advisor.models import JobLog

READ_CHUNK = 64 * 1024


class _ChunkReader(io.RawIOBase):
    """A readable, unseekable file over an iterator of byte chunks: what a storage backend
    copies from (FileSystemStorage by chunks(), S3 by read(n))."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._rest = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._rest:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._rest = chunk
        count = min(len(buffer), len(self._rest))
        buffer[:count] = self._rest[:count]
        self._rest = self._rest[count:]
        return count


def spool(row: JobLog, chunks: Iterable[bytes]) -> None:
    """Write `chunks` to the default storage as `row`'s upload (row not saved). Any error
    while they stream in deletes what was written and goes on."""
    field = row.upload
    # A name of its own, so that the file written is the one deleted when the body is
    # refused part-way (the storage would rename a name already taken).
    name = field.field.generate_filename(row, f"{uuid.uuid4().hex}.log")
    content = File(io.BufferedReader(_ChunkReader(chunks), READ_CHUNK))
    try:
        field.name = field.storage.save(name, content, max_length=field.field.max_length)
    except BaseException:
        field.storage.delete(name)
        raise


def read_chunks(row: JobLog) -> Iterator[bytes]:
    """The stored upload of `row`, a chunk at a time."""
    with row.upload.open("rb") as handle:
        yield from handle.chunks(READ_CHUNK)


def forget(row: JobLog) -> None:
    """Delete the stored upload; a file already gone is no error."""
    if row.upload.name:
        row.upload.storage.delete(row.upload.name)


def discard(row: JobLog) -> None:
    """Delete the stored upload, then the row's note of it (a worker stopped in between
    leaves a name whose deletion the next sweep repeats, never a file nobody names)."""
    forget(row)
    JobLog.objects.filter(pk=row.pk).update(upload="")
