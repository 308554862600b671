"""``python manage.py seed_demo [--reset]``: build the demo tournament (``web.demo``).

DEMO ONLY: the demo accounts (admin, kansli, arrangor, domare, anna, johan) all get the
password ``brade-demo``, printed at the end. Never run this on a server real people
use. Running it again leaves an existing demo alone (exit 0); ``--reset`` deletes the
demo tournament, its players and the demo users, and builds it anew.

Every run, the first or a later one, ends with the demo logins and the README's API
example (the match ready for it and the game number to enter): ``scripts/run.sh`` runs
this at every start, and whoever starts the demo needs both each time.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import DomainError
from core.site_address import site_is_loopback, site_root
from tournaments.models import Tournament
from web.demo import (
    DEMO_PASSWORD,
    TOURNAMENT_NAME,
    DemoError,
    demo_accounts,
    demo_api_example,
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
            self._accounts()
            self._api_example(existing)
            self._address()
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
        self._accounts()
        self._api_example(summary.tournament)
        self._address()
        self.stdout.write(
            self.style.SUCCESS(
                f"Built “{summary.tournament.name}” (tournament #{summary.tournament.pk}) "
                f"in {summary.seconds:.1f} s."
            )
        )

    def _address(self) -> None:
        """The one address of the links and slips (``core/site_address.py``), and a
        warning when no phone can open it."""
        self.stdout.write(f"Phones and the links on the slips open: {site_root()}/")
        if site_is_loopback():
            self.stdout.write(
                self.style.WARNING(
                    "  that is this computer's own address: no phone can open it. To let the "
                    "club's phones in, start with ADDR=0.0.0.0:8000 (or set SITE_URL)."
                )
            )

    def _accounts(self) -> None:
        accounts = demo_accounts()
        self.stdout.write("")
        self.stdout.write(
            self.style.WARNING(
                f"DEMO ONLY: the demo accounts below have the password “{DEMO_PASSWORD}”. "
                "Never use these accounts, or this command, on a real server."
            )
        )
        if not accounts:
            self.stdout.write("  (no demo accounts left: `manage.py seed_demo --reset`)")
            return
        width = max(len(account.username) for account in accounts)
        for account in accounts:
            password = account.password or "(password changed since)"
            self.stdout.write(f"  {account.username:<{width}}  {password:<10}  {account.role}")

    def _api_example(self, tournament: Tournament) -> None:
        example = demo_api_example(tournament)
        match = example.match
        where = f"match {match.pk} ({match.round.name}, {match}, {match.get_state_display()})"
        if example.is_ready and example.next_game == 1:
            self.stdout.write(
                f"API example (README): {where} is ready for game 1: "
                f"POST /api/matches/{match.pk}/games/"
            )
        else:
            self.stdout.write(
                f"API example (README): {where} is no longer as the demo built it (the "
                f"next game is {example.next_game}). "
                "`manage.py seed_demo --reset` builds the demo anew."
            )
