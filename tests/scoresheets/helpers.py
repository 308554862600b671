"""Playing recorded games through the turn API, as a phone beside the board would."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

DEVICE = str(uuid.UUID(int=1))


@dataclass
class Table:
    """A client recording one match; ``state`` is the last state it was answered."""

    client: APIClient
    match: int
    state: dict[str, Any] = field(default_factory=dict)
    device: str = DEVICE

    def start(self, dice: str = "entered") -> Any:
        url = f"/api/matches/{self.match}/live/"
        response = self.client.post(url, {"dice": dice}, format="json")
        if response.status_code in (200, 201):
            self.state = response.json()
        return response

    def get(self) -> Any:
        return self.client.get(f"/api/matches/{self.match}/live/")

    def post(self, action: str, **body: Any) -> Any:
        seq = body.pop("seq", self.state["seq"] + 1)
        payload = {"seq": seq, "device": self.device, "action": action, **body}
        response = self.client.post(
            f"/api/matches/{self.match}/live/turns/", payload, format="json"
        )
        if response.status_code in (200, 201):
            self.state = response.json()
        return response


def random_turn(table: Table, rng: random.Random, *, cube: bool = True) -> Any:
    """One random legal action for the phase the state asks for."""
    state = table.state
    phase = state["phase"]
    if phase == "start":
        a = rng.randint(1, 6)
        b = rng.choice([d for d in range(1, 7) if d != a])
        return table.post("start", dice=[a, b])
    if phase == "cube":
        return table.post("take" if rng.random() < 0.7 else "drop")
    # a cube past 64 is allowed, but no club doubles every turn
    may_double = cube and state["cube"] and state["cube"]["may_double"]
    may_double = may_double and state["cube"]["value"] < 64
    if phase == "roll" and may_double and rng.random() < 0.08:
        return table.post("double")
    legal = state["legal"]
    if phase == "move":
        ((key, plays),) = legal.items()
        return table.post("play", steps=rng.choice(plays))
    key = rng.choice(sorted(legal))
    dice = [int(d) for d in key.split("-")]
    return table.post("play", dice=dice, steps=rng.choice(legal[key]))


def play_game(table: Table, rng: random.Random, *, limit: int = 600, cube: bool = True) -> None:
    """Play the current game to its end with random legal turns. Random play can lock
    a backgammon game for good (both sides on the bar against closed boards): after
    ``limit`` turns the player on roll resigns a single game there."""
    number = table.state["game_number"]
    for _ in range(limit):
        if table.state["game_number"] != number or table.state["phase"] == "over":
            return
        response = random_turn(table, rng, cube=cube)
        assert response.status_code == 201, response.content
    if table.state["cube"] is not None and table.state["phase"] == "roll":
        assert table.post("resign", resign_value=1).status_code == 201
        return
    raise AssertionError("the game did not end")
