"""{% load words %}: settings and values as an admin writes them (advisor.core.words),
for the tables built elsewhere (statuses.current_rows) that carry the rules' names."""

from __future__ import annotations

import re

from django import template

from advisor.core import words

register = template.Library()


@register.filter
def setting_name(setting: str) -> str:
    """'limits:nofile' → 'nofile', 'read_ahead_kb:mount' → 'read-ahead (mount)'."""
    return words.setting_name(setting)


@register.simple_tag
def value_words(setting: str, value: str | None) -> str:
    """{% value_words r.setting r.recommended %}: 'on', '≥ 16384 KB', '10240'."""
    return words.value_words(setting, value)


@register.filter
def plain(text: str) -> str:
    """Text without the papers' line references, contract paths or field names."""
    return words.plain(text)


@register.simple_tag
def setting_phrase(setting: str, value: str, sep: str = "=") -> str:
    """{% setting_phrase r.setting r.value " = " %}: 'THREADS on', 'nofile 10240',
    'MEMSIZE = 8G'."""
    return words.setting_phrase(setting, value, sep)


@register.filter
def short_name(source_id: str) -> str:
    """A source id as people cite it in the text: 'bartucca2005' → 'Bartucca 2005'."""
    return words.short_name(source_id)


@register.filter
def path_words(path: str) -> str:
    """A contract path as the form labels it: 'server.ram_gb' → 'RAM (GB)'."""
    return words.path_words(path)


_FLEET_PLACE = re.compile(r"servers\[(\d{1,6})\](?:\.([A-Za-z0-9_.\[\]]{1,120}))?: ")


@register.filter
def fleet_problem(text: str) -> str:
    """A fleet server's problem as the page numbers it: 'servers[13].server.hostname: …'
    → 'Server 14 · Host name: …' (the stored text keeps the upload's own index)."""
    found = _FLEET_PLACE.match(text)
    if found is None:
        return words.without_regex(words.plain(text))
    place = f"Server {int(found.group(1)) + 1}"
    if found.group(2):
        place += f" · {words.path_words(found.group(2))}"
    return f"{place}: {words.without_regex(words.plain(text[found.end() :]))}"
