"""Logins and sessions: a success resets the lockout count (the lockout itself, by user
name and address together: test_login_lockout.py), password reset only with mail, the
headers every answer carries, the HTTPS settings, the anonymous API throttle, and a weak
SECRET_KEY refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import clear_url_caches
from rest_framework.test import APIClient

from advisor.core import security

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "/accounts/login/"


def _fail(browser: Client, username: str, address: str = "203.0.113.7") -> int:
    data = {"username": username, "password": "wrong-password"}
    status: int = browser.post(LOGIN, data, REMOTE_ADDR=address).status_code
    return status


def test_a_success_resets_the_count(user: User) -> None:
    browser = Client()
    for _ in range(4):
        _fail(browser, "alice")
    assert browser.post(LOGIN, {"username": "alice", "password": "pw-alice"},
                        REMOTE_ADDR="192.0.2.9").status_code == 302  # fmt: skip
    assert _fail(Client(), "alice", "192.0.2.10") == 200


def test_the_client_address_comes_from_the_trusted_proxy() -> None:
    class Request:
        META = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 198.51.100.4"}

    with override_settings(TRUSTED_PROXIES=0):
        assert security.client_ip(Request()) == "10.0.0.2"  # type: ignore[arg-type]
    with override_settings(TRUSTED_PROXIES=1):
        # The entry nginx appended; the one before it is whatever the client claimed.
        assert security.client_ip(Request()) == "198.51.100.4"  # type: ignore[arg-type]


def _with_mail(host: str) -> None:
    from advisor import urls

    with override_settings(EMAIL_HOST=host):
        clear_url_caches()
        urls.urlpatterns[1:3] = [  # the login view and the accounts URLs, rebuilt
            urls.path("accounts/login/", urls.LoginView.as_view(
                extra_context={"mail_configured": bool(host)}), name="login"),
            urls.path("accounts/", urls.include(urls.account_urls())),
        ]  # fmt: skip


@pytest.mark.parametrize("host", ["", "smtp.example.com"])
def test_password_reset_is_offered_only_with_mail(db: None, host: str) -> None:
    from advisor import urls

    saved = list(urls.urlpatterns)
    try:
        _with_mail(host)
        login = Client().get(LOGIN).content.decode()
        reset = Client().get("/accounts/password_reset/")
    finally:
        urls.urlpatterns[:] = saved
        clear_url_caches()

    assert ("Forgot your password?" in login) is bool(host)
    assert reset.status_code == (200 if host else 404)


def test_every_dynamic_answer_carries_the_security_headers(client_in: Client) -> None:
    for url in ("/", "/assessments/new/", "/api/v1/health/", "/api/v1/rules/"):
        response = client_in.get(url)
        assert response["Content-Security-Policy"] == security.POLICY, url
        assert "camera=()" in response["Permissions-Policy"]
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    docs = client_in.get("/api/redoc/")
    assert "worker-src 'self' blob:" in docs["Content-Security-Policy"]


def test_api_answers_and_downloads_are_not_cached(api: APIClient, lemans: dict[str, Any]) -> None:
    created = api.post("/api/v1/assessments/", lemans, format="json").json()
    bundle = api.get(f"/api/v1/assessments/{created['id']}/bundle.zip")

    assert bundle.status_code == 200
    assert bundle["Cache-Control"] == "private, no-store"


def test_https_settings_follow_the_proxy_header() -> None:
    assert security.https_settings(None) == {}
    found = security.https_settings("X-Forwarded-Proto")
    assert found["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert found["SESSION_COOKIE_SECURE"] and found["CSRF_COOKIE_SECURE"]
    assert found["SECURE_HSTS_SECONDS"] >= 31_536_000


@pytest.mark.parametrize(
    ("key", "weak"),
    [("short", True), ("a" * 60, True), ("django-insecure-" + "x1y2z3" * 10, True),
     ("Fq3k" * 5 + "ZsD8u1_mHqP0v7rWb2nTcLe5yXg9jKa4oIhU6", False)],
)  # fmt: skip
def test_weak_secret_keys(key: str, weak: bool) -> None:
    assert security.weak_secret_key(key) is weak


def _serve(env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    base |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DEBUG": "0", **env}
    return subprocess.run([sys.executable, "-c", "import advisor.wsgi"], capture_output=True,
                          text=True, cwd=ROOT, env=base, timeout=120)  # fmt: skip


@pytest.mark.slow
def test_serving_with_a_weak_secret_key_is_refused(tmp_path: Path) -> None:
    refused = _serve({"SECRET_KEY": "change-me"}, tmp_path)
    served = _serve({"SECRET_KEY": "k3Y-" + "abcdefghij" * 5}, tmp_path)

    assert refused.returncode != 0 and "SECRET_KEY is too weak" in refused.stderr
    assert served.returncode == 0, served.stderr


@pytest.mark.slow
def test_the_deployment_check_is_clean_for_production_settings(tmp_path: Path) -> None:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; a deployment does not.
    drop = ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env |= {"DEBUG": "0", "SECRET_KEY": "k3Y-" + "abcdefghij" * 5,
            "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto", "ALLOWED_HOSTS": "advisor.example.com",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_anonymous_api_throttle_applies(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.api.test_errors import throttle_every_view

    throttle_every_view(monkeypatch, user="100/minute", anon="2/minute")
    cache.clear()
    anon = APIClient()
    codes = [anon.get("/api/v1/assessments/").status_code for _ in range(4)]

    assert codes == [401, 401, 429, 429]
