"""The request the page views receive, as the type checker should see it.

Every page is behind `login_required`, so its user is a logged-in `User`, and
django-htmx's middleware adds `request.htmx`. Neither is visible in `HttpRequest`'s
types; this class states both (the pattern django-stubs and django-htmx document). It is
only ever used in annotations: Django still passes a plain `HttpRequest`.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class PageRequest(HttpRequest):
    user: User
    htmx: HtmxDetails
