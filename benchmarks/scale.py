"""One organisation with 100,000 assessments: the list and the host-name search per query.

    uv run python benchmarks/scale.py [--rows 100000] [--runs 30]

Creates and migrates a PostgreSQL database (BENCH_DATABASE_URL, default
advisor_scale_bench on 127.0.0.1), stores four real assessments (the example
inventories) and copies them inside PostgreSQL into --rows rows with distinct host
names and creation times, one organisation, then VACUUM ANALYZE (as autovacuum leaves
a table). Times whole pages as the list page and the API list build them (count, keys,
rows: advisor/core/paging.py): the first, a deep and the last page, and a host-name
search that finds ten and one that finds a tenth; median and p95 of --runs runs, and
the plan of each statement. Target: every query <= 50 ms; the benchmark holds the
page's three together to it, and prints each plan's own time. A fixed pure-Python loop
is timed in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/advisor_scale_bench"
EXAMPLES = ("lemans-aix53-etl", "prime-spds-aix", "linux-rhel9-sas94", "windows-sas94")
TARGET_MS = 50.0
PAGE = 25
QUERIES = 3  # a page: its count, its keys, its rows


def reference_loop() -> float:
    """A fixed pure-Python loop: its time shows how fast this machine runs right now."""
    start = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i
    return (time.perf_counter() - start) * 1000


def setup(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    for sql in (f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}"):
        subprocess.run(["psql", admin, "-qc", sql], check=True, capture_output=True)
    os.environ.update({"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "advisor.settings",
                       "SECRET_KEY": "scale-bench-" + "k3Yx9" * 10})  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fill(rows: int) -> Any:
    from django.db import connection

    import rules
    from advisor.assessments.services import assessment_from_result
    from advisor.models import Assessment, Organisation

    org = Organisation.objects.create(name="Scale")
    seeds = []
    for name in EXAMPLES:
        document = json.loads((ROOT / "examples" / f"{name}.json").read_text())
        result = rules.advise_inventory(rules.inventory_from(document))
        seeds.append(assessment_from_result(result, organisation=org, request_hash=""))
    Assessment.objects.bulk_create(seeds)
    fields = [f.column for f in Assessment._meta.concrete_fields if not f.primary_key]
    copied = ", ".join(
        "'host' || lpad(n::text, 6, '0')" if c == "hostname"
        else "now() - n * interval '1 minute'" if c == "created_at"
        else f"s.{c}"
        for c in fields
    )  # fmt: skip
    ids = [s.pk for s in seeds]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO advisor_assessment ({', '.join(fields)}) SELECT {copied} "
            "FROM generate_series(1, %s) AS n JOIN advisor_assessment s "
            "ON s.id = (%s::bigint[])[1 + n %% 4]",
            [rows - len(seeds), ids],
        )
        cursor.execute("VACUUM ANALYZE advisor_assessment")
    return org


def queries(org: Any) -> dict[str, Callable[[], Any]]:
    """Each a page as the list view and the API build it: the count, the page's keys,
    then its rows (advisor/core/paging.py)."""
    from django.contrib.auth.models import User

    from advisor.assessments.selectors import assessment_rows
    from advisor.core.paging import KeysFirstPaginator
    from advisor.models import Membership

    user = User.objects.create_user("scale")
    Membership.objects.create(user=user, organisation=org)

    def page(number: int, hostname: str | None = None) -> Callable[[], Any]:
        def run() -> Any:
            rows = assessment_rows(user, hostname=hostname)
            return list(KeysFirstPaginator(rows, PAGE).page(number).object_list)

        return run

    return {
        "list, page 1": page(1),
        "list, page 2,000 (of 4,000)": page(2000),
        "list, last page": page(4000),
        "search 'host04217' (10 found), page 1": page(1, "host04217"),
        "search 'host01' (10,000 found), page 1": page(1, "host01"),
        "search 'host01', page 200": page(200, "host01"),
    }


def plans(query: Callable[[], Any]) -> str:
    """EXPLAIN ANALYZE of every statement the page runs."""
    from django.db import connection

    _CAPTURED.clear()
    with connection.execute_wrapper(_capture):
        query()
    out = []
    with connection.cursor() as cursor:
        for sql, params in list(_CAPTURED):
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql, params)
            out.append("    " + sql[:160] + ("…" if len(sql) > 160 else ""))
            out.extend("      " + row[0] for row in cursor.fetchall())
    return "\n".join(out)


_CAPTURED: list[tuple[str, Any]] = []


def _capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    _CAPTURED.append((sql, params))
    return execute(sql, params, many, context)


def timed(query: Callable[[], Any], runs: int) -> list[float]:
    query()  # warm the cache
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        query()
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--rows", type=int, default=100_000)
    options.add_argument("--runs", type=int, default=30)
    args = options.parse_args()
    setup(os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    start = time.perf_counter()
    org = fill(args.rows)
    print(f"{args.rows:,} assessments in one organisation, stored in "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    ok = True
    for name, query in queries(org).items():
        times = timed(query, args.runs)
        median, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
        ok &= p95 <= TARGET_MS * QUERIES
        print(
            f"\n{name}: median {median:.2f} ms, p95 {p95:.2f} ms for its {QUERIES} queries "
            f"(target <= {TARGET_MS:.0f} ms each, {TARGET_MS * QUERIES:.0f} ms for the page)"
        )
        print(plans(query))
    print(f"\nreference loop (1,000,000 additions): {reference_loop():.1f} ms")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
