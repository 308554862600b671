"""The scoresheet is the clock: the recording phone runs each player's bank, confirming a
turn stops the mover's clock and starts the opponent's, and a flag fall enters itself as
the match's result.

The time control is the tournament's (``tournaments.time_control``: a bank per player
per match, given per match point, and a simple delay per move). A match's clock is kept
on its live games (``LiveGame.clock``, milliseconds)::

    {"bank", "delay", "remaining": [player 0's, player 1's] when the running clock
     started, "running": 0 | 1 | None, "since": the server's time (ms since the epoch)
     the turn that started it arrived, "seq": that turn's seq, "flag": 0 | 1 | None,
     "anchor": the arrival of the last turn that pressed the clock online (None: none
     yet in this game), "spent": the device time charged since it (queued turns)}

and every stored turn keeps both players' remaining time after it (``LiveTurn.clock``)
and the time the mover's clock ran for it (``LiveTurn.used_ms``), as PGN's ``[%clk]``
keeps a chess move's; its ``created_at`` is when it arrived. The live state sends the
clock and each turn's remaining times, so followers see them.

How the clock runs, as a physical simple-delay clock pressed at the table (the U.S.
Backgammon Clock Rules and Procedures, 2013; the Unified and BIBA clock rules):

- Whose clock runs: the player who acts next while a game is played — the player on
  roll (rolling and moving), and, after a double, **the doubled player** (the U.S. rules:
  "after doubling, a player hits his clock"): the double stops the doubler's clock and
  the take or drop is decided on the other player's clock, which the answer stops again
  (a take starts the doubler's clock for the roll). Each start of a clock gives a fresh
  delay, as the physical clock does. A turn that leaves the same player to act (the
  site's roll in rolled mode) presses nothing.
- Clocks stopped: before a game's opening roll (or tek) and after its end; the time
  between games is nobody's (the U.S. rules stop both clocks to start a new game). The
  opening roll starts the starter's clock. The bank carries over from game to game.
- Charged time: the time the clock ran minus the delay, never below 0 (simple delay;
  Bronstein is not offered: ``tournaments.time_control``).

Time sources (decided): the **recording device's monotonic time** counts. The page
measures each running clock with ``performance.now()`` (not moved by a change of the
phone's clock) and sends with every turn how long the mover's clock ran (``used``); the
server charges that, and keeps the turn's arrival time besides. A turn without ``used``
(an API client that keeps no clock) is charged by **the server's arrival times**: the
time since the turn that started the clock arrived. Offline, the page runs the clock on
its own, queues the turns with their measured times and sends them when the network is
back; the server's answer (the remaining times it computed) then **corrects** the
page's, which follows the server's from there. A reload keeps the time: the page keeps
the running clock's start in localStorage (wall time, the only clock that survives a
reload) and, without it, takes the server's record of when the last turn arrived.

The device's time is checked (decided, ``clock_used``), as a tournament director would
check a clock nobody could see being pressed. The risk is a phone that **under-reports**
its own player's time to save clock — or over-reports the opponent's to make them flag
(the recording phone may be either player's). What the server knows for sure is when each
turn arrived. A turn sent the moment it was confirmed arrives within the network's transit
of its tap; so for a turn that arrives **online, in sequence**, the mover's clock ran for
the time between the arrival of the turn that started it and this one's (``since`` to
now), give or take the transit of the two posts: the device's figure is believed within
``TOLERANCE_MS`` of that gap, and clamped to it beyond (charged at least the gap less the
tolerance; at most the gap plus it, or after queued turns the bound below). Within the
tolerance the device is the better
measure (the time the players saw on the phone, without the network's jitter); beyond it,
what the server saw is the evidence. Clamped, not refused: a refused turn would stop the
game at the table, and the page takes the server's remaining times from the answer, so
the phone shows the corrected clock at once; the turn keeps the device's own figure
(``LiveTurn.reported_ms``) for a referee to see.

A turn **queued offline** (the page says so: ``queued``, a turn that waited on the device
— confirmed offline, behind an unsent turn, or sent again after a failed post) arrives late
by an unknown amount, and queued turns then arrive together: the gap since the last
arrival says nothing of how long the player thought, so a queued turn is charged the
device's time, not less. It is still bounded above: since the last turn that arrived
online (``anchor``: its arrival, when the device's clock and the server's agreed), the
clocks cannot have run longer, all the queued turns together (``spent``), than the time
the server has seen pass, plus the tolerance. So a phone that claims to be offline may
shift time between its queued turns but cannot create time, nor flag the opponent early.
The flag is the device's word: a phone that calls every turn queued escapes the lower
bound (part of its player's thinking goes uncharged), which the server cannot tell from a
table without network; so what it claims is kept on every
turn (``LiveTurn.queued``), for a referee to see a phone that was "offline" all match on
a network that answered each turn at once. Before a game's first online turn (the opening
roll queued), nothing bounds a queued turn above but ``MAX_USED_MS``.

A turn without a device time (an API client that keeps no clock) is charged the gap as
before. A flag fall (below) is checked the same way: a device may not declare a flag
fallen sooner than the server's time allows.

Flag fall (decided, ``flag_check``): when the running clock reaches 0 the page posts a
``flag`` turn; the server accepts it when the device says the bank is spent (or, without
a device time, when the server's time since the clock started says so), stores it, stops
the game and enters the result the rules give: **the match is lost** — in backgammon
(the U.S. Clock Rules, "Time expiration": the player whose time expires loses the match;
BIBA's clock rules the same, with an exception at match point when the opponent cannot
win, which is left to the referee's overrule) and in bräde's and Kungabräde's best of n
alike (their rules have no clock; the backgammon clock rules are the ones a bräde club
borrows, so the same: the opponent wins the match). It is entered at once through
``matches.walkovers.match_flag_fall`` (a walkover with reason ``flag_fall``, the games
played kept), also where the players report their results: the clock both players watch
is the evidence. A referee may overrule it with a note (``live_flag_overrule``): the
walkover is taken back and the game goes on, the flagged player's clock given the time
the referee says. A turn that arrives after its mover's bank is spent is refused
(``flag_fell``): the page posts the flag instead.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from tournaments.time_control import TimeControl

__all__ = [
    "FLAG",
    "MAX_USED_MS",
    "TOLERANCE_MS",
    "clock_carried",
    "clock_flagged",
    "clock_new",
    "clock_now",
    "clock_press",
    "clock_resume",
    "clock_used",
    "flag_check",
    "runner_of",
]

# The turn action a flag fall is stored as (not the game's: the engine never sees it).
FLAG = "flag"
RUNNING_PHASES = ("roll", "move", "cube")
# A device's measure of one clock's run is believed up to a day.
MAX_USED_MS = 24 * 60 * 60 * 1000
# How far a device's time may stray from what the server saw (module doc): the transit of
# two posts from a phone at the table — well under a second on a club's Wi-Fi or 4G, a
# few seconds on a poor line. A post slower than that charges its mover the excess, as
# a clock pressed late would; a post that failed is sent again as queued.
TOLERANCE_MS = 3_000


def clock_now() -> int:
    """The server's time in ms since the epoch (a turn's arrival)."""
    return int(timezone.now().timestamp() * 1000)


def clock_new(control: TimeControl | None, length: int) -> dict[str, Any] | None:
    """A match's clock at its first game: both banks full, stopped; None without a
    time control."""
    if control is None:
        return None
    bank = control.bank_seconds(length) * 1000
    return {
        "bank": bank,
        "delay": control.delay * 1000,
        "remaining": [bank, bank],
        "running": None,
        "since": None,
        "seq": 0,
        "flag": None,
        "anchor": None,
        "spent": 0,
    }


def clock_carried(previous: dict[str, Any] | None) -> dict[str, Any] | None:
    """The clock at the start of the match's next game: what the last game left, stopped."""
    if previous is None:
        return None
    return {**previous, "running": None, "since": None, "flag": None, "anchor": None, "spent": 0}


def runner_of(phase: str, to_move: int | None) -> int | None:
    """Whose clock runs in a game at ``phase`` with ``to_move`` acting next (module doc)."""
    return to_move if phase in RUNNING_PHASES and to_move in (0, 1) else None


def clock_used(
    clock: dict[str, Any], *, used_ms: int | None, now_ms: int, queued: bool = False
) -> int:
    """How long the running clock ran for the turn arriving at ``now_ms``: the device's
    ``used_ms`` where it is plausible, else clamped to what the server saw (module doc);
    without a device time, the server's gap since the clock started."""
    since = clock.get("since")
    seen = max(0, now_ms - int(since)) if since is not None else 0
    if used_ms is None:
        return seen
    reported = max(0, min(int(used_ms), MAX_USED_MS))
    # online, in sequence: the clock ran the gap between the two arrivals, give or take
    least = 0 if queued else max(0, seen - TOLERANCE_MS)
    anchor = clock.get("anchor")
    if anchor is None:  # no turn of this game arrived online yet: nothing bounds it above
        return max(reported, least)
    # since the last online turn the clocks ran no longer than the time that passed
    most = max(0, now_ms - int(anchor) - int(clock.get("spent") or 0)) + TOLERANCE_MS
    return min(max(reported, least), max(most, least))


def clock_press(
    clock: dict[str, Any],
    *,
    runner: int | None,
    used_ms: int | None,
    now_ms: int,
    seq: int,
    queued: bool = False,
) -> tuple[dict[str, Any], int | None]:
    """The clock after a turn that leaves ``runner`` to act (None: the game is over or
    not started), and the time the mover's clock ran for it (None: no clock stopped);
    ``queued``: the device says the turn waited on it before it was sent (module doc).
    ``ConflictError`` ``flag_fell`` when the mover's bank was spent before the turn."""
    running = clock.get("running")
    if running == runner:  # nothing pressed (the site's roll): the clock runs on
        return clock, None
    remaining = list(clock["remaining"])
    used: int | None = None
    if running is not None:
        used = clock_used(clock, used_ms=used_ms, now_ms=now_ms, queued=queued)
        charged = max(0, used - int(clock["delay"]))
        if charged >= remaining[running]:
            raise ConflictError(
                _("The time of the player to move ran out before this turn: the flag fell."),
                code="flag_fell",
                fields={"side": running},
            )
        remaining[running] -= charged
    if queued:  # the last online turn stays the anchor; the queued time adds up
        anchor, spent = clock.get("anchor"), int(clock.get("spent") or 0) + (used or 0)
    else:  # the device's clock and the server's agree again here
        anchor, spent = now_ms, 0
    pressed = {
        **clock,
        "remaining": remaining,
        "running": runner,
        "since": now_ms if runner is not None else None,
        "seq": seq,
        "anchor": anchor,
        "spent": spent,
    }
    return pressed, used


def flag_check(
    clock: dict[str, Any] | None, *, used_ms: int | None, now_ms: int, queued: bool = False
) -> int:
    """Whose flag fell: the running clock's, when its bank is spent by the device's time
    as :func:`clock_used` believes it (or the server's, without one). ``ValidationError``:
    no clock runs (``no_clock``), or time is left (``flag_not_fallen``)."""
    if clock is None or clock.get("running") is None:
        raise ValidationError(_("No clock is running in this game."), code="no_clock")
    running = int(clock["running"])
    used = clock_used(clock, used_ms=used_ms, now_ms=now_ms, queued=queued)
    charged = used - int(clock["delay"])
    if charged < clock["remaining"][running]:
        raise ValidationError(
            _("The clock still has time left; the flag has not fallen."),
            code="flag_not_fallen",
        )
    return running


def clock_flagged(clock: dict[str, Any], side: int) -> dict[str, Any]:
    """The clock once ``side``'s flag fell: stopped, that bank at 0."""
    remaining = list(clock["remaining"])
    remaining[side] = 0
    return {**clock, "remaining": remaining, "running": None, "since": None, "flag": side}


def clock_resume(
    clock: dict[str, Any], *, side: int, seconds: int, now_ms: int, seq: int
) -> dict[str, Any]:
    """The clock after a referee overruled ``side``'s flag fall: that player's clock runs
    again with ``seconds`` left."""
    remaining = list(clock["remaining"])
    remaining[side] = seconds * 1000
    return {
        **clock,
        "remaining": remaining,
        "running": side,
        "since": now_ms,
        "seq": seq,
        "flag": None,
        "anchor": now_ms,  # the referee's word: the clocks agree from here
        "spent": 0,
    }
