"""Ratings per game and formula from finished matches, in the order they ended.

A :class:`Ledger` holds one :class:`Book` per rated game (:data:`RATED_GAMES`) and per
formula it keeps (``formulas=``; FIBS alone unless told: ``ratings.formulas``); each book
rates its matches in order of (``ended_at``, ``id``) with its formula's ``match_change``
(``ratings.formula.RatingFormula``, found in the registry by the book's ``formula`` key)
and keeps, per player, the current :class:`PlayerState` and a history of
:class:`HistoryEntry`. The games never mix: a bräde match moves only bräde ratings. The
formulas never mix either: each book has its own ratings, so a FIBS list and a Danish list
of the same game stand side by side, rated from the same matches in the same order.

**Starting ratings and experience are the same for every formula**: everyone starts at
1500 (``ratings.fibs.START_RATING``) with experience 0, or at an imported
:class:`PlayerState`, which starts the player in every formula's book of the game; and
experience, the sum of the rated lengths, grows the same way in every book. Whether a
formula lets experience change a rating is the formula's (FIBS's K does; the Danish
formula's change does not: ``ratings.danish``).

- :meth:`Ledger.apply` rates one more match (the incremental update) in every formula's
  book of its game and returns the entries it added. A match that ends before the last
  one rated in its game, or that was already rated, cannot be added incrementally without
  giving a different list than a rebuild: ``apply`` then raises
  :class:`~ratings.errors.NeedsRebuildError` and changes no book, and the caller runs
  :func:`rebuild` over all the game's matches.
- :func:`rebuild` sorts all matches by (``ended_at``, ``id``) and applies them. Both paths
  run the same arithmetic on the same stored-precision values (see ``ratings.fibs``), so
  their ratings and histories are identical, including when an incremental update
  continues from stored values (:class:`Book` takes the current states and the last
  order key, as read back from a database).
- Walkovers are not rated (S6): no games were played. :meth:`Ledger.apply` returns no
  entries for one, whenever it ended, and it never asks for a rebuild.

**The length n of a bräde match decided early (S4).** Rated as the match length as
scheduled (best of n), not the games actually played, for the rating change and for the
experience alike. Why, as a club organiser would see it:

- The result is the result of the best-of-n match: S4 stops play only when the player
  behind could no longer win it, so the full n games would have had the same winner.
- FIBS rates an n-point backgammon match by n whether it ended 7–0 or 7–6, however many
  games it took; the length is what the players agreed to play.
- Games played would reward being crushed: a fast, one-sided defeat (fewest games) would
  cost the loser less than a close one, and the dominant winner would gain less.
- Games played can also exceed n (a resigned game lengthens the match, S1), which would
  let a resignation raise the stakes.

``games_played`` is therefore recorded and checked but not rated; :func:`rated_length`
says what n a match is rated with.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from games.registry import family_for
from ratings.errors import NeedsRebuildError, RatingValueError
from ratings.fibs import START_RATING, to_rating
from ratings.formula import RatingFormula
from ratings.formulas import DEFAULT_FORMULA, formula_for

__all__ = [
    "RATED_GAMES",
    "Book",
    "FinishedMatch",
    "HistoryEntry",
    "Ledger",
    "OrderKey",
    "PlayerId",
    "PlayerState",
    "rated_length",
    "rebuild",
]

PlayerId = int
OrderKey = tuple[datetime, int]

# The games the issue rates; Kungabräde is not among them.
RATED_GAMES = ("brade", "backgammon")


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A confirmed, finished match as the ratings see it.

    ``length`` is n: games for bräde (best of n), points for backgammon. ``ended_at`` must
    carry a time zone, so that matches from anywhere order the same way. ``decided_early``
    (bräde only, S4) and ``games_played`` describe how a bräde match ended; see the module
    text for how they count."""

    id: int
    game: str
    player_a: PlayerId
    player_b: PlayerId
    winner: PlayerId
    length: int
    ended_at: datetime
    walkover: bool = False
    decided_early: bool = False
    games_played: int | None = None

    def __post_init__(self) -> None:
        if self.game not in RATED_GAMES:
            raise RatingValueError(
                f"match {self.id}: ratings are kept for {', '.join(RATED_GAMES)}, not {self.game!r}"
            )
        if self.player_a == self.player_b:
            raise RatingValueError(f"match {self.id}: a player cannot meet themselves")
        if self.winner not in (self.player_a, self.player_b):
            raise RatingValueError(f"match {self.id}: the winner is not one of its players")
        if self.length < 1:
            raise RatingValueError(f"match {self.id}: a match length is at least 1")
        if self.ended_at.utcoffset() is None:
            raise RatingValueError(f"match {self.id}: ended_at needs a time zone")
        by_games = family_for(self.game).length_unit == "games"
        if not by_games and (self.decided_early or self.games_played is not None):
            raise RatingValueError(
                f"match {self.id}: only a match of n games is decided early or counts its games"
            )
        if self.games_played is not None and self.games_played < 0:
            raise RatingValueError(f"match {self.id}: games played is at least 0")

    @property
    def loser(self) -> PlayerId:
        return self.player_b if self.winner == self.player_a else self.player_a

    @property
    def order_key(self) -> OrderKey:
        """Matches are rated in this order within their game: when they ended, then id."""
        return (self.ended_at, self.id)


def rated_length(match: FinishedMatch) -> int:
    """The n a match is rated with: its length as scheduled, also when a bräde match was
    decided early (S4) or lengthened by resigned games (S1). See the module text."""
    return match.length


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's standing in one game: rating (two decimals) and experience (the sum of
    the rated lengths of the player's rated matches, plus any imported experience)."""

    rating: Decimal = START_RATING
    experience: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rating", to_rating(self.rating))
        if self.experience < 0:
            raise RatingValueError(f"experience is at least 0, not {self.experience}")


NEW_PLAYER = PlayerState()


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One player's side of one rated match in one formula's book. ``experience`` is the
    player's experience when the match was rated (before it; FIBS's K was taken from it),
    ``length`` the n it was rated with, so the experience after it is
    ``experience + length``."""

    match_id: int
    player: PlayerId
    opponent: PlayerId
    won: bool
    before: Decimal
    after: Decimal
    change: Decimal
    experience: int
    length: int
    ended_at: datetime
    formula: str = DEFAULT_FORMULA


@dataclass(slots=True)
class Book:
    """One game's ratings by one formula (``formula``, a key of ``ratings.formulas``;
    FIBS unless told). ``states`` are the players' standings to start from (imported
    ratings, or the stored current ones when continuing incrementally); ``last`` is the
    order key of the last match already rated (``None`` if none)."""

    game: str
    states: dict[PlayerId, PlayerState] = field(default_factory=dict)
    last: OrderKey | None = None
    formula: str = DEFAULT_FORMULA
    histories: dict[PlayerId, list[HistoryEntry]] = field(default_factory=dict, init=False)
    _rated_ids: set[int] = field(default_factory=set, init=False, repr=False)
    _rule: RatingFormula = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rule = formula_for(self.formula)  # UnknownFormulaError for an unknown key

    def state(self, player: PlayerId) -> PlayerState:
        return self.states.get(player, NEW_PLAYER)

    def history(self, player: PlayerId) -> tuple[HistoryEntry, ...]:
        return tuple(self.histories.get(player, ()))

    def check(self, match: FinishedMatch) -> None:
        """``NeedsRebuildError`` if rating ``match`` now would differ from a rebuild."""
        if match.id in self._rated_ids or (self.last is not None and match.order_key == self.last):
            raise NeedsRebuildError(
                f"{self.game} match {match.id} is already rated; rebuild to change it",
                match_id=match.id,
                game=self.game,
            )
        if self.last is not None and match.order_key < self.last:
            raise NeedsRebuildError(
                f"{self.game} match {match.id} ended before the last rated one "
                f"(match {self.last[1]}); rebuild the {self.game} ratings",
                match_id=match.id,
                game=self.game,
            )

    def apply(self, match: FinishedMatch) -> tuple[HistoryEntry, ...]:
        """Rate ``match`` (see :meth:`Ledger.apply`)."""
        if match.game != self.game:
            raise RatingValueError(f"match {match.id} is {match.game}, not {self.game}")
        if match.walkover:
            return ()
        self.check(match)
        winner, loser = match.winner, match.loser
        won_state, lost_state = self.state(winner), self.state(loser)
        n = rated_length(match)
        change = self._rule.match_change(
            winner_rating=won_state.rating,
            loser_rating=lost_state.rating,
            length=n,
            winner_experience=won_state.experience,
            loser_experience=lost_state.experience,
        )
        won_entry = HistoryEntry(
            match_id=match.id,
            player=winner,
            opponent=loser,
            won=True,
            before=won_state.rating,
            after=won_state.rating + change.gain,
            change=change.gain,
            experience=won_state.experience,
            length=n,
            ended_at=match.ended_at,
            formula=self.formula,
        )
        lost_entry = HistoryEntry(
            match_id=match.id,
            player=loser,
            opponent=winner,
            won=False,
            before=lost_state.rating,
            after=lost_state.rating - change.loss,
            change=-change.loss if change.loss else change.loss,  # never "-0.00"
            experience=lost_state.experience,
            length=n,
            ended_at=match.ended_at,
            formula=self.formula,
        )
        self.states[winner] = PlayerState(won_entry.after, won_state.experience + n)
        self.states[loser] = PlayerState(lost_entry.after, lost_state.experience + n)
        self.histories.setdefault(winner, []).append(won_entry)
        self.histories.setdefault(loser, []).append(lost_entry)
        self.last = match.order_key
        self._rated_ids.add(match.id)
        # The match's players in the order they were given (a, b).
        if match.player_a == winner:
            return (won_entry, lost_entry)
        return (lost_entry, won_entry)

    def rating_list(self) -> list[tuple[PlayerId, PlayerState]]:
        """Every player with a state, highest rating first (then by id)."""
        return sorted(self.states.items(), key=lambda item: (-item[1].rating, item[0]))


class Ledger:
    """The ratings of every rated game, one book per game and formula. ``imported`` gives,
    per game, the players who do not start at 1500 with experience 0 (in every formula's
    book); ``formulas`` are the formulas kept (keys of ``ratings.formulas``, FIBS alone
    unless told), each a book per game. The methods that read one book take its
    ``formula`` (FIBS unless told)."""

    def __init__(
        self,
        *,
        imported: Mapping[str, Mapping[PlayerId, PlayerState]] | None = None,
        formulas: Sequence[str] = (DEFAULT_FORMULA,),
    ) -> None:
        imported = imported or {}
        unknown = set(imported) - set(RATED_GAMES)
        if unknown:
            raise RatingValueError(f"no rated game {sorted(unknown)[0]!r}")
        if not formulas:
            raise RatingValueError("a ledger keeps at least one formula")
        if len(set(formulas)) != len(formulas):
            raise RatingValueError("a formula is given twice")
        self.formulas: tuple[str, ...] = tuple(formulas)
        self.books: dict[tuple[str, str], Book] = {
            (game, formula): Book(game, states=dict(imported.get(game, {})), formula=formula)
            for game in RATED_GAMES
            for formula in self.formulas
        }

    def book(self, game: str, formula: str = DEFAULT_FORMULA) -> Book:
        try:
            return self.books[(game, formula)]
        except KeyError:
            if game not in RATED_GAMES:
                raise RatingValueError(f"no rated game {game!r}") from None
            raise RatingValueError(f"this ledger keeps no {formula!r} ratings") from None

    def apply(self, match: FinishedMatch) -> tuple[HistoryEntry, ...]:
        """Rate one more match in every formula's book of its game and return its history
        entries: per formula, in :attr:`formulas` order, player a's then b's; none for a
        walkover. ``NeedsRebuildError`` (no book changed) if the match ends before, or is,
        a match already rated in its game."""
        books = [self.book(match.game, formula) for formula in self.formulas]
        if not match.walkover:
            for book in books:
                book.check(match)  # all before any, so a refusal changes nothing
        return tuple(entry for book in books for entry in book.apply(match))

    def state(self, game: str, player: PlayerId, formula: str = DEFAULT_FORMULA) -> PlayerState:
        return self.book(game, formula).state(player)

    def rating(self, game: str, player: PlayerId, formula: str = DEFAULT_FORMULA) -> Decimal:
        return self.book(game, formula).state(player).rating

    def history(
        self, game: str, player: PlayerId, formula: str = DEFAULT_FORMULA
    ) -> tuple[HistoryEntry, ...]:
        return self.book(game, formula).history(player)

    def rating_list(
        self, game: str, formula: str = DEFAULT_FORMULA
    ) -> list[tuple[PlayerId, PlayerState]]:
        return self.book(game, formula).rating_list()


def rebuild(
    matches: Iterable[FinishedMatch],
    *,
    imported: Mapping[str, Mapping[PlayerId, PlayerState]] | None = None,
    formulas: Sequence[str] = (DEFAULT_FORMULA,),
) -> Ledger:
    """All ratings from scratch, in each of ``formulas``: every match, in order of
    (``ended_at``, ``id``) within its game. Two matches with the same id are refused
    (``RatingValueError``)."""
    ordered: Sequence[FinishedMatch] = sorted(matches, key=lambda m: m.order_key)
    seen: set[int] = set()
    ledger = Ledger(imported=imported, formulas=formulas)
    for match in ordered:
        if match.id in seen:
            raise RatingValueError(f"match {match.id} is given twice")
        seen.add(match.id)
        ledger.apply(match)
    return ledger
