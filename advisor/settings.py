"""Django settings, read from environment variables (see README: Configuration).

DATABASE_URL  default: a SQLite file in the project (the embedded default)
REDIS_URL     absent: Celery runs tasks in-process, or on a worker over files in
              CELERY_BROKER_DIR (scripts/run.sh); set: the cache and Celery's broker
SECRET_KEY    required to serve pages when DEBUG is off (commands run without one)
DEBUG         1/0, default 0
ALLOWED_HOSTS comma-separated, default localhost,127.0.0.1
"""

from __future__ import annotations

import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from advisor.core.security import https_settings
from advisor.core.storage import default_storage
from advisor.env import env_bool, env_int, env_list, env_str
from rules.fields import specs
from rules.inventory import MAX_STORAGE, Storage

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY") or ""
# Management commands (advise, migrate, drf_create_token …) sign nothing that outlives
# them, so they run without a key; serving pages needs one, and advisor.wsgi refuses to
# start without it when DEBUG is off.
SECRET_KEY_CONFIGURED = bool(SECRET_KEY)
if not SECRET_KEY:
    SECRET_KEY = (
        "insecure-development-key-set-SECRET_KEY-in-production"
        if DEBUG
        else secrets.token_urlsafe(50)  # this process only
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
# Behind an HTTPS proxy that names the scheme in this header ("X-Forwarded-Proto"): secure
# cookies, HSTS, http redirected to https (advisor/core/security.py).
globals().update(
    https_settings(env_str("SECURE_PROXY_SSL_HEADER"), preload=env_bool("HSTS_PRELOAD", True))
)
# Proxies in front of the app (nginx in docker-compose.yml: 1). The client's address, for
# login lockouts and the anonymous API throttle, is then read from X-Forwarded-For.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our own static files
    "django_htmx",
    "template_partials",
    "axes",
    "advisor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "advisor.core.middleware.RequestSizeLimitMiddleware",
    "advisor.core.middleware.QueryTextMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "advisor.core.security.SecurityHeadersMiddleware",  # after whitenoise: dynamic answers
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "advisor.urls"
WSGI_APPLICATION = "advisor.wsgi.application"

# The feature packages of the one `advisor` app. Each keeps its templates beside its code
# (advisor/<feature>/templates/<feature>/…); Celery looks in each for a tasks module.
ADVISOR_FEATURES = ("assessments", "reports", "capacity", "logs", "fleets", "webhooks", "audit")
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Site-wide templates (base.html, registration/) first, then each feature's.
        "DIRS": [
            BASE_DIR / "templates",
            *(BASE_DIR / "advisor" / name / "templates" for name in ADVISOR_FEATURES),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_DEFAULT_DB = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    DATABASES = {
        "default": dj_database_url.parse(
            env_str("DATABASE_URL", _DEFAULT_DB) or _DEFAULT_DB, conn_max_age=60
        )
    }
except ValueError as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {exc}") from exc
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and run.sh's worker write the same file: each waits for the other's
    # lock, takes the write lock when its transaction begins (no deadlock upgrading a read
    # lock) and, with the write-ahead log, readers never wait for a writer.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a name locked at this address first
    "django.contrib.auth.backends.ModelBackend",
]
# Password guessing: 5 failures lock that user name from that address for an hour; a
# success resets the count. The attempts are kept in the database. Locking a name alone
# would let anyone lock out any user (the admin too) from anywhere, and an address alone
# would let one person lock out a whole office behind one NAT. The price: a guesser with
# many addresses gets 5 tries an hour at one name from each of them; against that the
# password rules (minimum length, common passwords refused) are the defence.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = env_int("LOGIN_LOCKOUT_HOURS", 1, minimum=1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "advisor.core.security.client_ip"
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False  # no banner on every start
# Mail: password reset is offered only when a mail server is configured.
EMAIL_HOST = env_str("EMAIL_HOST") or ""
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "advisor@localhost"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Built reports (PDF, HTML) live in the default storage: a local directory, or an
# S3-compatible bucket when STORAGE_S3_BUCKET is set (credentials from the usual AWS_*
# variables). Never served as /media/: downloads go through views that check the owner.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or BASE_DIR / "media")
STORAGE_S3_BUCKET = env_str("STORAGE_S3_BUCKET")
STORAGES = {
    "default": default_storage(MEDIA_ROOT, STORAGE_S3_BUCKET, env_str("STORAGE_S3_ENDPOINT_URL")),
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Requests larger than this are refused with 413 (inventories are a few KB; 512 LUNs ~ 150 KB).
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 1024 * 1024, minimum=1024)
# Views that read collector bundles (command output of a whole server) take up to this.
MAX_BUNDLE_BYTES = env_int("MAX_BUNDLE_BYTES", 8 * 1024 * 1024, minimum=1024)
# Django's own check on form bodies; each view's real limit is the middleware's.
# SAS logs (one per API request, several per web upload) are read line by line as they
# stream in, so their limit is the total a request may carry, not memory.
MAX_LOG_BYTES = env_int("MAX_LOG_BYTES", 64 * 1024 * 1024, minimum=1024)
# A log up to this size is diagnosed in its request (201); a larger one is stored as it
# streams in and diagnosed on a worker (202). 1 MiB of the worst case measured (30-second
# steps, ~6,000 of them) takes 0.13 s on a quiet 2-CPU machine, and under 1 s at the 5x
# slowdown a loaded one showed; a night's log of real layout reads at ~30 MiB/s.
LOG_INLINE_BYTES = env_int("LOG_INLINE_BYTES", 1024 * 1024, minimum=0)
# Fleet uploads (NDJSON, a JSON array or a zip of inventories): 10,000 servers is ~40 MB.
MAX_FLEET_BYTES = env_int("MAX_FLEET_BYTES", 64 * 1024 * 1024, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = max(MAX_REQUEST_BYTES, MAX_BUNDLE_BYTES)
# The inventory form posts one input per contract field of each storage row (512 rows of
# 27 since rules 2026.11.9), a browser sending the empty ones too, plus the rest of the form.
DATA_UPLOAD_MAX_NUMBER_FIELDS = MAX_STORAGE * len(specs(Storage)) + 200
# Webhooks go to public https:// endpoints only; a test or lab site may allow private
# addresses (and http:// on loopback).
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", False)
# Each endpoint is a delivery (and a worker's connection) for every event.
WEBHOOKS_PER_ORGANISATION = env_int("WEBHOOKS_PER_ORGANISATION", 20, minimum=1)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "advisor.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # NaN, Infinity and numbers past 64 bits are 400s naming their path, never a crash.
    "DEFAULT_PARSER_CLASSES": ["advisor.api.parsers.StrictJSONParser"],
    # JSON only: an Accept header that names no JSON is 406 in the error envelope, as the
    # schema declares, never DRF's browsable HTML page (a 200 text/html it does not list).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # `q=0` in Accept is "not acceptable" (RFC 9110), never ignored.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "advisor.api.negotiation.WeightedContentNegotiation",
    "DEFAULT_SCHEMA_CLASS": "advisor.api.autoschema.ContractAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "advisor.api.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 25,
    "DEFAULT_THROTTLE_CLASSES": [
        "advisor.api.throttling.TokenRateThrottle",
        "rest_framework.throttling.AnonRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env_str("API_RATE_USER", "6000/minute"),
        "anon": env_str("API_RATE_ANON", "60/minute"),
    },
    "EXCEPTION_HANDLER": "advisor.api.exceptions.exception_handler",
    # No ?format= override: `format` is refused like any parameter an operation does not
    # take (advisor.api.query), never read as a renderer.
    "URL_FORMAT_OVERRIDE": None,
    "NUM_PROXIES": TRUSTED_PROXIES or None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "SAS Tuning Advisor API",
    "DESCRIPTION": "Inventory in, tuned SAS/SPD Server/AIX configuration files out. "
    "Errors come in one JSON envelope. Behind gunicorn, a request line longer than 4,094 "
    "bytes (a very long query string) is answered 414 by the server before the API sees it.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from the pinned drf-spectacular-sidecar package, never a CDN:
    # sites without internet access get working API docs.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A path's object id (advisor.api.converters): 1 to the BigAutoField's largest value.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1}
    },
    # One name for each set of statuses, whichever answer carries it (drf-spectacular
    # would otherwise name a set shared by several answers after a hash).
    "ENUM_NAME_OVERRIDES": {
        "WorkStatusEnum": "advisor.models.WorkerLifecycle.Status",
        "FleetStatusEnum": "advisor.models.Fleet.Status",
        "ServerStatusEnum": "advisor.models.FleetItem.Status",
        "DeliveryStatusEnum": "advisor.models.WebhookDelivery.Status",
        "WebhookEventEnum": "advisor.webhooks.services.EVENTS",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "advisor.api.schemas.add_components",
        "advisor.api.statuses.declare_statuses",
    ],
}

REDIS_URL = env_str("REDIS_URL")
# The result's part of an assessment's page is kept this long in the cache (an assessment
# never changes; the time only bounds what the cache holds). 0 turns it off.
DETAIL_CACHE_SECONDS = env_int("DETAIL_CACHE_SECONDS", 3600, minimum=0)
CACHES = {
    "default": (
        {
            # Fails open: with Redis down, tokens are read from the database and the
            # throttle lets requests through (advisor/core/cache.py).
            "BACKEND": "advisor.core.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # Rendered advice per worker process (advisor/assessments/advice.py): a lemans-sized
    # answer is ~30 KB, so 32 stay under ~10 MB even for inventories ten times larger.
    # Culling one 32nd of 32 drops the least recently used one at a time.
    "advice": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "advice",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 32, "CULL_FREQUENCY": 32},
    },
}

# Without Redis, CELERY_BROKER_DIR (set by scripts/run.sh) makes a folder of files the
# broker, served by the worker run.sh starts beside the web server: the embedded default
# builds reports and fleets on a real worker, as the full stack does. With neither, tasks
# run in-process (the tests, a bare `manage.py runserver`).
CELERY_BROKER_DIR = None if REDIS_URL else env_str("CELERY_BROKER_DIR")
CELERY_BROKER_URL = REDIS_URL or ("filesystem://" if CELERY_BROKER_DIR else "memory://")
# kombu's filesystem transport lets a worker take a message's file before it is written
# (an empty file stops the worker); advisor/core/fs_broker.py writes each message whole.
CELERY_BROKER_TRANSPORT = "advisor.core.fs_broker:Transport" if CELERY_BROKER_DIR else None
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL == "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A dead worker's unacknowledged job goes back to the queue after the visibility timeout
# (keep it above the tasks' hard limits: advisor/core/lifecycle.py reads it from here);
# the restore looks every 10 s, not 100 s.
CELERY_VISIBILITY_S = env_int("CELERY_VISIBILITY", 120, minimum=2)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": CELERY_VISIBILITY_S,
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
if CELERY_BROKER_DIR:
    _queue = Path(CELERY_BROKER_DIR).resolve()
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "messages"),
        "data_folder_out": str(_queue / "messages"),
        "control_folder": str(_queue / "control"),
        "polling_interval": 0.2,  # seconds between looks at the folder
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The sweeps that find work whose worker died or whose message was lost: run by
# `celery -A advisor beat` (docker-compose.yml's beat service), once a minute each. A sweep
# no worker took within its minute is dropped (the next one does its work), so a worker
# that starts after an outage runs one of each, not one per minute it was away.
CELERY_BEAT_SCHEDULE = {
    key: {"task": task, "schedule": 60.0, "options": {"expires": 55.0}}
    for key, task in {
        "sweep-reports": "advisor.reports.sweep_reports",
        "sweep-fleets": "advisor.fleets.sweep_fleets",
        "sweep-webhooks": "advisor.webhooks.sweep_deliveries",
        "sweep-logs": "advisor.logs.sweep_logs",
    }.items()
}
# Reports (assessment and fleet reports together) one organisation may have queued or
# being built; beyond it a request is answered 429 with Retry-After.
REPORTS_OPEN_PER_ORGANISATION = env_int("REPORTS_OPEN_PER_ORGANISATION", 10, minimum=1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
