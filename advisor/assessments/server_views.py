"""Start from your server: download the collector, then paste or upload what it wrote.

A collector bundle or a terminal transcript becomes a draft inventory
(`reading.bundle_draft`), shown on the ordinary inventory form with each value marked by
the command it was read from and each guess marked for the admin to confirm; saving goes
through the ordinary create flow. A JSON inventory (or a recommendations.json) just fills
the form. The text is untrusted: bounded in size, parsed, never executed.

The size is checked before anything is parsed: in the browser (static/advisor/
paste_limit.js refuses a paste over the limit, keeping it in the box), by the middleware
for a body over MAX_BUNDLE_BYTES (this page answers it with its own form, 413, the limit
in MB: advisor.core.refused_body), and here for the text itself.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from advisor.assessments import draft_marks, files, presets, reading
from advisor.assessments import inventory_form as inv
from advisor.assessments.views import new_page
from advisor.core import jsonsafe
from advisor.core.http import PageRequest
from advisor.core.middleware import takes_bundles
from advisor.core.refused_body import answers_refused_body, megabytes, refused_size
from advisor.core.text import storable

TOO_LARGE = "too_large"
SNIFF_BYTES = 8192  # a NUL byte this early means a binary file, not command output
# An inventory pasted as JSON: 512 storage entries take ~2 MB parsed; 8 MB of `{},` would
# take 190 MB.
MAX_PARSED_BYTES = 32 * 1024 * 1024


def size_limit() -> int:
    """The largest text taken: the parser's limit, or the request limit when lower."""
    return min(reading.MAX_BYTES, settings.MAX_BUNDLE_BYTES)


def too_large(size: int) -> ValidationError:
    return ValidationError(
        f"This is {megabytes(size)}; the limit is {megabytes(size_limit())}. "
        "A collector bundle is far smaller: upload the bundle itself, or paste only the "
        "commands and their output.",
        code=TOO_LARGE,
    )


def paste_too_large(size: int) -> ValidationError:
    """What static/advisor/paste_limit.js says in the browser, for a paste that got here
    anyway (JavaScript off)."""
    return ValidationError(
        f"The paste is {megabytes(size)}; the limit is {megabytes(size_limit())}. "
        "Upload the collector's bundle file instead, or paste fewer sections.",
        code=TOO_LARGE,
    )


def body_too_large(size: int) -> ValidationError:
    """The refusal of a request the middleware would not read (advisor.core.refused_body)."""
    return ValidationError(
        f"What was sent is {megabytes(size)}; the limit is {megabytes(size_limit())}. "
        "It was not read, so the text is not shown again. Upload the collector's bundle "
        "file instead, or paste fewer sections.",
        code=TOO_LARGE,
    )


class ReadingForm(forms.Form):
    """A bundle, a transcript or a JSON inventory: pasted, or uploaded as a file."""

    text = forms.CharField(
        label="Paste the bundle, a terminal transcript or a JSON inventory",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "autocomplete": "off"}),
    )
    upload = forms.FileField(label="or upload a file", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limit = size_limit()
        self.fields["upload"].help_text = f"Text, up to {megabytes(limit)}."
        self.fields["upload"].widget.attrs["data-max-bytes"] = str(limit)
        # Checked in the browser before sending (static/advisor/paste_limit.js).
        self.fields["text"].widget.attrs["data-max-bytes"] = str(limit)
        self.fields["text"].widget.attrs["aria-describedby"] = "reading-errors"
        self.fields["upload"].widget.attrs["aria-describedby"] = "id_upload_helptext reading-errors"

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        size = len(text.encode("utf-8", "surrogatepass"))  # what was sent, as the browser counts
        if size > size_limit():
            raise paste_too_large(size)
        return text

    def clean_upload(self) -> str | None:
        upload: UploadedFile[bytes] | None = self.cleaned_data.get("upload")
        if upload is None:
            return None
        if upload.size is not None and upload.size > size_limit():
            raise too_large(upload.size)
        data: bytes = upload.read(size_limit() + 1)
        if len(data) > size_limit():
            raise too_large(len(data))
        if b"\x00" in data[:SNIFF_BYTES]:
            raise ValidationError(
                "This is a binary file. Upload the text bundle the collector wrote "
                "(bundle.txt), not an archive or an image.",
                code="binary",
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("latin-1")  # every byte is a character: nothing is lost

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors and not cleaned.get("upload") and not cleaned.get("text", "").strip():
            raise ValidationError(
                "Paste the bundle or a transcript, or choose a file.", code="empty"
            )
        return cleaned

    def reading(self) -> str:
        """The text to read: the file when one was chosen, else what was pasted."""
        text: str = self.cleaned_data.get("upload") or self.cleaned_data["text"]
        return text

    @property
    def status(self) -> int:
        """413 for text over the limit, 400 for any other refusal."""
        codes = {e.code for errors in self.errors.as_data().values() for e in errors}
        return 413 if TOO_LARGE in codes else 400


def inventory_json(text: str) -> dict[str, Any] | None:
    """The inventory a JSON paste holds (a recommendations.json's `inventory` too); None
    when the text is not JSON, or is fio's JSON (read as a reading). Raises ValueError for
    JSON that is broken."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        doc = jsonsafe.loads(text, max_parsed_bytes=MAX_PARSED_BYTES)
    except jsonsafe.UnsafeJSON as exc:
        raise ValueError(f"This JSON's {exc.path}: {exc.message}.") from None
    except jsonsafe.TooLarge:
        raise ValueError("This JSON holds far more values than an inventory.") from None
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"This looks like JSON but is not valid: {exc}") from None
    if not isinstance(doc, dict):
        raise ValueError("The JSON is not an inventory object.")
    if "fio version" in doc and "schema_version" not in doc:
        return None  # fio's saved --output-format=json: a measurement, read as one
    if (where := _unstorable(doc)) is not None:
        raise ValueError(
            f"This JSON's {where} holds NUL or an unpaired surrogate (\\u0000, \\ud800 …): "
            "not text."
        )
    inner = doc.get("inventory")
    found = inner if "schema_version" not in doc and isinstance(inner, dict) else doc
    if not isinstance(found.get("storage", []), list):
        raise ValueError("The JSON's storage is not a list of file systems.")
    return found


def _unstorable(document: dict[str, Any]) -> str | None:
    """The path of the first string (a key too) in the document that cannot be stored or
    shown: NUL, or a lone surrogate, which a JSON escape can make and UTF-8 cannot encode."""
    stack: list[tuple[Any, str]] = [(document, jsonsafe.ROOT)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str) and storable(value) != value:
            return path
        if isinstance(value, dict):
            for key, item in reversed(value.items()):
                shown = storable(str(key))
                member = shown if path == jsonsafe.ROOT else f"{path}.{shown}"
                if shown != key:
                    return member
                stack.append((item, member))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{n}]") for n, v in reversed(list(enumerate(value))))
    return None


def _start(
    request: PageRequest, form: ReadingForm, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {
        "form": form,
        "limit": size_limit(),
        "collector_name": reading.COLLECTOR_NAME,
        **extra,
    }
    return render(request, "assessments/server.html", context, status=status)


@answers_refused_body
@takes_bundles
@require_http_methods(["GET", "POST"])
@login_required
def server_start(request: PageRequest) -> HttpResponse:
    if (refused := refused_size(request)) is not None:
        form = ReadingForm()
        form.cleaned_data = {}  # unbound: nothing was read, the refusal is its one error
        form.add_error(None, body_too_large(refused))
        return _start(request, form, 413)
    if request.method == "GET":
        return _start(request, ReadingForm())
    form = ReadingForm(request.POST, request.FILES)
    if not form.is_valid():
        return _start(request, form, form.status)
    text = form.reading()
    try:
        document = inventory_json(text)
    except ValueError as exc:
        form.add_error("text", str(exc))
        return _start(request, form, 400)
    if document is not None:
        return new_page(request, inv.data_from_document(document), show=True)
    try:
        found = reading.bundle_draft(text=text)
    except reading.TooLarge:
        form.add_error(None, too_large(len(text)))
        return _start(request, form, 413)
    shown = draft_marks.draft_view(found)
    if not found.provenance:  # nothing recognised: say why on the same page
        return _start(request, form, 400, draft=shown, nothing_read=True)
    data = presets.started(inv.data_from_document(found.document))
    return new_page(request, data, show=True, draft=shown)


@require_GET
@login_required
def collector_download(request: PageRequest) -> HttpResponse:
    name, text = reading.collector()
    return files.attachment(text, name, "text/x-shellscript; charset=utf-8")
