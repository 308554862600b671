"""Reads for ratings: which matches are rated and how the ledger sees them, which
formulas are kept, the rating list, a player's history, a match's rating change, ratings
for seeding and for ordering a team's boards.

**Which formulas are kept** (``kept_formulas``): FIBS always (``ratings.formulas``'s
default, every list's formula unless it chooses another), and every formula a club's
rating list uses (``ClubRatingList``), for every rated game. Every read of ratings takes
the ``formula`` whose list it reads, FIBS unless told: the pages that show a player's
rating without a list to name (the player page, a match's change, a tournament's
entries, the home page) show FIBS's, as before there was a choice.

**Which matches are rated** (``rated_matches``), the one definition both the incremental
update and the rebuild read:

- decided by play (``MatchState.DECIDED``): every game of it has a confirmed result (a
  player's report counts only once the opponent confirmed it, ``matches.reports``);
  walkovers and byes are not rated (S6);
- **seen by the public** (``matches.visibility.visible_matches(by=None)``): in a public
  tournament, in a published round (an unpublished Swiss round's matches wait and are
  never decided, but the ratings read the same rule as every public page). Private
  tournaments' matches are not rated: a rating is public, and a rating moved by a match
  nobody may see would tell outsiders that the match was played and who won it. A
  tournament made public later is rated from then on (``tournament_update`` rebuilds;
  ``clubs.rating_services.tournament_visibility_changed``);
- in a rated game (``ratings.ledger.RATED_GAMES``; ``clubs.games``).

**When a match ended** (the ledger's order): the time of its latest ``match_decided``
event (the audit trail), so a correction that keeps the winner keeps the match's place,
and one that changes the winner (or a reset and a replay) moves it to when it was decided
again. A match without such an event (none is written by today's services without one)
falls back to its ``updated_at``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from clubs.games import game_q, tournament_game
from clubs.models import ClubRatingList, PlayerRating, RatingBook, RatingEntry, RatingStart
from games.registry import family_for
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.visibility import visible_matches
from ratings.formulas import DEFAULT_FORMULA, formula_keys
from ratings.ledger import RATED_GAMES, FinishedMatch, PlayerId, PlayerState
from tournaments.models import Entry, Player, Tournament
from tournaments.permissions import User, players_visible_to


def _decided_at() -> Subquery:
    return Subquery(
        MatchEvent.objects.filter(match=OuterRef("pk"), kind=EventKind.MATCH_DECIDED)
        .order_by("-at", "-id")
        .values("at")[:1]
    )


def rated_matches(game: str) -> QuerySet[Match]:
    """The matches ``game``'s ratings are computed from (see the module text), annotated
    with ``ended_at`` and ``games_played``."""
    return (
        visible_matches(by=None)
        .filter(
            game_q(game),
            state=MatchState.DECIDED,
            walkover=False,
            player1__isnull=False,
            player2__isnull=False,
            winner__isnull=False,
        )
        .annotate(
            ended_at=Coalesce(_decided_at(), F("updated_at")),
            games_played=Count("games", filter=Q(games__voided_at__isnull=True)),
        )
        .order_by()
    )


_FIELDS = (
    "pk",
    "player1_id",
    "player2_id",
    "winner_id",
    "length",
    "ended_at",
    "decided_early",
    "games_played",
)


def finished_matches(game: str, *, ids: Iterable[int] | None = None) -> list[FinishedMatch]:
    """The rated matches of ``game`` (only ``ids``, if given) as the ledger takes them."""
    qs = rated_matches(game)
    if ids is not None:
        qs = qs.filter(pk__in=list(ids))
    # How a match of n games ended (S4); a match to n points is neither decided early nor
    # counted in games (``ratings.ledger.FinishedMatch``).
    by_games = family_for(game).length_unit == "games"
    return [
        FinishedMatch(
            id=pk,
            game=game,
            player_a=one,
            player_b=two,
            winner=winner,
            length=length,
            ended_at=ended_at,
            decided_early=bool(early) if by_games else False,
            games_played=played if by_games else None,
        )
        for pk, one, two, winner, length, ended_at, early, played in qs.values_list(*_FIELDS)
    ]


def kept_formulas() -> tuple[str, ...]:
    """The formulas whose ratings are kept, in the registry's order (FIBS first): FIBS
    and every registered formula a club's list uses. One query."""
    chosen = set(ClubRatingList.objects.values_list("formula", flat=True).distinct())
    return tuple(key for key in formula_keys() if key == DEFAULT_FORMULA or key in chosen)


def club_formula(club: int | None) -> str:
    """The formula of ``club``'s rating list (FIBS without a choice, or for no club)."""
    if club is None:
        return DEFAULT_FORMULA
    chosen = ClubRatingList.objects.filter(club_id=club).values_list("formula", flat=True)
    return next(iter(chosen), DEFAULT_FORMULA)


def rating_starts(
    game: str, *, players: Iterable[int] | None = None
) -> dict[PlayerId, PlayerState]:
    """Imported starting ratings of ``game`` (of ``players``, if given)."""
    qs = RatingStart.objects.filter(game=game)
    if players is not None:
        qs = qs.filter(player_id__in=list(players))
    return {
        player: PlayerState(rating, experience)
        for player, rating, experience in qs.values_list("player_id", "rating", "experience")
    }


def current_states(
    game: str, players: Sequence[int], *, formula: str = DEFAULT_FORMULA
) -> dict[PlayerId, PlayerState]:
    """The players' standings to continue from in ``formula``'s book: the stored rating,
    else their imported start (the same for every formula); players with neither are
    left out (the ledger starts them at 1500)."""
    states = rating_starts(game, players=players)
    for player, rating, experience in PlayerRating.objects.filter(
        game=game, formula=formula, player_id__in=list(players)
    ).values_list("player_id", "rating", "experience"):
        states[player] = PlayerState(rating, experience)
    return states


def ratings_for_seeding(
    game: str, players: Sequence[int], *, formula: str = DEFAULT_FORMULA
) -> dict[int, Decimal]:
    """Each player's rating in ``game`` by ``formula`` for seeding a draw: the current
    rating, else the imported start; players with neither are left out
    (``ratings.seeding`` rates them 1500)."""
    states = current_states(game, players, formula=formula)
    return {player: state.rating for player, state in states.items()}


def ratings_for_ordering(
    game: str, players: Sequence[Player], *, formula: str = DEFAULT_FORMULA
) -> dict[int, Decimal]:
    """Each player's rating for putting players in order by strength (a draw's seeds, a
    team's boards), by player id: the rating computed here in ``game`` by ``formula``
    (else the imported start: ``ratings_for_seeding``); for a player with neither, or in
    a game without ratings, the rating given with the player (``Player.rating``,
    "Angiven rating"); players with none of these are left out (``ratings.seeding``
    counts them as 1500). Decision: the site's own rating, where it has one, says more
    than a typed number, and a given rating says more than nothing. One query for the
    computed ratings (none for a game without ratings) and one for the imported starts."""
    ids = [p.pk for p in players]
    computed = ratings_for_seeding(game, ids, formula=formula) if game in RATED_GAMES else {}
    given = {p.pk: Decimal(p.rating) for p in players if p.rating is not None}
    return {**given, **computed}


# --- pages and the API --------------------------------------------------------------


def rating_list(
    *, game: str, club: int | None = None, by: User = None, formula: str = DEFAULT_FORMULA
) -> QuerySet[PlayerRating]:
    """The rating list of ``game`` by ``formula``, highest first (then by name), with the
    players' clubs; only players ``by`` may see (every rated player played in a public
    tournament, so in practice everyone), of ``club`` if given. Two queries with the
    count, whatever the size of the list."""
    qs = (
        PlayerRating.objects.filter(game=game, formula=formula, player__in=players_visible_to(by))
        .select_related("player__club")
        .order_by("-rating", "player__name", "player_id")
    )
    if club is not None:
        qs = qs.filter(player__club_id=club)
    return qs


def tournament_ratings(*, tournament: Tournament) -> dict[int, Decimal]:
    """The current computed rating, in the tournament's game, of each player entered in it
    (withdrawn ones too), by player id: one query whatever the number of players, none for
    a game without ratings. Players not rated yet are left out (the pages show nothing,
    not 1500: no rating is not a rating of 1500)."""
    game = tournament_game(tournament)
    if game not in RATED_GAMES:
        return {}
    entered = Entry.objects.filter(tournament=tournament).values("player_id")
    rows = PlayerRating.objects.filter(game=game, formula=DEFAULT_FORMULA, player_id__in=entered)
    return dict(rows.values_list("player_id", "rating"))


def ratings_version(*, tournament: Tournament) -> int:
    """A number that moves whenever the computed ratings of the tournament's game may have
    changed (the game's book version, bumped by every update: ``rating_services``), 0 for
    a game without ratings: what a cached list of ratings is keyed by (``web.live``)."""
    game = tournament_game(tournament)
    if game not in RATED_GAMES:
        return 0
    row = RatingBook.objects.filter(game=game).values_list("version", flat=True).first()
    return int(row or 0)


def player_ratings(*, player: Player, formula: str = DEFAULT_FORMULA) -> list[PlayerRating]:
    """The player's current rating by ``formula`` in each game they have one in."""
    return list(PlayerRating.objects.filter(player=player, formula=formula).order_by("game"))


def player_history(
    *, player: Player, game: str, formula: str = DEFAULT_FORMULA
) -> QuerySet[RatingEntry]:
    """The player's rated matches in ``game`` by ``formula``, oldest first, with the
    opponent and the match's tournament and round (rated matches are in public
    tournaments only)."""
    return (
        RatingEntry.objects.filter(player=player, game=game, formula=formula)
        .select_related("opponent", "match__tournament", "match__round")
        .order_by("ended_at", "match_id")
    )


@dataclass(frozen=True)
class MatchRatingChange:
    """What a rated match did to both players' ratings (player 1's entry first)."""

    game: str
    first: RatingEntry
    second: RatingEntry


def match_rating_change(
    *, match: Match, formula: str = DEFAULT_FORMULA
) -> MatchRatingChange | None:
    """The rating change of ``match`` by ``formula``, or None if it is not (yet) rated.
    One query."""
    rows = RatingEntry.objects.filter(match_id=match.pk, formula=formula)
    entries = {e.player_id: e for e in rows}
    first = entries.get(match.player1_id or 0)
    second = entries.get(match.player2_id or 0)
    if first is None or second is None:
        return None
    return MatchRatingChange(game=first.game, first=first, second=second)


def rating_changes(*, player: Player, matches: Iterable[int]) -> dict[int, Decimal]:
    """``player``'s FIBS rating change in each of ``matches`` that is rated (match id →
    change); matches not (yet) rated are left out. One query."""
    rows = RatingEntry.objects.filter(
        player=player, formula=DEFAULT_FORMULA, match_id__in=list(matches)
    )
    return dict(rows.values_list("match_id", "change"))
