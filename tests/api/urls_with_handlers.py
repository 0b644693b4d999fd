"""The project's URLs with the API's error handlers, plus a view that crashes."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, path

from advisor.urls import urlpatterns as project_urls


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret detail that must not leak")


urlpatterns: list[URLPattern | URLResolver] = [path("api/v1/boom/", boom), *project_urls]

handler400 = "advisor.core.errors.handler400"
handler403 = "advisor.core.errors.handler403"
handler404 = "advisor.core.errors.handler404"
handler500 = "advisor.core.errors.handler500"
