"""Playing recorded games through the turn API, as a phone beside the board would."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.test import TestCase
from rest_framework.test import APIClient

DEVICE = str(uuid.UUID(int=1))


@dataclass
class Table:
    """A client recording one match; ``state`` is the last state it was answered.

    ``commits``: run what each turn leaves for after its commit (the test's transaction
    never commits), as a server does; among it, keeping the game replayed for the next
    turn, without which every turn replays the game from its first (a locked random
    backgammon game runs to hundreds of turns)."""

    client: APIClient
    match: int
    state: dict[str, Any] = field(default_factory=dict)
    device: str = DEVICE
    commits: bool = False

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
        url = f"/api/matches/{self.match}/live/turns/"
        if self.commits:
            with TestCase.captureOnCommitCallbacks(execute=True):
                response = self.client.post(url, payload, format="json")
        else:
            response = self.client.post(url, payload, format="json")
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


def _not_quite(play: list[list[int]]) -> list[list[list[int]]]:
    """Plays near ``play`` that are likely illegal: its last step one point short of where
    it should land (a wrong count), the play without its last step (a die not played),
    nothing played at all."""
    found: list[list[list[int]]] = []
    if play:
        src, dst = play[-1]
        if 1 < dst < src:
            found.append([*play[:-1], [src, dst - 1]])
        found.append(play[:-1])
    found.append([])
    return found


def illegal_turn(table: Table, rng: random.Random) -> Any:
    """A backgammon play that is illegal but can be carried out, refused with
    ``acceptable`` and then accepted as played by the opponent; a legal one where every
    try turns out legal or impossible. The state must ask for a play."""
    state = table.state
    legal = state["legal"]
    if state["phase"] == "move":
        ((key, plays),) = legal.items()
        dice: dict[str, Any] = {}
    else:
        key = rng.choice(sorted(legal))
        dice = {"dice": [int(d) for d in key.split("-")]}
    play = rng.choice(plays if state["phase"] == "move" else legal[key])
    for steps in _not_quite(play):
        refused = table.post("play", steps=steps, **dice)
        if refused.status_code == 201:  # legal after all: the turn is played
            return refused
        error = refused.json()["error"]
        assert error["code"] == "illegal_play", error
        if error.get("acceptable"):
            return table.post("play", steps=steps, accept_illegal=True, **dice)
    return table.post("play", steps=play, **dice)


def play_game_with_illegal(
    table: Table, rng: random.Random, *, every: float = 0.15, limit: int = 1200
) -> None:
    """``play_game`` where a backgammon play is, now and then (``every``), an illegal one
    the opponent accepts (``illegal_turn``)."""
    number = table.state["game_number"]
    for _ in range(limit):
        if table.state["game_number"] != number or table.state["phase"] == "over":
            return
        playing = table.state["phase"] in ("roll", "move")
        if playing and rng.random() < every:
            response = illegal_turn(table, rng)
        else:
            response = random_turn(table, rng)
        assert response.status_code == 201, response.content
    if table.state["cube"] is not None and table.state["phase"] == "roll":
        assert table.post("resign", resign_value=1).status_code == 201
        return
    raise AssertionError("the game did not end")
