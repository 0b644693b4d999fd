"""Compare by setting: the per-setting table first, line diffs without comment-only churn,
older → newer whatever the address says (unless swapped), and two assessments chosen on
the list with a plain GET form."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from advisor.assessments.services import assessment_create
from advisor.core.changes import code_of, file_diffs, line_diff
from advisor.models import Assessment
from tests.stored_results import replace_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def older(user: User, lemans: dict[str, Any]) -> Assessment:
    assessment, _ = assessment_create(user=user, document=lemans)
    return assessment


@pytest.fixture
def newer(user: User, lemans: dict[str, Any], older: Assessment) -> Assessment:
    bigger = {**lemans, "server": {**lemans["server"], "ram_gb": 32}}
    assessment, _ = assessment_create(user=user, document=bigger)
    return assessment


def compare(client: Client, first: Assessment, second: Assessment, query: str = "") -> str:
    response = client.get(reverse("web:compare", args=[first.pk, second.pk]) + query)
    assert response.status_code == 200
    return str(response.content.decode())


def before_after(page: str) -> tuple[str, str]:
    head = page.split("<h1>What changed</h1>", 1)[1].split("</p>", 1)[0]
    return head.split(" to ", 1)[0], head.split(" to ", 1)[1]


def test_the_settings_table_comes_first(
    client_in: Client, older: Assessment, newer: Assessment
) -> None:
    page = compare(client_in, older, newer)
    assert page.index('id="settings-h"') < page.index('id="inputs-h"') < page.index("Line by line")
    table = page.split('<table class="list settings-table cards">', 1)[1].split("</table>", 1)[0]
    # 16 GB → 32 GB of RAM doubles MEMSIZE (8G → 16G): the row reads before → after.
    row = table.split("<code>MEMSIZE</code>", 1)[1].split("</tr>", 1)[0]
    assert '<span class="badge change-changed">changed</span>' in row
    assert (
        '<span class="del"><code>8G</code></span> → <span class="add"><code>16G</code></span>'
        in row
    )


@pytest.mark.parametrize("swap_address", [False, True])
def test_the_older_is_before_whatever_the_address_says(
    client_in: Client, older: Assessment, newer: Assessment, swap_address: bool
) -> None:
    first, second = (newer, older) if swap_address else (older, newer)
    before, after = before_after(compare(client_in, first, second))
    assert f"#{older.pk}</a>" in before and f"#{newer.pk}</a>" in after


def test_the_reader_can_swap(client_in: Client, older: Assessment, newer: Assessment) -> None:
    page = compare(client_in, older, newer)
    swap = reverse("web:compare", args=[older.pk, newer.pk]) + "?swapped=1"
    assert f'<a class="button" href="{swap}">Swap: newer first</a>' in page
    swapped = compare(client_in, older, newer, "?swapped=1")
    before, after = before_after(swapped)
    assert f"#{newer.pk}</a>" in before and f"#{older.pk}</a>" in after
    back = reverse("web:compare", args=[newer.pk, older.pk])
    assert f'<a class="button" href="{back}">Swap: older first</a>' in swapped
    assert (
        '<span class="del"><code>16G</code></span> → <span class="add"><code>8G</code></span>'
        in swapped
    )


def test_comment_only_churn_is_no_change() -> None:
    before = "# cpu.threads: the old reason\n-THREADS\n-MEMSIZE 4G /* memory.memsize: old */\n"
    after = (
        "# cpu.threads: a reworded reason\n# and a new line of it\n-THREADS\n"
        "-MEMSIZE 4G /* new */\n"
    )
    assert line_diff("sasv9.cfg", before, after) == {"name": "sasv9.cfg", "lines": [], "changed": 0}
    changed = line_diff("sasv9.cfg", before, after.replace("4G", "8G"))
    assert changed["changed"] == 2
    assert [ln for ln in changed["lines"] if ln[:1] in "+-" and ln[:3] not in ("+++", "---")] == [
        "--MEMSIZE 4G /* memory.memsize: old */",
        "+-MEMSIZE 8G /* new */",
    ]
    assert "@@ line 2 → line 3 @@" in changed["lines"]  # where the hunk starts, in each file


def test_a_hash_inside_quotes_is_text_not_a_comment() -> None:
    assert code_of('say "tuned # by the advisor"') == 'say "tuned # by the advisor"'
    assert code_of("vm.swappiness = 10  # keep SAS in memory") == "vm.swappiness = 10"
    assert code_of("#!/bin/sh") == "#!/bin/sh"
    assert code_of("   /* a comment */") == ""


def test_a_file_only_one_side_has_is_all_added() -> None:
    diffs = file_diffs({}, {"tuned.conf": "# header\n[main]\ninclude=throughput-performance\n"})
    assert diffs[0]["changed"] == 2
    assert diffs[0]["lines"][3:] == ["+[main]", "+include=throughput-performance"]


def test_the_page_shows_no_comment_churn_between_two_rules_versions(
    client_in: Client, older: Assessment, user: User, lemans: dict[str, Any]
) -> None:
    result = dict(older.result)
    result["artifacts"] = {
        name: text.replace("/* cpu.threads:", "/* cpu.threads (reworded):")
        for name, text in result["artifacts"].items()
    }
    reworded, _ = assessment_create(user=user, document={**lemans, "name": "reworded"})
    replace_result(reworded, result)
    reworded.save()
    page = compare(client_in, older, reworded)
    assert "cpu.threads (reworded)" not in page
    assert "0 lines changed" in page and "No difference in what the file sets." in page


# Choosing two on the list ---------------------------------------------------------


def pick(client: Client, *keys: Any, **extra: str) -> Any:
    return client.get(reverse("web:compare-selected"), {"pick": list(keys), **extra})


def test_the_list_has_a_plain_compare_form(client_in: Client, older: Assessment) -> None:
    html = client_in.get(reverse("web:list")).content.decode()
    assert f'<form method="get" action="{reverse("web:compare-selected")}"' in html
    assert f'<input type="checkbox" name="pick" value="{older.pk}" id="pick-{older.pk}">' in html
    assert f'<label for="pick-{older.pk}" class="visually-hidden">Select ' in html
    assert '<button type="submit">Compare selected</button>' in html


def test_two_picked_go_to_their_comparison_older_first(
    client_in: Client, older: Assessment, newer: Assessment
) -> None:
    response = pick(client_in, newer.pk, older.pk)
    assert response.status_code == 302
    assert response["Location"] == reverse("web:compare", args=[older.pk, newer.pk])


@pytest.mark.parametrize("count", [0, 1, 3])
def test_anything_but_two_comes_back_with_a_message(
    client_in: Client, older: Assessment, newer: Assessment, user: User,
    lemans: dict[str, Any], count: int,
) -> None:  # fmt: skip
    third, _ = assessment_create(user=user, document={**lemans, "name": "third"})
    keys = [older.pk, newer.pk, third.pk][:count]
    response = pick(client_in, *keys, q="lem")
    assert response.status_code == 302 and response["Location"] == reverse("web:list") + "?q=lem"
    page = client_in.get(response["Location"]).content.decode()
    assert f"Compare selected: tick exactly two assessments to compare ({count} " in page


def test_another_organisations_assessment_cannot_be_picked(
    client_in: Client, older: Assessment, outsider: User, lemans: dict[str, Any]
) -> None:
    theirs, _ = assessment_create(user=outsider, document=lemans)
    response = pick(client_in, older.pk, theirs.pk)
    assert response["Location"] == reverse("web:list")
    assert "(1 was ticked)" in client_in.get(reverse("web:list")).content.decode()


def test_garbage_keys_are_not_a_500(client_in: Client, older: Assessment) -> None:
    response = pick(client_in, "x", "99999999999999999999999", "-1", older.pk)
    assert response.status_code == 302 and response["Location"] == reverse("web:list")


# Inputs grouped, storage by mount point ------------------------------------------------


def inputs_of(page: str) -> str:
    return page.split('id="inputs-h"', 1)[1].split("Line by line", 1)[0]


def test_storage_in_another_order_is_matched_by_mount_point(
    client_in: Client, older: Assessment, user: User, lemans: dict[str, Any]
) -> None:
    reordered = {**lemans, "storage": list(reversed(lemans["storage"])),
                 "server": {**lemans["server"], "ram_gb": 32}}  # fmt: skip
    newer, _ = assessment_create(user=user, document=reordered)
    assert [s["mount"] for s in newer.inventory["storage"]] != [
        s["mount"] for s in older.inventory["storage"]
    ]
    inputs = inputs_of(compare(client_in, older, newer))
    storage = inputs.split('id="storage-h"', 1)[1].split("</table>", 1)[0]
    assert storage.count('class="mount-same"') == len(lemans["storage"])
    assert "badge change-" not in storage
    server = inputs.split("<h3", 2)[1]
    assert "1 differs" in server
    ram = server.split("RAM (GB)", 1)[1].split("</tr>", 1)[0]
    assert 'change-changed">differs<' in ram and ">16<" in ram and ">32<" in ram
    host = server.split("Host name", 1)[1].split("</tr>", 1)[0]
    assert "differs" not in host
    assert "&quot;" not in inputs  # values are not JSON
    assert "No current settings were read for either." in inputs


def test_a_mount_one_side_lacks_and_a_value_one_side_omits_read_plainly(
    client_in: Client, older: Assessment, user: User, lemans: dict[str, Any]
) -> None:
    kept, dropped = lemans["storage"][0], lemans["storage"][-1]
    assert kept["mount"] != dropped["mount"]
    doc = {**lemans, "storage": [kept], "server": {**lemans["server"], "cores": 4}}
    newer, _ = assessment_create(user=user, document=doc)
    inputs = inputs_of(compare(client_in, older, newer))
    removed = inputs.split(f"<code>{dropped['mount']}</code>", 1)[1].split("</tr>", 1)[0]
    assert '<span class="badge change-removed">removed</span>' in removed
    assert f"<li>Name: {dropped['name']}</li>" in removed
    same = inputs.split(f"<code>{kept['mount']}</code>", 1)[1].split("</tr>", 1)[0]
    assert '<span class="muted">same</span>' in same
    cores = inputs.split("Physical cores", 1)[1].split("</tr>", 1)[0]
    assert '<td data-label="Before"><span class="muted">not given</span></td>' in cores
    assert '<td data-label="After">4</td>' in cores and "differs" in cores
    assert 'class="del"' not in inputs and 'class="add"' not in inputs  # nothing painted red
