"""Running the suite on several CPUs: pytest-xdist workers, each with services of its own.

scripts/test.sh starts one worker per CPU (`-n`, `--dist loadscope`). pytest-django gives
each worker a test database of its own (test_<name>_gw0, test_<name>_gw1 …); this module
gives each worker the rest:

- a Redis database of its own: REDIS_URL_FOR_TESTS names gw0's, worker gwN takes the N-th
  above it (below it once past db 15), set before any test module reads the variable;
- a media directory of its own (MEDIA_ROOT), inherited by the Celery workers and servers
  that the worker's tests start;
- a scheduler (`pytest_xdist_make_scheduler`) that hands out whole modules, so that a
  module's tests share its fixtures and files on one worker and run in file order; the
  folders of one GROUPS entry go to one worker, one after the other; and the heaviest work
  (the groups, then modules with `slow` tests) is handed out first;
- a node id of its own for every test (unique_ids), since xdist hands tests out by id.

The groups are named here by folder, not with xdist's `xdist_group` mark: pytest-xdist
3.8 marks a grouped test by rewriting its node id, which pytest 9 no longer lets it do.

Imported by tests/settings.py (the environment) and tests/conftest.py (the hooks); a
serial run (`scripts/test.sh -n 0`) changes nothing.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:  # the processes the tests start import this module too: keep it light
    import pytest

REDIS_DEFAULT = "redis://127.0.0.1:6379/15"
REDIS_DATABASES = 16  # redis-server's default `databases`
# Folders whose modules run one after another on one worker. tests/faults and tests/hostile
# each start a PostgreSQL, Redis, gunicorn and Celery workers of their own, and hold
# answers to time limits: one such stack at a time on the machine.
GROUPS = {"tests/faults/": "stacks", "tests/hostile/": "stacks"}


def worker_id() -> str:
    """gw0, gw1 … in an xdist worker (and the processes it starts); "" otherwise."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


def redis_url_for_worker(url: str, worker: str) -> str:
    """`url` with worker gwN's database: N above the given one, or N below once past the
    last database."""
    n = int(worker.removeprefix("gw"))
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    db = base + n if base + n < REDIS_DATABASES else base - n
    if db < 0:
        raise ValueError(f"no Redis database left for worker {worker} from {url}")
    return urlunsplit(parts._replace(path=f"/{db}"))


def isolate_worker() -> None:
    """Give this xdist worker its own Redis database and media directory. Idempotent: the
    processes a worker starts inherit its variables and keep them."""
    worker = worker_id()
    if worker:
        base = os.environ.setdefault(
            "REDIS_URL_FOR_TESTS_BASE", os.environ.get("REDIS_URL_FOR_TESTS", REDIS_DEFAULT)
        )
        os.environ["REDIS_URL_FOR_TESTS"] = redis_url_for_worker(base, worker)
    # A media directory made for another process (the xdist controller) is not this one's.
    if os.environ.get("MEDIA_ROOT_OWNER", worker) != worker:
        os.environ.pop("MEDIA_ROOT", None)
    if "MEDIA_ROOT" not in os.environ:
        os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="advisor-test-media-")
        os.environ["MEDIA_ROOT_OWNER"] = worker


# ---- scheduling ------------------------------------------------------------------------


def group_of(nodeid: str) -> str | None:
    """The GROUPS entry the test's module is in, if any."""
    return next((name for folder, name in GROUPS.items() if nodeid.startswith(folder)), None)


def _rank(item: pytest.Item) -> int:
    if group_of(item.nodeid) is not None:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2


def heaviest_first(items: list[pytest.Item]) -> None:
    """Order the modules for the scheduler: grouped ones, then those with slow tests, then
    the rest; each module's tests stay in file order."""
    modules: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        modules[module] = min(modules.get(module, 2), _rank(item))
    order = {module: i for i, module in enumerate(modules)}

    def key(item: pytest.Item) -> tuple[int, int]:
        module = item.nodeid.split("::", 1)[0]
        return modules[module], order[module]

    items.sort(key=key)


def unique_ids(items: list[pytest.Item]) -> None:
    """Give each test a node id of its own. Under pytest 9 the tests schemathesis makes (one
    per API operation) all carry their function's id, without the operation their name
    ends with; xdist hands tests out by id and would run one of them, not all. Each takes
    its name's brackets back; in a parallel run, an id still shared stops the run."""
    counts = Counter(item.nodeid for item in items)
    for item in items:
        node_id: Any = getattr(item, "_id", None)
        bare = getattr(node_id, "params", "") is None  # pytest 9's structured id, no params
        if counts[item.nodeid] > 1 and item.name.endswith("]") and bare:
            item._id = node_id.with_params(item.name.split("[", 1)[1][:-1])
    shared = [nodeid for nodeid, n in Counter(i.nodeid for i in items).items() if n > 1]
    if shared and worker_id():
        import pytest

        raise pytest.UsageError(f"tests share a node id, a parallel run would drop some: {shared}")


def module_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's loadscope scheduling with whole modules as the units of work, the modules of
    a GROUPS entry together as one. The units go out in collection order (heaviest_first),
    not by their number of tests."""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class ModuleScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            group = group_of(nodeid)
            return f"group {group}" if group else nodeid.split("::", 1)[0]

    config.option.loadscopereorder = False
    return ModuleScheduling(config, log)
