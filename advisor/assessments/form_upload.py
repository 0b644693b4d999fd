"""A contract document uploaded as a JSON file to fill the inventory form: size-limited,
decoded and parsed here, each way it can be unusable told in words at the file input."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from advisor.core import jsonsafe
from rules.inventory import MAX_STORAGE

MAX_JSON_BYTES = 1024 * 1024  # 512 storage entries are ~200 KB; the request limit is 1 MB
# 1 MB of `{},` would be 24 MB of dicts; 512 storage entries take ~2 MB parsed.
MAX_PARSED_BYTES = 16 * 1024 * 1024


class InventoryUpload(forms.Form):
    """A contract document (docs/contract.md) as a JSON file, loaded into the form."""

    inventory = forms.FileField(
        label="Inventory file (JSON)",
        error_messages={"required": "Choose a JSON file to load.", "empty": "This file is empty."},
        help_text=f"An inventory or a recommendations.json, up to {MAX_JSON_BYTES >> 10} KB.",
        widget=forms.FileInput(attrs={
            "accept": ".json,application/json", "data-max-bytes": str(MAX_JSON_BYTES),
            "aria-describedby": "id_inventory_helptext id_inventory-errors",
        }),
    )  # fmt: skip

    file_name = ""  # the name the browser gave the file, for the page to echo

    def clean_inventory(self) -> dict[str, Any]:
        upload: UploadedFile[bytes] = self.cleaned_data["inventory"]
        self.file_name = upload.name or "The file"
        data = upload.read(MAX_JSON_BYTES + 1)
        if len(data) > MAX_JSON_BYTES:
            raise ValidationError(f"This file is larger than {MAX_JSON_BYTES // 1024} KB.")
        try:
            doc = jsonsafe.loads(data.decode("utf-8"), max_parsed_bytes=MAX_PARSED_BYTES)
        except UnicodeDecodeError:
            raise ValidationError("This file is not UTF-8 text, so it is no JSON.") from None
        except json.JSONDecodeError as exc:
            raise ValidationError(
                f"This file is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
            ) from None
        except jsonsafe.UnsafeJSON as exc:
            raise ValidationError(f"This file's {exc.path}: {exc.message}.") from None
        except jsonsafe.TooLarge:
            raise ValidationError("This file holds far more values than an inventory.") from None
        except RecursionError:
            raise ValidationError("This file's JSON is nested too deeply.") from None
        if isinstance(doc, dict) and "schema_version" not in doc:
            doc = doc.get("inventory", doc)  # a recommendations.json carries its inventory
        if not isinstance(doc, dict):
            raise ValidationError("This file holds JSON, but not an inventory object { … }.")
        storage = doc.get("storage")
        if isinstance(storage, list) and len(storage) > MAX_STORAGE:
            raise ValidationError(
                f"This inventory has {len(storage)} storage entries; the form takes at most "
                f"{MAX_STORAGE}."
            )
        return doc
