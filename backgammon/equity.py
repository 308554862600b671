"""Match equity and cubeful equity at 0-ply, the arithmetic GNU Backgammon's analysis uses.

Pure Python, no engine: the inputs are a position's five cubeless probabilities (win, win
gammon, win backgammon, lose gammon, lose backgammon, for the side on roll) from a neural net
(``backgammon.analysis`` takes them from ``gnubg-nn``), the match score and the cube.

- **Match winning chance (MWC)** after a game: the Kazaross-XG2 table (``backgammon.met``),
  the post-Crawford table once a player is 1 away and the Crawford game is over or running.
- **EMG** (equity in money-game units, "normalised"): MWC mapped linearly so that losing
  the cube's value is −1 and winning it +1 (gnubg's manual, "Analysis": errors are shown
  as EMG, and the error rate in milli-EMG per decision).
- **Cubeful MWC at 0-ply**: Janowski's interpolation between the dead cube (cubeless) and
  a live cube, generalised to match play by Jørn Thyssen ("Cubeful equities in match play",
  gnubg's documentation): the live-cube MWC is piecewise linear in the winning chance
  between the points where the opponent cashes, where each side's take point lies (the
  *cash points*, found by working down from the highest cube that can still matter), and
  where the side on roll wins with its gammons; the two are mixed by the cube efficiency
  ``x`` (0.68 in contact and crashed positions, 0.6–0.7 in races by the pip count, 0.6 in
  bear-offs; in a bear-off of the two-sided database, one for each cube position, from
  its exact money equities: ``backgammon.gnubg_bearoff``).
- **The opponent's cube after a move**: the position after a move is valued with the
  opponent on roll and free to double where the cube allows it (no double, or double and
  the best of take and pass for the side that answers).

Decisions where the sources are silent: matches longer than the table (25 points) read the
table's last row and column; a money session is not analysed (it has no match score).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from backgammon.met import POST_CRAWFORD, PRE_CRAWFORD

__all__ = [
    "CubeInfo",
    "Efficiency",
    "Probs",
    "cash_points",
    "cube_decision",
    "cubeful_mwc",
    "cubeless_mwc",
    "efficiency_at",
    "emg",
    "match_equity",
    "mwc",
    "race_efficiency",
]

# (win, win gammon, win backgammon, lose gammon, lose backgammon) of the side on roll;
# the gammon figures include the backgammons, as gnubg's outputs do
Probs = tuple[float, float, float, float, float]
# a cube efficiency: one for every cube position, or one for each (a two-sided bear-off)
Efficiency = float | Callable[["CubeInfo"], float]

CONTACT_X = 0.68
BEAROFF_X = 0.6
_RACE_FACTOR = 0.00125
_RACE_COEFFICIENT = 0.55
_RACE_MIN = 0.6
_RACE_MAX = 0.7
_LAST = len(PRE_CRAWFORD) - 1


def race_efficiency(pips_on_roll: int) -> float:
    """The cube efficiency of a race: grows with the pip count of the side on roll."""
    return min(_RACE_MAX, max(_RACE_MIN, pips_on_roll * _RACE_FACTOR + _RACE_COEFFICIENT))


def match_equity(
    length: int, score: tuple[int, int], crawford: bool, player: int, points: int, winner: int
) -> float:
    """The MWC of ``player`` (0 or 1) after ``winner`` wins ``points`` from ``score`` in a
    match to ``length``; ``crawford`` says whether the game being played is the Crawford
    game (then the next is post-Crawford)."""
    away0 = length - score[0] - (points if winner == 0 else 0) - 1
    away1 = length - score[1] - (points if winner == 1 else 0) - 1
    if away0 < 0:
        return 1.0 if player == 0 else 0.0
    if away1 < 0:
        return 1.0 if player == 1 else 0.0
    post = crawford or length - score[0] == 1 or length - score[1] == 1
    if post:
        if away0 == 0:
            first = 1.0 - POST_CRAWFORD[min(away1, _LAST)]
        else:
            first = POST_CRAWFORD[min(away0, _LAST)]
    else:
        first = PRE_CRAWFORD[min(away0, _LAST)][min(away1, _LAST)]
    return first if player == 0 else 1.0 - first


@dataclass(frozen=True, slots=True)
class CubeInfo:
    """A game's cube and score from the view of ``mover`` (0 or 1, the side on roll).
    ``owner`` is ``None`` while the cube is centred."""

    length: int
    score: tuple[int, int]
    cube: int
    owner: int | None
    mover: int
    crawford: bool

    def me(self, player: int, points: int, winner: int) -> float:
        return match_equity(self.length, self.score, self.crawford, player, points, winner)

    def flipped(self) -> CubeInfo:
        """The same game with the other side on roll."""
        return replace(self, mover=1 - self.mover)

    def doubled(self) -> CubeInfo:
        """After the side on roll doubles and the other takes (and owns the cube)."""
        return replace(self, cube=2 * self.cube, owner=1 - self.mover)

    @property
    def post_crawford(self) -> bool:
        return not self.crawford and self.length - 1 in self.score

    def may_double(self) -> bool:
        """Whether the side on roll has a double to give (gnubg's ``GetDPEq``): not in the
        Crawford game, the cube not already past what the mover needs, not the leader
        post-Crawford, and the cube centred or the mover's."""
        mover = self.mover
        return (
            not self.crawford
            and self.score[mover] + self.cube < self.length
            and not (self.post_crawford and self.score[mover] == self.length - 1)
            and (self.owner is None or self.owner == mover)
        )

    def cube_alive(self) -> bool:
        """Whether the cube can still change anything (gnubg's ``fDoCubeful``)."""
        length, (s0, s1), cube = self.length, self.score, self.cube
        if s0 + cube >= length and s1 + cube >= length:
            return False
        if s0 == length - 2 and s1 == length - 2:
            return False
        return not self.crawford


def emg(value_mwc: float, ci: CubeInfo) -> float:
    """An MWC in money-game units of the current cube, from the mover's view."""
    win = ci.me(ci.mover, ci.cube, ci.mover)
    lose = ci.me(ci.mover, ci.cube, 1 - ci.mover)
    return (2.0 * value_mwc - (win + lose)) / (win - lose)


def mwc(value_emg: float, ci: CubeInfo) -> float:
    """The inverse of :func:`emg`."""
    win = ci.me(ci.mover, ci.cube, ci.mover)
    lose = ci.me(ci.mover, ci.cube, 1 - ci.mover)
    return 0.5 * (value_emg * (win - lose) + (win + lose))


def _ratios(probs: Probs) -> tuple[float, float, float, float]:
    """Gammon and backgammon ratios of the winner's games: (g0, bg0) when the mover wins,
    (g1, bg1) when it loses (gammons here exclude backgammons)."""
    win, wg, wbg, lg, lbg = probs
    g0 = (wg - wbg) / win if win > 0 else 0.0
    bg0 = wbg / win if win > 0 else 0.0
    g1 = (lg - lbg) / (1 - win) if win < 1 else 0.0
    bg1 = lbg / (1 - win) if win < 1 else 0.0
    return g0, bg0, g1, bg1


def cubeless_mwc(probs: Probs, ci: CubeInfo) -> float:
    """The mover's MWC with a dead cube: each result weighed by its match equity."""
    win, wg, wbg, lg, lbg = probs
    me, mover, cube = ci.me, ci.mover, ci.cube
    opp = 1 - mover
    return (
        (win - wg) * me(mover, cube, mover)
        + (wg - wbg) * me(mover, 2 * cube, mover)
        + wbg * me(mover, 3 * cube, mover)
        + (1 - win - lg) * me(mover, cube, opp)
        + (lg - lbg) * me(mover, 2 * cube, opp)
        + lbg * me(mover, 3 * cube, opp)
    )


def cash_points(probs: Probs, ci: CubeInfo) -> tuple[float, float]:
    """Each player's live-cube cash point (the winning chance at which its opponent's take
    is just right) at the current cube, indexed by player 0 and 1.

    Worked from the highest cube at which both can still redouble (the cube is dead past
    it) down to the current one: at a cube whose double kills it, the point where taking
    and passing are worth the same with a dead cube; below that, the taker's recube vig
    from the level above moves the point (Thyssen's generalisation of Janowski)."""
    g0, bg0, g1, bg1 = _ratios(probs)
    mover = ci.mover
    # gammon/backgammon ratios of each player's wins, by player index
    gammon = {mover: g0, 1 - mover: g1}
    backgammon = {mover: bg0, 1 - mover: bg1}
    away = (ci.length - ci.score[0] - 1, ci.length - ci.score[1] - 1)
    dead = ci.cube
    levels = 0
    while away[0] >= 2 * dead and away[1] >= 2 * dead:
        levels += 1
        dead *= 2
    live: dict[tuple[int, int], float] = {}
    cube, level = dead, levels
    while cube >= ci.cube:
        for k in (0, 1):
            other = 1 - k
            single = 1 - gammon[k] - backgammon[k]
            lost_single = 1 - gammon[other] - backgammon[other]
            me_k = partial(ci.me, k)
            pass_value = me_k(cube, k)  # k doubles, the other passes
            if away[0] < 2 * cube or away[1] < 2 * cube:
                # the doubled cube is dead; the other side's automatic redouble counts
                prime = _prime(away[k], away[other], cube)
                take_lose = (
                    lost_single * me_k(2 * prime, other)
                    + gammon[other] * me_k(4 * prime, other)
                    + backgammon[other] * me_k(6 * prime, other)
                )
                take_win = (
                    single * me_k(2 * prime, k)
                    + gammon[k] * me_k(4 * prime, k)
                    + backgammon[k] * me_k(6 * prime, k)
                )
                live[(k, level)] = (take_lose - pass_value) / (take_lose - take_win)
            else:
                redouble_pass = me_k(2 * cube, other)
                take_win = (
                    single * me_k(2 * cube, k)
                    + gammon[k] * me_k(4 * cube, k)
                    + backgammon[k] * me_k(6 * cube, k)
                )
                above = live[(other, level + 1)]
                live[(k, level)] = 1 - above * (pass_value - take_win) / (redouble_pass - take_win)
        cube //= 2
        level -= 1
    return live[(0, 0)], live[(1, 0)]


def _prime(away_k: int, away_other: int, cube: int) -> int:
    """The cube a doubler ``k`` really plays for once its double is taken: twice as much
    when the taker redoubles at once because the doubler is within reach of the end and
    the taker is not (an automatic redouble)."""
    if away_k < 2 * cube <= away_other:
        return 2 * cube
    return cube


def cubeful_mwc(probs: Probs, ci: CubeInfo, x: float) -> float:
    """The mover's cubeful MWC at 0-ply with the cube as it stands (no double now)."""
    dead = cubeless_mwc(probs, ci)
    if not ci.cube_alive():
        return dead
    win = probs[0]
    g0, bg0, g1, bg1 = _ratios(probs)
    mover, cube = ci.mover, ci.cube
    opp = 1 - mover
    cp = cash_points(probs, ci)
    cash = ci.me(mover, cube, mover)
    opp_cash = ci.me(mover, cube, opp)
    full_win = (
        (1 - g0 - bg0) * cash
        + g0 * ci.me(mover, 2 * cube, mover)
        + bg0 * ci.me(mover, 3 * cube, mover)
    )
    full_loss = (
        (1 - g1 - bg1) * opp_cash
        + g1 * ci.me(mover, 2 * cube, opp)
        + bg1 * ci.me(mover, 3 * cube, opp)
    )
    too_good = cp[mover]
    opp_too_good = 1 - cp[opp]
    if ci.owner is None:
        if win <= opp_too_good:
            live = (
                full_loss + (opp_cash - full_loss) * win / opp_too_good
                if opp_too_good > 0
                else full_loss
            )
        elif win < too_good:
            live = opp_cash + (cash - opp_cash) * (win - opp_too_good) / (too_good - opp_too_good)
        else:
            live = (
                cash + (full_win - cash) * (win - too_good) / (1 - too_good)
                if too_good < 1
                else full_win
            )
    elif ci.owner == mover:
        if win <= too_good:
            live = full_loss + (cash - full_loss) * win / too_good if too_good > 0 else full_loss
        else:
            live = (
                cash + (full_win - cash) * (win - too_good) / (1 - too_good)
                if too_good < 1
                else full_win
            )
    else:
        if win <= opp_too_good:
            live = (
                full_loss + (opp_cash - full_loss) * win / opp_too_good
                if opp_too_good > 0
                else full_loss
            )
        elif win != opp_too_good:
            live = opp_cash + (full_win - opp_cash) * (win - opp_too_good) / (1 - opp_too_good)
        else:
            live = full_win
    return dead * (1 - x) + live * x


@dataclass(frozen=True, slots=True)
class CubeValues:
    """A cube decision's three outcomes for the side on roll, in EMG of the current cube:
    no double, double and take, double and pass; ``best`` is the doubler's best of them
    (no double, or double and the answer worst for the doubler)."""

    no_double: float
    take: float
    drop: float

    @property
    def doubled(self) -> float:
        return min(self.take, self.drop)

    @property
    def best(self) -> float:
        return max(self.no_double, self.doubled)


def efficiency_at(x: Efficiency, ci: CubeInfo) -> float:
    """The cube efficiency at a cube position: ``x`` itself, or what it gives for ``ci``."""
    return x(ci) if callable(x) else x


def cube_decision(probs: Probs, ci: CubeInfo, x: Efficiency) -> CubeValues:
    """The values of a cube decision of the side on roll (who may double)."""
    no_double = cubeful_mwc(probs, ci, efficiency_at(x, ci))
    take = cubeful_mwc(probs, ci.doubled(), efficiency_at(x, ci.doubled()))
    drop = ci.me(ci.mover, ci.cube, ci.mover)
    return CubeValues(emg(no_double, ci), emg(take, ci), emg(drop, ci))


def opponent_cubeful_mwc(probs: Probs, ci: CubeInfo, x: Efficiency) -> float:
    """The MWC of the side on roll in ``ci`` when it may double before rolling and does
    what is best for it (no double, or double and the answer best for the other side)."""
    no_double = cubeful_mwc(probs, ci, efficiency_at(x, ci))
    if not ci.may_double():
        return no_double
    take = cubeful_mwc(probs, ci.doubled(), efficiency_at(x, ci.doubled()))
    drop = ci.me(ci.mover, ci.cube, ci.mover)
    if take >= no_double and drop >= no_double:
        return min(take, drop)
    return no_double
