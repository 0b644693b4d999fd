"""Latency of the inventory form's live preview partial (target: p95 ≤ 50 ms).

Posts the lemans inventory, as the browser form sends it, to /assessments/preview/ with
HX-Request set, through Django's full request stack (middleware, session, auth, template
rendering) with the test client. A throwaway in-memory SQLite database holds the session
and the user, so the figure is the view's own cost, not a database round trip.

    uv run python benchmarks/preview.py [--requests 300] [--example lemans-aix53-etl] [--rows 512]

--rows N replaces the example's storage with N entries (copies of its first, each on its own
mount point): the form takes up to 512. The target is set for the example as it is.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
TARGET_P95_MS = 50.0
WARMUP = 20
FORM = "application/x-www-form-urlencoded"


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    os.environ["DATABASE_URL"] = "sqlite://:memory:"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # Not setup_test_environment(): its template instrumentation would inflate the figure.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0, interactive=False)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def inventory(example: str, rows: int | None) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((ROOT / "examples" / f"{example}.json").read_text())
    if rows is not None:
        first = doc["storage"][0]
        doc["storage"] = [{**first, "name": f"lv{i}", "mount": f"/sas{i}"} for i in range(rows)]
    return doc


def measure(requests: int, doc: dict[str, Any]) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per request (CPU time ignores other processes)."""
    from django.contrib.auth.models import User
    from django.test import Client

    from advisor.assessments.inventory_form import data_from_document
    from advisor.models import Membership, Organisation

    user = User.objects.create_user("bench", password="bench-password")
    Membership.objects.create(user=user, organisation=Organisation.objects.create(name="Bench"))
    client = Client()
    client.force_login(user)
    data = data_from_document(doc)
    body = urlencode(data)  # htmx posts a form urlencoded, not as multipart
    samples, cpu = [], []
    for i in range(WARMUP + requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.post(
            "/assessments/preview/", body, content_type=FORM, HTTP_HX_REQUEST="true"
        )
        elapsed_ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.process_time() - start_cpu) * 1000
        if response.status_code != 200 or b'id="preview"' not in response.content:
            raise SystemExit(f"preview failed: HTTP {response.status_code}")
        if i >= WARMUP:
            samples.append(elapsed_ms)
            cpu.append(cpu_ms)
    return samples, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--example", default="lemans-aix53-etl")
    parser.add_argument("--rows", type=int, default=None, help="storage entries (1-512)")
    args = parser.parse_args()
    setup_django()
    doc = inventory(args.example, args.rows)
    samples, cpu = measure(args.requests, doc)
    p50, p95 = percentile(samples, 0.50), percentile(samples, 0.95)
    rows = f", {len(doc['storage'])} storage rows"
    print(f"preview partial, {args.example}{rows}, {len(samples)} requests after {WARMUP} warm-up")
    print(f"p50 {p50:.1f} ms  p95 {p95:.1f} ms  mean {statistics.fmean(samples):.1f} ms (wall)")
    cpu50, cpu95 = percentile(cpu, 0.50), percentile(cpu, 0.95)
    print(f"p50 {cpu50:.1f} ms  p95 {cpu95:.1f} ms (CPU time of this process)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"target p95 <= {TARGET_P95_MS:g} ms: {'met' if p95 <= TARGET_P95_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
