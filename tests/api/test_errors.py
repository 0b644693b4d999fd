"""Every failure is the JSON envelope: 400/401/404/405/413/415/429/500, never HTML."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from advisor.api.throttling import TokenRateThrottle
from advisor.core import errors
from advisor.core.middleware import RequestSizeLimitMiddleware
from tests.api.conftest import ADVICE, ASSESSMENTS, BROWSER_ACCEPT

MB = 1024 * 1024
# The throttle's clock in these tests: 30 s into a minute window (6000 s starts one).
NOW = 6030.0


def assert_envelope(body: dict[str, Any], code: str) -> None:
    # retry_after only where the answer is "try again later" (429, 503).
    extra = {"retry_after"} if code in ("throttled", "unavailable") else set()
    assert set(body) == {"code", "detail", "errors", *extra}
    assert body["code"] == code
    assert isinstance(body["detail"], str) and body["detail"]


@pytest.mark.parametrize(
    "method,url", [("get", ASSESSMENTS), ("post", ASSESSMENTS), ("post", ADVICE),
                   ("get", "/api/v1/rules/"), ("get", ASSESSMENTS + "1/bundle.zip")],
)  # fmt: skip
def test_no_credentials_is_401_with_the_scheme(
    anon: APIClient, db: None, method: str, url: str
) -> None:
    response = getattr(anon, method)(url, {}, format="json") if method == "post" else anon.get(url)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert_envelope(response.json(), "not_authenticated")


def test_a_bad_token_is_401(anon: APIClient, db: None) -> None:
    anon.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = anon.get(ASSESSMENTS)

    assert response.status_code == 401
    assert_envelope(response.json(), "authentication_failed")


def test_errors_are_json_even_when_the_client_asks_for_html(anon: APIClient, db: None) -> None:
    # A browser's Accept (HTML first, anything at last) gets the JSON error; an Accept that
    # names only HTML gets 406, in JSON too: the API answers nothing else.
    response = anon.get(ASSESSMENTS, HTTP_ACCEPT=BROWSER_ACCEPT)

    assert response.status_code == 401
    assert response["Content-Type"] == "application/json"
    assert_envelope(response.json(), "not_authenticated")
    only_html = anon.get(ASSESSMENTS, HTTP_ACCEPT="text/html")
    assert only_html.status_code == 406
    assert only_html["Content-Type"] == "application/json"
    assert_envelope(only_html.json(), "not_acceptable")


def test_wrong_method_is_405(api: APIClient) -> None:
    response = api.delete(ASSESSMENTS)

    assert response.status_code == 405
    assert_envelope(response.json(), "method_not_allowed")


def test_a_form_body_is_415(api: APIClient) -> None:
    response = api.post(ADVICE, {"schema_version": 1})

    assert response.status_code == 415
    assert_envelope(response.json(), "unsupported_media_type")


def test_malformed_json_is_400_at_the_root(api: APIClient) -> None:
    response = api.post(ADVICE, b'{"schema_version": ', content_type="application/json")

    assert response.status_code == 400
    body = response.json()
    assert_envelope(body, "parse_error")
    assert list(body["errors"]) == ["$"]


def test_json_nested_too_deeply_is_400_not_a_crash(api: APIClient) -> None:
    response = api.post(ADVICE, b"[" * 100_000, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["errors"] == {"$": ["JSON parse error - nested too deeply"]}


def test_a_body_over_one_megabyte_is_413(api: APIClient, lemans: dict[str, Any]) -> None:
    lemans["name"] = "x" * MB

    response = api.post(ASSESSMENTS, lemans, format="json")

    assert response.status_code == 413
    assert response.json() == {
        "code": "too_large",
        "detail": f"The request body is larger than {MB} bytes.",
        "errors": {},
    }


def test_a_body_just_under_the_limit_is_read(api: APIClient, lemans: dict[str, Any]) -> None:
    lemans["name"] = "x" * (MB - 2000)  # too long for the contract, not for the server

    response = api.post(ADVICE, lemans, format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {"name": ["must be at most 200 characters"]}


def _chunked(body: bytes, *, terminated: bool) -> Any:
    environ = {
        "wsgi.input": io.BytesIO(body),
        "CONTENT_LENGTH": "",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input_terminated": terminated,
    }
    request = RequestFactory().post(ADVICE, content_type="application/json", **environ)
    seen: dict[str, bytes] = {}

    def view(req: Any) -> Any:
        seen["body"] = req.body
        return errors.json_error(200, "ok", "read")

    return RequestSizeLimitMiddleware(view)(request), seen


def test_a_chunked_body_over_the_limit_is_413() -> None:
    response, seen = _chunked(b"x" * (MB + 1), terminated=True)

    assert response.status_code == 413
    assert seen == {}


def test_a_small_chunked_body_reaches_the_view() -> None:
    response, seen = _chunked(b'{"a": 1}', terminated=True)

    assert response.status_code == 200
    assert seen == {"body": b'{"a": 1}'}


def test_a_chunked_body_the_server_cannot_bound_is_411() -> None:
    response, _ = _chunked(b"{}", terminated=False)

    assert response.status_code == 411
    assert json.loads(response.content)["code"] == "length_required"


def test_the_limit_is_the_setting_when_the_middleware_is_built() -> None:
    with override_settings(MAX_REQUEST_BYTES=2048):
        middleware = RequestSizeLimitMiddleware(lambda request: errors.json_error(200, "ok", ""))
    request = RequestFactory().post(ADVICE, b"x" * 2049, content_type="application/json")

    response = middleware(request)

    assert response.status_code == 413
    assert json.loads(response.content)["detail"] == "The request body is larger than 2048 bytes."


def throttle_every_view(monkeypatch: pytest.MonkeyPatch, **rates: str) -> None:
    """Turn the throttles on (the test settings have none) at `rates`, at a fixed time."""
    classes = [TokenRateThrottle, AnonRateThrottle]
    monkeypatch.setattr(APIView, "throttle_classes", classes)
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: NOW))


def test_throttling_is_per_token_and_answers_429(
    api: APIClient, outsider_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    throttle_every_view(monkeypatch, user="3/minute", anon="2/minute")

    codes = [api.get(ASSESSMENTS).status_code for _ in range(4)]
    other = outsider_api.get(ASSESSMENTS)

    assert codes == [200, 200, 200, 429]
    assert other.status_code == 200  # another token has its own budget
    limited = api.get(ASSESSMENTS)
    assert_envelope(limited.json(), "throttled")
    # The 3 requests were made now: the first leaves the last minute in 60 s.
    assert limited["Retry-After"] == "60"
    assert limited.json()["retry_after"] == 60


def test_health_is_never_throttled(
    anon: APIClient, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    throttle_every_view(monkeypatch, user="1/minute", anon="1/minute")

    codes = {anon.get("/api/v1/health/").status_code for _ in range(3)}

    assert codes == {200}


@pytest.mark.urls("tests.api.urls_with_handlers")
def test_an_unknown_api_url_is_a_json_404(db: None) -> None:
    response = Client().get("/api/v1/no-such-thing/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert_envelope(response.json(), "not_found")


@pytest.mark.urls("tests.api.urls_with_handlers")
def test_a_crash_under_api_is_a_json_500_without_a_traceback(db: None) -> None:
    response = Client(raise_request_exception=False).get("/api/v1/boom/")

    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "detail": "The server failed to answer this request.",
        "errors": {},
    }
    assert b"Traceback" not in response.content


@pytest.mark.urls("tests.api.urls_with_handlers")
def test_outside_api_the_django_pages_stay(db: None) -> None:
    response = Client().get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_django_handlers_answer_json_under_api() -> None:
    request = RequestFactory().get("/api/v1/x/")

    assert errors.handler400(request, SuspiciousOperation()).status_code == 400
    denied = errors.handler403(request, PermissionDenied())
    assert json.loads(denied.content)["code"] == "permission_denied"
    assert errors.handler404(request, Http404())["Content-Type"] == "application/json"
