"""The API token page, for an organisation's admins: create their own token, see that it
exists, revoke it.

A token is DRF's (rest_framework.authtoken): one per user, sent as `Authorization: Bearer
<key>` or `Token <key>` (advisor.api.authentication). Its value is shown once, on the
answer to the request that created it; afterwards the page names only its last four
characters. Creating a token replaces the one the admin had. Both changes go into the
audit trail, without the key.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from advisor.audit.services import record
from advisor.core.http import PageRequest
from advisor.models import Membership, Organisation

SHOWN_TAIL = 4  # characters of a stored token the page names it by


def _admin_organisation(request: PageRequest) -> Organisation:
    found = (
        Membership.objects.select_related("organisation")
        .filter(user=request.user, is_admin=True)
        .first()
    )
    if found is None:
        raise PermissionDenied("API tokens are made by the organisation's admins")
    return found.organisation


def create_token(request: PageRequest, organisation: Organisation) -> Token:
    """A new token for the admin, replacing the one they had."""
    with transaction.atomic():
        replaced = Token.objects.filter(user=request.user).delete()[0] > 0
        token = Token.objects.create(user=request.user)
        record(actor=request.user, organisation=organisation, action="api_token.create",
               target=f"API token of {request.user.get_username()}",
               changes={"replaced": (None, replaced)})  # fmt: skip
    return token


def revoke_token(request: PageRequest, organisation: Organisation) -> bool:
    with transaction.atomic():
        revoked = Token.objects.filter(user=request.user).delete()[0] > 0
        if revoked:
            record(actor=request.user, organisation=organisation, action="api_token.revoke",
                   target=f"API token of {request.user.get_username()}")  # fmt: skip
    return revoked


@require_http_methods(["GET", "POST"])
@login_required
def api_tokens(request: PageRequest) -> HttpResponse:
    organisation = _admin_organisation(request)
    new_key = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            if revoke_token(request, organisation):
                messages.success(request, "Your API token is revoked: it no longer works.")
            return HttpResponseRedirect(reverse("api-tokens"))
        new_key = create_token(request, organisation).key
    token = Token.objects.filter(user=request.user).first()
    context = {
        "token": token,
        "tail": token.key[-SHOWN_TAIL:] if token else "",
        "new_key": new_key,
        "organisation": organisation,
    }
    return render(request, "api_tokens.html", context)
