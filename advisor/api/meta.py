"""What the service knows and whether it is up: the rule catalog and the health check."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

import rules
from advisor.api.base import ApiView
from advisor.api.schemas import error_responses, ref
from advisor.core.errors import DATABASE_RETRY_S
from rules.catalog import CATALOG
from rules.sources import SOURCES

# A health check that hangs is worse than one that fails: the probe times out first.
BROKER_TIMEOUT_S = 0.5
REACHABLE = ("ok", "in-process")


def rule_catalog() -> dict[str, Any]:
    used = sorted({s for r in CATALOG for s in r.sources})
    return {
        "rules_version": rules.RULES_VERSION,
        "rules": [r.to_dict() for r in CATALOG],
        "sources": {
            s: {
                "title": SOURCES[s].title,
                "citation": SOURCES[s].citation,
                "confirmed": SOURCES[s].confirmed,
            }
            for s in used
        },
    }


class RuleCatalogView(ApiView):
    @extend_schema(
        operation_id="rules_list",
        summary="Every rule: id, title, sources and the settings it may set",
        responses={200: ref("RuleCatalog"), **error_responses(400, 401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response(rule_catalog())


def _timed(check: Any) -> dict[str, Any]:
    start = time.perf_counter()
    state = check()
    elapsed = (time.perf_counter() - start) * 1000
    return {"status": state, "latency_ms": round(elapsed, 2) if state == "ok" else None}


def database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unreachable"
    return "ok"


@lru_cache(maxsize=4)
def _redis(url: str) -> redis.Redis:
    # One client per URL: its connection pool is reused across health checks.
    return redis.Redis.from_url(
        url, socket_connect_timeout=BROKER_TIMEOUT_S, socket_timeout=BROKER_TIMEOUT_S
    )


def broker_state() -> str:
    url = settings.REDIS_URL
    if settings.CELERY_BROKER_DIR:  # the embedded default's broker: a folder of files
        return "ok" if (Path(settings.CELERY_BROKER_DIR) / "messages").is_dir() else "unreachable"
    if not url:
        return "in-process"  # Celery runs tasks eagerly; there is no broker to lose
    try:
        _redis(url).ping()
    except (redis.RedisError, OSError):
        return "unreachable"
    return "ok"


class HealthView(ApiView):
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = []

    @extend_schema(
        operation_id="health",
        summary="Liveness, database and broker reachability (no authentication)",
        auth=[],
        responses={
            200: OpenApiResponse(
                ref("Health"), "The database is reachable; `degraded` when Redis is not."
            ),
            503: OpenApiResponse(ref("Health"), "The database is not reachable."),
            **error_responses(400),
        },
    )
    def get(self, request: Request) -> Response:
        components = {"database": _timed(database_state), "broker": _timed(broker_state)}
        status = overall(components["database"]["status"], components["broker"]["status"])
        body = {"status": status, "rules_version": rules.RULES_VERSION, "components": components}
        if status == "unavailable":  # as every answer while the database is down
            return Response(body, status=503, headers={"Retry-After": str(DATABASE_RETRY_S)})
        return Response(body)


def overall(database: str, broker: str) -> str:
    """Without the database nothing works (503); without Redis the pages and the API still
    answer (tokens from the database, the throttle open) but work for the workers waits:
    'degraded', still 200 so a load balancer keeps the instance."""
    if database not in REACHABLE:
        return "unavailable"
    return "ok" if broker in REACHABLE else "degraded"
