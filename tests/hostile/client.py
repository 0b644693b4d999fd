"""What the hostile suite measures on every request: its status, how long it took, and how
far the gunicorn workers' resident memory rose while it ran; and the clients that send
the requests (token API, logged-in browser session) with everything they saw recorded.

Memory is read from /proc/<worker>/status: each worker's peak (VmHWM) is reset to its
current size before the request (`5` written to /proc/<pid>/clear_refs), so the peak
after it is what this request took, even when the memory went back to the system before
the request ended (a freed 60 MB buffer leaves VmRSS where it was).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import secrets
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The acceptance: a ceiling, not a speed target.
MAX_REQUEST_S = 10.0
MAX_GROWTH_MB = 100.0
# How long the client waits for an answer that is already too late: long enough to see
# what the server does with it (answers late, or gunicorn replaces the worker after its
# 20 s heartbeat timeout), short enough to keep the suite's run bounded.
CLIENT_TIMEOUT_S = 30.0
KB_PER_MB = 1024


def children(pid: int) -> list[int]:
    """The live child processes of `pid` (gunicorn's workers, for its master)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(part) for part in task.read_text().split()]
    return found


def _status_kb(pid: int, key: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


@dataclass
class Memory:
    """The gunicorn workers' memory around one request."""

    master: int
    before: dict[int, int] = field(default_factory=dict)  # pid -> VmRSS kB

    def start(self) -> None:
        self.before = {}
        for pid in children(self.master):
            with contextlib.suppress(OSError):
                Path(f"/proc/{pid}/clear_refs").write_text("5")
            rss = _status_kb(pid, "VmRSS")
            if rss is not None:
                self.before[pid] = rss

    def growth_mb(self) -> tuple[float, float, str]:
        """(largest VmRSS rise, largest peak rise) over the workers alive before, in MB,
        and a note naming any worker that died meanwhile."""
        rss_rise, peak_rise, gone = 0.0, 0.0, []
        for pid, before in self.before.items():
            rss, peak = _status_kb(pid, "VmRSS"), _status_kb(pid, "VmHWM")
            if rss is None or peak is None:
                gone.append(pid)
                continue
            rss_rise = max(rss_rise, (rss - before) / KB_PER_MB)
            peak_rise = max(peak_rise, (peak - before) / KB_PER_MB)
        return rss_rise, peak_rise, f"worker {gone} gone" if gone else ""


@dataclass
class Seen:
    """One request as the suite saw it. Status 0: no answer (timeout, connection cut)."""

    case: str
    method: str
    path: str
    status: int
    elapsed_s: float
    rss_mb: float
    peak_mb: float
    note: str = ""
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return json.loads(self.body)

    def line(self) -> str:
        path = self.path if len(self.path) < 60 else self.path[:57] + "..."
        return (
            f"{self.case:<28} {self.method:<6} {path:<60} {self.status:>3} "
            f"{self.elapsed_s:6.2f} s  rss {self.rss_mb:+7.1f} MB  peak {self.peak_mb:+7.1f} MB"
            f"  {self.note}"
        )

    def problems(self) -> list[str]:
        found = []
        if not 0 < self.status < 500:
            found.append(f"status {self.status}")
        if self.elapsed_s >= MAX_REQUEST_S:
            found.append(f"{self.elapsed_s:.1f} s")
        if self.peak_mb >= MAX_GROWTH_MB:
            found.append(f"worker memory +{self.peak_mb:.0f} MB at peak")
        return found


@dataclass
class Journal:
    """Every request of the suite, in order, for the table printed at the end."""

    seen: list[Seen] = field(default_factory=list)

    def table(self) -> str:
        return "\n".join(s.line() for s in self.seen)


def assert_sound(*answers: Seen) -> None:
    """The acceptance for each request: an answer, not a 5xx, within 10 s, and under
    100 MB more worker memory."""
    bad = [f"{a.case} {a.method} {a.path[:80]}: {', '.join(a.problems())}"
           for a in answers if a.problems()]  # fmt: skip
    assert not bad, "\n".join(bad)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 302 is an answer to look at, not to follow


@dataclass
class Client:
    """HTTP against the stack's gunicorn: a token, or a session's cookies (with its CSRF
    token sent back on each POST); every request measured and journalled."""

    base: str
    memory: Memory
    journal: Journal
    token: str = ""
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(
            _NoRedirects, urllib.request.HTTPCookieProcessor(self.jar)
        )

    def send(
        self, case: str, method: str, path: str, body: bytes | None = None,
        content_type: str = "", headers: dict[str, str] | None = None,
    ) -> Seen:  # fmt: skip
        request = urllib.request.Request(self.base + path, data=body, method=method)
        request.add_header("Accept", "application/json" if path.startswith("/api/") else "*/*")
        if content_type:
            request.add_header("Content-Type", content_type)
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        self.memory.start()
        started = time.monotonic()
        status, answer, head, note = 0, b"", {}, ""
        try:
            with self.opener.open(request, timeout=CLIENT_TIMEOUT_S) as response:
                status, answer, head = response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            status, answer, head = error.code, error.read(), dict(error.headers)
        except OSError as error:  # no answer: timeout, reset, refused
            note = f"no answer: {error}"
        elapsed = time.monotonic() - started
        rss, peak, gone = self.memory.growth_mb()
        seen = Seen(case, method, path, status, elapsed, rss, peak,
                    " ".join(filter(None, [note, gone])), answer, head)  # fmt: skip
        self.journal.seen.append(seen)
        return seen

    def json(self, case: str, method: str, path: str, document: Any = None) -> Seen:
        body = None if document is None else json.dumps(document).encode()
        return self.send(case, method, path, body, "application/json" if body else "")

    # -- a browser's session -------------------------------------------------------------

    def csrf(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "csrftoken"), "")

    def form(self, case: str, path: str, fields: dict[str, str],
             files: dict[str, tuple[str, bytes, str]] | None = None) -> Seen:  # fmt: skip
        """POST a form as a browser does, multipart when it carries files, after a GET of
        the page for the CSRF cookie when the session has none yet."""
        if not self.csrf():
            self.send(case, "GET", path)
        fields = {"csrfmiddlewaretoken": self.csrf(), **fields}
        body, content_type = multipart(fields, files or {})
        return self.send(case, "POST", path, body, content_type, {"Referer": self.base + path})

    def log_in(self, case: str, username: str, password: str) -> Seen:
        return self.form(case, "/accounts/login/", {"username": username, "password": password})


def multipart(
    fields: dict[str, str], files: dict[str, tuple[str, bytes, str]]
) -> tuple[bytes, str]:
    """A multipart/form-data body: (bytes, its Content-Type)."""
    boundary = f"----hostile{secrets.token_hex(12)}"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + value.encode() + b"\r\n"
        )  # fmt: skip
    for name, (filename, data, kind) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: {kind}\r\n\r\n'
        )
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
