"""``python manage.py bg_moves``: legal backgammon plays for ``POSITION_ID DIE1 DIE2`` lines.

A thin wrapper around :func:`backgammon.tools.bg_moves`: reads standard input, writes one
JSON list of gnubg Position IDs per input line. Exit status 1 on a malformed line (the
message names the line).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from backgammon.errors import BackgammonError
from backgammon.tools import bg_moves


class Command(BaseCommand):
    help = "Print the distinct positions reachable by a legal backgammon play, per input line."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            for out in bg_moves(sys.stdin):
                self.stdout.write(out)
        except BackgammonError as exc:
            raise CommandError(str(exc)) from exc
