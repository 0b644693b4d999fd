"""What a reader sees of a page: its text outside scripts, styles, the generated files'
own text (`<pre>`, shown as the files are written) and the "why?" expanders, where the
contract paths and the papers' line references are kept for whoever asks."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from rules.current import Current
from rules.fields import ListOf, Obj, specs
from rules.inventory import Inventory

HIDDEN = {"script", "style", "pre", "template", "textarea", "select"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip
CONTRACT_PATH = re.compile(r"(?<![\w./-])(server|sas|storage|workload|current)(\[\d*\])?\.[a-z_]+")
LINE_CITATION = re.compile(r"\bl\.\s?\d+")
URL = re.compile(r"\b(https?://|www\.)\S+")  # support.sas.com is no contract path


def _names(cls: type) -> set[str]:
    out = set()
    for name, spec in specs(cls):
        out.add(name)
        kind = spec.kind.item if isinstance(spec.kind, ListOf) else spec.kind
        if isinstance(kind, Obj):
            out |= _names(kind.cls)
    return out


# The contract's snake_case field names (`ram_gb`, `max_transfer_kb`): plain words such as
# "role" or "mount" are words a reader uses too.
FIELD_NAMES = frozenset(n for n in _names(Inventory) | _names(Current) if "_" in n)
RAW_FIELD = re.compile(r"\b(" + "|".join(sorted(FIELD_NAMES, key=len, reverse=True)) + r")\b")


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []  # (tag, hides its content)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append((tag, tag in HIDDEN or (tag == "details" and "why" in classes)))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not any(hidden for _, hidden in self.stack):
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


APPENDIX = "Appendix: generated files"
WHY = "Why: the papers' lines"


def outside_why(text: str) -> str:
    """A PDF's text without its "why?": the chapter of the papers' lines each item cites,
    and the appendix of generated files after it, shown as the files are written (the
    contents name both, so each is cut at its last mention)."""
    flat = " ".join(text.split())
    for heading in (APPENDIX, WHY):
        if flat.count(heading) > 1:
            flat = flat[: flat.rindex(heading)]
    return flat


def internals(text: str) -> list[str]:
    """Every contract path, raw field name and line citation in the text, with context."""
    found = []
    text = URL.sub("<url>", text)
    for pattern in (CONTRACT_PATH, RAW_FIELD, LINE_CITATION):
        for m in pattern.finditer(text):
            found.append(text[max(0, m.start() - 60) : m.end() + 40])
    return found
