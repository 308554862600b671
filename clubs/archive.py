"""A tournament's archive: one ZIP with everything a club keeps of it.

Inside (``tournament-<id>/`` as the top folder):

- ``README.txt``: what the tournament was and what each file holds, in the reader's
  language;
- ``results.csv`` / ``results.json``, ``placings.csv`` / ``placings.json``: as the
  exports (``clubs.exports``);
- ``records/``: every game record submitted for its matches, exactly as submitted, one
  file each, named ``round-<r>-match-<slot>-record-<id>-<state>`` with the extension of
  its format: ``.mat`` for backgammon, ``.json`` for a bräde JSON record, ``.txt`` for a
  bräde text record. Rejected and unverified records are kept too; their state is in the
  name and the README says what the states mean.

Backgammon: the records of a backgammon tournament are the ``.mat``
files submitted for its matches, so they open in gnubg, eXtreme Gammon and BGBlitz as
they are. A result entered without a record gets no ``.mat`` written for it: a ``.mat``
holds the moves, and gnubg reads a game with none as the loser resigning at cube 1 with
``Wins N points`` divided by the cube and capped at 3 (its ``ParseMatMove``), so every
cubed game (4, 6, 8 … points) would be read back wrong. Those results are in
``results.csv``/``results.json``, where nothing is lost; the README says so.

Raw records are readable only by a match's players and the tournament's referees and
organisers (``tournaments.permissions.can_read_records``), so the archive, which holds all
of them, is for the tournament's referees and organisers.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from datetime import datetime

from django.utils.timezone import localtime, now
from django.utils.translation import gettext as _

from clubs.exports import (
    PLACING_COLUMNS,
    RESULT_COLUMNS,
    csv_text,
    decimal_comma,
    json_text,
    placings_rows,
    results_rows,
)
from clubs.games import tournament_game
from games.registry import family_for
from matches.models import GameRecordSubmission
from matches.visibility import visible_matches
from tournaments.game_words import game_name
from tournaments.models import Tournament
from tournaments.permissions import User


def record_extension(game: str, text: str) -> str:
    """The file suffix of a record of ``game``: its family's format for the text (bräde's
    ``.txt`` or ``.json``; backgammon's ``.mat``, ``.sgf``, ``.txt`` or ``.json``)."""
    form = family_for(game).record_format(text)
    return form.suffix if form is not None else ".txt"


def _mat_note() -> str:
    return _(
        "- Backgammon: the records are the .mat files the players or referees "
        "submitted; gnubg, eXtreme Gammon and BGBlitz open them. A match entered "
        "without a record has no .mat file (a .mat without the moves cannot carry "
        "the cube): its games are in results.csv."
    )


# What the README adds for a game, by its family's first record format (the form its
# records are verified in, as ``matches.records.RECORD_FORMS``).
RECORD_NOTES: dict[str, Callable[[], str]] = {"mat": _mat_note}


def _dates_line(tournament: Tournament) -> str:
    """The tournament's days and venue; a one-day tournament names its day once."""
    venue = tournament.venue or "–"
    if tournament.start_date == tournament.end_date:
        return _("Dates: %(date)s. Venue: %(venue)s.") % {
            "date": tournament.start_date.isoformat(),
            "venue": venue,
        }
    return _("Dates: %(start)s – %(end)s. Venue: %(venue)s.") % {
        "start": tournament.start_date.isoformat(),
        "end": tournament.end_date.isoformat(),
        "venue": venue,
    }


def _readme(tournament: Tournament, game: str, records: int, when: datetime) -> str:
    family = family_for(game)
    lines = [
        tournament.name,
        "=" * len(tournament.name),
        "",
        _("Archive of the tournament, made %(when)s.")
        % {"when": localtime(when).strftime("%Y-%m-%d %H:%M")},
        _dates_line(tournament),
        _("Rules: %(rules)s. Scale: %(scale)s.")
        % {"rules": tournament.rules, "scale": tournament.get_scale_display()}
        if "scale" in family.options
        else _("Game: %(game)s.") % {"game": game_name(game)},
        "",
        _("What is inside:"),
        _(
            "- results.csv, results.json: every match of the bracket, round by round (players, "
            "clubs, length, state, winner, points, tiebreak, walkover)."
        ),
        _("- placings.csv, placings.json: who finished where, as far as decided."),
        _(
            "- records/: every game record submitted (%(count)s), exactly as submitted, named "
            "by round, match and record number and the record's state: verified or entered "
            "(it agrees with the results), mismatch (it disagrees), invalid (the rules engine "
            "refused it), pending, verifying or failed (not verified)."
        )
        % {"count": records},
    ]
    note = RECORD_NOTES.get(family.records[0].name) if family.records else None
    if note is not None:
        lines.append(note())
    lines += [
        "",
        _(
            "The CSV files are UTF-8 with a byte-order mark, fields separated by semicolons; "
            "they open in a spreadsheet with Swedish letters intact."
        ),
        "",
    ]
    return "\r\n".join(lines)


def tournament_archive(*, tournament: Tournament, by: User, lang: str) -> tuple[str, bytes]:
    """The archive's file name and bytes: the matches and records ``by`` may see
    (``matches.visibility``)."""
    top = f"tournament-{tournament.pk}"
    game = tournament_game(tournament)
    submissions = list(
        GameRecordSubmission.objects.filter(
            match__in=visible_matches(by=by, tournament=tournament).values("pk")
        )
        .select_related("match__round")
        .order_by("match__round__number", "match__is_third_place", "match__slot", "id")
    )
    results, placings = results_rows(tournament, by=by), placings_rows(tournament)
    meta = {"tournament": tournament.name, "tournament_id": tournament.pk}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{top}/README.txt", _readme(tournament, game, len(submissions), now()))
        comma = decimal_comma(lang)
        archive.writestr(
            f"{top}/results.csv", csv_text(RESULT_COLUMNS, results, decimal_comma=comma)
        )
        archive.writestr(f"{top}/results.json", json_text({**meta, "rows": results}))
        archive.writestr(
            f"{top}/placings.csv",
            csv_text(PLACING_COLUMNS, placings, decimal_comma=comma),
        )
        archive.writestr(f"{top}/placings.json", json_text({**meta, "rows": placings}))
        for sub in submissions:
            match = sub.match
            where = "third-place" if match.is_third_place else f"match-{match.slot + 1}"
            name = (
                f"{top}/records/round-{match.round.number}-{where}-record-{sub.pk}-{sub.state}"
                f"{record_extension(game, sub.text)}"
            )
            archive.writestr(name, sub.text)
    return f"{top}.zip", buffer.getvalue()
