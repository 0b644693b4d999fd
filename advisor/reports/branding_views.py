"""The organisation's report branding, for its admins: the logo on every report's cover.

Django admin is for the site's staff; a consultancy's own admin (Membership.is_admin)
uploads, replaces or removes the logo here. The file is checked and encoded again as a
plain PNG (branding.logo_file) before anything is stored, the old file is deleted only
after the new one is saved, and each change is recorded in the audit trail.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.files.base import File
from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from advisor.audit.services import describe, record
from advisor.core.http import PageRequest
from advisor.models import Membership, Organisation
from advisor.reports.branding import LOGO_MAX_BYTES, LOGO_MAX_SIDE, logo_data_uri, logo_file


class LogoForm(forms.Form):
    logo = forms.FileField(
        label="Logo", required=False,
        help_text=f"PNG or JPEG, at most {LOGO_MAX_BYTES // 1024} KB and "
                  f"{LOGO_MAX_SIDE:,} × {LOGO_MAX_SIDE:,} pixels; stored as PNG.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg"}),
    )  # fmt: skip
    remove = forms.BooleanField(label="Remove the logo", required=False)

    def clean_logo(self) -> File[bytes] | None:
        upload = self.cleaned_data.get("logo")
        return logo_file(upload) if upload else None

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if not cleaned.get("logo") and not cleaned.get("remove") and not self.errors:
            raise forms.ValidationError("Logo: choose a PNG or JPEG file, or tick Remove.")
        return cleaned


def _admin_organisation(request: PageRequest) -> Organisation:
    membership = Membership.objects.select_related("organisation").filter(
        user=request.user, is_admin=True
    )
    found = membership.first()
    if found is None:
        raise PermissionDenied("report branding is for the organisation's admins")
    return found.organisation


def set_logo(*, user: User, organisation: Organisation, upload: File[bytes] | None) -> None:
    """Store the new logo (or none) and record it; the old file goes once the row is saved."""
    old = organisation.logo.name or ""
    with transaction.atomic():
        if upload is None:
            organisation.logo = ""
        else:
            organisation.logo.save(upload.name or "logo", upload, save=False)
        organisation.save(update_fields=["logo"])
        new = organisation.logo.name or ""
        record(actor=user, organisation=organisation, action="organisation.logo",
               target=describe(organisation), changes={"logo": (old, new)})  # fmt: skip
    if old and old != new:
        organisation.logo.storage.delete(old)


@require_http_methods(["GET", "POST"])
@login_required
def branding(request: PageRequest) -> HttpResponse:
    organisation = _admin_organisation(request)
    form = LogoForm(request.POST, request.FILES) if request.method == "POST" else LogoForm()
    if request.method == "POST" and form.is_valid():
        upload = None if form.cleaned_data["remove"] else form.cleaned_data["logo"]
        set_logo(user=request.user, organisation=organisation, upload=upload)
        messages.success(request, "Logo removed." if upload is None else "Logo saved.")
        return HttpResponseRedirect(reverse("reports:branding"))
    context = {"form": form, "organisation": organisation,
               "logo": logo_data_uri(organisation.logo or None)}  # fmt: skip
    return render(request, "reports/branding.html", context, status=400 if form.errors else 200)
