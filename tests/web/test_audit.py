"""The audit trail: creates, archives, re-evaluations and admin changes recorded with who,
when, what and old -> new; readable by the organisation's admins only; an organisation
deleted only with its name typed, and the deletion kept in the trail."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from advisor.audit.models import AuditEvent
from advisor.models import Assessment, Membership, Organisation
from tests.api.conftest import ASSESSMENTS


@pytest.fixture
def created(api: APIClient, lemans: dict[str, Any]) -> Assessment:
    body = api.post(ASSESSMENTS, lemans, format="json").json()
    return Assessment.objects.get(pk=body["id"])


@pytest.fixture
def superuser(db: None) -> Client:
    admin = User.objects.create_superuser("root", password="pw-root-long-enough")
    browser = Client()
    browser.force_login(admin)
    return browser


def test_a_create_and_a_reevaluation_are_recorded(
    created: Assessment, api: APIClient, user: User
) -> None:
    api.post(f"/api/v1/assessments/{created.pk}/reevaluate")

    actions = list(AuditEvent.objects.order_by("id").values_list("action", "actor_name"))
    assert actions == [("assessment.create", "alice"), ("assessment.reevaluate", "alice")]
    reevaluated = AuditEvent.objects.get(action="assessment.reevaluate")
    assert reevaluated.changes["from"][0] == created.pk
    assert reevaluated.organisation == created.organisation


def test_archiving_hides_from_the_lists_keeps_the_page_and_is_recorded(
    created: Assessment, client_in: Client, api: APIClient
) -> None:
    page = client_in.get(f"/assessments/{created.pk}/").content.decode()
    assert f'action="/assessments/{created.pk}/archive"' in page

    response = client_in.post(f"/assessments/{created.pk}/archive")

    assert response.status_code == 302
    assert "is archived" in client_in.get("/").content.decode()  # the message, once
    assert created.hostname not in client_in.get("/").content.decode()
    assert api.get(ASSESSMENTS).json()["count"] == 0
    archived = client_in.get(f"/assessments/{created.pk}/")
    assert archived.status_code == 200 and "not listed, kept for audit" in archived.content.decode()
    event = AuditEvent.objects.get(action="assessment.archive")
    assert event.changes == {"archived": [False, True]} and event.actor_name == "alice"


def test_the_api_archives_too(created: Assessment, api: APIClient) -> None:
    response = api.post(f"/api/v1/assessments/{created.pk}/archive")

    assert response.status_code == 200 and response.json()["archived_at"]
    assert AuditEvent.objects.filter(action="assessment.archive").count() == 1


def test_the_trail_is_for_the_organisations_admins(
    created: Assessment, client_in: Client, user: User, outsider: User
) -> None:
    assert client_in.get("/audit/").status_code == 403
    Membership.objects.filter(user=user).update(is_admin=True)
    Membership.objects.filter(user=outsider).update(is_admin=True)
    stranger = Client()
    stranger.force_login(outsider)

    page = client_in.get("/audit/").content.decode()
    other = stranger.get("/audit/").content.decode()

    assert "assessment.create" in page and created.hostname in page
    assert "assessment.create" not in other


def test_an_admin_change_records_old_and_new(created: Assessment, superuser: Client) -> None:
    url = f"/admin/advisor/assessment/{created.pk}/change/"
    form = {"name": "Renamed in the admin", "hostname": "hijacked", "cpus": "999"}

    response = superuser.post(url, form)

    assert response.status_code == 302, response.content.decode()[:2000]
    created.refresh_from_db()
    assert created.name == "Renamed in the admin"
    assert (created.hostname, created.cpus) != ("hijacked", 999)  # derived: read only
    event = AuditEvent.objects.get(action="admin.change")
    assert event.changes["name"][1] == "Renamed in the admin" and event.actor_name == "root"


def test_an_organisation_is_deleted_only_with_its_name_typed(
    created: Assessment, superuser: Client, org: Organisation
) -> None:
    url = f"/admin/advisor/organisation/{org.pk}/delete/"

    wrong = superuser.post(url, {"post": "yes", "name": "Acme"})
    assert wrong.status_code == 200 and Organisation.objects.filter(pk=org.pk).exists()
    assert 'name="name"' in wrong.content.decode()

    right = superuser.post(url, {"post": "yes", "name": "Acme Analytics"})
    assert right.status_code == 302
    assert not Organisation.objects.filter(pk=org.pk).exists()
    assert not Assessment.objects.filter(pk=created.pk).exists()
    event = AuditEvent.objects.get(action="admin.delete")
    assert event.organisation_name == "Acme Analytics" and event.actor_name == "root"
