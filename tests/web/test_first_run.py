"""First run: seed_demo gives the demo user an organisation they administer and three
example assessments named by what they are (an AIX box, a Linux box, an SPD Server
warehouse), once, and prints the address the app serves on."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command
from django.test import override_settings

from advisor.models import Assessment, Membership


@override_settings(DEBUG=True)
def test_the_demo_is_seeded_once_with_named_examples(db: None) -> None:
    out = StringIO()
    call_command("seed_demo", "--address", "0.0.0.0:9000", stdout=out)
    call_command("seed_demo", stdout=StringIO())

    names = sorted(Assessment.objects.values_list("name", flat=True))
    assert len(names) == 3
    assert any("AIX 7.3" in n for n in names) and any("RHEL 9.4" in n for n in names)
    assert any("SPD Server" in n for n in names)
    assert Membership.objects.get(user__username="demo").is_admin
    assert "log in at http://0.0.0.0:9000/ as demo / demo-password" in out.getvalue()
