"""The Django admin: every change recorded in the audit trail (old -> new), what the rules
derived read-only, an organisation deleted only with its name typed and its logo stored
as the checked, re-encoded PNG, and API tokens shown by a prefix only (whole, once, when
one is made here)."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
from rest_framework.authtoken.admin import TokenAdmin as RestTokenAdmin
from rest_framework.authtoken.models import Token, TokenProxy

from advisor.audit.models import AuditEvent
from advisor.audit.services import describe, field_changes, record
from advisor.core.results import COUNT_COLUMNS
from advisor.models import Assessment, Membership, Organisation, Report
from advisor.reports.branding import logo_file


def _organisation(obj: Model) -> Organisation | None:
    if isinstance(obj, Organisation):
        return obj
    found = getattr(obj, "organisation", None)
    if found is None and isinstance(obj, Report):
        found = obj.assessment.organisation
    return found if isinstance(found, Organisation) else None


class AuditedAdmin(admin.ModelAdmin):
    """Records each add, change and delete made here, with the changed fields' old and
    new values."""

    def save_model(
        self, request: HttpRequest, obj: Any, form: forms.ModelForm[Any], change: bool
    ) -> None:
        names = list(form.changed_data)
        before = {n: form.initial.get(n) for n in names} if change else {}
        super().save_model(request, obj, form, change)
        changes = field_changes(before, obj, names)
        record(actor=request.user, organisation=_organisation(obj),
               action="admin.change" if change else "admin.add",
               target=describe(obj), changes=changes)  # fmt: skip

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        record(actor=request.user, organisation=_organisation(obj), action="admin.delete",
               target=describe(obj))  # fmt: skip
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self.delete_model(request, obj)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


class OrganisationForm(forms.ModelForm):
    def clean_logo(self) -> Any:
        """A new upload is stored as its plain PNG (branding.logo_file), not as sent."""
        logo = self.cleaned_data.get("logo")
        return logo_file(logo) if isinstance(logo, UploadedFile) else logo


@admin.register(Organisation)
class OrganisationAdmin(AuditedAdmin):
    form = OrganisationForm
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]
    actions = None  # no bulk delete: each deletion is confirmed by its name
    delete_confirmation_template = "admin/advisor/organisation/delete_confirmation.html"

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Django's confirmation, which deletes only when the organisation's name is typed:
        deleting one removes every assessment, fleet and report it owns."""
        org = self.get_object(request, object_id)
        typed = request.POST.get("name", "").strip()
        if request.method == "POST" and org is not None and typed != org.name:
            messages.error(request, "The name typed is not the organisation's: nothing deleted.")
            request = _unposted(request)
        return super().delete_view(request, object_id, extra_context)


def _unposted(request: HttpRequest) -> HttpRequest:
    """The request as a GET without a body: the confirmation page shown again."""
    again = copy.copy(request)
    again.method, again.POST = "GET", QueryDict()
    return again


@admin.register(Membership)
class MembershipAdmin(AuditedAdmin):
    list_display = ["user", "organisation", "is_admin"]
    list_select_related = ["user", "organisation"]


@admin.register(Assessment)
class AssessmentAdmin(AuditedAdmin):
    list_display = ["id", "hostname", "organisation", "os", "cpus", "ram_gb", "warnings_count",
                    "rules_version", "created_by", "created_at", "archived_at"]  # fmt: skip
    list_filter = ["organisation", "os", "rules_version"]
    search_fields = ["hostname", "name"]
    # What the rules derived from the inventory, and whose it is, cannot be edited here:
    # only its name and whether it is archived can.
    readonly_fields = ["organisation", "hostname", "os", "os_version", "cpus", "ram_gb",
                       "warnings_count", "rules_version", "inventory", "result_json",
                       "request_hash", "idempotency_key", "created_by", "created_at",
                       "result_version", *COUNT_COLUMNS]  # fmt: skip


@admin.register(Report)
class ReportAdmin(AuditedAdmin):
    list_display = ["id", "assessment", "status", "attempts", "created_at", "finished_at"]
    list_filter = ["status"]
    readonly_fields = ["pdf_file", "html_file"]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read only: the trail is written by the app, never edited."""

    list_display = ["at", "actor_name", "action", "target", "organisation_name"]
    list_filter = ["action"]
    search_fields = ["target", "actor_name", "organisation_name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


KEY_SHOWN = 4  # characters of a token's key the admin shows: enough to tell two apart


def key_prefix(key: str | None) -> str:
    return f"{key[:KEY_SHOWN]}…" if key else ""


def _token_name(token: Token) -> str:
    return f"token {key_prefix(token.key)}"


# A token's own name for itself is its whole key, and the admin prints that name wherever
# it names an object: page titles, breadcrumbs, "recent actions" (kept in the database),
# the list of what deleting a user removes. Keys are stored in clear (a hashed key needs
# a model of its own), so here the name is the prefix.
Token.__str__ = _token_name  # type: ignore[assignment,method-assign]

admin.site.unregister(TokenProxy)

# Lookups naming a token's key: the key is the token's primary key, and a user reaches
# it through auth_token.
_SECRET_PARTS = frozenset({"key", "pk", "id", "auth_token", "token", "tokenproxy"})


@admin.register(TokenProxy)
class TokenAdmin(AuditedAdmin, RestTokenAdmin):
    """DRF's token admin (one token a user, found by the user name, never by the key)
    showing a prefix of the key; the whole key once, on the page after it is made."""

    list_display = ("prefix", "user", "created")
    fields = ("user", "prefix", "created")
    readonly_fields = ("prefix", "created")
    # Sorting by the key would order the list by it, which tells it a bit at a time.
    sortable_by = ("user", "created")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        """No filter on the key, under any name: `?key__startswith=ab` answering with a
        count of results finds a whole key in a few hundred requests. Django answers a
        refused lookup with 400."""
        if _SECRET_PARTS.intersection(lookup.split("__")):
            return False
        return bool(super().lookup_allowed(lookup, value, request))  # type: ignore[arg-type]

    @admin.display(description="Key")
    def prefix(self, obj: Token) -> str:
        return key_prefix(obj.key)

    def response_add(
        self, request: HttpRequest, obj: Token, post_url_continue: str | None = None
    ) -> HttpResponse:
        messages.warning(
            request, f"The key of the new token for {obj.user}: {obj.key}. Copy it now: it "
            "is not shown again (only its first characters are).",
        )  # fmt: skip
        return super().response_add(request, obj, post_url_continue)
