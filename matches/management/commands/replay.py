"""``python manage.py replay FILE [--json]``: replay a game record (game-record.md).

A thin wrapper: reading, checking and the report come from :mod:`engine.replay`; the
``match`` section (when the record has a ``Length`` tag) from :mod:`scoring.report`.
The text report (``engine.replay.report_lines`` with ``scoring.report.match_line``)
reads as sentences: real plurals, outcomes with their Swedish letters (sprängjan), no
match line for an invalid record; ``--json`` is game-record.md's report, unchanged.
Exit status 0 valid, 1 not valid, 2 used wrongly (no such file, unreadable, unknown
option). ``FILE`` may be ``-`` for standard input.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.record import MAX_RECORD_BYTES
from engine.replay import replay_text, report_lines
from scoring.report import match_line, match_scorer, max_games_from_tags


class Command(BaseCommand):
    help = "Replay a bräde game record (text or JSON) and report whether it is valid."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record file (text or JSON form), or - for stdin")
        parser.add_argument(
            "--json", action="store_true", help="print exactly one JSON object (the report)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        data = self._read(path)
        # S1: a record may hold no more games than its Length tag's match can take
        report = replay_text(data, match_scorer=match_scorer, max_games=max_games_from_tags)
        if options["json"]:
            self.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False))
        else:
            for line in report_lines(report, match_line=match_line):
                self.stdout.write(line)
        if not report.valid:
            raise CommandError("the record is not valid", returncode=1)

    @staticmethod
    def _read(path: str) -> bytes:
        # One byte over the limit is enough for the engine to reject an oversized record.
        try:
            if path == "-":
                return sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
            with open(path, "rb") as handle:
                return handle.read(MAX_RECORD_BYTES + 1)
        except FileNotFoundError:
            raise CommandError(f"no such file: {path}", returncode=2) from None
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}", returncode=2) from None
