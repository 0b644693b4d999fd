"""AIX facts → server and storage (filled in with the AIX parsers)."""

from __future__ import annotations

from rules.parse import Parsed
from rules.parse.builder import Builder


def aix_server(parsed: Parsed, b: Builder) -> None:
    return None


def aix_storage(parsed: Parsed, b: Builder) -> None:
    return None
