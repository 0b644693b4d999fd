"""The API's JSON parser: strict about numbers and about what a body may cost once read.

DRF's own parser hands `1e999` on as infinity, an integer of 5,000 digits to a ValueError
it reports as a parse error, and one of 30 digits on to the view, where storing it fails.
This one refuses each as a 400 naming the value's JSON path (`server.cpus`), and a body
whose parsed form could outgrow MAX_PARSED_BYTES as a 413, before parsing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

from advisor.core import jsonsafe

# The largest JSON body any view takes is a bundle (settings.MAX_BUNDLE_BYTES, 8 MiB): as
# one string it costs 8 MiB, as 2 million empty objects far more than a worker should give.
MAX_PARSED_BYTES = 64 * 2**20


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "The request body is too large."


class StrictJSONParser(JSONParser):
    """JSON only; NaN, Infinity, numbers past 64 bits and nesting too deep are 400s."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = str((parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET)
        try:
            # bytes.decode takes text encodings only: a bz2_codec charset cannot inflate it.
            text = stream.read().decode(encoding)
        except UnicodeDecodeError as exc:
            raise exceptions.ParseError(f"JSON parse error - not {encoding} text: {exc}") from None
        except LookupError:
            raise exceptions.ParseError(f'Unsupported charset "{encoding[:40]}".') from None
        try:
            return jsonsafe.loads(text, max_parsed_bytes=MAX_PARSED_BYTES)
        except jsonsafe.TooLarge as exc:
            raise BodyTooLarge(f"This JSON body {exc}.") from None
        except jsonsafe.UnsafeJSON as exc:
            raise exceptions.ValidationError({exc.path: [exc.message]}) from None
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
