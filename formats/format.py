"""The format protocol: what every tournament format gives the rest of the site.

A format is made of *stages*, the kinds of play the site knows how to run:

- :attr:`Stage.KNOCKOUT`: one bracket, the winner of a match moves on by its position
  (``Match.slot``); byes to the top seeds.
- :attr:`Stage.ELIMINATION`: brackets linked at the draw (each match stores where its
  winner and its loser go): a consolation bracket, a losers' bracket and a grand final.
  The format gives the shape (:meth:`Format.bracket`, from ``stages.elimination``).
- :attr:`Stage.GROUPS`: a round robin in one or more groups, every round drawn at once.
- :attr:`Stage.PAIRED`: rounds paired one at a time from the standings of the rounds
  played; the format gives the pairing (:meth:`Format.pair`: the Swiss's
  ``stages.swiss.pair_round``, Monrad's ``formats.monrad.monrad_pair``).
- :attr:`Stage.TEAMS`: teams meet in team matches of several boards, each board an
  ordinary match (``stages.team_match``), ranked in a league table (``stages.league``):
  a league's round robin drawn at once, or a team Swiss paired round by round
  (:meth:`Format.pair`, the Swiss's own pairing of the teams). The ``teams`` app runs it.

A format's first stage is :attr:`Format.stage`; a format that :attr:`Format.feeds_knockout`
is followed, when the organiser lets the top ``group_advance`` go on, by a knockout drawn
from its standings (groups → knockout, Swiss → knockout): a composition of two stages,
not a format of its own.

What a format gives:

- ``key`` (the code a tournament stores), ``name`` (English; the pages translate it) and
  ``description`` (the choice's words on the creation form, English, translated there);
- ``stage`` and ``feeds_knockout`` (above);
- ``options``: the keys of the tournament options the format reads (``formats.options``,
  each declared once there); the others are kept at their defaults when a tournament is
  created or changed;
- ``losers_bracket``: an elimination whose second bracket is a losers' bracket (so its
  main bracket is the winners' bracket and its last round the winners' final);
- ``words``: what its pages say of it (:class:`Words`: the draw's heading and button,
  what the draw did, its rounds' heading, the knockout after its standings), English
  msgids the pages translate with gettext;
- ``bracket(players, options)``: an elimination stage's shape;
- ``pair(players, seed=, names=, standing=, rounds_after=)``: a paired stage's next
  round (``pairs_by_standings``: it pairs in the standings' order, so the caller gives
  each player's place in the standings its players see, whose ties after the chain go by
  pairing number before the lots); ``rounds_after``, the rounds still to be paired after
  it, which the Swiss and the Monrad keep pairable without a rematch or a second bye.

Like the games' seam (``games.family``), the site asks the registry
(:func:`formats.registry.format_for`) and branches on what a format gives (its stage, its
options), never on its key. Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from formats.options import Options
from stages.elimination import Bracket
from stages.swiss import SwissPlayer, SwissRound

__all__ = [
    "Format",
    "FormatSpec",
    "Stage",
    "Words",
    "words_of",
]


class Stage(StrEnum):
    """How the players of a stage meet (module docstring)."""

    KNOCKOUT = "knockout"
    ELIMINATION = "elimination"
    GROUPS = "groups"
    PAIRED = "paired"
    TEAMS = "teams"


@dataclass(frozen=True, slots=True)
class Words:
    """What the pages say of a format (English; translated at the edge with gettext).
    ``started`` takes ``%(seed)d``, the draw seed."""

    start: str  # the draw's heading and button
    started: str  # what starting (drawing) the tournament did
    rounds: str = ""  # the heading of its rounds on the manage page (paired rounds)
    knockout_after: str = ""  # the heading of the knockout after its standings


# The words of each stage, for a format that gives none of its own.
STAGE_WORDS = {
    Stage.KNOCKOUT: Words(
        start="Draw the bracket", started="The bracket is drawn (draw seed %(seed)d)."
    ),
    Stage.ELIMINATION: Words(
        start="Draw the bracket", started="The bracket is drawn (draw seed %(seed)d)."
    ),
    Stage.GROUPS: Words(
        start="Draw the round robin",
        started="The groups are drawn (draw seed %(seed)d).",
        knockout_after="Knockout after the groups",
    ),
    Stage.PAIRED: Words(
        start="Start the rounds",
        started="The rounds are set up (draw seed %(seed)d): check the players in, then pair "
        "round 1.",
        rounds="Rounds to pair",
        knockout_after="Knockout after the standings",
    ),
    Stage.TEAMS: Words(
        start="Draw the team matches",
        started="The team matches are drawn (draw seed %(seed)d).",
        rounds="Team match rounds",
    ),
}


def words_of(fmt: Format) -> Words:
    """The format's words, or its stage's when it gives none."""
    return fmt.words or STAGE_WORDS[fmt.stage]


class Format(Protocol):
    """One tournament format behind the seam (see the module docstring)."""

    @property
    def key(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def feeds_knockout(self) -> bool:
        """Whether the top ``group_advance`` of its standings may go on to a knockout."""
        ...

    @property
    def options(self) -> frozenset[str]:
        """The keys of the options the format reads (``formats.options``)."""
        ...

    @property
    def losers_bracket(self) -> bool: ...

    @property
    def pairs_by_standings(self) -> bool:
        """Whether :meth:`pair` pairs in the standings' order (``standing``), so the
        caller reads the standings before pairing, and the standings rank players level on
        the whole chain by pairing number before the lots."""
        ...

    @property
    def words(self) -> Words | None:
        """What its pages say of it (None: its stage's words, :func:`words_of`)."""
        ...

    def bracket(self, players: int, options: Options) -> Bracket:
        """An elimination stage's bracket for ``players`` (ValueError for other stages)."""
        ...

    def pair(
        self,
        players: Sequence[SwissPlayer],
        *,
        seed: int,
        names: Mapping[int, str] | None = None,
        standing: Mapping[int, int] | None = None,
        rounds_after: int = 0,
    ) -> SwissRound:
        """A paired stage's next round of the ``players`` present. ``standing``: each
        player's place in the standings its players see, for the formats that pair by it.
        ``rounds_after``: the rounds still to be paired after this one, which a format
        that looks ahead keeps pairable without a rematch or a second bye when it can
        (the Swiss, ``stages.swiss``, Completion; the Monrad, ``formats.monrad``,
        Completion)."""
        ...


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """A format from plain values: a module fills in what it has and registers it. The
    bracket and the pairing are errors unless the format's stage has them."""

    key: str
    name: str
    description: str
    stage: Stage
    options: frozenset[str] = frozenset()
    feeds_knockout: bool = False
    losers_bracket: bool = False
    pairs_by_standings: bool = False
    words: Words | None = None

    def bracket(self, players: int, options: Options) -> Bracket:
        raise ValueError(f"the format {self.key!r} has no elimination bracket")

    def pair(
        self,
        players: Sequence[SwissPlayer],
        *,
        seed: int,
        names: Mapping[int, str] | None = None,
        standing: Mapping[int, int] | None = None,
        rounds_after: int = 0,
    ) -> SwissRound:
        raise ValueError(f"the format {self.key!r} is not paired round by round")
