"""Rule sets (rules.md): ``talisman`` (default), ``helmfrid``, ``board`` (+ add-ons), ``vasa``.

A :class:`RuleSet` is a value; the engine never compares rule-set names outside this
module but asks the properties below (R8 mode, R9 kinds, R10 mode, R12 mode, R13 mode…).
Add-ons are options of the rule set, not forks of the code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from engine.errors import InvalidValue
from engine.messages import msg

RULE_SET_NAMES: tuple[str, ...] = ("talisman", "helmfrid", "board", "vasa")
ADDON_NAMES: tuple[str, ...] = ("easy-reentry", "one-die", "double-six")

R8Mode = Literal["pips", "dice"]
R10Mode = Literal["r8_prefix", "any"]
R12Mode = Literal["end_of_turn", "immediate"]
R13Mode = Literal["series_of_three", "die_value", "none"]
OvershootMode = Literal["rearmost", "any", "rearmost_only"]
EntryBlastMode = Literal["more_than_free", "no_free_point"]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One of the four rule sets of rules.md, with its add-ons (``board`` only)."""

    name: str = "talisman"
    addons: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.name not in RULE_SET_NAMES:
            raise InvalidValue(
                msg("rules.unknown", name=repr(self.name), expected=", ".join(RULE_SET_NAMES))
            )
        unknown = sorted(a for a in self.addons if a not in ADDON_NAMES)
        if unknown:
            raise InvalidValue(
                msg("rules.unknown_addon", name=repr(unknown[0]), expected=", ".join(ADDON_NAMES))
            )
        if self.addons and self.name != "board":
            raise InvalidValue(
                msg(
                    "rules.addons_board",
                    addons=", ".join(sorted(self.addons)),
                    name=repr(self.name),
                )
            )

    @classmethod
    def from_names(cls, name: str = "talisman", addons: Iterable[str] = ()) -> RuleSet:
        """Build a rule set from its record spelling (case-insensitive, blanks trimmed)."""
        key = name.strip().lower()
        return cls(key, frozenset(a.strip().lower() for a in addons if a.strip()))

    def text(self) -> str:
        if not self.addons:
            return self.name
        return f"{self.name} ({', '.join(sorted(self.addons))})"

    def __repr__(self) -> str:
        return f"RuleSet.from_names({self.name!r}, {sorted(self.addons)!r})"

    # --- behaviours -------------------------------------------------------------------

    @property
    def r8_mode(self) -> R8Mode:
        """R8: ``pips`` = greatest total points travelled (helmfrid, talisman);
        ``dice`` = most dice, then the greatest sum of their faces (board, vasa)."""
        return "pips" if self.name in ("talisman", "helmfrid") else "dice"

    @property
    def blockade_blasting(self) -> bool:
        """R9(a): bands in an opponent run of six or more may be blasted (not ``board``)."""
        return self.name != "board"

    @property
    def entry_blast_mode(self) -> EntryBlastMode:
        """R9(b): ``more_than_free`` = more checkers on the bar than free Q1 points
        (talisman, helmfrid, vasa, board + easy-reentry); ``no_free_point`` = plain board."""
        if self.name == "board" and "easy-reentry" not in self.addons:
            return "no_free_point"
        return "more_than_free"

    @property
    def band_run_limit(self) -> int | None:
        """R5 variant board: at most five consecutive bands in the opponent's path."""
        return 5 if self.name == "board" else None

    @property
    def overshoot_mode(self) -> OvershootMode:
        """R7: how a die larger than needed may bear off.

        ``rearmost``: only from the rearmost point (helmfrid, talisman);
        ``any``: any checker on 19–24 (board);
        ``rearmost_only``: every bear-off, exact or reduced, only from the rearmost point (vasa).
        """
        if self.name == "board":
            return "any"
        if self.name == "vasa":
            return "rearmost_only"
        return "rearmost"

    @property
    def r10_mode(self) -> R10Mode:
        """R10: ``r8_prefix`` (talisman: jan only as the start of a play satisfying R8);
        ``any`` (helmfrid, board, vasa: any legal steps that make jan end the game)."""
        return "r8_prefix" if self.name == "talisman" else "any"

    @property
    def r12_mode(self) -> R12Mode:
        """R12: ``end_of_turn`` (pattern counts when the whole roll was played) or
        ``immediate`` (vasa: the step forming the pattern ends the game)."""
        return "immediate" if self.name == "vasa" else "end_of_turn"

    @property
    def r13_mode(self) -> R13Mode:
        """R13: ``series_of_three`` (helmfrid, talisman), ``die_value`` (board + one-die),
        ``none`` (board without one-die, vasa)."""
        if self.name in ("talisman", "helmfrid"):
            return "series_of_three"
        if self.name == "board" and "one-die" in self.addons:
            return "die_value"
        return "none"

    @property
    def double_six(self) -> bool:
        """R15: the double-six stack ``1/7(6)`` on a side's first roll (board + double-six)."""
        return self.name == "board" and "double-six" in self.addons

    @property
    def easy_reentry(self) -> bool:
        """R15: vasa always has easy-reentry; board only with the add-on."""
        return self.entry_blast_mode == "more_than_free"


TALISMAN = RuleSet("talisman")
