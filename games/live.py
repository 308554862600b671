"""Recording a game live, turn by turn (the digital scoresheet): one protocol every game
that records live implements, and its registry.

A game being recorded is a :class:`LiveGame` built from a :class:`LiveSetup` (the rule
set, the match score, who starts) and fed :class:`LiveAction`\\ s in order — the same
actions a phone or tablet beside the board posts, each with its sequence number. Every
action is checked by the game's own engine as it is made (bräde: ``engine.game.Game``,
``engine.movegen.legal_plays``; backgammon: ``backgammon.movegen``, ``backgammon.cube``)
and refused with the engine's precise message (:class:`LiveRefused`). The server keeps
only the actions; the position is their replay, so a reload or a second device resumes
where the game stands.

What a game tells its recorders: the ``phase`` (what the next action is: ``start`` the
tek or the opening roll, ``roll`` the dice, ``move`` the checkers for dice already rolled,
``cube`` an answer to a double, ``over``), who is ``to_move``, the ``legal`` plays of
every roll that may come next (so a page offers only legal steps and plays a forced move
with one tap), the board picture (``games.board``), the cube and, at the end, the
outcome as a neutral ``ResultValue`` and the game's part of an ordinary record (bräde's
text form, backgammon's ``.mat``).

Dice are entered (the players throw real dice and tap them in) or rolled by the site
(``roll``; the caller passes the random source, so the module stays pure and tests
repeat). Offline (decided): a page keeps ``legal`` for the next turn only; offline the
first turn is checked against it, later turns are recorded unchecked (their steps only
constrained by the dice), queued with their sequence numbers and sent in order when the
network is back; the server checks each, the first refused one stops the queue and the
page lets the players correct it. Rolled dice need the network.

An illegal play the opponent accepts (backgammon, seed 002 "Ugyldige slag og ulovlige
ryk": the opponent may let an illegal move stand or have it corrected): a game whose
recorder ``accepts_illegal`` refuses an illegal play that can be carried out on the board
with ``acceptable`` set, and takes it again, posted with ``accept_illegal``, as played
(``LiveDone.illegal``); its record writes it as played, so the record's replay reports it
as the warning an uploaded record gets. Bräde's rules have no such acceptance: its
recorder refuses every illegal play, whatever the flag.

Kungabräde has no engine and no record: :func:`live_game_for` raises
:class:`LiveUnsupported` for it, with the reason.

What every game shares is here (:class:`LiveGameBase`, :func:`opening_pair`,
:func:`picture_json`, :class:`Recorder`): the order an action is checked in (a game over
refuses everything, a game not started takes only ``start``, a started one no second
``start``), the replay of stored turns, the two dice that open a game (the tek, the
opening roll: entered and checked, or thrown by the site with ties thrown again), the
site's roll and the dice a play is made with, and the board as JSON. Each game keeps its
own rules and its own words for what it refuses.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from core.registry import Registry
from engine.messages import Msg
from games.board import BoardPicture
from games.results import ResultValue

__all__ = [
    "ACTIONS",
    "LiveAction",
    "LiveDone",
    "LiveGame",
    "LiveGameBase",
    "LiveRecorder",
    "LiveRefused",
    "LiveSetup",
    "LiveUnsupported",
    "RecordHeader",
    "Recorder",
    "Roller",
    "dice_key",
    "live_game_for",
    "live_recorders",
    "opening_pair",
    "picture_json",
]

Phase = Literal["start", "roll", "move", "cube", "over"]
ACTIONS: tuple[str, ...] = ("start", "play", "double", "take", "drop", "resign", "roll")

# A die from the site's random source: 1–6.
Roller = Callable[[], int]


class LiveRefused(ValueError):
    """An action the game refuses. ``msg`` is the engine's own coded message when the
    engine refused it (an illegal step, a roll R13 forbids, a double in the Crawford
    game); otherwise ``code`` and ``params`` name the live protocol's refusal and
    ``text`` is its English sentence (the edge translates by ``code``). ``acceptable``: an
    illegal play that can be carried out on the board, which the opponent may accept as
    played (posted again with ``LiveAction.accept_illegal``)."""

    def __init__(
        self,
        code: str,
        text: str,
        *,
        msg: Msg | None = None,
        acceptable: bool = False,
        **params: str | int,
    ) -> None:
        self.acceptable = acceptable
        self.params: dict[str, str | int] = dict(params)
        self.text = msg.text() if msg is not None else (text % self.params if params else text)
        super().__init__(self.text)
        self.code = code
        self.msg = msg


class LiveUnsupported(ValueError):
    """The game has no live recording (no engine to check the moves)."""


@dataclass(frozen=True, slots=True)
class LiveSetup:
    """What a game needs to know before its first action.

    ``rules``/``addons``: bräde's rule set; ``scale``: bräde's scale (a game's points);
    ``number``: the game's number in the match; ``starter``: who starts when it is known
    already (bräde after game 1: the loser of the previous game, R2/S5), else None (the
    tek or the opening roll decides); ``length`` and ``score``: the match so far;
    ``crawford``: this is backgammon's Crawford game (no doubling); ``names``: the two
    players (player 0 first: White in bräde); ``resignations``: bräde's resignation
    policy (S1: ``capped`` or ``forbidden``)."""

    number: int = 1
    starter: int | None = None
    rules: str = "talisman"
    addons: tuple[str, ...] = ()
    scale: str = "ww"
    length: int = 1
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    names: tuple[str, str] = ("Player 1", "Player 2")
    resignations: str = "capped"


@dataclass(frozen=True, slots=True)
class RecordHeader:
    """What the site knows of a match recorded live, for its record's header: the event
    (the tournament's name) and round, the players (player 0 first), the match's length,
    the tournament's settings (bräde's rule set, add-ons, scale and resignation policy)
    and who transcribed it (the site). Each game writes the tags its records hold
    (``LiveRecorder.record_tags``)."""

    event: str
    round: str = ""
    names: tuple[str, str] = ("", "")
    length: int = 1
    rules: str = ""
    addons: tuple[str, ...] = ()
    scale: str = ""
    resignations: str = ""
    transcriber: str = ""


@dataclass(frozen=True, slots=True)
class LiveAction:
    """One action as posted. ``dice``: the tek/opening dice (``start``, player 0's die
    first) or the roll (``play``; one die where bräde's R13 allows it; omitted when the
    site rolled); ``steps``: ``(from, to)`` pairs in the mover's numbering; ``starter``:
    who starts when the players decide (bräde's game 1 instead of the tek);
    ``resign_value``: what a backgammon resignation concedes (1, 2 or 3 times the cube);
    ``single``: ask the site to roll one die (bräde's R13, ``roll`` only);
    ``accept_illegal``: the opponent accepts the play as played if it is illegal (a game
    whose recorder ``accepts_illegal``; ``play`` only)."""

    action: str
    dice: tuple[int, ...] | None = None
    steps: tuple[tuple[int, int], ...] = ()
    starter: int | None = None
    resign_value: int | None = None
    single: bool = False
    accept_illegal: bool = False


@dataclass(frozen=True, slots=True)
class LiveDone:
    """An accepted action as stored: who acted, the dice as they count (the site's roll,
    higher die first), the steps as the engine applied them and the record's words for
    it (``W 6-4: 1/7 1/5``, ``31: 8/5 6/5``, ``Doubles => 2``); ``illegal``: an illegal
    play the opponent accepted, its steps as played."""

    side: int | None
    action: str
    dice: tuple[int, ...] | None
    steps: tuple[tuple[int, int], ...]
    text: str
    starter: int | None = None
    resign_value: int | None = None
    illegal: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "action": self.action,
            "dice": None if self.dice is None else list(self.dice),
            "steps": [list(s) for s in self.steps],
            "text": self.text,
            "illegal": self.illegal,
        }


@dataclass(frozen=True, slots=True)
class LiveOutcome:
    """How the game ended: ``result`` as entered, ``words`` as the record writes it,
    ``points`` it is worth in the match."""

    result: ResultValue
    words: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.result.winner, "words": self.words, "points": self.points}


@dataclass(slots=True)
class LiveView:
    """What a page shows of the game now (JSON-ready parts of the live state)."""

    phase: Phase
    to_move: int | None
    dice: tuple[int, ...] | None
    legal: dict[str, list[list[list[int]]]] | None
    board: dict[str, Any]
    cube: dict[str, Any] | None
    outcome: LiveOutcome | None
    extra: dict[str, Any] = field(default_factory=dict)


class LiveGame(Protocol):
    """One game being recorded (module doc)."""

    @property
    def phase(self) -> Phase: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def outcome(self) -> LiveOutcome | None: ...

    @property
    def starter(self) -> int | None: ...

    def apply(self, action: LiveAction, roll: Roller | None = None) -> LiveDone:
        """Check and carry out ``action`` (``roll`` gives the site's dice when it rolls);
        :class:`LiveRefused` leaves the game as it was."""
        ...

    def redo(self, done: LiveDone) -> None:
        """Carry out an action accepted before (replaying the stored turns); the dice it
        stored are used, nothing is rolled."""
        ...

    def view(self) -> LiveView: ...

    def legal(self) -> dict[str, list[list[list[int]]]] | None:
        """Every roll's legal plays for the side to move (phase ``roll``), or the rolled
        dice's (phase ``move``): ``{"6-4": [[[1, 7], [1, 5]], ...]}``; None otherwise."""
        ...

    def record_game(self) -> Any:
        """This game as its record form's game (bräde: ``engine.record.GameRecord``;
        backgammon: ``backgammon.mat.MatGame``)."""
        ...

    def clock_note(self, remaining: Sequence[int] | None) -> None:
        """Both players' remaining time (ms, player 0's first) after the action just
        applied or redone (``scoresheets.clock``; None: no clock), kept for the record as
        PGN's ``[%clk]`` keeps a move's."""
        ...


class LiveRecorder(Protocol):
    """A family's live recording: its games, and a whole record made of its games."""

    @property
    def key(self) -> str: ...

    @property
    def accepts_illegal(self) -> bool:
        """Whether the opponent may accept an illegal play as played (backgammon's rules
        allow it; bräde's do not)."""
        ...

    def new_game(self, setup: LiveSetup) -> LiveGame: ...

    def record_tags(self, header: RecordHeader) -> dict[str, str]:
        """The record's tags (its headers), in the order the record writes them, from
        what the site knows of the match."""
        ...

    def record_text(self, setup: LiveSetup, games: list[Any], tags: Mapping[str, str]) -> str:
        """The record of a match whose games (from game 1) were recorded live: bräde's
        text form, backgammon's ``.mat``; ``tags`` are the record's headers."""
        ...

    def checked_report(self, games: Sequence[LiveGame], tags: Mapping[str, str]) -> dict[str, Any]:
        """The report of that record (``tags`` its headers, as ``record_text`` writes
        them) — the one its family's replay gives (its games' outcomes, the match's score,
        the illegal plays accepted as the warnings on their lines) — made from the
        finished games themselves, every turn of which was checked as it was played: the
        record is verified once, by its turns, not replayed again
        (``matches.records.game_record_checked``)."""
        ...


# The games that record live (Kungabräde has no engine to check its moves).
BUILTIN_RECORDERS = ("games.live_brade", "games.live_backgammon")


def _no_recorder(key: str, known: tuple[str, ...]) -> LookupError:
    return LookupError(f"no live recording of {key!r}; known: {', '.join(known)}")


RECORDERS: Registry[LiveRecorder] = Registry(
    what="a live recording", builtin=BUILTIN_RECORDERS, unknown=_no_recorder
)
register_recorder = RECORDERS.register


def live_recorders() -> dict[str, LiveRecorder]:
    """Every game that records live, by key (the built-ins imported on first use)."""
    return {recorder.key: recorder for recorder in RECORDERS.all()}


def live_game_for(key: str) -> LiveRecorder:
    """The live recording of the game ``key``; :class:`LiveUnsupported` for a game without
    one (Kungabräde keeps results only: there is no engine to check its moves)."""
    recorder = RECORDERS.find(key)
    if recorder is None:
        raise LiveUnsupported(
            f"{key} cannot be recorded move by move: the site has no engine that checks its "
            "moves. Enter the results instead."
        )
    return recorder


def dice_key(dice: tuple[int, ...]) -> str:
    """A roll as ``legal`` keys it: ``6-4`` (higher die first), ``3`` for one die."""
    if len(dice) == 1:
        return str(dice[0])
    high, low = max(dice), min(dice)
    return f"{high}-{low}"


TWO_DICE: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(6, 0, -1) for low in range(high, 0, -1)
)


# --- what every game shares ----------------------------------------------------------------

# A refusal's code and English sentence (``LiveRefused``).
Refusal = tuple[str, str]


def picture_json(picture: BoardPicture, to_move: int | None) -> dict[str, Any]:
    """A :class:`BoardPicture` as JSON (``games.board``: points in the viewer's
    numbering, bar and off per player)."""
    cube = picture.cube
    return {
        "layout": picture.layout,
        "view": picture.view,
        "points": [{"side": s.side, "point": s.point, "count": s.count} for s in picture.stacks],
        "bar": list(picture.bar),
        "off": list(picture.off),
        "dice": list(picture.dice),
        "mover": picture.mover,
        "sources": list(picture.sources),
        "targets": list(picture.targets),
        "to_move": to_move,
        "cube": None
        if cube is None
        else {"value": cube.value, "owner": cube.owner, "offered_by": cube.offered_by},
    }


def opening_pair(
    dice: tuple[int, ...] | None, roll: Roller | None, *, invalid: Refusal, equal: Refusal
) -> tuple[int, int] | None:
    """The two dice that open a game (bräde's tek, backgammon's opening roll), player 0's
    first: entered (two dice of 1–6, not equal: ``invalid``/``equal`` refuse them), else
    thrown by the site (equal dice thrown again, not recorded); None when neither."""
    if dice is not None:
        if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
            raise LiveRefused(*invalid)
        if dice[0] == dice[1]:
            raise LiveRefused(*equal)
        return dice[0], dice[1]
    if roll is not None:
        first, second = roll(), roll()
        while first == second:
            first, second = roll(), roll()
        return first, second
    return None


class LiveGameBase(ABC):
    """What every game being recorded (``LiveGame``) does alike: the order an action is
    checked in, the replay of stored turns, the site's roll and a play's dice. A game
    says its phase, how it starts and what its other actions do (``_act``).

    ``_dice``: the dice the site rolled, not yet played (None: the next play brings its
    own, entered by the players)."""

    START_FIRST: Refusal  # an action before the game's opening

    def __init__(self, setup: LiveSetup) -> None:
        self.setup = setup
        self._dice: tuple[int, ...] | None = None

    @property
    @abstractmethod
    def phase(self) -> Phase: ...

    def clock_note(self, remaining: Sequence[int] | None) -> None:
        """A game whose record has no place for the remaining times keeps nothing."""
        return None

    @abstractmethod
    def _over(self) -> LiveRefused:
        """The refusal of any action once the game is over."""

    @abstractmethod
    def _start(self, action: LiveAction, roll: Roller | None) -> LiveDone: ...

    @abstractmethod
    def _act(self, kind: str, action: LiveAction, roll: Roller | None) -> LiveDone:
        """Any action but ``start`` of a started game that is not over."""

    def apply(self, action: LiveAction, roll: Roller | None = None) -> LiveDone:
        phase = self.phase
        kind = action.action
        if phase == "over":
            raise self._over()
        if phase == "start":
            if kind != "start":
                raise LiveRefused(*self.START_FIRST)
            return self._start(action, roll)
        if kind == "start":
            raise LiveRefused("live.started", "The game has started already.")
        return self._act(kind, action, roll)

    def redo(self, done: LiveDone) -> None:
        if done.action == "roll":
            assert done.dice is not None
            self._dice = done.dice
            return
        if self._redo(done):
            return
        self.apply(
            LiveAction(
                done.action,
                dice=done.dice,
                steps=done.steps,
                starter=done.starter,
                resign_value=done.resign_value,
                accept_illegal=done.illegal,
            )
        )

    def _redo(self, done: LiveDone) -> bool:
        """Replay ``done`` without checking it again, where a game can (True); False
        lets :meth:`apply` replay it."""
        return False

    def _roll_check(self, roll: Roller | None) -> None:
        """The site may roll now: the dice are not rolled already, the game's are."""
        if self._dice is not None:
            raise LiveRefused("live.rolled", "The dice are rolled already; play them.")
        if roll is None:
            raise LiveRefused(
                "live.entered_mode", "This game's dice are entered by the players, not rolled."
            )

    def _play_dice(self, action: LiveAction, rolled: str) -> tuple[int, ...]:
        """The dice a play is made with: the site's roll (``rolled``, as the game writes
        it), which the play may repeat but not change, else the dice entered."""
        dice = action.dice
        if self._dice is not None:
            if dice is not None and sorted(dice) != sorted(self._dice):
                raise LiveRefused(
                    "live.other_dice",
                    "The site rolled %(rolled)s; play those dice.",
                    rolled=rolled,
                )
            dice = self._dice
        if dice is None:
            raise LiveRefused("live.dice_needed", "Enter the dice of the turn.")
        return dice


G = TypeVar("G", bound=LiveGameBase)


class Recorder(Generic[G]):
    """A family's live recording (``LiveRecorder``): its key, its games, and the record
    of a match's games (``write``: the family's record text; ``tags``: its headers;
    ``report``: its checked report); ``accepts_illegal``: its rules let the opponent
    accept an illegal play as played."""

    def __init__(
        self,
        key: str,
        game: Callable[[LiveSetup], G],
        write: Callable[[LiveSetup, list[Any], Mapping[str, str]], str],
        tags: Callable[[RecordHeader], dict[str, str]],
        report: Callable[[Sequence[G], Mapping[str, str]], dict[str, Any]],
        *,
        accepts_illegal: bool = False,
    ) -> None:
        self.key = key
        self.accepts_illegal = accepts_illegal
        self._game = game
        self._write = write
        self._tags = tags
        self._report = report

    def new_game(self, setup: LiveSetup) -> G:
        return self._game(setup)

    def record_tags(self, header: RecordHeader) -> dict[str, str]:
        return self._tags(header)

    def record_text(self, setup: LiveSetup, games: list[Any], tags: Mapping[str, str]) -> str:
        return self._write(setup, games, tags)

    def checked_report(self, games: Sequence[Any], tags: Mapping[str, str]) -> dict[str, Any]:
        return self._report(games, tags)
