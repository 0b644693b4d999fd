"""The broker of files of the embedded default (scripts/run.sh), whose messages appear whole.

kombu's filesystem transport creates a message's file, then locks and writes it, and its
consumer takes a file without the lock: a worker listing the folder in between takes the
empty file and fails on it (JSONDecodeError, which Celery treats as an unrecoverable error
and stops the worker). Here a message is written under a name the consumer ignores (it
does not end in `.msg`), flushed to disk, then renamed to its final name, which is atomic
on POSIX: a consumer sees the whole message or nothing. A file that is still empty or not
a message (written by another producer, or cut short by a crash or a full disk) is left
for a grace period in case it is being written, with a warning, then set aside as
`<name>.bad` for inspection; the messages after it are delivered as usual.

An exchange's table in the control folder is created the same way (written whole, then
linked to its name), so a publisher never reads it empty either.

Selected by settings.CELERY_BROKER_TRANSPORT when CELERY_BROKER_DIR is set; options (in
CELERY_BROKER_TRANSPORT_OPTIONS, beside kombu's own): `bad_message_grace_seconds`
(default 10) and `fsync` (default True).
"""

from __future__ import annotations

import logging
import os
import shutil
import time
import uuid
from contextlib import suppress
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

PARTIAL_SUFFIX = ".partial"  # a message being written: not `.msg`, so never taken
BAD_SUFFIX = ".bad"  # an unreadable message set aside, kept for inspection
BAD_MESSAGE_GRACE_S = 10.0  # how long an unreadable file may still be in the writing


class Channel(filesystem.Channel):
    """kombu's filesystem channel with whole-file puts and a get that skips bad files."""

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        self._warned: set[str] = set()  # unreadable files already warned about

    # kombu's stubs disagree between the virtual and the filesystem channel (as they
    # note themselves); this is the filesystem channel's signature.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        # The name as kombu makes it: milliseconds first, so the folder sorts by age.
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        _write_whole(Path(self.data_folder_out) / name, str_to_bytes(dumps(payload)), self._fsync)

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        wanted = f"{queue}.msg"
        folder = Path(self.data_folder_in)
        for name in sorted(os.listdir(folder)):
            if name.partition(".")[2] != wanted:
                continue
            payload = self._take(folder / name)
            if payload is not None:
                return payload
        raise Empty()

    def _take(self, path: Path) -> dict[str, Any] | None:
        """The message at path once this consumer has claimed it; None when another
        consumer took it first or the file is not (yet) a message."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise ChannelError(f"Cannot read file {str(path)!r} from queue.") from exc
        try:
            payload = loads(bytes_to_str(raw))
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            self._unreadable(path, f"{type(exc).__name__}: {exc}" if raw else "empty")
            return None
        if not isinstance(payload, dict) or not isinstance(payload.get("properties"), dict):
            self._unreadable(path, "not a message")
            return None
        return payload if self._claim(path) else None

    def _claim(self, path: Path) -> bool:
        """Only one consumer's remove (or move) of a file succeeds: that one delivers it."""
        try:
            if self.store_processed:
                shutil.move(path, self.processed_folder)
            else:
                path.unlink()
        except OSError:
            return False
        return True

    def _unreadable(self, path: Path, reason: str) -> None:
        try:
            age = time.time() - path.stat().st_mtime
        except FileNotFoundError:
            return
        if age < self._grace:
            if path.name not in self._warned:
                self._warned.add(path.name)
                logger.warning(
                    "Skipping the broker file %s (%s); left %.0f s in case it is still "
                    "being written.", path, reason, self._grace,
                )  # fmt: skip
            return
        self._warned.discard(path.name)
        with suppress(FileNotFoundError):
            path.rename(path.with_name(path.name + BAD_SUFFIX))
            logger.warning(
                "Set the unreadable broker file %s (%s) aside as %s%s.",
                path, reason, path.name, BAD_SUFFIX,
            )  # fmt: skip

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str | None, queue: str) -> None:
        # kombu creates a missing table empty, then locks and writes it: a publisher
        # reading it in between fails as a consumer did on a message. Create it whole.
        table: Path = self._exchange_file(exchange)  # type: ignore[attr-defined]
        self.control_folder.mkdir(exist_ok=True)
        if not table.exists():
            _create_whole(table, str_to_bytes(dumps([])))
        super()._queue_bind(exchange, routing_key, pattern, queue)

    @property
    def _grace(self) -> float:
        return float(self.transport_options.get("bad_message_grace_seconds", BAD_MESSAGE_GRACE_S))

    @property
    def _fsync(self) -> bool:
        return bool(self.transport_options.get("fsync", True))


class Transport(filesystem.Transport):
    """kombu's filesystem transport over the Channel above."""

    Channel = Channel


def _write_partial(path: Path, data: bytes, fsync: bool) -> Path:
    """data in a file beside path under a name no consumer takes; that file's path."""
    partial = path.with_name(f"{path.name}{PARTIAL_SUFFIX}")
    try:
        with partial.open("wb") as out:
            out.write(data)
            if fsync:
                out.flush()
                os.fsync(out.fileno())
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ChannelError(f"Cannot add file {str(path)!r} to directory") from exc
    return partial


def _write_whole(path: Path, data: bytes, fsync: bool) -> None:
    """path holding data, appearing at once (a rename) rather than growing."""
    partial = _write_partial(path, data, fsync)
    try:
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ChannelError(f"Cannot add file {str(path)!r} to directory") from exc


def _create_whole(path: Path, data: bytes) -> None:
    """path holding data unless it exists already: a link never replaces a file."""
    partial = _write_partial(path.with_name(f"{path.name}.{uuid.uuid4()}"), data, False)
    try:
        os.link(partial, path)
    except FileExistsError:
        pass  # another process created it first; its content stands
    except OSError as exc:
        raise ChannelError(f"Cannot create {str(path)!r}") from exc
    finally:
        partial.unlink(missing_ok=True)
