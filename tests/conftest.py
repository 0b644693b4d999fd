"""Shared fixtures: organisations, users, API clients and the example inventories."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from advisor.models import Membership, Organisation
from tests import parallel

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return data


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Whole modules per worker, heaviest first (tests/parallel.py)."""
    if config.getvalue("dist") != "loadscope":
        return None
    return parallel.module_scheduler(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    parallel.unique_ids(items)
    if parallel.worker_id():
        parallel.heaviest_first(items)


def require_service(name: str, host: str, port: int) -> None:
    """Skip when a service is missing on a developer machine; fail loudly in CI."""
    try:
        with socket.create_connection((host, port), timeout=1):
            return
    except OSError:
        message = f"{name} is not reachable at {host}:{port}"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI must provide it)")
        pytest.skip(message)


@pytest.fixture
def lemans() -> dict[str, Any]:
    return example("lemans-aix53-etl")


@pytest.fixture
def prime() -> dict[str, Any]:
    return example("prime-spds-aix")


def closed_port() -> int:
    """A loopback port nothing listens on: a service there is down (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def unreachable_redis_caches() -> tuple[str, dict[str, Any]]:
    """(url, CACHES) for the app's fail-open cache pointed at a Redis that is down."""
    url = f"redis://127.0.0.1:{closed_port()}/0"
    options = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
    default = {"BACKEND": "advisor.core.cache.FailOpenRedisCache", "LOCATION": url,
               "OPTIONS": options}  # fmt: skip
    return url, {**settings.CACHES, "default": default}


def make_member(username: str, organisation: Organisation) -> User:
    user = User.objects.create_user(username=username, password="pw-" + username)
    Membership.objects.create(user=user, organisation=organisation)
    return user


@pytest.fixture
def org(db: Any) -> Organisation:
    return Organisation.objects.create(name="Acme Analytics")


@pytest.fixture
def other_org(db: Any) -> Organisation:
    return Organisation.objects.create(name="Globex")


@pytest.fixture
def user(org: Organisation) -> User:
    return make_member("alice", org)


@pytest.fixture
def member(transactional_db: Any) -> User:
    """alice of Acme Analytics in a database the live server sees (the browser tests)."""
    return make_member("alice", Organisation.objects.create(name="Acme Analytics"))


@pytest.fixture
def outsider(other_org: Organisation) -> User:
    return make_member("mallory", other_org)


@pytest.fixture
def client_in(client: Client, user: User) -> Client:
    """Django's test client, logged in as a member of the organisation."""
    client.force_login(user)
    return client


@pytest.fixture
def outsider_client(outsider: User) -> Client:
    """A second test client, logged in as a member of another organisation."""
    other = Client()
    other.force_login(outsider)
    return other


@pytest.fixture
def api(user: User) -> APIClient:
    client = APIClient()
    token = Token.objects.create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def outsider_api(outsider: User) -> APIClient:
    client = APIClient()
    token = Token.objects.create(user=outsider)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
