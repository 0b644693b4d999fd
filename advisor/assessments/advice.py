"""Advice without storage: for pipelines that only want the generated files.

Pipelines post the same inventory again and again (every rebuild of a server class, every
retry), and the answer is a pure function of the document and the rules version. So the
rendered answer is kept per process in Django's local-memory cache `caches["advice"]`
(settings.CACHES: the newest 32 answers, the least recently used dropped first), keyed
by the document's canonical hash, and a repeat costs a hash instead of a run of the
catalog.
"""

from __future__ import annotations

from django.core.cache import caches
from rest_framework.renderers import JSONRenderer

import rules
from advisor.assessments.services import document_hash

MEMO = "advice"  # the cache alias


def rendered_advice(document: object) -> bytes:
    """The contract's result as compact JSON; raises `rules.InventoryError` for a bad one."""
    key = f"{rules.RULES_VERSION}:{document_hash(document)}"
    memo = caches[MEMO]
    body: bytes | None = memo.get(key)
    if body is None:
        body = JSONRenderer().render(rules.advise(document))
        memo.set(key, body)
    return body
