"""The WSGI application, with the URLconf loaded up front.

Django imports the URLconf (and with it every view, DRF and the rule engine) on the first
request, which takes that request half a second. Loading it here moves the cost to start-up:
into gunicorn's master with `preload_app` (the workers inherit it), or into each worker's
boot otherwise; either way no client waits for it. With DEBUG off it refuses to serve
without a configured, strong SECRET_KEY (sessions and CSRF tokens are signed with it).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from advisor.core.security import weak_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
application = get_wsgi_application()
if not settings.DEBUG and not getattr(settings, "SECRET_KEY_CONFIGURED", True):
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
if not settings.DEBUG and weak_secret_key(settings.SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak to serve with DEBUG off: use at least 50 characters, not "
        "all alike (python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
    )
get_resolver().url_patterns  # noqa: B018 - the import is the point
