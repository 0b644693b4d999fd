from __future__ import annotations

from django.contrib import admin

from advisor.models import Assessment, Membership, Organisation, Report


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation"]
    list_select_related = ["user", "organisation"]


@admin.register(Assessment)
class AssessmentAdmin(admin.ModelAdmin):
    list_display = ["id", "hostname", "organisation", "os", "cpus", "ram_gb", "warnings_count",
                    "rules_version", "created_by", "created_at"]  # fmt: skip
    list_filter = ["organisation", "os", "rules_version"]
    search_fields = ["hostname", "name"]
    readonly_fields = ["inventory", "result_json", "request_hash", "idempotency_key"]


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["id", "assessment", "status", "attempts", "created_at", "finished_at"]
    list_filter = ["status"]
    readonly_fields = ["pdf_file", "html_file"]
