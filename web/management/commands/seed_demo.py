"""``python manage.py seed_demo [--reset]``: build the demo tournament (``web.demo``).

DEMO ONLY: the demo accounts (admin, arrangor, domare, anna, johan) all get the
password ``brade-demo``, printed at the end. Never run this on a server real people
use. Running it again leaves an existing demo alone (exit 0); ``--reset`` deletes the
demo tournament, its players and the demo users, and builds it anew.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import DomainError
from web.demo import (
    DEMO_PASSWORD,
    TOURNAMENT_NAME,
    DemoError,
    DemoSummary,
    demo_build,
    demo_delete,
    demo_summary,
    demo_tournament,
)


class Command(BaseCommand):
    help = (
        f"Create the demo tournament “{TOURNAMENT_NAME}” (16 players, in progress) with "
        f"demo accounts whose password is “{DEMO_PASSWORD}”. For development only."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset",
            action="store_true",
            help="delete the demo tournament, its players and the demo users, then rebuild",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reset"]:
            counts = demo_delete()
            self.stdout.write(
                "Deleted: " + ", ".join(f"{count} {kind}" for kind, count in counts.items()) + "."
            )
        existing = demo_tournament()
        if existing is not None:
            self.stdout.write(
                f"“{existing.name}” exists already (tournament #{existing.pk}); nothing was "
                "changed. Run `manage.py seed_demo --reset` to delete it and build it anew."
            )
            return
        try:
            summary = demo_build(log=self.stdout.write)
        except (DemoError, DomainError) as err:
            message = err.message if isinstance(err, DomainError) else str(err)
            raise CommandError(
                f"The demo could not be built: {message} If a part of it was made, "
                "`manage.py seed_demo --reset` removes it."
            ) from err
        for line in demo_summary(tournament=summary.tournament):
            self.stdout.write(line)
        self._accounts(summary)
        self.stdout.write(
            self.style.SUCCESS(
                f"Built “{summary.tournament.name}” (tournament #{summary.tournament.pk}) "
                f"in {summary.seconds:.1f} s."
            )
        )

    def _accounts(self, summary: DemoSummary) -> None:
        self.stdout.write("")
        self.stdout.write(
            self.style.WARNING(
                f"DEMO ONLY: every demo account below has the password “{DEMO_PASSWORD}”. "
                "Never use these accounts, or this command, on a real server."
            )
        )
        width = max(len(name) for name, _role, _made in summary.accounts)
        for name, role, made in summary.accounts:
            password = DEMO_PASSWORD if made else "(existing account, password unchanged)"
            self.stdout.write(f"  {name:<{width}}  {password:<10}  {role}")
