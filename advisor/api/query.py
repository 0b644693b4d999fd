"""Query parameters, read as strictly as bodies: each operation names the ones it takes,
and anything else, or a value it cannot take, is a 400 naming the parameter.

A view declares them in `ApiView.query` by method: a `Query` serializer (validated, its
values in `view.query_data`) or bare names the handler reads itself. The same serializer
is given to the schema (`extend_schema(parameters=[...])`), so what is documented is what
is taken; lists add `page` and `page_size` (advisor.api.pagination).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from rest_framework import exceptions, serializers
from rest_framework.request import Request

from advisor.core.text import CONTROL_MESSAGE, has_control


class Query(serializers.Serializer[dict[str, Any]]):
    """The query parameters of one operation; a subclass declares each as a field."""


QuerySpec = type[Query] | tuple[str, ...]


def choice(values: Iterable[str], help_text: str = "") -> serializers.ChoiceField:
    """A parameter that takes one of `values`; any other is refused naming them all."""
    options = list(values)
    return serializers.ChoiceField(
        options, required=False, allow_blank=True, help_text=help_text or None,
        error_messages={"invalid_choice": f"must be one of: {', '.join(options)}"},
    )  # fmt: skip


def _no_control(value: str) -> None:
    if has_control(value):
        raise serializers.ValidationError(CONTROL_MESSAGE)


def text(max_length: int, help_text: str) -> serializers.CharField:
    """A filter's free text up to `max_length` characters, no control character (a NUL
    would reach PostgreSQL, which refuses it in text; no name filtered on holds any);
    blank means no filter."""
    return serializers.CharField(
        required=False, allow_blank=True, max_length=max_length, help_text=help_text,
        validators=[_no_control],
    )  # fmt: skip


class NameField(serializers.CharField):
    """A name given to what is stored (a fleet's, a log's): control characters, NUL
    included, are taken here and dropped where it is stored."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators
                           if not isinstance(v, ProhibitNullCharactersValidator)]  # fmt: skip


def name_field(max_length: int, help_text: str) -> NameField:
    return NameField(
        required=False, allow_blank=True, trim_whitespace=False, max_length=max_length,
        help_text=help_text,
    )  # fmt: skip


def names_of(spec: QuerySpec | None) -> tuple[str, ...]:
    if spec is None:
        return ()
    if isinstance(spec, tuple):
        return spec
    return tuple(spec().fields)


def reject_unknown_query(request: Request, allowed: Iterable[str]) -> None:
    """A 400 naming each query parameter the operation does not take (a typo in a filter
    would otherwise be silently ignored), and the ones it does."""
    taken = set(allowed)
    # `format` too: DRF's URL format override is off (REST_FRAMEWORK["URL_FORMAT_OVERRIDE"]).
    unknown = sorted(set(request.query_params) - taken)
    if unknown:
        takes = f"it takes {', '.join(sorted(taken))}" if taken else "it takes none"
        message = f"is not a parameter of this operation ({takes})"
        raise exceptions.ValidationError({name: [message] for name in unknown})


def read_query(request: Request, spec: QuerySpec | None, extra: tuple[str, ...]) -> dict[str, Any]:
    """The declared parameters' values (validated when `spec` is a Query); 400 naming
    each unknown parameter, each given twice and each invalid value."""
    reject_unknown_query(request, (*names_of(spec), *extra))
    twice = sorted(name for name, values in request.query_params.lists() if len(values) > 1)
    if twice:
        raise exceptions.ValidationError({name: ["is given more than once"] for name in twice})
    if spec is None or isinstance(spec, tuple):
        return {}
    given = {k: v for k, v in request.query_params.items() if k not in extra}
    query = spec(data=given)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)
