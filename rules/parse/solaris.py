"""Parsers: solaris (filled in below)."""

from __future__ import annotations
