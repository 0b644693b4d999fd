"""scripts/screens.py, the README's screenshots: run as written, into a folder of its own,
it writes the eight pictures at the widths it names, so the script cannot rot unnoticed."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import require_chromium
from tests.conftest import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PAGES = ("result", "compare", "fleet", "verify")
WIDTHS = {"laptop": 1280, "phone": 390}
MAX_HEIGHT = 2400  # the script's cut of a long page


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG's signature and IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_script_writes_each_page_at_both_widths(tmp_path: Path) -> None:
    require_chromium()
    out = tmp_path / "screens"
    # Whatever services the suite runs on, the script uses none of them.
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(
        [sys.executable, "scripts/screens.py", "--out", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    expected = {f"{page}-{width}.png" for page in PAGES for width in WIDTHS}
    assert {p.name for p in out.iterdir()} == expected
    for name in sorted(expected):
        width, height = png_size(out / name)
        assert width == WIDTHS[name.split("-")[1].removesuffix(".png")], name
        assert 600 <= height <= MAX_HEIGHT, (name, height)
        assert f"wrote {out / name} (" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("8 screenshots in ")


def test_the_readme_shows_each_laptop_picture_and_links_its_phone_one() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in PAGES:
        assert f"](docs/screens/{page}-laptop.png)" in readme, page
        assert f"[phone](docs/screens/{page}-phone.png)" in readme, page
