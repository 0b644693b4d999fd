"""Report branding for an organisation's admin: upload, replace and remove the logo that
goes on every report's cover, each change audited; others are refused; a file that is no
PNG or JPEG is refused naming the field, and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from advisor.audit.models import AuditEvent
from advisor.models import Membership, Organisation
from tests.browser import check_page, chromium_tab, log_in
from tests.conftest import make_member
from tests.reports.test_client_report import PNG_1PX

URL = reverse("reports:branding")


@pytest.fixture
def admin_in(client: Client, user: User) -> Client:
    Membership.objects.filter(user=user).update(is_admin=True)
    client.force_login(user)
    return client


def upload(name: str, data: bytes) -> dict[str, Any]:
    return {"logo": SimpleUploadedFile(name, data)}


def test_a_member_who_is_not_admin_is_refused(client_in: Client) -> None:
    assert client_in.get(URL).status_code == 403
    assert client_in.post(URL, upload("logo.png", PNG_1PX)).status_code == 403


def test_the_admin_uploads_replaces_and_removes_the_logo(
    admin_in: Client, org: Organisation
) -> None:
    assert admin_in.post(URL, upload("logo.png", PNG_1PX)).status_code == 302
    org.refresh_from_db()
    first = org.logo.name
    assert first.startswith("logos/") and org.logo.read() == PNG_1PX
    page = admin_in.get(URL).content.decode()
    assert 'src="data:image/png;base64,' in page

    admin_in.post(URL, upload("new.png", PNG_1PX))
    org.refresh_from_db()
    assert org.logo.name != first and not org.logo.storage.exists(first)

    admin_in.post(URL, {"remove": "on"})
    org.refresh_from_db()
    assert not org.logo
    changes = [
        e.changes["logo"]
        for e in AuditEvent.objects.filter(action="organisation.logo").order_by("id")
    ]
    assert len(changes) == 3 and changes[-1][1] == ""


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"logo": SimpleUploadedFile("a.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>")},
         "Logo: give a PNG or JPEG image"),
        ({}, "Logo: choose a PNG or JPEG file, or tick Remove."),
    ],
)  # fmt: skip
def test_a_refused_file_is_named_and_nothing_is_stored(
    admin_in: Client, org: Organisation, data: dict[str, Any], expected: str
) -> None:
    response = admin_in.post(URL, data)
    assert response.status_code == 400
    assert expected in response.content.decode()
    org.refresh_from_db()
    assert not org.logo and not AuditEvent.objects.filter(action="organisation.logo").exists()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_branding_page_in_the_browser(live_server: Any, tmp_path: Any) -> None:
    from playwright.sync_api import expect

    user = make_member("alice", Organisation.objects.create(name="Acme Analytics"))
    Membership.objects.filter(user=user).update(is_admin=True)
    (tmp_path / "logo.png").write_bytes(PNG_1PX)
    with chromium_tab(30_000) as tab:
        log_in(tab, live_server.url)
        tab.get_by_role("link", name="Report branding").first.click()
        tab.locator("#id_logo").set_input_files(str(tmp_path / "logo.png"))
        tab.get_by_role("button", name="Save").click()
        expect(tab.get_by_role("img", name="The current logo of Acme Analytics")).to_be_visible()
        check_page(tab, "report-branding")
