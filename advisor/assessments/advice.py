"""Advice without storage: for pipelines that only want the generated files.

Pipelines post the same inventory again and again (every rebuild of a server class, every
retry), and the answer is a pure function of the document and the rules version. So the
rendered answer is kept per process, keyed by the document's canonical hash, and a repeat
costs a hash instead of a run of the catalog.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from rest_framework.renderers import JSONRenderer

import rules
from advisor.assessments.services import document_hash

# Distinct inventories remembered per worker process; a lemans-sized answer is ~30 KB,
# so the memo stays under ~10 MB even for inventories ten times larger.
MEMO_ENTRIES = 32


class RenderedMemo:
    """A small least-recently-used map from document hash to the rendered JSON answer."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key: str, body: bytes) -> None:
        with self._lock:
            self._items[key] = body
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


MEMO = RenderedMemo(MEMO_ENTRIES)


def rendered_advice(document: object) -> bytes:
    """The contract's result as compact JSON; raises `rules.InventoryError` for a bad one."""
    key = f"{rules.RULES_VERSION}:{document_hash(document)}"
    body = MEMO.get(key)
    if body is None:
        body = JSONRenderer().render(rules.advise(document))
        MEMO.put(key, body)
    return body
