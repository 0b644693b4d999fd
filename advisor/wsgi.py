"""The WSGI application, with the URLconf loaded up front.

Django imports the URLconf (and with it every view, DRF and the rule engine) on the first
request, which takes that request half a second. Loading it here moves the cost to start-up:
into gunicorn's master with `preload_app` (the workers inherit it), or into each worker's
boot otherwise; either way no client waits for it. With DEBUG off it refuses to serve
without a configured SECRET_KEY (sessions and CSRF tokens are signed with it).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
application = get_wsgi_application()
if not settings.DEBUG and not getattr(settings, "SECRET_KEY_CONFIGURED", True):
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
get_resolver().url_patterns  # noqa: B018 - the import is the point
