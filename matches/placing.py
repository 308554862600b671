"""A player's place in a tournament's final placings (``matches.stage_handlers``: each
stage's placings), shared by every stage's placings and their readers."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Player

__all__ = ["Placing"]


@dataclass(frozen=True)
class Placing:
    player: Player
    first: int
    last: int
    walkover: bool = False  # lost (or left) by walkover

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"
