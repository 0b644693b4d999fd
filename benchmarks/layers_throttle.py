"""DRF's own SimpleRateThrottle with the app's keys (a digest per token, the address for
anonymous calls), for benchmarks/layers.py: the throttle without the sliding window."""

from __future__ import annotations

from rest_framework.throttling import SimpleRateThrottle

from advisor.api.throttling import AnonymousRateThrottle, TokenRateThrottle


class DrfTokenThrottle(TokenRateThrottle):
    allow_request = SimpleRateThrottle.allow_request
    wait = SimpleRateThrottle.wait


class DrfAnonymousThrottle(AnonymousRateThrottle):
    allow_request = SimpleRateThrottle.allow_request
    wait = SimpleRateThrottle.wait
