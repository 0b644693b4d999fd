"""The broker of files of the embedded default (advisor/core/fs_broker.py): a worker polling
the folder while messages are being written gets each of them whole, once; a file that is
empty or not a message is skipped with a warning, then set aside, and the messages after it
still arrive; the settings select this transport when CELERY_BROKER_DIR is set."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection
from kombu.transport.virtual.base import BrokerState

from advisor.core.fs_broker import BAD_SUFFIX, Transport

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = 400  # enough puts that, unguarded, some are taken before they are written
WRITERS = 2


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch: pytest.MonkeyPatch) -> None:
    # kombu keeps the bindings it made in the process, not per folder: one test's would
    # keep the next from writing its own folder's table.
    monkeypatch.setattr(Transport, "global_state", BrokerState())


@contextmanager
def broker(folder: Path, **options: Any) -> Iterator[Connection]:
    for name in ("messages", "control"):
        (folder / name).mkdir(exist_ok=True)
    transport_options = {
        "data_folder_in": str(folder / "messages"),
        "data_folder_out": str(folder / "messages"),
        "control_folder": str(folder / "control"),
        "polling_interval": 0.01,
        "fsync": False,  # the rename is what makes a message whole; keep the test quick
    }
    with Connection("filesystem://", transport=Transport,
                    transport_options=transport_options | options) as connection:  # fmt: skip
        yield connection


def _write(folder: Path, writer: int, failures: list[BaseException]) -> None:
    try:
        with broker(folder) as connection:
            queue = connection.SimpleQueue("jobs")
            for n in range(writer, MESSAGES, WRITERS):
                queue.put({"n": n})
            queue.close()
    except BaseException as exc:  # reported by the test, not lost in the thread
        failures.append(exc)


def test_a_reader_polling_while_writers_put_gets_every_message_once_and_whole(
    tmp_path: Path,
) -> None:
    failures: list[BaseException] = []
    received: list[int] = []
    with broker(tmp_path) as connection:
        queue = connection.SimpleQueue("jobs")
        writers = [
            threading.Thread(target=_write, args=(tmp_path, w, failures)) for w in range(WRITERS)
        ]
        for writer in writers:
            writer.start()
        while len(received) < MESSAGES and not failures:
            message = queue.get(timeout=30)
            received.append(message.payload["n"])
            message.ack()
        for writer in writers:
            writer.join()
        queue.close()
    assert failures == []
    assert sorted(received) == list(range(MESSAGES))
    assert os.listdir(tmp_path / "messages") == []  # nothing half-written left behind


def _unreadable_files(folder: Path) -> dict[str, bytes]:
    # Named to sort before any message (kombu's names start with monotonic milliseconds).
    files = {
        "0_empty.jobs.msg": b"",
        "0_garbled.jobs.msg": b'{"properties": {"delivery_tag": ',
        "0_list.jobs.msg": b"[1, 2]",
        "0_binary.jobs.msg": b"\x00\xff\xfe",
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return files


def test_an_empty_or_garbled_file_is_skipped_with_a_warning_and_the_next_message_arrives(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="advisor.core.fs_broker")
    with broker(tmp_path, bad_message_grace_seconds=3600) as connection:
        queue = connection.SimpleQueue("jobs")
        files = _unreadable_files(tmp_path / "messages")
        (tmp_path / "messages" / "0_half.jobs.msg.partial").write_bytes(b"{")  # being written
        queue.put({"n": 1})
        queue.put({"n": 2})
        got = []
        for _ in range(2):  # in either order: both were put within one millisecond
            message = queue.get(timeout=5)
            got.append(message.payload["n"])
            message.ack()
        queue.close()
    assert sorted(got) == [1, 2]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    for name in files:  # once each, though the folder was read twice
        assert len([w for w in warned if name in w]) == 1, warned
    assert "(empty)" in next(w for w in warned if "0_empty" in w)
    assert "JSONDecodeError" in next(w for w in warned if "0_garbled" in w)
    assert "(not a message)" in next(w for w in warned if "0_list" in w)
    assert "JSONDecodeError" in next(w for w in warned if "0_binary" in w)
    assert not any(".partial" in w for w in warned)
    # Still within their grace period: left where they are, in case they are being written.
    assert sorted(os.listdir(tmp_path / "messages")) == sorted([*files, "0_half.jobs.msg.partial"])


def test_an_unreadable_file_past_its_grace_period_is_set_aside_for_inspection(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="advisor.core.fs_broker")
    messages = tmp_path / "messages"
    messages.mkdir()
    files = _unreadable_files(messages)
    an_hour_ago = time.time() - 3600
    for name in files:
        os.utime(messages / name, (an_hour_ago, an_hour_ago))
    with broker(tmp_path, bad_message_grace_seconds=60) as connection:
        queue = connection.SimpleQueue("jobs")
        queue.put({"n": 1})
        message = queue.get(timeout=5)
        assert message.payload == {"n": 1}
        message.ack()
        assert queue.qsize() == 0
        queue.close()
    assert sorted(os.listdir(messages)) == sorted(name + BAD_SUFFIX for name in files)
    assert {(messages / (n + BAD_SUFFIX)).read_bytes() for n in files} == set(files.values())
    warned = " ".join(r.getMessage() for r in caplog.records)
    for name in files:
        assert f"aside as {name}{BAD_SUFFIX}" in warned


def test_the_settings_select_this_transport_for_a_broker_folder(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env |= {"CELERY_BROKER_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path}/db",
            "DJANGO_SETTINGS_MODULE": "advisor.settings"}  # fmt: skip
    code = (
        "import django; django.setup(); from advisor.celery import app;"
        "t = app.connection_for_write().transport;"
        "print(type(t).__module__, type(t).__name__, app.conf.task_always_eager)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == ["advisor.core.fs_broker", "Transport", "False"]
