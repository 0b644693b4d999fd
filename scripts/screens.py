"""Screenshots of the result, compare, fleet and verify pages at laptop and phone width,
for the README (docs/screens/). Run from the project's root after `uv sync`:

    uv run python scripts/screens.py [--out DIR]

Needs no service: a throwaway SQLite database in a temporary folder, tasks run in-process
(no broker), the app served from a thread on a free port and photographed by the machine's
Chromium (/usr/bin/chromium) through Playwright. The data is made by the app's own
services, as a user would make it: two assessments of examples/linux-rhel9-sas94.json (the
second after a memory upgrade), a fleet of eight servers built from the examples, and a
verify of the first through its page's form with a pasted terminal read of the server
(scripts/screens_reading.txt). The PNGs are named by page and width and overwritten.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
READING = Path(__file__).resolve().parent / "screens_reading.txt"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]  # fmt: skip
WIDTHS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
MAX_HEIGHT = 2400  # px: a long page is shown from its top, which is what a reader looks at
TIMEOUT_MS = 30_000
# The fleet: each example twice, the second copy with double the RAM, so its groups differ.
FLEET = ("linux-rhel9-sas94", "linux-rhel8-sas94", "aix73-sas94-1mb", "windows-sas94")


def _environment(tmp: Path) -> None:
    """The embedded default, pointed at the temporary folder; no Redis, no broker."""
    for name in ("REDIS_URL", "CELERY_BROKER_DIR", "STORAGE_S3_BUCKET", "SECURE_PROXY_SSL_HEADER"):
        os.environ.pop(name, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="advisor.settings", DEBUG="1", LOG_LEVEL="WARNING",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}", MEDIA_ROOT=str(tmp / "media"),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Playwright's sync API runs an event loop in this thread; the ORM calls made here
        # while it runs are plain synchronous ones.
        DJANGO_ALLOW_ASYNC_UNSAFE="true",
    )  # fmt: skip
    sys.path.insert(0, str(ROOT))


def _example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((ROOT / "examples" / f"{name}.json").read_text())
    return document


def _user() -> Any:
    from django.contrib.auth.models import User

    from advisor.models import Membership, Organisation

    org = Organisation.objects.create(name="Example organisation")
    user = User.objects.create_user("admin", password="screens-only-password")
    Membership.objects.create(user=user, organisation=org, is_admin=True)
    return user


def _assessments(user: Any) -> tuple[Any, Any]:
    """sascomp09 as shipped, then after its RAM doubled and more sessions came."""
    from advisor.assessments.services import assessment_create

    first, _ = assessment_create(user=user, document=_example("linux-rhel9-sas94"))
    upgraded = _example("linux-rhel9-sas94")
    upgraded["name"] = "sascomp09 after its memory upgrade"
    upgraded["server"]["ram_gb"] = 512
    upgraded["workload"]["concurrent_sessions"] = 40
    second, _ = assessment_create(user=user, document=upgraded)
    return first, second


def _fleet(user: Any) -> Any:
    """Eight servers uploaded as NDJSON, advised in-process as the upload returns."""
    from advisor.fleets.reading import read_fleet
    from advisor.fleets.services import fleet_create

    documents = []
    for n in range(2 * len(FLEET)):
        document = copy.deepcopy(_example(FLEET[n % len(FLEET)]))
        document["server"]["hostname"] = f"sasprd{n + 1:02d}"
        if n >= len(FLEET):
            document["server"]["ram_gb"] *= 2
        documents.append(document)
    body = "".join(json.dumps(d) + "\n" for d in documents).encode()
    entries = read_fleet(io.BytesIO(body), "application/x-ndjson")
    fleet, _ = fleet_create(user=user, entries=entries, name="Production estate")
    return fleet


def _reading(assessment: Any) -> str:
    """A terminal session on sascomp09 after its advice was applied, and someone since
    raised MEMSIZE: the verify shows that one drift."""
    applied = assessment.result["artifacts"]["sasv9_local.cfg"]
    raised = re.sub(r"(?m)^-MEMSIZE \S+$", "-MEMSIZE 8G", applied)
    prompt = "[root@sascomp09 ~]# "
    config = "/opt/sas/config/Lev1/SASApp/sasv9_local.cfg"
    return f"{READING.read_text()}{prompt}cat {config}\n{raised.rstrip()}\n{prompt}\n"


def _data() -> dict[str, Any]:
    """The database migrated and filled; the pages' paths and the verify's paste."""
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    call_command("migrate", verbosity=0)
    user = _user()
    first, second = _assessments(user)
    fleet = _fleet(user)
    client = Client()
    client.force_login(user)
    return {
        "cookie": {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        },
        "verify": reverse("web:verify", args=[first.pk]),
        "result": reverse("web:assessment", args=[first.pk]),
        "compare": reverse("web:compare", args=[first.pk, second.pk]),
        "fleet": reverse("fleets:detail", args=[fleet.pk]),
        "paste": _reading(first),
    }


@contextmanager
def _served() -> Iterator[str]:
    """The app (static files included) on a free port of 127.0.0.1, in a thread."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    server = LiveServerThread("127.0.0.1", StaticFilesHandler)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.terminate()


def _settle(tab: Any) -> None:
    """Wait for the page's requests and fonts, so the picture shows the page as drawn."""
    from playwright.sync_api import TimeoutError as StillBusy

    with suppress(StillBusy):  # a page that keeps polling: photograph it as it stands
        tab.wait_for_load_state("networkidle", timeout=5_000)
    tab.evaluate("document.fonts.ready.then(() => true)")


def _shoot(tab: Any, out: Path, name: str) -> list[Path]:
    """The page at each width, from its top to MAX_HEIGHT at most."""
    written = []
    for width, size in WIDTHS.items():
        tab.set_viewport_size(size)
        _settle(tab)
        height = min(tab.evaluate("document.documentElement.scrollHeight"), MAX_HEIGHT)
        path = out / f"{name}-{width}.png"
        clip = {"x": 0, "y": 0, "width": size["width"], "height": height}
        tab.screenshot(path=str(path), full_page=True, clip=clip, animations="disabled")
        written.append(path)
    tab.set_viewport_size(WIDTHS["laptop"])
    return written


def _open(tab: Any, url: str) -> None:
    """Go to the page; a page that fails is an error, never a picture."""
    _answered(url, tab.goto(url))


def _answered(url: str, response: Any) -> None:
    if response is None or response.status != 200:
        status = "no answer" if response is None else f"status {response.status}"
        raise SystemExit(f"screens: {url} answered {status}; no screenshot taken")


def _verify(tab: Any, base: str, data: dict[str, Any]) -> None:
    """Paste the read into the verify page's form and send it, as a user does."""
    _open(tab, base + data["verify"])
    text = tab.locator("#id_text")
    text.fill(data["paste"])
    text.evaluate("element => { element.scrollTop = 0; }")  # the paste shown from its top
    form = tab.locator("form", has=text)
    with tab.expect_response(lambda r: r.request.method == "POST") as sent:
        form.locator("button[type=submit]").first.click()
    _answered(base + data["verify"] + " (the verify sent)", sent.value)
    tab.locator("#verify-result table").first.wait_for()


def _browse(base: str, data: dict[str, Any], out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=WIDTHS["laptop"], color_scheme="light")
        context.add_cookies([{**data["cookie"], "url": base}])
        tab = context.new_page()
        tab.set_default_timeout(TIMEOUT_MS)
        try:
            # Verify first: a stored verify then shows on the result page.
            _verify(tab, base, data)
            written = _shoot(tab, out, "verify")
            for name in ("result", "compare", "fleet"):
                _open(tab, base + data[name])
                written += _shoot(tab, out, name)
        finally:
            browser.close()
    return written


def _smaller(path: Path) -> None:
    """Down to a 256-colour palette and optimised: a tenth of the size, text unchanged."""
    from PIL import Image

    with Image.open(path) as image:
        image.load()
    palette = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    palette.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens",
                        help="folder for the PNGs (default: docs/screens)")  # fmt: skip
    out = parser.parse_args(argv).out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="screens-") as tmp:
        _environment(Path(tmp))
        import django

        django.setup()
        # The in-process broker has no host name, as meant; kombu warns about it.
        logging.getLogger("kombu.connection").setLevel(logging.ERROR)
        data = _data()
        with _served() as base:
            written = _browse(base, data, out)
    for path in written:
        _smaller(path)
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    print(f"{len(written)} screenshots in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
