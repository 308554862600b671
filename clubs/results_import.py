"""Importing a previous season's results from CSV, so a club starts with its
history: all or nothing, every problem listed by row.

The file: UTF-8 with or without Excel's byte-order mark; separated by semicolons,
commas or tabs; a header row naming the columns in any order and case, then one match
per row. Columns:

- ``date`` (YYYY-MM-DD), ``event`` (its name), ``player1``, ``player2``, ``winner``
  (``1``, ``2`` or the winner's name): required;
- ``kind``: ``tournament`` (the default) or ``club_night`` (Swedish ``turnering``,
  ``klubbkväll`` too);
- ``length`` (games, 1 or more), ``walkover`` (yes/no, ja/nej, 1/0; empty = no);
- ``place1``, ``place2``: the player's final place in the event (1, 2, …), if known.

Rows with the same ``event`` and ``date`` are one event; an event's kind, and a player's
place in it, must be the same on all its rows. An event already imported into the season
(same name and date) is refused, so a file imported twice adds nothing.

**Players** are found by name, compared by its key (``tournaments.player_names``: any
case, Unicode form and spacing): a player of the season's club first, else the only
player of that name; someone new is added to the club; a name that several players
(of other clubs) share is a problem to resolve (rename one) before importing. A club has
one player per name (the database holds it), so imports at the same moment that name
the same new player add them once, and each uses that player
(``tournaments.players.player_of_club_get_or_create``).

The imported events count in the season's standings (``clubs.season_selectors``), with
their matches won and placings. They are not rated: ratings come from matches played on
the site, and a club's earlier ratings come in as starting ratings (``RatingStart``).
"""

from __future__ import annotations

import csv
import datetime
import io
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import (
    EventKind,
    ImportedEvent,
    ImportedMatch,
    ImportedPlacing,
    Season,
)
from clubs.season_services import can_keep_seasons
from core.bounds import DB_INT_MAX
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, signed_in
from tournaments.models import Player
from tournaments.player_names import player_name_key
from tournaments.players import player_of_club_get_or_create

REQUIRED = ("date", "event", "player1", "player2", "winner")
OPTIONAL = ("kind", "length", "walkover", "place1", "place2")
COLUMNS = REQUIRED + OPTIONAL
DELIMITERS = (";", ",", "\t")
NAME_MAX = 120
EVENT_MAX = 200
MAX_ROWS = 10_000
LOOKUP_BATCH = 500  # names looked up per query (SQLite's limit on a query's values)

KINDS = {
    "": EventKind.TOURNAMENT,
    "tournament": EventKind.TOURNAMENT,
    "turnering": EventKind.TOURNAMENT,
    "club_night": EventKind.CLUB_NIGHT,
    "club night": EventKind.CLUB_NIGHT,
    "klubbkväll": EventKind.CLUB_NIGHT,
}
YES = {"yes", "ja", "1", "true", "x"}
NO = {"", "no", "nej", "0", "false"}


@dataclass(frozen=True)
class Problem:
    """One problem; ``line`` is the row in the file as a spreadsheet counts (1 = header),
    ``None`` for the file as a whole."""

    line: int | None
    message: str

    def to_dict(self) -> dict[str, object]:
        return {"line": self.line, "message": self.message}


class ResultsImportError(ValidationError):
    """The file was not imported; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        message = (
            _("Nothing was imported: %(count)s problems, the first on row %(line)s: %(message)s")
            % {"count": len(problems), "line": first.line, "message": first.message}
            if first.line is not None
            else _("Nothing was imported: %(message)s") % {"message": first.message}
        )
        super().__init__(message, code="import_invalid", problems=[p.to_dict() for p in problems])
        self.problems = problems


@dataclass(frozen=True)
class Row:
    line: int
    date: datetime.date
    event: str
    kind: str
    player1: str
    player2: str
    winner: int  # 1 or 2
    length: int | None
    walkover: bool
    place1: int | None
    place2: int | None


@dataclass(frozen=True)
class ImportSummary:
    events: int
    matches: int
    players_created: int


def _delimiter(header: str) -> str:
    best, best_known = ",", -1
    for delimiter in DELIMITERS:
        names = [c.strip().strip('"').lower() for c in header.split(delimiter)]
        known = sum(1 for n in names if n in COLUMNS)
        if known > best_known:
            best, best_known = delimiter, known
    return best


def _whole(text: str, line: int, column: str, problems: list[Problem]) -> int | None:
    if not text:
        return None
    if text.isascii() and text.isdigit() and 1 <= int(text) <= DB_INT_MAX:
        return int(text)
    problems.append(
        Problem(
            line,
            _("%(column)s “%(value)s” is not a whole number from 1 to %(max)s.")
            % {"column": column, "value": text, "max": DB_INT_MAX},
        )
    )
    return None


def _row(values: dict[str, str], line: int, problems: list[Problem]) -> Row | None:
    count = len(problems)
    try:
        date = datetime.date.fromisoformat(values["date"])
    except ValueError:
        problems.append(
            Problem(
                line,
                _("date “%(value)s” is not a date as YYYY-MM-DD.") % {"value": values["date"]},
            )
        )
        date = datetime.date.min
    event = values["event"]
    if not event:
        problems.append(Problem(line, _("the event has no name.")))
    elif len(event) > EVENT_MAX:
        problems.append(
            Problem(line, _("the event's name is longer than %(n)s characters.") % {"n": EVENT_MAX})
        )
    kind = KINDS.get(values.get("kind", "").casefold())
    if kind is None:
        problems.append(
            Problem(
                line,
                _("kind “%(value)s” is neither tournament nor club_night.")
                % {"value": values.get("kind", "")},
            )
        )
    one, two = values["player1"], values["player2"]
    for column, name in (("player1", one), ("player2", two)):
        if not name:
            problems.append(Problem(line, _("%(column)s is empty.") % {"column": column}))
        elif len(name) > NAME_MAX:
            problems.append(
                Problem(
                    line,
                    _("%(column)s is longer than %(n)s characters.")
                    % {"column": column, "n": NAME_MAX},
                )
            )
    if one and two and player_name_key(one) == player_name_key(two):
        problems.append(Problem(line, _("%(name)s cannot play themselves.") % {"name": one}))
    text = values["winner"]
    winner = {"1": 1, "2": 2}.get(text)
    if winner is None and text:
        winner = (
            1
            if player_name_key(text) == player_name_key(one)
            else 2
            if player_name_key(text) == player_name_key(two)
            else None
        )
    if winner is None:
        problems.append(
            Problem(
                line,
                _("winner “%(value)s” is neither 1, 2 nor one of the players' names.")
                % {"value": text},
            )
        )
    length = _whole(values.get("length", ""), line, "length", problems)
    walkover_text = values.get("walkover", "").casefold()
    if walkover_text not in YES | NO:
        problems.append(
            Problem(
                line, _("walkover “%(value)s” is neither yes nor no.") % {"value": walkover_text}
            )
        )
    place1 = _whole(values.get("place1", ""), line, "place1", problems)
    place2 = _whole(values.get("place2", ""), line, "place2", problems)
    if len(problems) > count or kind is None or winner is None:
        return None
    return Row(
        line=line,
        date=date,
        event=event,
        kind=kind,
        player1=one,
        player2=two,
        winner=winner,
        length=length,
        walkover=walkover_text in YES,
        place1=place1,
        place2=place2,
    )


def parse_results_csv(data: bytes) -> list[Row]:
    """The rows of a results file, or ``ResultsImportError`` with every problem."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ResultsImportError(
            [
                Problem(
                    None,
                    _("the file is not UTF-8 (byte %(n)s); save it as “CSV UTF-8”.")
                    % {"n": err.start + 1},
                )
            ]
        ) from None
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise ResultsImportError([Problem(None, _("the file is empty."))])
    if "\x00" in text:
        # No name or event holds a NUL (the database refuses it): a binary file.
        line = text[: text.index("\x00")].count("\n") + 1
        raise ResultsImportError(
            [Problem(line, _("the file holds a NUL character; save it as “CSV UTF-8”."))]
        )
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    try:
        return _results(reader)
    except csv.Error:  # a value longer than csv.field_size_limit(): no name is that long
        raise ResultsImportError(
            [
                Problem(
                    reader.line_num,
                    _("a value is longer than %(n)s characters.") % {"n": csv.field_size_limit()},
                )
            ]
        ) from None


def _results(reader: Any) -> list[Row]:
    header: list[str] | None = None
    problems: list[Problem] = []
    rows: list[Row] = []
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip().lower() for c in cells]
            unknown = [c for c in header if c not in COLUMNS]
            missing = [c for c in REQUIRED if c not in header]
            if unknown or missing or len(set(header)) != len(header):
                raise ResultsImportError(
                    [
                        Problem(
                            line,
                            _(
                                "the header must name the columns %(required)s (and may name "
                                "%(optional)s), each once; unknown: %(unknown)s; missing: "
                                "%(missing)s."
                            )
                            % {
                                "required": ", ".join(REQUIRED),
                                "optional": ", ".join(OPTIONAL),
                                "unknown": ", ".join(unknown) or "–",
                                "missing": ", ".join(missing) or "–",
                            },
                        )
                    ]
                )
            continue
        if len(rows) + len(problems) >= MAX_ROWS:
            problems.append(Problem(line, _("more than %(n)s rows.") % {"n": MAX_ROWS}))
            break
        if len(cells) > len(header):
            problems.append(
                Problem(
                    line,
                    _("%(values)s values for %(columns)s columns.")
                    % {"values": len(cells), "columns": len(header)},
                )
            )
            continue
        values = {c: "" for c in COLUMNS}
        values.update(zip(header, (c.strip() for c in cells), strict=False))
        row = _row(values, line, problems)
        if row is not None:
            rows.append(row)
    if header is None:
        raise ResultsImportError([Problem(None, _("the file is empty."))])
    problems += _consistency(rows)
    if problems:
        raise ResultsImportError(sorted(problems, key=lambda p: p.line or 0))
    if not rows:
        raise ResultsImportError([Problem(None, _("the file has a header and no results."))])
    return rows


def _consistency(rows: list[Row]) -> list[Problem]:
    """An event's kind, and each player's place in it, the same on all its rows."""
    problems: list[Problem] = []
    kinds: dict[tuple[str, datetime.date], str] = {}
    places: dict[tuple[str, datetime.date, str], int] = {}
    for row in rows:
        key = (row.event, row.date)
        if kinds.setdefault(key, row.kind) != row.kind:
            problems.append(
                Problem(
                    row.line,
                    _("“%(event)s” is a tournament on one row and a club night on another.")
                    % {"event": row.event},
                )
            )
        for name, place in ((row.player1, row.place1), (row.player2, row.place2)):
            if place is None:
                continue
            held = places.setdefault((row.event, row.date, player_name_key(name)), place)
            if held != place:
                problems.append(
                    Problem(
                        row.line,
                        _("%(name)s is placed %(place)s here and %(other)s on another row.")
                        % {"name": name, "place": place, "other": held},
                    )
                )
    return problems


def _players(season: Season, names: set[str]) -> tuple[dict[str, Player | None], list[str]]:
    """Each name (its key) → the player it is, or None for someone new; and the names
    several players share (ambiguous)."""
    found: dict[str, list[Player]] = defaultdict(list)
    keys = sorted(names)
    for start in range(0, len(keys), LOOKUP_BATCH):
        batch = keys[start : start + LOOKUP_BATCH]
        for player in Player.objects.filter(name_key__in=batch).only("pk", "name_key", "club_id"):
            found[player.name_key].append(player)
    out: dict[str, Player | None] = {}
    ambiguous: list[str] = []
    for name in names:
        candidates = found.get(name, [])
        of_club = [p for p in candidates if p.club_id == season.club_id]
        if len(of_club) == 1:
            out[name] = of_club[0]
        elif len(candidates) == 1:
            out[name] = candidates[0]
        elif not candidates:
            out[name] = None
        else:
            ambiguous.append(name)
    return out, ambiguous


def season_results_import(*, season: Season, data: bytes, by: User) -> ImportSummary:
    """Import a results file into ``season`` (see the module text). Season keepers only
    (``clubs.season_services``). All or nothing: ``ResultsImportError`` lists every
    problem and nothing is written."""
    if not can_keep_seasons(by):
        raise PermissionDeniedError(
            _("Only the season keepers of the clubs may import results; ask an administrator.")
        )
    rows = parse_results_csv(data)
    problems: list[Problem] = []
    first_line: dict[tuple[str, datetime.date], int] = {}
    for row in rows:
        first_line.setdefault((row.event, row.date), row.line)
    existing = set(ImportedEvent.objects.filter(season=season).values_list("name", "date"))
    for (event, date), line in first_line.items():
        if (event, date) in existing:
            problems.append(
                Problem(
                    line,
                    _("“%(event)s” of %(date)s is imported into this season already.")
                    % {"event": event, "date": date.isoformat()},
                )
            )
    names = {player_name_key(n) for row in rows for n in (row.player1, row.player2)}
    players, ambiguous = _players(season, names)
    for row in rows:
        for name in (row.player1, row.player2):
            if player_name_key(name) in ambiguous:
                problems.append(
                    Problem(
                        row.line,
                        _(
                            "several players are called %(name)s; rename one so the name "
                            "says who it is."
                        )
                        % {"name": name},
                    )
                )
    if problems:
        raise ResultsImportError(sorted(problems, key=lambda p: p.line or 0))
    user = signed_in(by)
    try:
        return _write(season, rows, players, user)
    except IntegrityError:
        # The same events imported meanwhile by another request (the season's lock
        # makes this rare; the unique constraint makes it safe).
        raise _imported_meanwhile() from None


def _imported_meanwhile() -> ConflictError:
    return ConflictError(
        _("These events were imported into this season meanwhile; nothing was imported."),
        code="imported_meanwhile",
    )


def _write(
    season: Season, rows: list[Row], players: dict[str, Player | None], user: Any
) -> ImportSummary:
    """Write the checked rows, all or nothing. Two imports of one season are one after
    the other (the season's row is locked); the second finds the events there: 409."""
    keys = {(row.event, row.date) for row in rows}
    created = 0
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        existing = set(ImportedEvent.objects.filter(season=season).values_list("name", "date"))
        if keys & existing:
            raise _imported_meanwhile()
        resolved: dict[str, Player] = {}
        for row in rows:
            for name in (row.player1, row.player2):
                who = player_name_key(name)
                if who in resolved:
                    continue
                player = players.get(who)
                if player is None:
                    # Someone new when looked up; another import (of any season) may
                    # have added them since: then that import's player is theirs.
                    player, new = player_of_club_get_or_create(name=name, club=season.club)
                    created += new
                resolved[who] = player
        events: dict[tuple[str, datetime.date], ImportedEvent] = {}
        placings: dict[tuple[str, datetime.date], dict[int, int]] = defaultdict(dict)
        matches: list[ImportedMatch] = []
        for row in rows:
            key = (row.event, row.date)
            if key not in events:
                events[key] = ImportedEvent.objects.create(
                    season=season, name=row.event, date=row.date, kind=row.kind, imported_by=user
                )
            one = resolved[player_name_key(row.player1)]
            two = resolved[player_name_key(row.player2)]
            matches.append(
                ImportedMatch(
                    event=events[key],
                    line=row.line,
                    player1=one,
                    player2=two,
                    winner=one if row.winner == 1 else two,
                    length=row.length,
                    walkover=row.walkover,
                )
            )
            for placed, place in ((one, row.place1), (two, row.place2)):
                if place is not None:
                    placings[key][placed.pk] = place
        ImportedMatch.objects.bulk_create(matches)
        ImportedPlacing.objects.bulk_create(
            ImportedPlacing(event=events[key], player_id=player, place=place)
            for key, table in placings.items()
            for player, place in table.items()
        )
    return ImportSummary(events=len(events), matches=len(matches), players_created=created)
