"""A tournament's time control: each player's bank per match and the delay per move.

Every game and every format may have a clock, so it is the tournament's own setting (two
columns, ``Tournament.clock_per_point`` and ``clock_delay``), not an option a format
reads (``formats.options``): it is set on the tournament's create page and through the
API like the game's settings, and read by the scoresheet, which runs the clock
(``scoresheets.clock``).

The shape follows the backgammon clock rules: the U.S. Backgammon Clock Rules (simple
delay clocks only, 2013: "two minutes per match point" of reserve and "12 seconds per
move"), the BIBA clock rules (12 seconds per move plus 2 minutes per point), the
Norwegian "2 minutter pr. matchpoeng + 12 sek pr. trekk"; Galaxy's casual online
setting is 3 minutes per point + 15 s. So the bank is given **per match point** —
``clock_per_point`` × the match's length (bräde and Kungabräde: × the games of a best
of n) — and the delay is a **simple delay** (the clock waits ``clock_delay`` seconds
at each move before the bank runs; time not used is not kept).

Decisions where the sources are silent or differ:
- Bronstein is not offered. A Bronstein clock gives back the time used up to the delay
  after the move, which for the player is the same bank as a simple delay (the bank never
  grows past its start in either); only a display differs, and the U.S. rules allow
  simple delay clocks only. One kind keeps the clock, the record and the rules one thing.
- The bank is set once per match, when its first game's recording starts; the U.S.
  rules' "less one minute per point already scored" is for clocks brought in mid-match,
  which the scoresheet does not do (a match is recorded from game 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from core.errors import ValidationError

__all__ = ["MAX_DELAY", "MAX_PER_POINT", "TimeControl", "time_control_check"]

MAX_PER_POINT = 60 * 60  # an hour per point: more is no clock
MAX_DELAY = 5 * 60


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A tournament's time control: ``per_point`` seconds of bank per match point,
    ``delay`` seconds of simple delay per move."""

    per_point: int
    delay: int

    @classmethod
    def of(cls, tournament: object) -> TimeControl | None:
        """The tournament's time control, None without a clock."""
        per_point = int(getattr(tournament, "clock_per_point", 0) or 0)
        if per_point <= 0:
            return None
        return cls(per_point=per_point, delay=int(getattr(tournament, "clock_delay", 0) or 0))

    def bank_seconds(self, length: int) -> int:
        """Each player's bank for a match of ``length`` (points, or games of a best of n)."""
        return self.per_point * max(1, length)

    def text(self) -> str:
        """The time control in words: "2 min per point + 12 s delay"."""
        minutes, seconds = divmod(self.per_point, 60)
        if not minutes:
            bank = _("%(s)s s per point") % {"s": seconds}
        elif not seconds:
            bank = _("%(m)s min per point") % {"m": minutes}
        else:
            bank = _("%(m)s min %(s)s s per point") % {"m": minutes, "s": seconds}
        if not self.delay:
            return bank
        return _("%(bank)s + %(delay)s s delay per move") % {"bank": bank, "delay": self.delay}


def time_control_check(per_point: int, delay: int) -> None:
    """``ValidationError`` (code ``clock``) for a time control out of bounds."""
    if not 0 <= per_point <= MAX_PER_POINT:
        raise ValidationError(
            _("The clock's bank is 0 to %(max)s seconds per point.") % {"max": MAX_PER_POINT},
            code="clock",
        )
    if not 0 <= delay <= MAX_DELAY:
        raise ValidationError(
            _("The delay is 0 to %(max)s seconds per move.") % {"max": MAX_DELAY}, code="clock"
        )
