"""Create a demo organisation and user for the embedded default (`scripts/run.sh`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from advisor.models import Membership, Organisation


class Command(BaseCommand):
    help = "Create the demo organisation and a demo user (DEBUG only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="demo-password")
        parser.add_argument("--organisation", default="Demo organisation")

    def handle(self, *args: Any, **options: Any) -> None:
        from django.conf import settings

        if not settings.DEBUG:
            raise CommandError("seed_demo creates a known password; it runs only with DEBUG=1")
        org, _ = Organisation.objects.get_or_create(name=options["organisation"])
        user, created = User.objects.get_or_create(
            username=options["username"], defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(options["password"])
            user.save()
        Membership.objects.get_or_create(user=user, defaults={"organisation": org})
        self.stdout.write(
            f"log in at http://127.0.0.1:8000/ as {options['username']} / {options['password']}"
        )
