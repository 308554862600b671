"""Services for ratings per game and formula: the incremental update after a match
changes, the rebuild, imported starting ratings, the formula of a club's rating list and
seeding a draw by rating.

The figures are the ``ratings`` package's (the formulas and ``ratings.ledger``); which
matches count and when they ended, and which formulas are kept, is
``clubs.rating_selectors``. Every update and rebuild of a game writes the ratings of every
kept formula (``kept_formulas``) from the same matches in the same order. Both paths write the
same rows from the same reads, so ``manage.py ratings rebuild`` changes nothing after the
incremental updates (tests/clubs/test_rating_services.py).

- **Incremental** (``match_ratings_sync``): the match services lock a match
  (``matches.common.lock_match``) before every change and tell the watchers of
  ``matches.match_changes``; ``ratings_sync_on_commit`` is one (``ClubsConfig.ready``); after
  the commit, the match is compared with what is stored for it. A newly rated match is
  added with ``ratings.ledger.Book.apply`` from the two players' stored states; a match
  that is stored but changed (a correction that changed the winner, a reset, its
  tournament made private), or one that ended before the last rated match of its game
  (``NeedsRebuildError``), rebuilds that game. A match with nothing to do costs two reads
  and takes no lock.
- **Rebuild** (``ratings_rebuild``): all the game's rated matches in order, from the
  imported starts, in every kept formula; only the rows that differ are written (the rows
  of a formula no longer kept are removed), and the tournaments whose matches' rating
  changes moved are touched (their pages show the change: ``web.live``).
- **A formula newly kept** (a club's list chose it: ``club_rating_formula_set``) is
  built for every game at once, by a rebuild; and since the game's book row lists the
  formulas its rows hold (``RatingBook.formulas``), an update that finds a kept formula
  missing there rebuilds the game rather than rate one match from nothing.
- **One writer per game**: every write first bumps the game's ``RatingBook`` row, which
  locks it (on SQLite it takes the write lock) before anything is read.
- **Failures** never undo a result: the update runs after the result's commit
  (``on_commit(robust=True)``, so an error is logged, not raised into the referee's
  request), and ``manage.py ratings rebuild`` repairs whatever was missed.

**Starting ratings.** Everyone starts at 1500 with experience 0, or at their
``RatingStart`` (a rating brought from elsewhere, per game, with optional experience; set
with ``rating_start_set`` or ``manage.py ratings starts``, which rebuild the game). A start
is the same for every formula, and experience counts the same in every formula
(``ratings.ledger``).
``Player.rating`` — the number organisers type in with a player or a CSV of entries — is
*not* a start by itself: it may change at any time, and a start that changes silently
would make the stored ratings differ from a rebuild. ``manage.py ratings starts
--from-player-rating`` copies it into starts once, on purpose.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.games import tournament_game
from clubs.models import (
    RATING_DIGITS,
    ClubRatingList,
    PlayerRating,
    RatingBook,
    RatingEntry,
    RatingStart,
)
from clubs.rating_selectors import (
    current_states,
    finished_matches,
    kept_formulas,
    rating_starts,
    ratings_for_ordering,
)
from clubs.season_services import can_keep_seasons
from core.errors import PermissionDeniedError, ValidationError
from core.permissions import User, can_manage_all_players, signed_in
from matches.common import matches_touch
from matches.models import Match
from ratings.errors import NeedsRebuildError, RatingValueError
from ratings.fibs import to_rating
from ratings.formulas import DEFAULT_FORMULA, formula_keys
from ratings.ledger import RATED_GAMES, Book, FinishedMatch, HistoryEntry, PlayerState, rebuild
from ratings.seeding import seeding_order
from tournaments.entries import entries_seeds_set
from tournaments.models import Club, Entry, Player, Tournament

log = logging.getLogger(__name__)

BATCH = 500  # rows per IN (…) list: well under SQLite's variable limit


class SyncResult(StrEnum):
    NOT_RATED = "not_rated"  # not a rated match, and nothing stored for it
    UNCHANGED = "unchanged"  # rated already, as stored
    RATED = "rated"  # rated now, incrementally
    REBUILT = "rebuilt"  # the game's ratings were rebuilt


def _lock_book(game: str) -> RatingBook:
    """The game's book row, locked for the rest of the transaction. The UPDATE comes
    first: it takes the row lock on PostgreSQL and the write lock on SQLite before
    anything is read, so two updates of one game run one after the other. A new row
    holds no ratings yet, so it holds them for every kept formula."""
    if not RatingBook.objects.filter(game=game).update(version=F("version") + 1):
        RatingBook.objects.get_or_create(game=game, defaults={"formulas": list(kept_formulas())})
        RatingBook.objects.filter(game=game).update(version=F("version") + 1)
    return RatingBook.objects.select_for_update().get(game=game)


def _entry_fields(entry: HistoryEntry) -> tuple[Any, ...]:
    return (
        entry.opponent,
        entry.won,
        entry.before,
        entry.after,
        entry.change,
        entry.experience,
        entry.length,
        entry.ended_at,
    )


# The stored columns ``_entry_fields`` is compared with, in its order.
_STORED = ("opponent_id", "won", "before", "after", "change", "experience", "length", "ended_at")


def _entry_row(game: str, entry: HistoryEntry) -> RatingEntry:
    return RatingEntry(
        game=game,
        formula=entry.formula,
        match_id=entry.match_id,
        player_id=entry.player,
        opponent_id=entry.opponent,
        won=entry.won,
        before=entry.before,
        after=entry.after,
        change=entry.change,
        experience=entry.experience,
        length=entry.length,
        ended_at=entry.ended_at,
    )


def _insert_entries(game: str, entries: Sequence[HistoryEntry]) -> None:
    """``bulk_create`` of ``entries`` without building model instances (a first rebuild
    writes two rows per match): one ``executemany`` per batch, values adapted by the
    database backend as the ORM adapts them."""
    if not entries:
        return
    ops = connection.ops
    table = RatingEntry._meta.db_table
    columns = (
        "game",
        "formula",
        "match_id",
        "player_id",
        "opponent_id",
        "won",
        "before",
        "after",
        "change",
        "experience",
        "length",
        "ended_at",
    )
    quoted = ", ".join(ops.quote_name(c) for c in columns)
    marks = ", ".join(["%s"] * len(columns))
    sql = f"INSERT INTO {ops.quote_name(table)} ({quoted}) VALUES ({marks})"

    def money(value: Decimal) -> Any:
        return ops.adapt_decimalfield_value(value, RATING_DIGITS, 2)

    rows = [
        (
            game,
            e.formula,
            e.match_id,
            e.player,
            e.opponent,
            e.won,
            money(e.before),
            money(e.after),
            money(e.change),
            e.experience,
            e.length,
            ops.adapt_datetimefield_value(e.ended_at),
        )
        for e in entries
    ]
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[start : start + 5000])


def _still_as_stored(
    stored: Sequence[RatingEntry], match: FinishedMatch, formulas: Sequence[str]
) -> bool:
    """The stored entries still describe ``match`` in every one of ``formulas`` and no
    other: two per formula, with the same players, winner, length and end."""
    by_formula: dict[str, list[RatingEntry]] = {}
    for row in stored:
        by_formula.setdefault(row.formula, []).append(row)
    if set(by_formula) != set(formulas):
        return False
    for rows in by_formula.values():
        if len(rows) != 2 or {row.player_id for row in rows} != {match.player_a, match.player_b}:
            return False
    return all(
        row.won == (row.player_id == match.winner)
        and row.length == match.length
        and row.ended_at == match.ended_at
        for row in stored
    )


def _chunks(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


def _touch_matches(match_ids: Iterable[int]) -> None:
    """Bump the versions of the tournaments of these matches and stamp the matches: their
    pages show the matches' rating changes (``web.live``); the other matches' live parts
    show none, so they keep their versions (``matches.common.matches_touch``)."""
    ids = sorted(set(match_ids))
    for chunk in _chunks(ids):
        matches_touch(match_ids=chunk)


def match_ratings_sync(*, match_id: int) -> SyncResult:
    """Bring the ratings up to date with one match (see the module text)."""
    match = Match.objects.select_related("tournament").filter(pk=match_id).first()
    if match is None:
        return SyncResult.NOT_RATED
    game = tournament_game(match.tournament)
    if game not in RATED_GAMES:
        return SyncResult.NOT_RATED

    def look() -> tuple[FinishedMatch | None, list[RatingEntry]]:
        rows = finished_matches(game, ids=[match_id])
        return (rows[0] if rows else None), list(RatingEntry.objects.filter(match_id=match_id))

    formulas = kept_formulas()
    current, stored = look()
    if (current is None and not stored) or (
        current is not None and _still_as_stored(stored, current, formulas)
    ):
        return SyncResult.UNCHANGED if stored else SyncResult.NOT_RATED
    with transaction.atomic():
        book_row = _lock_book(game)
        formulas = kept_formulas()  # again, under the lock
        current, stored = look()
        if current is None and not stored:
            return SyncResult.NOT_RATED
        if current is not None and _still_as_stored(stored, current, formulas):
            return SyncResult.UNCHANGED
        if stored or list(book_row.formulas) != list(formulas):
            _rebuild(game, book_row)
            return SyncResult.REBUILT
        assert current is not None
        last = (
            (book_row.last_ended_at, book_row.last_match_id)
            if book_row.last_ended_at is not None and book_row.last_match_id is not None
            else None
        )
        players = [current.player_a, current.player_b]
        books = [
            Book(
                game,
                states=current_states(game, players, formula=formula),
                last=last,
                formula=formula,
            )
            for formula in formulas
        ]
        try:
            for book in books:
                book.check(current)
        except NeedsRebuildError:
            _rebuild(game, book_row)
            return SyncResult.REBUILT
        for book in books:
            entries = book.apply(current)
            RatingEntry.objects.bulk_create([_entry_row(game, e) for e in entries])
            for entry in entries:
                state = book.state(entry.player)
                updated = PlayerRating.objects.filter(
                    game=game, formula=book.formula, player_id=entry.player
                ).update(rating=state.rating, experience=state.experience, matches=F("matches") + 1)
                if not updated:
                    PlayerRating.objects.create(
                        game=game,
                        formula=book.formula,
                        player_id=entry.player,
                        rating=state.rating,
                        experience=state.experience,
                        matches=1,
                    )
        book_row.last_ended_at, book_row.last_match_id = current.ended_at, current.id
        book_row.save(update_fields=["last_ended_at", "last_match_id"])
        _touch_matches([current.id])
    return SyncResult.RATED


def _sync_quietly(match_id: int) -> None:
    match_ratings_sync(match_id=match_id)


def ratings_sync_on_commit(*, match_id: int) -> None:
    """After the current transaction commits, bring the ratings up to date with the match
    (``match_ratings_sync``). An error there is logged and never reaches the caller: the
    result stands, and ``manage.py ratings rebuild`` repairs the ratings."""
    transaction.on_commit(partial(_sync_quietly, match_id), robust=True)


@dataclass(frozen=True)
class RebuildSummary:
    game: str
    matches: int  # rated matches
    players: int  # players with a rating (in each kept formula: the same players)
    entries_written: int  # history rows added or rewritten
    entries_removed: int  # history rows of matches no longer rated (or rewritten)
    ratings_written: int  # current ratings added or changed


def _rebuild(game: str, book_row: RatingBook) -> RebuildSummary:
    """Rebuild ``game`` in every kept formula under its locked book row: write only what
    differs, and remove the rows of formulas no longer kept."""
    formulas = kept_formulas()
    matches = finished_matches(game)
    ledger = rebuild(matches, imported={game: rating_starts(game)}, formulas=formulas)
    books = [ledger.book(game, formula) for formula in formulas]
    fresh = {
        (e.match_id, e.player, e.formula): e
        for book in books
        for history in book.histories.values()
        for e in history
    }
    # Tuples, not model instances: a rebuild reads every history row of the game.
    stored = {
        (match_id, player_id, formula): (pk, fields)
        for pk, match_id, player_id, formula, *fields in RatingEntry.objects.filter(game=game)
        .order_by()
        .values_list("pk", "match_id", "player_id", "formula", *_STORED)
    }
    stale_keys = {
        key
        for key, (_pk, fields) in stored.items()
        if key not in fresh or tuple(fields) != _entry_fields(fresh[key])
    }
    stale = [stored[key][0] for key in stale_keys]
    new = [e for key, e in fresh.items() if key not in stored or key in stale_keys]
    for chunk in _chunks(stale):
        RatingEntry.objects.filter(pk__in=chunk).delete()
    _insert_entries(game, new)

    # Current ratings: players with at least one rated match, per formula.
    wanted = {
        (player, book.formula): (book.state(player), len(history))
        for book in books
        for player, history in book.histories.items()
        if history
    }
    have = {(row.player_id, row.formula): row for row in PlayerRating.objects.filter(game=game)}
    gone = [row.pk for key, row in have.items() if key not in wanted]
    for chunk in _chunks(gone):
        PlayerRating.objects.filter(pk__in=chunk).delete()
    changed: list[PlayerRating] = []
    created: list[PlayerRating] = []
    for (player, formula), (state, count) in wanted.items():
        row = have.get((player, formula))
        if row is None:
            created.append(
                PlayerRating(
                    game=game,
                    formula=formula,
                    player_id=player,
                    rating=state.rating,
                    experience=state.experience,
                    matches=count,
                )
            )
        elif (row.rating, row.experience, row.matches) != (state.rating, state.experience, count):
            row.rating, row.experience, row.matches = state.rating, state.experience, count
            changed.append(row)
    PlayerRating.objects.bulk_create(created, batch_size=BATCH)
    PlayerRating.objects.bulk_update(changed, ["rating", "experience", "matches"], batch_size=BATCH)

    last = books[0].last  # the same in every formula's book: the same matches
    book_row.last_ended_at, book_row.last_match_id = last if last else (None, None)
    book_row.rebuilt_at = timezone.now()
    book_row.formulas = list(formulas)
    book_row.save(update_fields=["last_ended_at", "last_match_id", "rebuilt_at", "formulas"])
    _touch_matches([key[0] for key in stale_keys] + [e.match_id for e in new])
    return RebuildSummary(
        game=game,
        matches=len(matches),
        players=len({player for player, _formula in wanted}),
        entries_written=len(new),
        entries_removed=len(stale),
        ratings_written=len(created) + len(changed) + len(gone),
    )


def ratings_rebuild(*, game: str) -> RebuildSummary:
    """Recompute ``game``'s ratings from all its rated matches (``manage.py ratings
    rebuild``). After correct incremental updates it writes nothing."""
    if game not in RATED_GAMES:
        raise ValidationError(
            _("There are no ratings for “%(game)s”; rated games: %(games)s.")
            % {"game": game, "games": ", ".join(RATED_GAMES)}
        )
    with transaction.atomic():
        return _rebuild(game, _lock_book(game))


def tournament_visibility_changed(*, tournament: Tournament) -> None:
    """A tournament became public or private: its matches join or leave the ratings.
    Called by ``tournaments.tournament_setup.tournament_update``; the rebuild runs after the
    commit (and only if the tournament has decided matches)."""
    game = tournament_game(tournament)
    if game not in RATED_GAMES:
        return
    if not Match.objects.filter(tournament=tournament, winner__isnull=False).exists():
        return

    def run() -> None:
        ratings_rebuild(game=game)

    transaction.on_commit(run, robust=True)


def _require_registry_staff(by: User) -> None:
    if not can_manage_all_players(by):
        raise PermissionDeniedError(
            _("Only the keepers of the player register may set starting ratings.")
        )


def rating_starts_set(
    *,
    game: str,
    starts: Mapping[int, tuple[Decimal | int | str, int] | None],
    by: User,
    note: str = "",
) -> RebuildSummary:
    """Set (or, with ``None``, remove) imported starting ratings of ``game``: player id →
    (rating, experience). Registry staff only (``tournaments.permissions``). All or
    nothing; the game's ratings are rebuilt in the same transaction."""
    _require_registry_staff(by)
    if game not in RATED_GAMES:
        raise ValidationError(_("There are no ratings for “%(game)s”.") % {"game": game})
    values: dict[int, PlayerState | None] = {}
    for player, start in starts.items():
        if start is None:
            values[player] = None
            continue
        rating, experience = start
        try:
            values[player] = PlayerState(to_rating(rating), int(experience))
        except RatingValueError as err:
            raise ValidationError(
                _("Player %(id)s: %(error)s") % {"id": player, "error": err}
            ) from None
        if values[player].rating < 0:  # type: ignore[union-attr]
            raise ValidationError(_("A rating cannot be negative."))
    known = set(Player.objects.filter(pk__in=list(values)).values_list("pk", flat=True))
    if missing := sorted(set(values) - known):
        raise ValidationError(_("There is no player #%(id)s.") % {"id": missing[0]})
    user = signed_in(by)
    with transaction.atomic():
        book_row = _lock_book(game)
        for player, state in values.items():
            if state is None:
                RatingStart.objects.filter(game=game, player_id=player).delete()
            else:
                RatingStart.objects.update_or_create(
                    game=game,
                    player_id=player,
                    defaults={
                        "rating": state.rating,
                        "experience": state.experience,
                        "note": note,
                        "set_by": user,
                    },
                )
        return _rebuild(game, book_row)


def rating_starts_import(
    *,
    game: str,
    rows: Sequence[tuple[int, Decimal | int | str | None, int]],
    by: User,
    note: str = "",
) -> RebuildSummary:
    """Starting ratings as a list sends them: (player id, rating or ``None`` to remove
    it, experience), each player once (a player named twice is refused, not guessed
    at), then ``rating_starts_set``. What ``manage.py ratings starts`` does from the
    players' own ratings, for ratings brought from elsewhere (another club's list)."""
    _require_registry_staff(by)
    if not rows:
        raise ValidationError(_("Give at least one player's starting rating."), code="empty")
    seen = Counter(player for player, _rating, _experience in rows)
    if twice := sorted(player for player, n in seen.items() if n > 1):
        raise ValidationError(
            _("Player #%(id)s is given more than once.") % {"id": twice[0]}, code="twice"
        )
    starts: dict[int, tuple[Decimal | int | str, int] | None] = {
        player: None if rating is None else (rating, experience)
        for player, rating, experience in rows
    }
    return rating_starts_set(game=game, starts=starts, by=by, note=note)


# --- the formula of a club's rating list -----------------------------------------------


def can_choose_club_formula(*, by: User) -> bool:
    """Who chooses the formula of a club's rating list: the clubs' secretaries, who keep
    its seasons (``clubs.season_services.can_keep_seasons``: superusers and users given
    ``clubs.change_season``). Decision: the site has no role per club; a club's list,
    like its seasons, spans many tournaments and their organisers, so organising one
    tournament is not enough."""
    return can_keep_seasons(by)


def club_rating_formula_set(*, club: Club, formula: str, by: User) -> ClubRatingList:
    """Set the formula of ``club``'s rating list (a key of ``ratings.formulas``). When
    that makes a formula kept or no longer kept, every rated game is rebuilt in the same
    transaction (``kept_formulas``), so the new list is there at once and a list no club
    uses is not kept stale."""
    if not can_choose_club_formula(by=by):
        raise PermissionDeniedError(
            _("Only the clubs' secretaries (the season keepers) may choose a rating formula.")
        )
    if formula not in formula_keys():
        raise ValidationError(
            _("There is no rating formula “%(formula)s”; formulas: %(formulas)s.")
            % {"formula": formula, "formulas": ", ".join(formula_keys())},
            code="unknown_formula",
        )
    with transaction.atomic():
        rows = {game: _lock_book(game) for game in RATED_GAMES}  # before the kept set moves
        before = kept_formulas()
        choice, _created = ClubRatingList.objects.update_or_create(
            club=club, defaults={"formula": formula, "set_by": signed_in(by)}
        )
        if kept_formulas() != before:
            for game, book_row in rows.items():
                _rebuild(game, book_row)
    return choice


# --- seeding a draw by rating ----------------------------------------------------------


def entries_seed_by_rating(
    *,
    tournament: Tournament,
    by: User,
    count: int | None = None,
    formula: str = DEFAULT_FORMULA,
) -> list[Entry]:
    """Seed the tournament's active entries by their rating in its game, highest first
    (``ratings.seeding``): the best ``count`` (all, if not given) get seeds 1, 2, …, the
    others none. A player's rating is the one computed here from their results by
    ``formula`` (FIBS unless the organiser chooses another kept one; or their imported
    start); a player with none, the rating given with their entry
    (``Player.rating``, "Angiven rating"); a player with neither counts as 1500
    (decision: the site's own rating, where it has one, says more than a typed number,
    and a given rating says more than nothing; the manage page says which is used);
    players on the same rating are put in an order drawn from the tournament's id, so
    seeding twice gives the same seeds. Organisers only, before the draw
    (``tournaments.entries.entries_seeds_set`` checks both). The draw then places the
    seeded players as usual: seeds 1 and 2 can meet only in the final."""
    if count is not None and count < 0:
        raise ValidationError(_("The number of seeds is 0 or more."))
    if formula not in kept_formulas():
        raise ValidationError(
            _("No rating list is kept by the formula “%(formula)s”.") % {"formula": formula},
            code="unknown_formula",
        )
    entries = list(
        Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("pk")
    )
    players = [e.player_id for e in entries]
    ratings = ratings_for_ordering(
        tournament_game(tournament), [e.player for e in entries], formula=formula
    )
    order = seeding_order(players, ratings, seed=f"tournament-{tournament.pk}")
    place = {player: i + 1 for i, player in enumerate(order)}
    limit = len(order) if count is None else count
    seeds: dict[int, int | None] = {
        e.pk: (place[e.player_id] if place[e.player_id] <= limit else None) for e in entries
    }
    return entries_seeds_set(tournament=tournament, seeds=seeds, by=by)
