"""/api/v1/: each feature's API routes, the rule catalog and the health check.

URL names are public (clients and the README use them), so the namespaces stay as they
were before the features were split: the capacity what-if began inside reports, and its
route is still `reports_api:capacity`.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from advisor.api.meta import HealthView, RuleCatalogView
from advisor.assessments import api_urls as assessments
from advisor.capacity import api_urls as capacity
from advisor.fleets import api_urls as fleets
from advisor.logs import api_urls as logs
from advisor.reports import api_urls as reports
from advisor.webhooks import api_urls as webhooks

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include(assessments.urlpatterns)),
    path("", include(([*reports.urlpatterns, *capacity.urlpatterns], "reports_api"))),
    path("", include((logs.urlpatterns, "logs_api"))),
    path("", include((fleets.urlpatterns, "fleets_api"))),
    path("", include((webhooks.urlpatterns, "webhooks_api"))),
    path("rules/", RuleCatalogView.as_view(), name="api-rules"),
    path("health/", HealthView.as_view(), name="api-health"),
]
