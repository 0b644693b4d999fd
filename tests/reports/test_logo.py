"""The organisation's logo: PNG or JPEG of at most 512 KB, recognised by its bytes, uploaded
in the admin, and carried into the report as a data: URI (the PDF fetches nothing)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms import modelform_factory
from django.test import RequestFactory

from advisor.models import Assessment, Organisation
from advisor.reports.branding import LOGO_MAX_BYTES, logo_data_uri
from advisor.reports.content import report_context
from tests.reports.test_branding import image_bytes
from tests.reports.test_client_report import PNG_1PX

LogoForm = modelform_factory(Organisation, fields=["name", "logo"])


def _form(name: str, data: bytes) -> object:
    upload = SimpleUploadedFile(name, data, content_type="image/png")
    return LogoForm({"name": "Acme Analytics"}, {"logo": upload})


@pytest.mark.parametrize("kind", ["PNG", "JPEG"])
def test_png_and_jpeg_are_taken(db: None, kind: str) -> None:
    # Whole images: a header alone (or PNG_1PX, whose checksum is wrong) is refused now.
    name, data = f"logo.{kind.lower()}", image_bytes(kind)
    form = _form(name, data)
    assert form.is_valid(), form.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("logo.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>", "give a PNG or JPEG"),
        ("logo.png", b"GIF89a....", "give a PNG or JPEG"),  # the name is not the type
        ("big.png", PNG_1PX + b"\0" * LOGO_MAX_BYTES, "at most 512 KB"),
    ],
)
def test_other_files_are_refused_naming_the_logo(
    db: None, name: str, data: bytes, message: str
) -> None:
    form = _form(name, data)
    assert not form.is_valid()  # type: ignore[attr-defined]
    errors = form.errors["logo"]  # type: ignore[attr-defined]
    assert errors[0].startswith("Logo: ") and message in errors[0]


def test_the_admin_offers_the_logo(db: None) -> None:
    model_admin = admin.site._registry[Organisation]
    request = RequestFactory().get("/admin/advisor/organisation/add/")
    assert "logo" in model_admin.get_form(request).base_fields


def test_the_report_carries_the_logo_inline(assessment: Assessment) -> None:
    assert report_context(assessment)["logo"] is None
    assessment.organisation.logo.save("logo.png", ContentFile(PNG_1PX), save=True)
    assert report_context(assessment)["logo"].startswith("data:image/png;base64,iVBORw0KGgo")


def test_a_stored_file_that_is_no_image_is_left_out(assessment: Assessment) -> None:
    assessment.organisation.logo.save("logo.png", ContentFile(b"<svg/>"), save=True)
    assert logo_data_uri(assessment.organisation.logo) is None
