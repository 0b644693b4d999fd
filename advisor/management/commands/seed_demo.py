"""Create a demo organisation and user for the embedded default (`scripts/run.sh`), with
three example assessments named by what they are, so a first run has something to open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from advisor.assessments.services import assessment_create
from advisor.models import Assessment, Membership, Organisation

# An AIX box, a Linux box and an SPD Server warehouse (examples/, each named in its file).
EXAMPLES = ("aix73-sas94-1mb", "linux-rhel9-sas94", "power-smt8-spds53")


class Command(BaseCommand):
    help = "Create the demo organisation and a demo user (DEBUG only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="demo-password")
        parser.add_argument("--organisation", default="Demo organisation")
        parser.add_argument("--address", default="127.0.0.1:8000", help="where the app serves")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_demo creates a known password; it runs only with DEBUG=1")
        org, _ = Organisation.objects.get_or_create(name=options["organisation"])
        user, created = User.objects.get_or_create(
            username=options["username"], defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(options["password"])
            user.save()
        # The demo user administers the demo organisation: its audit trail is theirs to read.
        Membership.objects.get_or_create(
            user=user, defaults={"organisation": org, "is_admin": True}
        )
        if not Assessment.objects.filter(organisation=org).exists():
            self._seed(user)
        address = options["address"]
        self.stdout.write(f"log in at http://{address}/ as {options['username']} / "
                          f"{options['password']}")  # fmt: skip

    def _seed(self, user: User) -> None:
        root = Path(settings.BASE_DIR) / "examples"
        for name in EXAMPLES:
            document = json.loads((root / f"{name}.json").read_text())
            assessment, _ = assessment_create(user=user, document=document)
            self.stdout.write(f"example assessment {assessment.pk}: {document['name']}")
