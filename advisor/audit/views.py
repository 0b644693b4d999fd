"""The audit trail page: an organisation's events, newest first, for its admins only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from advisor.audit.models import AuditEvent
from advisor.core.http import PageRequest
from advisor.core.paging import KeysFirstPaginator
from advisor.models import Membership

PAGE_SIZE = 50


@require_GET
@login_required
def audit_list(request: PageRequest) -> HttpResponse:
    membership = Membership.objects.filter(user=request.user, is_admin=True).first()
    if membership is None:
        raise PermissionDenied("the audit trail is for the organisation's admins")
    events = AuditEvent.objects.filter(organisation_id=membership.organisation_id)
    page = KeysFirstPaginator(events, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "audit/index.html", {"page": page})
