"""Every page in Debian's Chromium with axe-core: 0 violations at laptop and phone width
(WCAG 2.x A and AA, best practice) in the light and the dark colour scheme, and a
full-page screenshot of each in test-artifacts/screenshots/a11y-*.png for a person to
look at. Pages are filled with data (a finished fleet with drift, a read log, webhook
deliveries, an audit trail, a read server, a verification) so tables show rows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import clear_url_caches
from django.utils import timezone

from advisor.assessments.services import assessment_create
from advisor.fleets.reading import read_fleet
from advisor.fleets.services import fleet_create, fleet_reevaluate
from advisor.logs.services import log_create
from advisor.models import Fleet, FleetItem, JobLog, Membership, Webhook, WebhookDelivery
from rules.parse import draft
from tests.browser import PHONE, SCREENSHOTS, axe_violations, check_page, chromium_tab, log_in
from tests.conftest import example
from tests.fleets.conftest import fleet, ndjson
from tests.web.test_log_browser import NIGHT
from tests.web.test_security import _with_mail
from tests.web.test_start_from_server import linux_transcript
from tests.web.test_verify_page import newer_bundle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(30_000) as tab:
        yield tab


@pytest.fixture
def admin_member(member: User) -> User:
    Membership.objects.filter(user=member).update(is_admin=True)
    return member


def check_both_schemes(tab: Any, name: str, skip_rules: Sequence[str] = ()) -> list[str]:
    """check_page in the light scheme, then as a browser set to dark (NAME-dark-*.png);
    the problems of each, so one page's failure does not hide the next page's."""
    failures = []
    for scheme, suffix in (("light", ""), ("dark", "-dark")):
        tab.emulate_media(color_scheme=scheme)
        try:
            check_page(tab, f"{name}{suffix}", skip_rules=skip_rules)
        except AssertionError as problem:
            failures.append(f"[{scheme}] {problem}")
    tab.emulate_media(color_scheme="light")
    return failures


def check_all(tab: Any, base: str, pages: dict[str, str]) -> None:
    failures = []
    for name, path in pages.items():
        tab.goto(base + path)
        failures += check_both_schemes(tab, f"a11y-{name}")
    assert not failures, "\n\n".join(failures)


def test_logged_out_pages(page: Any, live_server: Any, admin_member: User) -> None:
    base = live_server.url
    page.goto(base + "/accounts/login/")
    failures = check_both_schemes(page, "a11y-login")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("alert").wait_for()
    failures += check_both_schemes(page, "a11y-login-error")
    for _ in range(5):
        page.get_by_label("Password").fill("wrong")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        if "locked" in page.content():
            break
    page.get_by_role("heading", name="Too many failed log-ins").wait_for()
    failures += check_both_schemes(page, "a11y-locked-out")
    assert not failures, "\n\n".join(failures)


def finished_fleets(user: User) -> Fleet:
    """A fleet that ran (tasks run in-process in tests), then re-evaluated after one of its
    servers was said to have been advised otherwise: the second shows drift."""
    entries = read_fleet(ndjson(fleet(6)) + b"{not json\n", "application/x-ndjson")
    first, _ = fleet_create(user=user, entries=entries, name="Night estate")
    item = FleetItem.objects.get(fleet=first, host="sas0001")
    item.settings = {**item.settings, "MEMSIZE": "1G"}
    item.save()
    return fleet_reevaluate(user=user, fleet=first)


def webhook_with_deliveries(user: User) -> None:
    hook = Webhook.objects.create(
        organisation=user.membership.organisation, url="https://provisioning.example/hook",
        secret="whsec_test", events=["fleet.completed", "assessment.created"],
    )  # fmt: skip
    for n, (status, code) in enumerate((("delivered", 200), ("failed", 503))):
        WebhookDelivery.objects.create(
            webhook=hook, event="fleet.completed", message_id=f"msg_{n:032d}", payload={},
            status=status, attempts=n + 1, response_status=code,
            error="" if code == 200 else "Service Unavailable", delivered_at=timezone.now(),
        )  # fmt: skip


def test_every_member_page(page: Any, live_server: Any, admin_member: User) -> None:
    first, _ = assessment_create(user=admin_member, document=example("lemans-aix53-etl"))
    bigger = example("lemans-aix53-etl")
    bigger["server"]["ram_gb"] = 32
    second, _ = assessment_create(user=admin_member, document=bigger)
    second_fleet = finished_fleets(admin_member)
    org = admin_member.membership.organisation
    log = log_create(organisation=org, user=admin_member, name="night.log", chunks=[NIGHT.encode()])
    failed = JobLog.objects.create(
        organisation=org, name="big.log", size_bytes=9_000_000, status="failed",
        error="the worker process was lost",
    )  # fmt: skip
    waiting = JobLog.objects.create(organisation=org, name="big.log", size_bytes=9_000_000)
    webhook_with_deliveries(admin_member)
    log_in(page, live_server.url)
    check_all(
        page,
        live_server.url,
        {
            "list": "/",
            "new": "/assessments/new/?example=lemans-aix53-etl",
            "from-server": "/assessments/from-server/",
            "result": f"/assessments/{first.pk}/",
            "compare": f"/assessments/{first.pk}/compare/{second.pk}/",
            "fleets": "/fleets/",
            "fleet": f"/fleets/{second_fleet.pk}/",
            "logs": "/logs/",
            "log": f"/logs/{log.pk}/",
            "log-failed": f"/logs/{failed.pk}/",
            "log-queued": f"/logs/{waiting.pk}/",
            "webhooks": "/webhooks/",
            "audit": "/audit/",
            "password-change": "/accounts/password_change/",
            "password-change-done": "/accounts/password_change/done/",
        },
    )


def test_server_and_verify_with_data(page: Any, live_server: Any, admin_member: User) -> None:
    document: dict[str, Any] = draft(linux_transcript()).document
    document["workload"] = {
        "concurrent_sessions": 4, "mix": {"etl": 1.0}, "largest_table_gb": 50,
        "total_data_gb": 500,
    }  # fmt: skip
    document["storage"][0]["role"] = "data"
    saved, _ = assessment_create(user=admin_member, document=document)
    base = live_server.url
    log_in(page, base)
    page.goto(base + "/assessments/from-server/")
    field = "Paste the bundle, a terminal transcript or a JSON inventory"
    page.get_by_label(field).fill(linux_transcript())
    page.get_by_role("button", name="Read it").click()
    page.locator(".draft-panel").wait_for()
    failures = check_both_schemes(page, "a11y-from-server-read")
    page.goto(f"{base}/assessments/{saved.pk}/verify/")
    failures += check_both_schemes(page, "a11y-verify")
    page.get_by_label("Paste the newer bundle or a terminal transcript").fill(newer_bundle(saved))
    page.get_by_role("button", name="Verify").click()
    page.locator("#verify-result table").wait_for()
    failures += check_both_schemes(page, "a11y-verify-result")
    assert not failures, "\n\n".join(failures)


# Swagger UI's and ReDoc's own markup, which no template or stylesheet of ours reaches:
# Swagger UI puts the operation's copy button inside its summary button (nested-interactive),
# heads the operations of a tag with h3/h4 after the tag's h3 (heading-order) and renders
# its own <main> around the operations only, leaving the API's title outside every landmark
# (region). ReDoc heads each operation's panels with h5 under the operation's h2
# (heading-order), and its JSON samples' 15 px expand buttons sit one a line, positioned by
# its own script-injected styles, a line apart (target-size).
SWAGGER_UI_OWN = ("nested-interactive", "heading-order", "region")
REDOC_OWN = ("heading-order", "target-size")


def test_api_docs(page: Any, live_server: Any, admin_member: User) -> None:
    log_in(page, live_server.url)
    page.goto(live_server.url + "/api/docs/")
    page.locator(".swagger-ui .opblock-summary-path").first.wait_for()
    failures = check_both_schemes(page, "a11y-api-docs", SWAGGER_UI_OWN)
    page.goto(live_server.url + "/api/redoc/")
    page.locator("h2", has_text="Upload a fleet").first.wait_for()
    failures += check_both_schemes(page, "a11y-api-redoc", REDOC_OWN)
    assert not failures, "\n\n".join(failures)


def test_password_reset_pages(page: Any, live_server: Any, admin_member: User) -> None:
    """Offered only where mail can be sent: the URLs rebuilt as with a mail server."""
    from advisor import urls

    saved = list(urls.urlpatterns)
    try:
        _with_mail("smtp.example.com")
        check_all(
            page,
            live_server.url,
            {
                "password-reset": "/accounts/password_reset/",
                "password-reset-done": "/accounts/password_reset/done/",
                "password-reset-bad-link": "/accounts/reset/MQ/set-password/",
                "password-reset-complete": "/accounts/reset/done/",
            },
        )
    finally:
        urls.urlpatterns[:] = saved
        clear_url_caches()


def test_the_menu_on_a_phone_and_a_laptop(page: Any, live_server: Any, admin_member: User) -> None:
    """Inline links on a laptop; on a phone a Menu button (a <details>, no script) opening
    the same links as rows at least 44 px high."""
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    menu = page.locator("details.nav-menu > summary")
    expect(menu).to_be_hidden()
    expect(page.get_by_role("link", name="Fleets")).to_be_visible()
    page.set_viewport_size(PHONE)
    expect(page.get_by_role("link", name="Fleets")).to_be_hidden()
    menu.click()
    links = page.get_by_role("navigation", name="Main").get_by_role("link")
    # Password, the two API docs, and for an admin Audit trail, Report branding, API tokens
    expect(links).to_have_count(12)
    for box in [link.bounding_box() for link in links.all()]:
        assert box is not None and box["height"] >= 44
    page.screenshot(path=str(SCREENSHOTS / "a11y-menu-open-phone.png"), full_page=True)
    assert not axe_violations(page)
    page.keyboard.press("Tab")  # to the first link, from the Menu button
    expect(page.get_by_role("link", name="Assessments", exact=True)).to_be_focused()
