"""`<id:pk>`: the URL converter of every object id in a path, API and pages alike.

An id is a row's primary key, a BigAutoField: 1 to 2^63 - 1, written in canonical
decimal. Anything else in its place (`01`, `0`, `9223372036854775808`, twenty digits) is
no id, so the path matches no route and answers 404 like any id that names nothing: never
a 500 from a number the database column cannot hold (PostgreSQL's "bigint out of range",
SQLite's OverflowError), never `01` read as object 1 under a second URL.

Registered on import; every urls.py that writes `<id:...>` imports this module first. The
schema types it as an int64 from 1 (SPECTACULAR_SETTINGS["PATH_CONVERTER_OVERRIDES"]).
"""

from __future__ import annotations

from django.urls import register_converter

ID_MAX = 2**63 - 1  # BigAutoField's largest value (settings.DEFAULT_AUTO_FIELD)
ID_PATTERN = "[1-9][0-9]{0,18}"  # no sign, no leading zero, at most 19 digits


def is_id(text: str) -> bool:
    """Whether `text` is an id as a path writes it."""
    return text.isascii() and text.isdigit() and text[0] != "0" and int(text) <= ID_MAX


class IdConverter:
    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        if not is_id(value):
            raise ValueError(f"{value} is not an id")  # Django: no match, so a 404
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
