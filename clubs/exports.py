"""Exports: a tournament's results and placings, a season's standings and a
rating list, each as CSV and as JSON from the same rows.

- **Rows** are plain dicts with fixed English keys: the JSON has them, so a script reads
  every JSON export the same way whatever the page language.
- **CSV** is for people and their spreadsheets: its header row names the columns in the
  reader's language (``column_titles``) and a yes/no is ja/nej on a Swedish or Danish
  page, as the archive's README beside it is in that language and the numbers already
  follow the reader's spreadsheet (decimal comma). One language per file rather than both in each
  title: a spreadsheet's column is read at a glance, and a script takes the JSON.
- **CSV** opens in a spreadsheet with Swedish letters intact: UTF-8 with a byte-order
  mark (Excel takes a BOM-less file for the local code page and shows "Ã¶" for "ö"),
  fields separated by ``;`` (Swedish Excel's list separator, as the players import of
  the organiser pages takes it), CRLF line ends, quoted where needed (``csv`` module).
  Ratings have a decimal comma on a Swedish or Danish page and a decimal point on an
  English one (Django's format of the language, ``decimal_comma``), so that the
  spreadsheet of each language reads them as numbers. Every text cell is
  written through ``core.csv_cells.spreadsheet_text``, so a name beginning with ``=``,
  ``+``, ``-``, ``@``, a tab or a carriage return is not a live formula in the spreadsheet
  (numbers we write as numbers are left as they are; see that module). ``csv_text`` is
  the one CSV writer of the site: every CSV export and the archive's CSVs use it.
- **JSON** is UTF-8 (no ``\\u`` escapes), numbers of ratings as strings with a decimal
  point (as the API gives decimals), dates in ISO 8601.
- **Privacy**: each export reads only what its page may show: a tournament's exports need
  the reader to see the tournament, and list the matches the reader may see
  (``matches.visibility``); the rating list has public matches only; a season's
  standings count public tournaments only.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.utils.formats import get_format
from django.utils.timezone import localtime
from django.utils.translation import pgettext

from clubs.models import PlayerRating
from clubs.season_selectors import Standings
from core.csv_cells import spreadsheet_text
from matches.models import MatchState
from matches.round_selectors import tournament_placings
from matches.visibility import visible_matches
from tournaments.models import Player, Tournament
from tournaments.permissions import User

BOM = "\ufeff"
CSV_DELIMITER = ";"

Row = dict[str, Any]

RESULT_COLUMNS = (
    "match_id",
    "round",
    "slot",
    "third_place",
    "player1",
    "player1_club",
    "player2",
    "player2_club",
    "length",
    "length_unit",
    "state",
    "winner",
    "points1",
    "points2",
    "tiebreak1",
    "tiebreak2",
    "decided_after_game",
    "decided_early",
    "walkover",
)
PLACING_COLUMNS = ("place", "place_to", "player", "club", "walkover")
STANDING_COLUMNS = (
    "place",
    "shared",
    "player",
    "club",
    "events",
    "taking_part_points",
    "matches_won",
    "match_points",
    "placing_points",
    "total",
    "head_to_head",
)
RATING_COLUMNS = ("rank", "player_id", "player", "club", "rating", "experience", "matches")


def column_titles() -> dict[str, str]:
    """Each CSV column's title in the reader's language (see the module text)."""
    return {
        "match_id": pgettext("CSV column", "Match id"),
        "round": pgettext("CSV column", "Round"),
        "slot": pgettext("CSV column", "Match in round"),
        "third_place": pgettext("CSV column", "Third-place match"),
        "player1": pgettext("CSV column", "Player 1"),
        "player1_club": pgettext("CSV column", "Club of player 1"),
        "player2": pgettext("CSV column", "Player 2"),
        "player2_club": pgettext("CSV column", "Club of player 2"),
        "length": pgettext("CSV column", "Length"),
        "length_unit": pgettext("CSV column", "Length counts"),
        "state": pgettext("CSV column", "State"),
        "winner": pgettext("CSV column", "Winner"),
        "points1": pgettext("CSV column", "Points of player 1"),
        "points2": pgettext("CSV column", "Points of player 2"),
        "tiebreak1": pgettext("CSV column", "Tiebreak of player 1"),
        "tiebreak2": pgettext("CSV column", "Tiebreak of player 2"),
        "decided_after_game": pgettext("CSV column", "Decided after game"),
        "decided_early": pgettext("CSV column", "Decided early"),
        "walkover": pgettext("CSV column", "Walkover"),
        "place": pgettext("CSV column", "Place"),
        "place_to": pgettext("CSV column", "Place to"),
        "player": pgettext("CSV column", "Player"),
        "club": pgettext("CSV column", "Club"),
        "shared": pgettext("CSV column", "Shared"),
        "events": pgettext("CSV column", "Events"),
        "taking_part_points": pgettext("CSV column", "Points for taking part"),
        "matches_won": pgettext("CSV column", "Matches won"),
        "match_points": pgettext("CSV column", "Points for matches won"),
        "placing_points": pgettext("CSV column", "Points for placings"),
        "total": pgettext("CSV column", "Total"),
        "head_to_head": pgettext("CSV column", "Head to head"),
        "rank": pgettext("CSV column", "Rank"),
        "player_id": pgettext("CSV column", "Player id"),
        "rating": pgettext("CSV column", "Rating"),
        "experience": pgettext("CSV column", "Experience"),
        "matches": pgettext("CSV column", "Matches"),
    }


def _name(player: Any) -> str:
    return player.name if player is not None else ""


def _club(player: Any) -> str:
    return player.club.name if player is not None and player.club is not None else ""


def results_rows(tournament: Tournament, *, by: User) -> list[Row]:
    """One row per match of the bracket ``by`` may see (``matches.visibility``: an
    unpublished Swiss round's pairings only for the staff), round by round."""
    matches = (
        visible_matches(by=by, tournament=tournament)
        .select_related("round", "player1__club", "player2__club", "winner")
        .order_by("round__number", "is_third_place", "slot")
    )
    return [
        {
            "match_id": m.pk,
            "round": m.round.number,
            "slot": m.slot + 1,
            "third_place": m.is_third_place,
            "player1": _name(m.player1),
            "player1_club": _club(m.player1),
            "player2": _name(m.player2),
            "player2_club": _club(m.player2),
            "length": m.length,
            "length_unit": m.length_unit,  # games (best of n) or points (backgammon)
            "state": m.state,
            "winner": _name(m.winner),
            "points1": m.points1,
            "points2": m.points2,
            "tiebreak1": m.tiebreak1,
            "tiebreak2": m.tiebreak2,
            "decided_after_game": m.decided_after_game,
            "decided_early": m.decided_early,
            "walkover": m.state == MatchState.WALKOVER,
        }
        for m in matches
    ]


def placings_rows(tournament: Tournament) -> list[Row]:
    placings = tournament_placings(tournament=tournament)
    clubs = dict(
        Player.objects.filter(pk__in=[p.player.pk for p in placings]).values_list(
            "pk", "club__name"
        )
    )
    return [
        {
            "place": p.first,
            "place_to": p.last,
            "player": p.player.name,
            "club": clubs.get(p.player.pk) or "",
            "walkover": p.walkover,
        }
        for p in placings
    ]


def standings_rows(standings: Standings) -> list[Row]:
    return [
        {
            "place": line.row.place,
            "shared": line.row.shared,
            "player": line.player.name,
            "club": line.player.club.name if line.player.club else "",
            "events": line.row.events,
            "taking_part_points": line.row.taking_part_points,
            "matches_won": line.row.matches_won,
            "match_points": line.row.match_points,
            "placing_points": line.row.placing_points,
            "total": line.row.total,
            "head_to_head": line.row.head_to_head,
        }
        for line in standings.lines
    ]


def ratings_rows(ratings: Iterable[PlayerRating]) -> list[Row]:
    return [
        {
            "rank": rank,
            "player_id": r.player_id,
            "player": r.player.name,
            "club": r.player.club.name if r.player.club else "",
            "rating": r.rating,
            "experience": r.experience,
            "matches": r.matches,
        }
        for rank, r in enumerate(ratings, start=1)
    ]


# --- writing ---------------------------------------------------------------------------


def _csv_value(value: Any, decimal_comma: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return pgettext("CSV value", "yes") if value else pgettext("CSV value", "no")
    if isinstance(value, Decimal):
        text = f"{value:f}"
        return text.replace(".", ",") if decimal_comma else text
    if isinstance(value, datetime):
        return localtime(value).isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int | float):
        return str(value)  # a number of ours: data, not a formula (core.csv_cells)
    return spreadsheet_text(str(value))


def decimal_comma(lang: str) -> bool:
    """Whether ``lang``'s numbers take a decimal comma (Django's formats for the language:
    Swedish 1,5, English 1.5), for ``csv_text``."""
    return str(get_format("DECIMAL_SEPARATOR", lang)) == ","


def csv_text(columns: Sequence[str], rows: Iterable[Row], *, decimal_comma: bool) -> str:
    """The rows as CSV text, BOM first (see the module text)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    titles = column_titles()
    writer.writerow([spreadsheet_text(titles.get(c, c)) for c in columns])
    for row in rows:
        writer.writerow([_csv_value(row[c], decimal_comma) for c in columns])
    return BOM + out.getvalue()


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, datetime):
        return localtime(value).isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"not JSON: {value!r}")


def json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, default=_json_default) + "\n"


def csv_response(filename: str, text: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_export(
    filename: str, columns: Sequence[str], rows: Iterable[Row], *, lang: str
) -> HttpResponse:
    """``rows`` as the CSV file ``filename`` for a reader of ``lang`` (its titles and
    numbers: see the module text)."""
    return csv_response(filename, csv_text(columns, rows, decimal_comma=decimal_comma(lang)))


def json_response(filename: str, text: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def export_response(
    fmt: str, stem: str, columns: Sequence[str], rows: list[Row], *, meta: Row, lang: str
) -> HttpResponse:
    """``rows`` as ``stem.csv`` or ``stem.json`` (``{"meta": …, "rows": […]}``)."""
    if fmt == "csv":
        return csv_export(f"{stem}.csv", columns, rows, lang=lang)
    return json_response(f"{stem}.json", json_text({**meta, "rows": rows}))
