"""A real RHEL transcript pasted into "Start from your server", in a real browser.

The paste is tests/fixtures/transcripts/rhel_nvme_chhanz_ec2.txt: an AWS EC2 RHEL 10.0
instance on NVMe as its admin pasted it (cat /etc/redhat-release, df -h, lsblk and two
commands no parser knows), then one `cat /sys/block/nvme0n1/queue/X` per attribute and a
bare prompt at the end. It is typed into the page's text area as a user pastes it; the form
must then show each file system's size as df -h printed it, the NVMe disk as NVMe (solid
state), the host name from the prompt, every queue value read (the trailing prompt taken
for none of them), how much of the paste was used, and, once the workload is given, no
setting called a change whose current value was not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import SCREENSHOTS, chromium_tab, log_in
from tests.rules.parse.fixtures import transcript_file
from tests.web.test_browser import PREVIEW_TIMEOUT_MS
from tests.web.test_server_browser import give_the_workload, saved_counts

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TRANSCRIPT = "rhel_nvme_chhanz_ec2.txt"
HOST = "ip-172-31-8-200"
# df -h's row of each block-device file system (tmpfs, devtmpfs, efivarfs are not storage)
# and its size as the form shows it: df -h counts in powers of 1024, the form in GB to two
# decimals, so 20G is 20 and 200M is 200 / 1024 = 0.195 → 0.2.
DF_ROWS = {
    "/": ("/dev/nvme0n1p3   20G  1.9G   18G  10% /", "20"),
    "/boot/efi": ("/dev/nvme0n1p2  200M  8.4M  192M   5% /boot/efi", "0.2"),
}
# Each `cat /sys/block/nvme0n1/queue/X` of the paste, one section each; scheduler is last,
# just before the bare prompt.
QUEUE = {"rotational": "0", "max_sectors_kb": "1280", "scheduler": "none"}
# Which setting of the files the server was read running: the NVMe disk's scheduler, the
# one tuned.conf recommends. Every other setting's current value was not read.
READ_SETTINGS = [("keep", "none → none, kept")]

# Each storage setting shown in the preview: [status word, shown as a change, On the server].
PREVIEW_STATUSES = """() => [...document.querySelectorAll('#preview details.setting')]
  .flatMap(d => {
    const badge = d.querySelector('summary .badge.status');
    if (!badge) return [];
    const dt = [...d.querySelectorAll('dt')].find(t => t.textContent === 'On the server');
    return [[badge.textContent.trim(), badge.classList.contains('change'),
             dt.nextElementSibling.textContent.replace(/\\s+/g, ' ').trim()]];
  })"""


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


def paste_the_transcript(page: Any, base: str) -> None:
    """What an admin does: open the page, paste the session, read it."""
    from playwright.sync_api import expect

    _, _, text = transcript_file(TRANSCRIPT)
    assert text.rstrip().endswith(f"\n[root@{HOST} ~]#"), "the paste ends on a bare prompt"
    log_in(page, base)
    page.get_by_role("link", name="Start from your server").first.click()
    area = page.get_by_label("Paste the bundle, a terminal transcript or a JSON inventory")
    area.fill(text)
    expect(area).to_have_value(text)
    page.get_by_role("button", name="Read it").click()
    expect(page.get_by_role("heading", name="Read from your server")).to_be_visible()


def storage_row(page: Any, mount: str) -> Any:
    """The storage row (fieldset) whose mount point is `mount`."""
    rows = page.locator("fieldset.row")
    mounts = [rows.nth(i).get_by_label("Mount point").input_value() for i in range(rows.count())]
    assert mount in mounts, f"no storage row for {mount}: {mounts}"
    return rows.nth(mounts.index(mount))


def test_the_form_shows_what_the_rhel_transcript_says(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    paste_the_transcript(page, live_server.url)
    host = page.get_by_label("Host name")
    expect(host).to_have_value(HOST)
    expect(page.locator("#id_hostname-mark")).to_contain_text("the shell prompt")
    expect(page.get_by_label("Linux distribution")).to_have_value("rhel")
    expect(page.get_by_label("OS version")).to_have_value("10.0")
    _, _, text = transcript_file(TRANSCRIPT)
    expect(page.locator("fieldset.row")).to_have_count(len(DF_ROWS))
    for mount, (df_line, size) in DF_ROWS.items():
        assert df_line in text.split("\n"), df_line
        row = storage_row(page, mount)
        expect(row.get_by_label("Size (GB)")).to_have_value(size)
        expect(row.get_by_label("Media")).to_have_value("nvme")
        expect(row.get_by_label("Media").locator("option:checked")).to_have_text("NVMe")
        expect(row.get_by_label("Devices")).to_have_value("nvme0n1")
        expect(row.get_by_label("Max transfer (KB)")).to_have_value(QUEUE["max_sectors_kb"])
    current = json.loads(page.locator('input[name="current"]').input_value())
    assert current["devices"] == {"nvme0n1": QUEUE}
    page.screenshot(path=str(SCREENSHOTS / "paste-rhel-nvme-form.png"), full_page=True)


def test_the_draft_says_how_much_of_the_paste_it_used(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    paste_the_transcript(page, live_server.url)
    panel = page.locator(".draft-panel")
    # redhat-release, df -h, lsblk and the three cats; the log grep and rpm -qa unknown.
    expect(panel.locator(".draft-accounting")).to_have_text(
        "Sections of the paste: 6 used, 0 recognised but not used, 2 unknown."
    )
    expect(panel.locator(".unknown-commands li")).to_have_text(
        ["line 1 cat /var/log/messages | grep rhel-image",
         'line 27 rpm -qa | egrep "cloud-init|tmux"']
    )  # fmt: skip
    expect(panel).to_contain_text(
        "No output was unreadable, but not all of it was read: 2 commands no parser knows, "
        "listed below."
    )
    expect(panel.locator(".current-read")).to_contain_text("Device attributes")


def test_no_setting_is_called_a_change_without_a_value_read(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    paste_the_transcript(page, live_server.url)
    give_the_workload(page)
    expect(page.locator("#preview .badge.status").first).to_be_visible()
    shown = page.evaluate(PREVIEW_STATUSES)
    unread = [s for s in shown if s[2].startswith("not read")]
    assert unread and all(word == "set" and not change for word, change, _ in unread), unread
    assert [(w, on) for w, _, on in shown if not on.startswith("not read")] == READ_SETTINGS
    expect(page.locator("#preview .badge.status.change")).to_have_count(0)
    page.screenshot(path=str(SCREENSHOTS / "paste-rhel-nvme-preview.png"), full_page=True)

    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    pending = page.locator(".pending")
    for name, counts in saved_counts(("tuned.conf", "sasv9_local.cfg")).items():
        assert counts.change == 0 and counts.unknown > 0, (name, counts)
        expect(pending).to_contain_text(f"{name}: {counts.phrase}")
    expect(page.locator("table.current-table tr.status-change")).to_have_count(0)
    expect(page.locator("table.current-table tr.status-keep")).to_contain_text("none")
