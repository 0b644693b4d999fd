"""Every page in Debian's Chromium with axe-core: 0 violations at laptop and phone width
(WCAG 2.x A and AA, best practice), and a full-page screenshot of each width in
test-artifacts/screenshots/a11y-*.png for a person to look at."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from advisor.models import Membership, Organisation
from tests.browser import check_page, chromium_tab
from tests.conftest import example, make_member

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(30_000) as tab:
        yield tab


@pytest.fixture
def admin_member(transactional_db: Any) -> User:
    user = make_member("alice", Organisation.objects.create(name="Acme Analytics"))
    Membership.objects.filter(user=user).update(is_admin=True)
    return user


def log_in(page: Any, base: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill("pw-alice")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base + "/")


def test_login_page(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + "/accounts/login/")
    check_page(page, "a11y-login")


def test_every_member_page(page: Any, live_server: Any, admin_member: User) -> None:
    first, _ = assessment_create(user=admin_member, document=example("lemans-aix53-etl"))
    bigger = example("lemans-aix53-etl")
    bigger["server"]["ram_gb"] = 32
    second, _ = assessment_create(user=admin_member, document=bigger)
    base = live_server.url
    log_in(page, base)
    pages = {
        "list": "/",
        "new": "/assessments/new/?example=lemans-aix53-etl",
        "from-server": "/assessments/from-server/",
        "result": f"/assessments/{first.pk}/",
        "compare": f"/assessments/{first.pk}/compare/{second.pk}/",
        "fleets": "/fleets/",
        "logs": "/logs/",
        "webhooks": "/webhooks/",
        "audit": "/audit/",
    }
    failures = []
    for name, path in pages.items():
        page.goto(base + path)
        try:
            check_page(page, f"a11y-{name}")
        except AssertionError as problem:
            failures.append(str(problem))
    assert not failures, "\n\n".join(failures)
