"""``python manage.py replay FILE [--json]``: replay a game record (game-record.md).

A thin wrapper around the game registry (:mod:`games.registry`): the record's game is
detected by its content (``games.registry.detect``: a bräde text or JSON record, a
backgammon ``.mat`` file), and that family's replay reads, checks and reports it. Bräde's
report is exactly what it was before there were other games (``engine.replay`` with the
record's own match tags); backgammon's adds per game ``points``, ``cube`` and
``crawford`` and per match each player's score, the winner and the Crawford game.
The text report reads as sentences; ``--json`` prints exactly one JSON object.

Backgammon records of every program the site reads (``.mat`` of gnubg, eXtreme Gammon,
BGBlitz, Backgammon Studio, Galaxy and FIBS clients; gnubg's ``.sgf``): the report names
the program read. ``--program NAME`` names it where the file cannot (and makes the file a
backgammon record whatever it looks like); ``--money`` reads it as a money session
whatever its ``N point match`` line says (Galaxy writes money games as ``16 point
match``), ``--jacoby`` with the Jacoby rule.
``--program`` must name a program the site knows (``backgammon.dialects.PROGRAMS``, or a
short name such as ``xg``); any other name is refused, listing them.

A file that no game reads (empty, binary, UTF-16, JSON or SGF of something else, any
other text: ``games.unread``) is reported as such, naming the formats the site reads —
one line of text, or with ``--json`` one object ``{"valid": false, "errors": [{"kind":
"format", "code": "record.not_a_record", …}]}`` — and exits 1.
Exit status 0 valid, 1 not valid, 2 used wrongly (no such file, unreadable, unknown
option or program). ``FILE`` may be ``-`` for standard input.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backgammon.dialects import PROGRAMS, ReadOptions, known_program
from engine.messages import Msg
from games.backgammon import BackgammonReplayer
from games.registry import detect, families, family_for
from games.unread import encoding_refused, not_a_record


class Command(BaseCommand):
    help = (
        "Replay a game record (bräde text or JSON, backgammon .mat; the game is found by "
        "content) and report whether it is valid."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record file, or - for stdin")
        parser.add_argument(
            "--json", action="store_true", help="print exactly one JSON object (the report)"
        )
        parser.add_argument(
            "--program",
            help="backgammon: the program that wrote the file (eXtreme Gammon, BGBlitz, "
            "Backgammon Studio, BackgammonGalaxy, FIBS, GNU Backgammon …)",
        )
        parser.add_argument(
            "--money",
            action="store_true",
            help="backgammon: a money session, whatever the 'N point match' line says",
        )
        parser.add_argument(
            "--jacoby",
            action="store_true",
            help="backgammon: money play with the Jacoby rule",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        program = options.get("program")
        if program and known_program(program) is None:
            raise CommandError(
                f"no program {program!r}; known: {', '.join(PROGRAMS)}", returncode=2
            )
        # One byte over the largest record any game replays is enough for its reader to
        # reject an oversized record.
        limit = max(f.replay.max_bytes for f in families() if f.replay is not None)
        data = self._read(path, limit + 1)
        bg_options = None
        if program or options.get("money") or options.get("jacoby"):
            bg_options = ReadOptions(
                program=program or None,
                money=bool(options.get("money") or options.get("jacoby")),
                jacoby=True if options.get("jacoby") else None,
            )
        family = family_for("backgammon") if bg_options else detect(data)
        if family is None or family.replay is None or encoding_refused(data) is not None:
            self._not_read(encoding_refused(data) or not_a_record(), as_json=options["json"])
        if isinstance(family.replay, BackgammonReplayer):
            name = "" if path == "-" else path
            outcome = family.replay.run(data, name=name, options=bg_options)
        else:
            outcome = family.replay.run(data)
        if options["json"]:
            self.stdout.write(json.dumps(outcome.report, ensure_ascii=False))
        else:
            for line in outcome.lines:
                self.stdout.write(line)
        if not outcome.valid:
            raise CommandError("the record is not valid", returncode=1)

    def _not_read(self, reason: Msg, *, as_json: bool) -> NoReturn:
        """Report a file no game reads (``games.unread``) and exit 1."""
        if as_json:
            error = {"kind": "format", "game": None, "line": None, "message": reason.text()}
            self.stdout.write(
                json.dumps(
                    {"valid": False, "errors": [{**error, **reason.to_dict()}]},
                    ensure_ascii=False,
                )
            )
        else:
            self.stdout.write(f"Record NOT read: {reason.text()}.")
        raise CommandError("the file is not a game record the site reads", returncode=1)

    @staticmethod
    def _read(path: str, size: int) -> bytes:
        try:
            if path == "-":
                return sys.stdin.buffer.read(size)
            with open(path, "rb") as handle:
                return handle.read(size)
        except FileNotFoundError:
            raise CommandError(f"no such file: {path}", returncode=2) from None
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}", returncode=2) from None
