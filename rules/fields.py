"""The kinds of field the inventory contract is declared with, and the `spec()` that binds one.

A contract class is a frozen dataclass whose fields carry a `Spec` (see `rules.inventory`).
From that one declaration come the validation (each kind converts a raw JSON value or
raises `Invalid` with the contract's message), the JSON Schema (`Kind.schema`), the limits
and choices a form offers (`Kind.limits`, `Choice.options`) and the echo of the validated
document. Walking the declaration is `rules.validate`'s job; this module only describes.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class Invalid(ValueError):
    """A value the kind does not accept; the message is the contract's wording."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Kind:
    """A leaf value: `convert` returns the checked value or raises `Invalid`."""

    def convert(self, value: Any) -> Any:
        raise NotImplementedError

    def schema(self) -> Schema:
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Whether `convert` takes the value (for code that sieves rather than reports)."""
        try:
            self.convert(value)
        except Invalid:
            return False
        return True

    def limits(self) -> dict[str, str]:
        """HTML input attributes that mirror the kind's limits (min, max, maxlength …)."""
        return {}


@dataclass(frozen=True)
class Text(Kind):
    max_len: int

    def convert(self, value: Any) -> str:
        if type(value) is not str:
            raise Invalid("must be a string")
        if len(value) > self.max_len:
            raise Invalid(f"must be at most {self.max_len} characters")
        if _CONTROL.search(value):
            raise Invalid("must not contain control characters")
        if _SURROGATE.search(value):  # JSON's "\ud800" alone: no UTF-8 can carry it
            raise Invalid("must not contain unpaired surrogate code points")
        return value

    def schema(self) -> Schema:
        return {"type": "string", "maxLength": self.max_len, "pattern": r"^[^\x00-\x1f\x7f]*$"}

    def limits(self) -> dict[str, str]:
        return {"maxlength": str(self.max_len)}


@dataclass(frozen=True)
class Pattern(Kind):
    """A string matching `regex` whole; `check` adds a rule a regular expression can't say."""

    regex: str
    message: str
    max_len: int | None = None
    check: Callable[[str], str | None] | None = None  # returns a message when it fails
    compiled: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", re.compile(self.regex))

    def convert(self, value: Any) -> str:
        if type(value) is not str or not self.compiled.fullmatch(value):
            raise Invalid(self.message)
        if self.max_len is not None and len(value) > self.max_len:
            raise Invalid(self.message)
        if self.check is not None and (problem := self.check(value)) is not None:
            raise Invalid(problem)
        return value

    def schema(self) -> Schema:
        out: Schema = {"type": "string", "pattern": f"^(?:{self.regex})$"}
        if self.max_len is not None:
            out["maxLength"] = self.max_len
        return out

    def limits(self) -> dict[str, str]:
        return {"maxlength": str(self.max_len)} if self.max_len else {}


@dataclass(frozen=True)
class Choice(Kind):
    options: tuple[str, ...]
    members: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "members", frozenset(self.options))

    def convert(self, value: Any) -> str:
        if type(value) is not str or value not in self.members:
            raise Invalid("must be one of " + ", ".join(repr(o) for o in self.options))
        return value

    def schema(self) -> Schema:
        return {"type": "string", "enum": list(self.options)}


@dataclass(frozen=True)
class Int(Kind):
    lo: int
    hi: int

    def convert(self, value: Any) -> int:
        if type(value) is not int:
            raise Invalid("must be an integer")
        if not self.lo <= value <= self.hi:
            raise Invalid(f"must be between {self.lo} and {self.hi}")
        return value

    def schema(self) -> Schema:
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}

    def limits(self) -> dict[str, str]:
        return {"min": str(self.lo), "max": str(self.hi), "step": "1"}


@dataclass(frozen=True)
class PowerOfTwo(Int):
    """An integer that is a power of two within [lo, hi] (block and record sizes)."""

    def convert(self, value: Any) -> int:
        value = super().convert(value)
        if value & (value - 1):
            raise Invalid(f"must be a power of two from {self.lo} to {self.hi}")
        return int(value)

    def schema(self) -> Schema:
        powers = [1 << n for n in range(self.hi.bit_length()) if self.lo <= 1 << n <= self.hi]
        return {"type": "integer", "enum": powers}


@dataclass(frozen=True)
class Num(Kind):
    """A finite number (an integer is accepted and becomes a float)."""

    lo: float
    hi: float
    exclusive_lo: bool = False

    def convert(self, value: Any) -> float:
        # An int of any size compares exactly with the bounds; only a float can be inf or
        # NaN (math.isfinite on a 400-digit int would overflow converting it to a float).
        if type(value) not in (int, float) or (type(value) is float and not math.isfinite(value)):
            raise Invalid("must be a number")
        if (value <= self.lo if self.exclusive_lo else value < self.lo) or value > self.hi:
            low = f"greater than {self.lo:g}" if self.exclusive_lo else f"at least {self.lo:g}"
            raise Invalid(f"must be {low} and at most {self.hi:g}")
        return float(value)

    def schema(self) -> Schema:
        out: Schema = {"type": "number", "minimum": self.lo, "maximum": self.hi}
        if self.exclusive_lo:
            out["exclusiveMinimum"] = True
        return out

    def limits(self) -> dict[str, str]:
        return {"min": f"{self.lo:g}", "max": f"{self.hi:g}", "step": "any"}


@dataclass(frozen=True)
class Bool(Kind):
    def convert(self, value: Any) -> bool:
        if type(value) is not bool:
            raise Invalid("must be true or false")
        return value

    def schema(self) -> Schema:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Const(Kind):
    value: int

    def convert(self, value: Any) -> int:
        if type(value) is not int or value != self.value:
            raise Invalid(f"must be {self.value}")
        return value

    def schema(self) -> Schema:
        return {"type": "integer", "enum": [self.value]}


@dataclass(frozen=True)
class MapOf(Kind):
    """An object of names to values: names match `key`, values are `value`; at most
    `max_items`. Read as a plain dict (settings as a server runs them: `{"MEMSIZE": "2G"}`)."""

    key: Pattern
    value: Kind
    max_items: int

    def convert(self, value: Any) -> dict[str, Any]:
        if type(value) is not dict:
            raise Invalid("must be an object")
        if len(value) > self.max_items:
            raise Invalid(f"must have at most {self.max_items} entries")
        out: dict[str, Any] = {}
        for name, item in value.items():
            try:
                out[self.key.convert(name)] = self.value.convert(item)
            except Invalid as exc:
                raise Invalid(f"{str(name)[:64]!r}: {exc.message}") from None
        return out

    def schema(self) -> Schema:
        return {
            "type": "object",
            "additionalProperties": self.value.schema(),
            "maxProperties": self.max_items,
        }


@dataclass(frozen=True)
class Obj:
    """A nested contract class; `post(obj, path) -> [(path, message)]` checks across fields."""

    cls: type
    post: Callable[[Any, str], list[tuple[str, str]]] | None = None
    # Fewest members the document must give (the schema's minProperties): a mix with no
    # fraction at all cannot sum to 1, so the schema says so rather than only the check.
    min_properties: int = 0


@dataclass(frozen=True)
class ListOf:
    """A list of `item`; `post(items, path) -> [(path, message)]` checks across items.

    `post` sees every item, None in place of each one that failed its own checks.

    `index_field`, when set, is the item class's field that receives the item's position,
    so each entry knows its own JSON path.
    """

    item: Kind | Obj
    max_items: int
    message: str  # when the value is not a list (and when it is too long, unless too_long)
    too_long: str = ""
    post: Callable[[list[Any], str], list[tuple[str, str]]] | None = None
    index_field: str | None = None


AnyKind = Kind | Obj | ListOf


@dataclass(frozen=True)
class Spec:
    kind: AnyKind
    required: bool
    nullable: bool  # JSON null is accepted and means the default
    default: Any
    label: str
    help: str
    example: Any
    # Whether the echo carries the field at its default. A field added to contract v1
    # later says False: a document that does not use it echoes (and so advises) byte for
    # byte as before, and a result stored before it was added reads the same.
    echo_default: bool = True


def spec(
    kind: AnyKind,
    *,
    label: str,
    help: str = "",
    example: Any = None,
    default: Any = dataclasses.MISSING,
    nullable: bool = False,
    echo_default: bool = True,
) -> Any:
    """A contract field: required unless it has a default. Use as a dataclass field value."""
    required = default is dataclasses.MISSING
    if required and not echo_default:
        raise TypeError("a required field is always echoed")
    meta = Spec(
        kind, required, nullable, None if required else default, label, help, example, echo_default
    )
    if required:
        return field(metadata={"spec": meta})
    if isinstance(default, tuple | int | float | str | bool | type(None)):
        return field(default=default, metadata={"spec": meta})
    raise TypeError("contract defaults must be immutable")


def internal(default: Any) -> Any:
    """A field that is not part of the contract (never read from or echoed to a document)."""
    return field(default=default, repr=False, compare=False)


def specs(cls: type) -> tuple[tuple[str, Spec], ...]:
    """The contract fields of a class, in declaration order."""
    found = _SPECS.get(cls)
    if found is None:
        found = tuple(
            (f.name, f.metadata["spec"]) for f in dataclasses.fields(cls) if "spec" in f.metadata
        )
        _SPECS[cls] = found
    return found


_SPECS: dict[type, tuple[tuple[str, Spec], ...]] = {}
