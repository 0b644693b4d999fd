"""Backups: scripts/backup.sh dumps a real database, scripts/restore.sh brings it back intact.

The round trip runs the scripts as an operator would, under dash (the strictest POSIX shell
at hand), against throwaway databases on the local PostgreSQL server: a source migrated and
filled through the app's own code, and a target that restore.sh creates.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
BACKUP = ROOT / "scripts" / "backup.sh"
RESTORE = ROOT / "scripts" / "restore.sh"
EXAMPLES = ROOT / "examples"
SERVER = "postgres://postgres@127.0.0.1:5432"
# The local server trusts its clients, so this password is sent nowhere; it is in the URLs to
# show that the scripts never print it.
PASSWORD = "not-printed-8c1f"
DUMP_GLOB = "advisor-*.dump"

# Assessments stored through the service the API uses, so result_json is the app's own text.
ASSESS = """
import json
from pathlib import Path
from django.contrib.auth.models import User
from advisor.assessments.services import assessment_create
user = User.objects.get(username="demo")
for name in {names!r}:
    document = json.loads((Path({examples!r}) / name).read_text())
    assessment, created = assessment_create(user=user, document=document)
    assert created, name
"""

# A new row after the restore: the id sequences came back with the data.
ADD_ONE = """
import json
from pathlib import Path
from django.contrib.auth.models import User
from advisor.assessments.services import assessment_create
document = json.loads(Path({example!r}).read_text())
assessment, _ = assessment_create(user=User.objects.get(username="demo"), document=document)
print(assessment.pk)
"""


def require_tool(name: str) -> str:
    """The tool's path; skip without it on a developer machine, fail in CI."""
    found = shutil.which(name)
    if found is None:
        message = f"{name} is not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI must provide it)")
        pytest.skip(message)
    return found


def require_postgres() -> None:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    for tool in ("dash", "psql", "pg_dump", "pg_restore", "createdb", "dropdb"):
        require_tool(tool)


def database_url(name: str, *, password: bool = False) -> str:
    if not password:
        return f"{SERVER}/{name}"
    return SERVER.replace("postgres@", f"postgres:{PASSWORD}@") + f"/{name}"


def run(
    args: list[str], *, database: str | None = None, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A command in a clean environment: DATABASE_URL is only what the caller gives."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "KEEP")}
    if database is not None:
        env["DATABASE_URL"] = database
    env.update(extra or {})
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def manage(database: str, *args: str) -> str:
    """manage.py with the production settings, as the deployed app runs it; its output."""
    app = {"DJANGO_SETTINGS_MODULE": "advisor.settings", "DEBUG": "1"}
    done = run([sys.executable, "manage.py", *args], database=database, extra=app)
    assert done.returncode == 0, done.stderr
    return done.stdout


def backup(
    database: str | None, directory: Path, *, keep: str | None = None
) -> subprocess.CompletedProcess[str]:
    extra = {"KEEP": keep} if keep is not None else None
    return run(["dash", str(BACKUP), str(directory)], database=database, extra=extra)


def restore(dump: Path, target: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return run(["dash", str(RESTORE), *flags, str(dump), target])


def drop_database(name: str) -> None:
    subprocess.run(
        ["dropdb", "--if-exists", "--force", f"--maintenance-db={SERVER}/postgres", name],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip


def create_database(name: str) -> None:
    subprocess.run(
        ["createdb", f"--maintenance-db={SERVER}/postgres", name],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip


def row_counts(url: str) -> dict[str, int]:
    """Rows in every advisor table plus the users and the applied migrations."""
    with psycopg.connect(url) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND (tablename LIKE 'advisor\\_%' OR tablename IN"
                " ('auth_user', 'authtoken_token', 'django_migrations')) ORDER BY tablename"
            )
        ]
        counts: dict[str, int] = {}
        for table in tables:
            # The names come from the catalogue, not from input: safe to quote and interpolate.
            row = conn.execute(f'SELECT count(*) FROM public."{table}"').fetchone()
            assert row is not None
            counts[table] = int(row[0])
    return counts


def results(url: str) -> list[tuple[int, bytes]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT id, result_json FROM advisor_assessment ORDER BY id")
        return [(int(pk), str(text).encode()) for pk, text in rows]


def dumps_in(directory: Path) -> list[Path]:
    return sorted(directory.glob(DUMP_GLOB))


@dataclass(frozen=True)
class RoundTrip:
    source: str
    target: str
    dump: Path
    backup_output: str
    restore_output: str


# seed_demo's three example assessments and the two created here.
STORED = 3 + 2


def fill_source(url: str) -> None:
    manage(url, "migrate", "--noinput")
    manage(url, "seed_demo")
    names = ["lemans-aix53-etl.json", "prime-spds-aix.json"]
    manage(url, "shell", "-c", ASSESS.format(names=names, examples=str(EXAMPLES)))


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoundTrip]:
    """Back up a filled source database and restore it into a fresh target, once per module."""
    require_postgres()
    source, target = (f"advisor_backup_{side}_{os.getpid()}" for side in ("src", "dst"))
    for name in (source, target):
        drop_database(name)  # left over by an interrupted run with the same pid
    try:
        create_database(source)
        fill_source(database_url(source))
        directory = tmp_path_factory.mktemp("backups")
        made = backup(database_url(source, password=True), directory)
        assert made.returncode == 0, made.stderr
        (dump,) = dumps_in(directory)
        restored = restore(dump, database_url(target, password=True))
        assert restored.returncode == 0, restored.stderr
        yield RoundTrip(
            source=database_url(source), target=database_url(target), dump=dump,
            backup_output=made.stdout + made.stderr,
            restore_output=restored.stdout + restored.stderr,
        )  # fmt: skip
    finally:
        for name in (source, target):
            drop_database(name)


def test_scripts_are_posix_and_shellcheck_clean() -> None:
    shellcheck = require_tool("shellcheck")
    dash = require_tool("dash")
    for script in (BACKUP, RESTORE):
        assert script.read_text().startswith("#!/bin/sh\n"), script
        assert os.access(script, os.X_OK), f"{script} is not executable"
        # -x follows the sourced scripts/_pgurl.sh (run() works from the root).
        checked = run([shellcheck, "-s", "sh", "-x", str(script.relative_to(ROOT))])
        assert checked.returncode == 0, checked.stdout
        for shell in ("sh", dash):
            parsed = run([shell, "-n", str(script)])
            assert parsed.returncode == 0, parsed.stderr


def test_backup_refuses_a_sqlite_url_and_says_how_to_back_it_up(tmp_path: Path) -> None:
    require_tool("dash")
    done = backup(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "backups")
    assert done.returncode != 0
    assert "SQLite" in done.stderr
    assert ".backup" in done.stderr  # the sqlite3 shell's online backup
    assert str(tmp_path / "db.sqlite3") in done.stderr
    assert not (tmp_path / "backups").exists()


def test_backup_refuses_an_unset_url(tmp_path: Path) -> None:
    require_tool("dash")
    done = backup(None, tmp_path)
    assert done.returncode != 0
    assert "DATABASE_URL is not set" in done.stderr
    assert dumps_in(tmp_path) == []


def test_failed_backup_leaves_no_file_and_no_password(tmp_path: Path) -> None:
    require_postgres()
    done = backup(database_url(f"advisor_backup_absent_{os.getpid()}", password=True), tmp_path)
    assert done.returncode != 0
    assert "no dump was written" in done.stderr
    assert list(tmp_path.iterdir()) == []  # neither a dump nor its temporary file
    assert PASSWORD not in done.stdout + done.stderr


def test_restore_refuses_a_file_that_is_not_a_dump(tmp_path: Path) -> None:
    require_postgres()
    junk = tmp_path / "advisor-20000101T000000Z.dump"
    junk.write_bytes(b"not a dump\n")
    target = f"advisor_backup_never_{os.getpid()}"
    done = restore(junk, database_url(target))
    assert done.returncode != 0
    assert "not a pg_dump custom-format archive" in done.stderr
    with psycopg.connect(database_url("postgres")) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [target])
        assert found.fetchone() is None, "the target was created for a bad dump"


@pytest.mark.slow
def test_round_trip_keeps_every_row(round_trip: RoundTrip) -> None:
    source = row_counts(round_trip.source)
    assert source["advisor_assessment"] == STORED
    assert source["advisor_organisation"] == 1
    assert source["auth_user"] == 1
    assert source["django_migrations"] > 0
    assert row_counts(round_trip.target) == source


@pytest.mark.slow
def test_round_trip_keeps_results_byte_for_byte(round_trip: RoundTrip) -> None:
    source = results(round_trip.source)
    assert len(source) == STORED and all(len(text) > 1000 for _, text in source)
    assert results(round_trip.target) == source


@pytest.mark.slow
def test_scripts_report_the_dump_and_the_counts_but_never_the_password(
    round_trip: RoundTrip,
) -> None:
    assert round_trip.dump.name.startswith("advisor-") and round_trip.dump.name.endswith("Z.dump")
    assert f"wrote {round_trip.dump} ({round_trip.dump.stat().st_size} bytes)" in (
        round_trip.backup_output
    )
    assert round_trip.dump.stat().st_mode & 0o077 == 0  # password hashes and tokens inside
    assert f"advisor_assessment {STORED} rows" in round_trip.restore_output
    assert "advisor_organisation 1 rows" in round_trip.restore_output
    assert "django_migrations" in round_trip.restore_output
    assert PASSWORD not in round_trip.backup_output + round_trip.restore_output


@pytest.mark.slow
def test_restore_refuses_a_non_empty_target_without_force(round_trip: RoundTrip) -> None:
    before = row_counts(round_trip.target)
    done = restore(round_trip.dump, round_trip.target)
    assert done.returncode != 0
    assert "already has" in done.stderr and "--force" in done.stderr
    assert row_counts(round_trip.target) == before


@pytest.mark.slow
def test_restore_with_force_replaces_the_target(round_trip: RoundTrip) -> None:
    with psycopg.connect(round_trip.target, autocommit=True) as conn:
        conn.execute("DELETE FROM advisor_assessment")  # so the replacement shows
    done = restore(round_trip.dump, round_trip.target, "--force")
    assert done.returncode == 0, done.stderr
    assert row_counts(round_trip.target) == row_counts(round_trip.source)
    assert results(round_trip.target) == results(round_trip.source)


@pytest.mark.slow
def test_the_app_runs_on_a_restored_database(round_trip: RoundTrip) -> None:
    # Its own target, so the shared one stays equal to the source for the other tests.
    name = f"advisor_backup_app_{os.getpid()}"
    drop_database(name)
    try:
        done = restore(round_trip.dump, database_url(name))
        assert done.returncode == 0, done.stderr
        manage(database_url(name), "migrate", "--check")  # no migration left to apply
        example = str(EXAMPLES / "lemans-aix53-etl.json")
        printed = manage(database_url(name), "shell", "-c", ADD_ONE.format(example=example))
        new_id = int(printed.split()[-1])  # after the shell's note on what it imported
        assert new_id > max(pk for pk, _ in results(round_trip.source))
    finally:
        drop_database(name)


@pytest.mark.slow
def test_keep_removes_all_but_the_newest_dumps(round_trip: RoundTrip, tmp_path: Path) -> None:
    older = ["advisor-20200101T000000Z.dump", "advisor-20210101T000000Z.dump"]
    for name in older:
        (tmp_path / name).write_bytes(b"an old dump\n")
    unrelated = tmp_path / "notes.txt"
    unrelated.write_text("kept\n")
    done = backup(round_trip.source, tmp_path, keep="2")
    assert done.returncode == 0, done.stderr
    kept = [path.name for path in dumps_in(tmp_path)]
    assert len(kept) == 2 and kept[0] == older[1]
    assert unrelated.exists()
    assert run(["pg_restore", "--list", str(tmp_path / kept[1])]).returncode == 0
