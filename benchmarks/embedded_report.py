"""Benchmark: the report build request on the embedded default, as a new user runs it.

Starts `scripts/run.sh` (SQLite, a Celery worker over a broker of files, the development
server) on a free port, logs in as the demo user and asks for a report on each seeded
assessment, several rounds: the request must answer (with its progress bar) in < 1 s
while the worker builds the PDF; the time until the report is ready is printed beside it.

    uv run python benchmarks/embedded_report.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scale import reference_loop  # noqa: E402

from tests.deploy.embedded import CSRF, DEMO, embedded_default  # noqa: E402

TARGET_S = 1.0  # the acceptance: the build request returns in < 1 s
READY_TIMEOUT_S = 180.0
REPORT_LINK = re.compile(r'href="/reports/(\d+)/"')


class Browser:
    """Cookies and CSRF tokens over urllib: what a logged-in page does, without a page."""

    def __init__(self, base: str) -> None:
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(self, path: str, **headers: str) -> str:
        request = urllib.request.Request(self.base + path, headers=headers)
        with self.opener.open(request, timeout=30) as response:
            return str(response.read().decode())

    def post(self, path: str, form: dict[str, str], **headers: str) -> str:
        data = urllib.parse.urlencode(form).encode()
        request = urllib.request.Request(
            self.base + path, data, headers={"Referer": self.base + path, **headers}
        )
        with self.opener.open(request, timeout=30) as response:
            return str(response.read().decode())

    def token(self, path: str) -> str:
        found = CSRF.search(self.get(path))
        if found is None:
            raise SystemExit(f"no CSRF token on {path}")
        return found.group(1)


def build(browser: Browser, pk: str) -> tuple[float, float]:
    """(seconds until the build request answered, seconds until the report was ready)."""
    page = f"/assessments/{pk}/"
    form = {"csrfmiddlewaretoken": browser.token(page)}
    start = time.perf_counter()
    answer = browser.post(page + "report/", form, **{"HX-Request": "true"})
    answered = time.perf_counter() - start
    link = REPORT_LINK.search(answer)
    if "<progress" not in answer or link is None:
        raise SystemExit(f"the build request answered without progress:\n{answer[:500]}")
    while time.perf_counter() - start < READY_TIMEOUT_S:
        status = browser.get(f"/reports/{link.group(1)}/status/", **{"HX-Request": "true"})
        if "download the PDF" in status:
            return answered, time.perf_counter() - start
        if "failed" in status:
            raise SystemExit(f"report {link.group(1)} failed:\n{status[:500]}")
        time.sleep(0.2)
    raise SystemExit(f"report {link.group(1)} not ready after {READY_TIMEOUT_S:g} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, embedded_default(Path(folder)) as app:
        browser = Browser(app.url)
        browser.post("/accounts/login/", {**DEMO, "csrfmiddlewaretoken":
                                          browser.token("/accounts/login/")})  # fmt: skip
        pks = sorted(set(re.findall(r'href="/assessments/(\d+)/"', browser.get("/"))))
        runs = [build(browser, pk) for _ in range(args.rounds) for pk in pks]
    answered, ready = [a for a, _ in runs], [r for _, r in runs]
    print(f"embedded default (scripts/run.sh), {len(runs)} report builds on {len(pks)} "
          f"assessments, {os.cpu_count()} CPUs")  # fmt: skip
    print(f"build request: median {statistics.median(answered) * 1000:.0f} ms, "
          f"max {max(answered) * 1000:.0f} ms (target < {TARGET_S * 1000:.0f} ms: "
          f"{'met' if max(answered) < TARGET_S else 'NOT met'})")  # fmt: skip
    print(f"report ready after: median {statistics.median(ready):.1f} s, max {max(ready):.1f} s")
    print(f"reference loop (1,000,000 additions): {reference_loop():.1f} ms")


if __name__ == "__main__":
    main()
