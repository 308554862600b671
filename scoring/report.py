"""The ``match`` section of the replay report (game-record.md), from a record's tags.

Tags read (keys matched case-insensitively):

- ``Length`` — the number of completed games n (S1). Without it there is no match section.
- ``Scale`` — ``ww`` (default), ``ny1`` or ``ny2`` (S2).
- ``Resignations`` — ``capped`` (default) or ``forbidden`` (S1; game-record.md documents
  it). Unknown values are a ``match`` error.

How the replay uses it (engine/replay.py; pure, no Django): pass
``match_scorer=scoring.report.match_scorer`` to ``replay_text``/``replay``. It follows
``engine.replay.MatchScorer``: called once after the games with the outcomes of the games
replayed without error and the number of games in the record; returns the ``match`` dict
or None; raises ``MatchError`` with ``game`` set (None only for bad tags) for a match
breach. When the record holds more games than were replayed and the outcomes already
decide the match, the next game is reported as played after the match was decided (S4),
even if the replay failed inside it.

``rules`` is accepted but not used: the resignation policy defaults to ``capped`` under
every rule set (S1); a record states ``forbidden`` with the ``Resignations`` tag.

When the match settings come from elsewhere (a tournament in the database), use
``FixedMatchScorer(length=..., scale=..., policy=...)`` as the hook instead.

The most games a match can take (S1) bounds what a replay reads: pass
``max_games=max_games_from_tags`` (a record's own tags) or
``max_games=max_games(length=..., policy=...)`` (settings from elsewhere) to
``replay_text``; the game after it is a ``match`` error, found while reading.

For incremental use (e.g. to check a match as games are entered):
``state = match_start(tags)``; before each game ``state.check_open()``; at a resignation
``state.check_resignation(side)``; after each game ``state = state.after(outcome)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import MatchError
from engine.messages import msg
from engine.replay import plural
from engine.types import Outcome, Side
from scoring.match import MatchState, ResignationPolicy, check_length
from scoring.scales import Scale

LENGTH_TAG = "Length"
SCALE_TAG = "Scale"
RESIGNATIONS_TAG = "Resignations"


def _tag(tags: Mapping[str, str], key: str) -> str | None:
    for name, value in tags.items():
        if name.lower() == key.lower():
            return value
    return None


def match_start(tags: Mapping[str, str]) -> MatchState | None:
    """The match before game 1 as the tags define it, or None without a ``Length`` tag."""
    length_text = _tag(tags, LENGTH_TAG)
    if length_text is None:
        return None
    try:
        length = int(length_text.strip())
    except ValueError:
        raise MatchError(msg("match.length_tag", text=repr(length_text))) from None
    return MatchState.start(
        length=check_length(length),
        scale=Scale.parse(_tag(tags, SCALE_TAG) or Scale.WW),
        policy=ResignationPolicy.parse(_tag(tags, RESIGNATIONS_TAG) or ResignationPolicy.CAPPED),
    )


def max_games(*, length: int, policy: ResignationPolicy | str) -> int:
    """S1: the most games a match of ``length`` completed games can last: its length,
    plus — under ``capped`` — up to ``length`` resigned games by each player (a resigned
    game is not completed and lengthens the match). Under ``forbidden``: the length.

    The bound can be reached under every scale (resignations that alternate between the
    players keep the match level, so S4 never ends it early); any game after it breaks
    the cap or is played after the match was decided, and the scorer names which.
    """
    if ResignationPolicy.parse(policy) is ResignationPolicy.FORBIDDEN:
        return length
    return 3 * length


def max_games_from_tags(tags: Mapping[str, str]) -> int | None:
    """:func:`max_games` of a record's own tags (``engine.record.GameLimit``); None without
    a ``Length`` tag. Raises ``MatchError`` for a bad ``Length``/``Scale``/``Resignations``
    tag, so a record with a bad match header is refused before its games are read."""
    state = match_start(tags)
    return None if state is None else max_games(length=state.length, policy=state.policy)


def match_state_from_tags(
    tags: Mapping[str, str], outcomes: Sequence[Outcome]
) -> MatchState | None:
    """The match state after ``outcomes``, or None without a ``Length`` tag."""
    state = match_start(tags)
    if state is None:
        return None
    for outcome in outcomes:
        state = state.after(outcome)
    return state


def match_section(tags: Mapping[str, str], outcomes: Sequence[Outcome]) -> dict[str, object] | None:
    """The report's ``match`` object, or None when the record has no ``Length`` tag.

    Raises ``MatchError`` for a match-level breach (with ``game`` for per-game breaches).
    """
    state = match_state_from_tags(tags, outcomes)
    return None if state is None else state.to_report()


def _section(
    state: MatchState, outcomes: Sequence[Outcome], games_in_record: int | None
) -> dict[str, Any]:
    for outcome in outcomes:
        state = state.after(outcome)
    if games_in_record is not None and games_in_record > len(outcomes):
        state.check_open()  # S4: a further game exists although the match is decided
    return dict(state.to_report())


def match_scorer(
    *,
    tags: Mapping[str, str],
    rules: str = "",
    outcomes: Sequence[Outcome],
    games_in_record: int | None = None,
) -> dict[str, Any] | None:
    """The replay's match hook (``engine.replay.MatchScorer``) for a record's own tags.

    Raises ``MatchError`` for a breach, with ``game`` set for per-game breaches.
    """
    del rules  # S1: the policy comes from the Resignations tag, not the rule set
    state = match_start(tags)
    return None if state is None else _section(state, outcomes, games_in_record)


class FixedMatchScorer:
    """A replay match hook for a match whose settings come from elsewhere (the database),
    not from the record's tags: ``replay_text(text, match_scorer=FixedMatchScorer(...))``.
    """

    def __init__(
        self,
        *,
        length: int,
        scale: Scale | str = Scale.WW,
        policy: ResignationPolicy | str = ResignationPolicy.CAPPED,
    ) -> None:
        self.start = MatchState.start(length=length, scale=scale, policy=policy)

    def __call__(
        self,
        *,
        tags: Mapping[str, str],
        rules: str,
        outcomes: Sequence[Outcome],
        games_in_record: int,
    ) -> dict[str, Any]:
        del tags, rules
        return _section(self.start, outcomes, games_in_record)


def _signed(value: int) -> str:
    """Ny 1's balance as the sources write it: ``+2``, ``−1`` (a minus sign), ``0``."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def match_line(match: Mapping[str, Any]) -> str:
    """The text report's match line, from the ``match`` section (``manage.py replay``,
    given to ``engine.replay.report_lines``), e.g.::

        Match, best of 3, W&W: White 3 points, Black 2 points; skiljepoäng White 1,
        Black 0. White wins the match, decided after game 3.

    The tiebreak is named as each scale has it (S2): skiljepoäng under ``ww``, the
    balance of plus and minus under ``ny1``, none under ``ny2``.
    """
    scale = Scale.parse(str(match["scale"]))
    points: Mapping[str, int] = match["points"]
    tiebreak: Mapping[str, int] = match["tiebreak"]
    white, black = Side.WHITE, Side.BLACK
    text = (
        f"Match, best of {match['length']}, {scale.label()}: "
        f"{white.word} {plural(points[white.value], 'point')}, "
        f"{black.word} {plural(points[black.value], 'point')}"
    )
    if scale is Scale.WW:
        text += f"; skiljepoäng {white.word} {tiebreak['W']}, {black.word} {tiebreak['B']}"
    elif scale is Scale.NY1:
        text += (
            f"; plus and minus {white.word} {_signed(tiebreak['W'])}, "
            f"{black.word} {_signed(tiebreak['B'])}"
        )
    winner = match.get("winner")
    if winner is None:
        return text + ". Not decided yet."
    return (
        f"{text}. {Side(winner).word} wins the match, decided after game "
        f"{match['decided_after_game']}."
    )
