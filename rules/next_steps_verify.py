"""The verify step's words and commands: read the server again with the collector (the
command the "Start from your server" page gives), then hold the reading against the
assessment's advice on its Verify page or through the API's verify (README, "API"), which
take the same bundle. `python -m rules verify` needs this project's code, which a server
does not have, so the step does not name it."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from rules.collect import COLLECTOR_NAME

COLLECTOR = f"sh {COLLECTOR_NAME} --out bundle.txt"
# Windows has no collector: its reading is the commands pasted with their output.
WINDOWS_READING = "reading.txt"


def verify_words(
    *, windows: bool, has_page: bool, api_verify: str | None, with_curl: bool
) -> tuple[str, ...]:
    page = "this assessment's Verify page" + ("" if has_page else " in the advisor")
    if windows:
        first = (
            "Take a new reading of the server the way the first one was taken (the same "
            f"commands with their output, saved as {WINDOWS_READING}) and paste it on {page}: "
            "it lists each setting, recommended and actual."
        )
        token = 'set "TOKEN=…" first'
    else:
        first = (
            "Run the collector again on the server, naming the files you changed (the first "
            f"command), then paste or upload bundle.txt on {page}: it lists each setting, "
            "recommended and actual."
        )
        token = "export TOKEN=… first"
    reading = WINDOWS_READING if windows else "bundle.txt"
    if with_curl:
        api = (
            f"Or send {reading} to the advisor's API with the curl command below and a key from "
            f"the API tokens page in TOKEN ({token})."
        )
        return (first, api)
    if api_verify:
        api = (
            f"Or POST {reading} to the advisor's API at {api_verify} as text/plain, with the "
            "header Authorization: Token and a key from the API tokens page."
        )
        return (first, api)
    return (first,)


def verify_commands(*, windows: bool, args: Sequence[str], api_url: str | None) -> tuple[str, ...]:
    """The collector with the changed files (not on Windows), then the API call if the
    advisor's address is known."""
    found = [] if windows else [" ".join([COLLECTOR, *args])]
    if api_url and windows:
        found.append(
            'curl.exe -sS -X POST -H "Authorization: Token %TOKEN%" '
            f'-H "Content-Type: text/plain" --data-binary @{WINDOWS_READING} "{api_url}"'
        )
    elif api_url:
        found.append(
            'curl -sS -X POST -H "Authorization: Token $TOKEN" '
            f"-H 'Content-Type: text/plain' --data-binary @bundle.txt {shlex.quote(api_url)}"
        )
    return tuple(found)
