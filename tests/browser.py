"""The machine's Chromium driven by Playwright, shared by the browser tests.

Playwright's sync API runs an event loop in the test's thread; Django's ORM calls from the
test body (creating users and assessments) are still plain synchronous calls, hence
DJANGO_ALLOW_ASYNC_UNSAFE. No browser is downloaded: Debian's /usr/bin/chromium is used.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.conftest import ROOT

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# axe-core from npm (package.json, installed by `npm ci`): the accessibility check.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def _csp_refusal(text: str) -> list[str]:
    """A refusal that would break a page: inline script, eval, a local resource. Loads
    from other servers (ReDoc's branding image) are the policy keeping pages offline;
    tests/api/test_docs_offline.py fails on any page that asks for one."""
    if "Content Security Policy" not in text:
        return []
    return [] if re.search(r"Loading the \w+ '(https?:)?//", text) else [text]


def require_chromium() -> None:
    """Skip on a developer machine without Chromium; fail loudly in CI."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing (CI must install the chromium package)")
    pytest.skip(f"{CHROMIUM} is missing")


@contextmanager
def chromium_tab(timeout_ms: int, **context_options: Any) -> Iterator[Any]:
    """A fresh page in a fresh headless Chromium at laptop size, closed afterwards."""
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    # expect() waits as long as the tab does, not Playwright's 5 s: CI machines are shared.
    expect.set_options(timeout=timeout_ms)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=LAPTOP, **context_options)
        tab = context.new_page()
        tab.set_default_timeout(timeout_ms)
        refused: list[str] = []
        tab.on("console", lambda message: refused.extend(_csp_refusal(message.text)))
        try:
            yield tab
            # Every page the browser tests visit passes the Content-Security-Policy.
            assert not refused, f"Content-Security-Policy refusals: {refused}"
        finally:
            context.close()
            browser.close()
            # ORM calls made while Playwright's loop runs use that context's connections,
            # which the test database teardown cannot see; close them here, in the context.
            connections.close_all()


def _axe_source() -> str:
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{AXE} is missing (CI runs `npm ci` for axe-core)")
        pytest.skip(f"{AXE} is missing: run `npm ci`")
    return AXE.read_text()


def axe_violations(
    tab: Any, skip_rules: Sequence[str] = (), exclude: Sequence[str] = ()
) -> list[str]:
    """axe-core's violations on the page as it is now, one line each: rule, impact and the
    first elements it names. Injected through the DevTools protocol, which the page's
    Content-Security-Policy does not govern. skip_rules: rule ids not to run; exclude: CSS
    selectors of elements axe-core does not check (it still sees them, e.g. as labels)."""
    if not tab.evaluate("() => typeof window.axe !== 'undefined'"):
        tab.evaluate(_axe_source())
    found = tab.evaluate(
        "([tags, skip, exclude]) => axe.run("
        " exclude.length ? {include: [['html']], exclude: exclude.map(s => [s])} : document,"
        " {runOnly: {type: 'tag', values: tags},"
        " rules: Object.fromEntries(skip.map(id => [id, {enabled: false}]))})"
        ".then(r => r.violations.map(v => [v.id, v.impact, v.help,"
        " v.nodes.slice(0, 3).map(n => n.target.join(' '))]))",
        [AXE_TAGS, list(skip_rules), list(exclude)],
    )
    return [
        f"{rule} ({impact}): {text} at {', '.join(where)}" for rule, impact, text, where in found
    ]


# The elements sticking out past the right edge at phone width, outermost first, those
# inside a box that scrolls on its own left out: what makes the whole page scroll sideways.
WIDER_THAN_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const clipped = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible'
          && p.getBoundingClientRect().right <= width + 1) return true;
    }
    return false;
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.classList.length ? '.' + [...el.classList].join('.') : '');
  const wide = [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > width + 1 && !clipped(el))
    .slice(0, 4).map(el => `${name(el)} (${Math.round(el.getBoundingClientRect().right)} px)`);
  return wide.length ? wide : [`the page (${document.documentElement.scrollWidth} px)`];
}"""


REPEATS_CHECKED = 8

# Fields with no name a screen reader can say (no <label for>, no wrapping label, no
# aria-label or aria-labelledby) and ids used twice, over the whole page in one pass.
UNLABELLED_OR_REPEATED = """() => {
  const labelled = new Set([...document.querySelectorAll('label[for]')].map(l => l.htmlFor));
  const seen = new Set(), problems = [];
  for (const el of document.querySelectorAll('[id]')) {
    if (seen.has(el.id)) problems.push(`id ${el.id} is used twice`);
    seen.add(el.id);
  }
  const fields = 'input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea';
  for (const el of document.querySelectorAll(fields)) {
    if (!(labelled.has(el.id) || el.closest('label') || el.getAttribute('aria-label')
          || el.getAttribute('aria-labelledby'))) problems.push(`${el.name || el.id} has no label`);
  }
  return problems.slice(0, 10);
}"""


def unlabelled_or_repeated(tab: Any) -> list[str]:
    """Fields without a label and ids used twice, anywhere on the page (UNLABELLED_OR_REPEATED)."""
    return [f"whole page: {line}" for line in tab.evaluate(UNLABELLED_OR_REPEATED)]


# Pages taller than this (a 512-row form) are shot as the screen shows them: a whole-page
# picture of them takes minutes and is past what an image viewer opens.
MAX_SHOT_PX = 16_000


def check_page(tab: Any, name: str, *, skip_rules: Sequence[str] = (), repeats: str = "") -> None:
    """The page at laptop and phone width: a full-page screenshot of each in
    test-artifacts/screenshots/ (NAME-laptop.png, NAME-phone.png) and axe-core's check at
    each width, which must find nothing; at phone width nothing may make the page scroll
    sideways (wide content scrolls in its own box). The tab is left at laptop width.
    skip_rules is for third-party markup this project cannot change (Swagger UI, ReDoc)
    only, each with its reason at the call.

    repeats: a CSS selector of rows drawn from one template, hundreds of them (the form's
    512 storage rows). axe-core checks the first REPEATS_CHECKED of them: its label rules
    look each field's labels up across the whole page, so their time grows with the square
    of the rows (four minutes for 512). Every field of every row is still checked for a
    label, and every id for being unique, by the linear unlabelled_or_repeated."""
    problems = []
    exclude = [f"{repeats}:nth-of-type(n+{REPEATS_CHECKED + 1})"] if repeats else []
    if repeats:
        problems += unlabelled_or_repeated(tab)
    for width, size in (("laptop", LAPTOP), ("phone", PHONE)):
        tab.set_viewport_size(size)
        tall = tab.evaluate("document.documentElement.scrollHeight") > MAX_SHOT_PX
        tab.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=not tall)
        problems += [f"{width}: {line}" for line in axe_violations(tab, skip_rules, exclude)]
        if size == PHONE and (wide := tab.evaluate(WIDER_THAN_SCREEN)):
            problems.append(f"phone: the page scrolls sideways, wider than the screen: {wide}")
    tab.set_viewport_size(LAPTOP)
    assert not problems, f"axe-core on {tab.url}:\n" + "\n".join(problems)


def log_in(
    tab: Any, base: str, then: str = "/", *, username: str = "alice", password: str | None = None
) -> None:
    """Log in through the login page and wait for `then`. The password defaults to the one
    tests.conftest.make_member gives (pw-NAME)."""
    tab.goto(f"{base}/accounts/login/?next={then}")
    tab.get_by_label("User name").fill(username)
    tab.get_by_label("Password").fill(password or f"pw-{username}")
    tab.get_by_role("button", name="Log in").click()
    tab.wait_for_url(base + then)
