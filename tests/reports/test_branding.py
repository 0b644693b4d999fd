"""Report branding for an organisation's admin: upload, replace and remove the logo that
goes on every report's cover, each change audited; others are refused; a file that is no
whole PNG or JPEG within the pixel budget (a decompression bomb, PNG magic before SVG or
HTML, a truncated or animated image) is refused naming the field, and nothing is stored;
what is stored is the image encoded again as PNG, without its metadata."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory
from django.urls import reverse
from PIL import Image, PngImagePlugin

from advisor.audit.models import AuditEvent
from advisor.models import Membership, Organisation
from advisor.reports import branding
from tests.browser import check_page, chromium_tab, log_in
from tests.conftest import make_member

URL = reverse("reports:branding")


@pytest.fixture
def admin_in(client: Client, user: User) -> Client:
    Membership.objects.filter(user=user).update(is_admin=True)
    client.force_login(user)
    return client


def upload(name: str, data: bytes) -> dict[str, Any]:
    return {"logo": SimpleUploadedFile(name, data)}


def _opened(data: bytes) -> tuple[str | None, tuple[int, int], dict[str, Any]]:
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.format, image.size, dict(image.info)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def bomb_png(width: int = 20_000, height: int = 20_000) -> bytes:
    """A 1-bit black PNG of width × height pixels: each row is a filter byte and zeros,
    so 50 MB of rows deflate to some 50 KB (built row by row: nothing that large is held)."""
    deflate, row = zlib.compressobj(9), b"\0" * (1 + (width + 7) // 8)
    body = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1 bit, grey
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", body)
            + _chunk(b"IEND", b""))  # fmt: skip


def image_bytes(kind: str, size: tuple[int, int] = (40, 20), **options: Any) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, format=kind, **options)
    return out.getvalue()


PNG_1PX = image_bytes("PNG", (1, 1))  # a whole PNG (test_client_report's has a bad checksum)


def test_a_member_who_is_not_admin_is_refused(client_in: Client) -> None:
    assert client_in.get(URL).status_code == 403
    assert client_in.post(URL, upload("logo.png", PNG_1PX)).status_code == 403


def test_the_admin_uploads_replaces_and_removes_the_logo(
    admin_in: Client, org: Organisation
) -> None:
    assert admin_in.post(URL, upload("logo.png", PNG_1PX)).status_code == 302
    org.refresh_from_db()
    first = org.logo.name
    assert first.startswith("logos/") and first.endswith(".png")
    assert _opened(org.logo.read()) == ("PNG", (1, 1), {})  # encoded again, as PNG
    page = admin_in.get(URL).content.decode()
    assert 'src="data:image/png;base64,' in page

    admin_in.post(URL, upload("new.png", PNG_1PX))
    org.refresh_from_db()
    assert org.logo.name != first and not org.logo.storage.exists(first)

    admin_in.post(URL, {"remove": "on"})
    org.refresh_from_db()
    assert not org.logo
    changes = [
        e.changes["logo"]
        for e in AuditEvent.objects.filter(action="organisation.logo").order_by("id")
    ]
    assert len(changes) == 3 and changes[-1][1] == ""


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"logo": SimpleUploadedFile("a.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>")},
         "Logo: give a PNG or JPEG image"),
        ({}, "Logo: choose a PNG or JPEG file, or tick Remove."),
    ],
)  # fmt: skip
def test_a_refused_file_is_named_and_nothing_is_stored(
    admin_in: Client, org: Organisation, data: dict[str, Any], expected: str
) -> None:
    response = admin_in.post(URL, data)
    assert response.status_code == 400
    assert expected in response.content.decode()
    org.refresh_from_db()
    assert not org.logo and not AuditEvent.objects.filter(action="organisation.logo").exists()


HOSTILE = {
    "PNG magic, then SVG": (
        b"\x89PNG\r\n\x1a\n<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>",
        branding.DAMAGED,
    ),
    "PNG magic, then HTML": (
        b"\x89PNG\r\n\x1a\n<html><script>alert(1)</script></html>",
        branding.DAMAGED,
    ),
    "JPEG magic, then HTML": (b"\xff\xd8\xff<html></html>", branding.DAMAGED),
    "a truncated PNG": (image_bytes("PNG", (300, 300))[:-40], branding.DAMAGED),
    "a truncated JPEG": (image_bytes("JPEG", (300, 300))[:200], branding.DAMAGED),
    # 400 M pixels: Pillow's own ceiling (179 M) stops it while reading the header.
    "a decompression bomb": (
        bomb_png(),
        "Logo: the image has far too many pixels; give one of at most 4,000 × 4,000",
    ),
    "a bomb below Pillow's ceiling": (
        bomb_png(9_000, 9_000),
        "Logo: the image is 9,000 × 9,000 pixels; give one of at most 4,000 × 4,000 "
        "(16 million pixels).",
    ),
    "one pixel past the budget": (bomb_png(4_001, 4_000), "4,001 × 4,000 pixels"),
    "an animated PNG": (
        image_bytes("PNG", save_all=True, append_images=[Image.new("RGB", (40, 20))]),
        "Logo: give a still image",
    ),
}


@pytest.mark.parametrize(("data", "expected"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_image_is_refused_naming_the_field(
    admin_in: Client, org: Organisation, data: bytes, expected: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    def decoded(data: bytes) -> bytes:
        raise AssertionError("decoded past the header checks")

    if "pixels" in expected or "still" in expected:  # refused from the header alone
        monkeypatch.setattr(branding, "_plain_png", decoded)
    assert len(data) < branding.LOGO_MAX_BYTES  # small on disk: the size check lets it by
    response = admin_in.post(URL, upload("logo.png", data))
    assert response.status_code == 400
    assert expected in response.content.decode()
    org.refresh_from_db()
    assert not org.logo and not AuditEvent.objects.filter(action="organisation.logo").exists()


def test_png_and_jpeg_are_stored_as_png_without_metadata(
    admin_in: Client, org: Organisation
) -> None:
    text = PngImagePlugin.PngInfo()
    text.add_text("Author", "someone@example.com")
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"  # Make
    exif[0x0112] = 6  # Orientation: rotate 90° clockwise to view
    for name, data, size in (
        ("logo.png", image_bytes("PNG", pnginfo=text), (40, 20)),
        ("photo.jpg", image_bytes("JPEG", exif=exif.tobytes()), (20, 40)),
    ):
        assert admin_in.post(URL, upload(name, data)).status_code == 302
        org.refresh_from_db()
        assert org.logo.name.endswith(".png")
        kind, stored_size, info = _opened(org.logo.read())
        assert (kind, stored_size, info) == ("PNG", size, {})


def test_the_django_admin_stores_the_logo_as_png_and_refuses_a_bomb(db: None) -> None:
    model_admin = admin.site._registry[Organisation]
    request = RequestFactory().get("/admin/advisor/organisation/add/")
    Form = model_admin.get_form(request)
    good = Form({"name": "Acme"}, {"logo": SimpleUploadedFile("a.jpg", image_bytes("JPEG"))})
    assert good.is_valid(), good.errors
    assert _opened(good.cleaned_data["logo"].read())[:2] == ("PNG", (40, 20))
    bad = Form({"name": "Acme"}, {"logo": SimpleUploadedFile("a.png", bomb_png())})
    assert not bad.is_valid()
    assert bad.errors["logo"][0].startswith("Logo: the image has far too many pixels")


def test_a_bomb_stored_before_the_budget_stays_out_of_the_report(org: Organisation) -> None:
    from django.core.files.base import ContentFile

    org.logo.save("old.png", ContentFile(bomb_png()), save=True)
    assert branding.logo_data_uri(org.logo) is None


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_branding_page_in_the_browser(live_server: Any, tmp_path: Any) -> None:
    from playwright.sync_api import expect

    user = make_member("alice", Organisation.objects.create(name="Acme Analytics"))
    Membership.objects.filter(user=user).update(is_admin=True)
    (tmp_path / "logo.png").write_bytes(PNG_1PX)
    with chromium_tab(30_000) as tab:
        log_in(tab, live_server.url)
        tab.get_by_role("link", name="Report branding").first.click()
        tab.locator("#id_logo").set_input_files(str(tmp_path / "logo.png"))
        tab.get_by_role("button", name="Save").click()
        expect(tab.get_by_role("img", name="The current logo of Acme Analytics")).to_be_visible()
        check_page(tab, "report-branding")
