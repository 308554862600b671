"""The scoresheet is the clock (``scoresheets.clock``): a tournament's time control sets
each player's bank per match point and a simple delay; every stored turn keeps both
remaining times; a double waits on the doubled player's clock; a flag fall enters itself
as the match lost (a walkover with the site's reason), which a referee may overrule with a
note; without a device time the server's arrival times count."""

from __future__ import annotations

import json
import random
import re
import tempfile
from html import unescape
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from backgammon.mat import read_mat
from backgammon.replay import replay_mat
from engine.record import read_text
from matches.models import EventKind, GameRecordSubmission, MatchEvent, MatchState
from matches.site_words import reason_text
from scoresheets.clock import TOLERANCE_MS
from scoresheets.models import LiveGame, LiveTurn
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.scoresheets.helpers import Table, play_game
from tests.tournaments.helpers import drawn, match_of
from tournaments.time_control import TimeControl

pytestmark = pytest.mark.django_db

MIN = 60_000
# 2 minutes per match point + 12 s delay (the U.S. clock rules), a 3-point match.
BANK = 3 * 2 * MIN
DELAY = 12_000


class Now:
    """The server's clock, moved by hand (``scoresheets.services.clock_now``)."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Now:
    server = Now()
    monkeypatch.setattr("scoresheets.services.clock_now", server)
    return server


def _setup(game: str = "backgammon", length: int = 3, **fields: Any) -> tuple[Table, Any]:
    fields.setdefault("clock_per_point", 120)
    fields.setdefault("clock_delay", 12)
    s = drawn(2, lengths=[length], game=game, **fields)
    table = Table(client_for(s.referee), match_of(s.tournament, 1, 0).pk, commits=True)
    assert table.start().status_code == 201
    return table, s


def _opened(now: Now, **fields: Any) -> tuple[Table, Any]:
    """A clocked backgammon match after its opening roll: player 0 plays 5-2."""
    table, s = _setup(**fields)
    clock = table.state["clock"]
    assert clock["remaining"] == [BANK, BANK] and clock["running"] is None
    assert table.post("start", dice=[5, 2]).status_code == 201
    return table, s


def test_the_bank_is_per_point_and_every_turn_keeps_both_remaining_times(now: Now) -> None:
    table, _ = _opened(now)
    clock = table.state["clock"]
    assert (clock["bank"], clock["delay"]) == (BANK, DELAY)
    assert clock["running"] == 0 and clock["since"] == now.ms  # the opening roll starts it

    # 20 s by the device (and by the server's arrivals): 8 s past the delay charged
    now.ms += 20_000
    played = table.post("play", steps=[[13, 8], [13, 11]], used=20_000)
    assert played.status_code == 201, played.content
    state = played.json()
    assert state["clock"]["remaining"] == [BANK - 8_000, BANK]
    assert state["clock"]["running"] == 1
    assert state["turns"][-1]["clock"] == [BANK - 8_000, BANK]
    turn = LiveTurn.objects.get(match_id=table.match, seq=2)
    assert (turn.clock, turn.used_ms, turn.reported_ms) == ([BANK - 8_000, BANK], 20_000, None)

    # no device time: the server's arrival times count (30 s since player 1's clock began)
    now.ms += 30_000
    legal = table.state["legal"]
    key = sorted(legal)[0]
    dice = [int(d) for d in key.split("-")]
    assert table.post("play", dice=dice, steps=legal[key][0]).status_code == 201
    assert table.state["clock"]["remaining"] == [BANK - 8_000, BANK - 18_000]
    # within the delay nothing is charged (simple delay: the unused delay is not kept)
    legal = table.state["legal"]
    key = sorted(legal)[0]
    dice = [int(d) for d in key.split("-")]
    now.ms += 5_000
    assert table.post("play", dice=dice, steps=legal[key][0], used=5_000).status_code == 201
    assert table.state["clock"]["remaining"] == [BANK - 8_000, BANK - 18_000]


def test_a_resent_turn_is_stored_once_whatever_time_it_carries(now: Now) -> None:
    table, _ = _opened(now)
    now.ms += 20_000
    assert table.post("play", steps=[[13, 8], [13, 11]], used=20_000).status_code == 201
    now.ms += 5_000
    again = table.post("play", seq=2, steps=[[13, 8], [13, 11]], used=25_000)
    assert again.status_code == 200
    assert table.state["clock"]["remaining"] == [BANK - 8_000, BANK]


def test_a_double_waits_on_the_doubled_players_clock(now: Now) -> None:
    table, _ = _opened(now)
    now.ms += 12_000
    assert table.post("play", steps=[[13, 8], [13, 11]], used=12_000).status_code == 201
    # player 1 doubles after 15 s: 3 s charged, and player 0's clock runs to answer
    now.ms += 15_000
    assert table.post("double", used=15_000).status_code == 201
    clock = table.state["clock"]
    assert table.state["phase"] == "cube" and clock["running"] == 0
    assert clock["remaining"] == [BANK, BANK - 3_000]
    # player 0 thinks 52 s over the take: 40 s charged to player 0, not to the doubler
    now.ms += 52_000
    assert table.post("take", used=52_000).status_code == 201
    clock = table.state["clock"]
    assert clock["remaining"] == [BANK - 40_000, BANK - 3_000]
    assert clock["running"] == 1  # the doubler's clock again, a fresh delay, to roll


def test_a_flag_fall_enters_itself_as_the_match_lost(now: Now) -> None:
    table, s = _opened(now)
    now.ms += BANK
    early = table.post("flag", used=BANK)  # 12 s of delay are still to run
    assert early.status_code == 400
    assert early.json()["error"]["code"] == "flag_not_fallen"

    now.ms += DELAY
    flagged = table.post("flag", used=BANK + DELAY)
    assert flagged.status_code == 201, flagged.content
    state = flagged.json()
    assert state["phase"] == "over" and state["status"] == "finished"
    assert state["outcome"]["flag"] == 0 and state["outcome"]["winner"] == 1
    assert state["clock"]["remaining"] == [0, BANK] and state["clock"]["flag"] == 0
    assert state["turns"][-1]["action"] == "flag"

    match = match_of(s.tournament, 1, 0)
    assert match.state == MatchState.WALKOVER
    assert match.winner_id == match.player2_id
    event = MatchEvent.objects.get(match=match, kind=EventKind.WALKOVER)
    assert event.data["reason_code"] == "flag_fall"
    assert reason_text(event.data) == "the opponent's time ran out (flag fall)"
    # the game stopped there: no further turn, no next game
    assert table.post("roll").status_code == 409
    assert table.start().status_code == 409


def test_a_turn_after_the_bank_is_spent_is_refused_as_a_flag_fall(now: Now) -> None:
    table, _ = _opened(now)
    now.ms += BANK + DELAY + 1
    late = table.post("play", steps=[[13, 8], [13, 11]], used=BANK + DELAY + 1)
    assert late.status_code == 409
    error = late.json()["error"]
    assert error["code"] == "flag_fell" and error["fields"]["side"] == 0
    assert LiveTurn.objects.filter(match_id=table.match).count() == 1
    # by the server's time alike
    assert table.post("play", steps=[[13, 8], [13, 11]]).status_code == 409
    assert table.post("flag").status_code == 201


def test_a_referee_overrules_a_flag_fall_with_a_note(now: Now) -> None:
    table, s = _opened(now)
    now.ms += BANK + DELAY
    assert table.post("flag", used=BANK + DELAY).status_code == 201
    url = f"/api/matches/{table.match}/live/flag/overrule/"
    match = match_of(s.tournament, 1, 0)
    organiser = client_for(s.organiser)
    assert organiser.post(url, {"note": "", "seconds": 60}, format="json").status_code == 400
    ruled = client_for(s.referee).post(
        url, {"note": "The phone was dropped; the clock ran on.", "seconds": 60}, format="json"
    )
    assert ruled.status_code == 200, ruled.content
    state = ruled.json()
    assert state["status"] == "recording" and state["phase"] == "move"
    assert state["clock"]["remaining"] == [60_000, BANK]
    assert state["clock"]["running"] == 0 and state["clock"]["flag"] is None
    match.refresh_from_db()
    assert match.state == MatchState.READY and match.winner_id is None and not match.walkover
    event = MatchEvent.objects.filter(match=match, kind=EventKind.RESULT_CORRECTED).get()
    assert event.data["note"] == "The phone was dropped; the clock ran on."
    assert event.data["flag_overruled"] is True
    # the game goes on from where it stopped
    table.state = state
    assert table.post("play", steps=[[13, 8], [13, 11]], used=1_000).status_code == 201
    again = client_for(s.referee).post(url, {"note": "again", "seconds": 60}, format="json")
    assert again.status_code == 409


def test_a_player_may_not_overrule_a_flag_fall(now: Now) -> None:
    table, s = _opened(now, results_by="players")
    now.ms += BANK + DELAY
    assert table.post("flag", used=BANK + DELAY).status_code == 201
    match = match_of(s.tournament, 1, 0)
    assert match.state == MatchState.WALKOVER  # entered at once, whoever enters the results
    user = UserFactory.create()
    winner = match.player2
    assert winner is not None
    winner.user = user
    winner.save()
    refused = client_for(user).post(
        f"/api/matches/{table.match}/live/flag/overrule/",
        {"note": "I let them go on", "seconds": 60},
        format="json",
    )
    assert refused.status_code == 403


def test_bräde_best_of_a_flag_fall_loses_the_match(now: Now) -> None:
    table, s = _setup(game="brade", length=3)
    assert table.state["clock"]["remaining"] == [3 * 2 * MIN, 3 * 2 * MIN]
    assert table.post("start", dice=[2, 5]).status_code == 201  # tek: White starts
    assert table.state["clock"]["running"] == 0
    now.ms += 3 * 2 * MIN + DELAY  # White never moves: the server's time
    assert table.post("flag").status_code == 201
    match = match_of(s.tournament, 1, 0)
    assert match.state == MatchState.WALKOVER and match.winner_id == match.player2_id


def test_the_brade_record_carries_each_turns_remaining_time(now: Now) -> None:
    table, s = _setup(game="brade", length=1)  # a best of 1: 2 minutes each
    bank = 2 * MIN
    assert table.post("start", dice=[2, 5]).status_code == 201  # tek: White starts
    used = [20_000, 31_500]  # White, then Black: 8 s, then 19.5 s past the delay
    for turn in range(400):
        legal = table.state["legal"]
        key = sorted(legal)[0]
        dice = [int(d) for d in key.split("-")]
        now.ms += used[turn % 2]
        posted = table.post("play", dice=dice, steps=legal[key][0], used=used[turn % 2])
        assert posted.status_code == 201, posted.content
        if table.state["phase"] == "over":
            break
        used = [12_000, 12_000] if turn == 1 else used  # after that, within the delay
    match = match_of(s.tournament, 1, 0)
    sub = GameRecordSubmission.objects.get(match=match)
    lines = [line for line in sub.text.splitlines() if line[:2] in ("W ", "B ")]
    assert lines[0].endswith(" ; [%clk 0:01:52]")  # 2:00 less 8 s
    assert lines[1].endswith(" ; [%clk 0:01:40]")  # 2:00 less 19.5 s, whole seconds
    assert all(line.endswith(("[%clk 0:01:52]", "[%clk 0:01:40]")) for line in lines)
    # the record's turns read back with their times: the mover's remaining after each
    turns = read_text(sub.text).games[0].turns
    stored = LiveTurn.objects.filter(match_id=table.match, action="play").order_by("seq")
    movers_left = []
    for stored_turn in stored:
        assert stored_turn.clock is not None and stored_turn.side is not None
        movers_left.append(stored_turn.clock[stored_turn.side] // 1000 * 1000)
    assert [t.clock for t in turns] == movers_left
    assert stored[1].clock == [bank - 8_000, bank - 19_500]
    # the replay of the written record verifies it and reports what the scoresheet did
    out = StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.txt"
        path.write_text(sub.text, encoding="utf-8")
        call_command("replay", str(path), "--json", stdout=out)  # valid: no exit status 1
    replayed = json.loads(out.getvalue())
    assert replayed["valid"] is True
    assert replayed["games"] == sub.report["games"]


@pytest.mark.urls("config.urls")  # the record's page too
def test_the_backgammon_record_carries_both_remaining_times_below_each_row(now: Now) -> None:
    table, s = _setup(game="backgammon", length=1)  # a 1-point match: 2 minutes each
    assert table.post("start", dice=[5, 2]).status_code == 201  # player 0 starts
    rng = random.Random(4)
    for turn in range(200):
        if table.state["phase"] == "over":
            break
        # player 0 8 s past the delay, then player 1 19.5 s; after that within the delay
        used = (20_000, 31_500)[turn] if turn < 2 else 12_000
        now.ms += used  # the server saw the turn arrive that much later
        legal = table.state["legal"]
        big = [k for k in ("6-6", "5-5", "6-5", "4-4") if k in legal] or sorted(legal)
        key = rng.choice(big)  # big rolls: a short game
        dice = [int(d) for d in key.split("-")]
        posted = table.post("play", dice=dice, steps=rng.choice(legal[key]), used=used)
        assert posted.status_code == 201, posted.content
    assert table.state["phase"] == "over"
    match = match_of(s.tournament, 1, 0)
    sub = GameRecordSubmission.objects.get(match=match)
    lines = sub.text.splitlines()
    rows = [k for k, line in enumerate(lines) if re.match(r"^\s*\d+\)", line)]
    assert rows
    assert lines[rows[0] + 1] == "; [%clk 0h01m52s 0h01m40s]"  # 2:00 less 8 s, less 19.5 s
    assert all(lines[k + 1] == "; [%clk 0h01m52s 0h01m40s]" for k in rows)
    assert sum(line.startswith("; [%clk") for line in lines) == len(rows)
    # read back: every action carries its mover's remaining time as the turn stored it
    actions = read_mat(sub.text).games[0].actions
    stored = list(LiveTurn.objects.filter(match_id=table.match, action="play").order_by("seq"))
    plays = [a for a in actions if a.kind == "roll"]
    assert len(plays) == len(stored)
    for action, played in zip(plays, stored, strict=True):
        assert played.clock is not None and played.side == action.player and action.clock
        assert action.clock[action.player] == played.clock[action.player] // 1000 * 1000
    # the replay of the written record: valid, no warning, the report the scoresheet gave
    replayed = replay_mat(sub.text)
    assert replayed.valid and replayed.warnings == []
    assert replayed.to_dict()["games"] == sub.report["games"]
    # the record the API and the record's page carry shows them
    api = client_for(s.referee).get(f"/api/records/{sub.pk}/")
    assert api.status_code == 200
    assert api.json()["text"] == sub.text
    browser = Client()
    browser.force_login(s.referee)
    page = browser.get(reverse("web:record_detail", args=[sub.pk]))
    assert page.status_code == 200
    assert "; [%clk 0h01m52s 0h01m40s]" in unescape(page.content.decode())


def _reply(table: Table, now: Now, used: int | None, *, after: int, queued: bool = False) -> Any:
    """Player 1 answers the opening play: its turn arrives ``after`` ms after the last one."""
    now.ms += after
    legal = table.state["legal"]
    key = sorted(legal)[0]
    dice = [int(d) for d in key.split("-")]
    body: dict[str, Any] = {"dice": dice, "steps": legal[key][0], "queued": queued}
    if used is not None:
        body["used"] = used
    return table.post("play", **body)


def test_a_phone_under_reporting_its_players_time_is_charged_what_the_server_saw(
    now: Now,
) -> None:
    """Online and in sequence, the clock ran the time between the two arrivals, give or
    take the network's transit (``TOLERANCE_MS``): 1 s claimed for a turn that arrived
    60 s after the one that started the clock is charged 57 s, the claim kept."""
    table, _ = _opened(now)
    now.ms += 10_000
    assert table.post("play", steps=[[13, 8], [13, 11]], used=10_000).status_code == 201
    assert _reply(table, now, 1_000, after=60_000).status_code == 201
    charged = 60_000 - TOLERANCE_MS - DELAY
    assert table.state["clock"]["remaining"] == [BANK, BANK - charged]
    turn = LiveTurn.objects.get(match_id=table.match, seq=3)
    assert (turn.used_ms, turn.reported_ms, turn.queued) == (57_000, 1_000, False)


def test_within_the_tolerance_the_devices_time_counts(now: Now) -> None:
    table, _ = _opened(now)
    now.ms += 10_000
    assert table.post("play", steps=[[13, 8], [13, 11]], used=10_000).status_code == 201
    # arrived 2.5 s after the device says the turn was made: the network's transit
    assert _reply(table, now, 27_500, after=30_000).status_code == 201
    assert table.state["clock"]["remaining"] == [BANK, BANK - 15_500]
    turn = LiveTurn.objects.get(match_id=table.match, seq=3)
    assert (turn.used_ms, turn.reported_ms) == (27_500, None)


def test_a_phone_over_reporting_the_opponents_time_is_held_to_the_gap(now: Now) -> None:
    table, _ = _opened(now)
    now.ms += 10_000
    assert table.post("play", steps=[[13, 8], [13, 11]], used=10_000).status_code == 201
    # 2 minutes claimed for a reply that arrived 9 s later: 12 s at most, within the delay
    assert _reply(table, now, 120_000, after=9_000).status_code == 201
    assert table.state["clock"]["remaining"] == [BANK, BANK]
    turn = LiveTurn.objects.get(match_id=table.match, seq=3)
    assert (turn.used_ms, turn.reported_ms) == (9_000 + TOLERANCE_MS, 120_000)


def test_a_queued_turn_is_charged_the_devices_time_but_creates_none(now: Now) -> None:
    """Turns queued offline arrive together, long after they were made: each is charged
    the device's time (not the gap before it, nor less), and together no more than the
    time the server saw pass since the last turn that arrived online."""
    table, _ = _opened(now)
    now.ms += 10_000
    assert table.post("play", steps=[[13, 8], [13, 11]], used=10_000).status_code == 201
    # offline 100 s; then player 1's queued turn (40 s, not the 100 s gap) arrives …
    assert _reply(table, now, 40_000, after=100_000, queued=True).status_code == 201
    assert table.state["clock"]["remaining"] == [BANK, BANK - 28_000]
    # … and player 0's (45 s) right behind it: charged the device's 45 s, not 0.05 s
    legal = table.state["legal"]
    key = sorted(legal)[0]
    dice = [int(d) for d in key.split("-")]
    now.ms += 50
    queued = table.post("play", dice=dice, steps=legal[key][0], used=45_000, queued=True)
    assert queued.status_code == 201
    assert table.state["clock"]["remaining"] == [BANK - 33_000, BANK - 28_000]
    # a third claims 60 s more: 100.05 s passed, 85 s spent: 18.05 s at most (6.05 s charged)
    assert _reply(table, now, 60_000, after=0, queued=True).status_code == 201
    assert table.state["clock"]["remaining"] == [BANK - 33_000, BANK - 28_000 - 6_050]
    turn = LiveTurn.objects.get(match_id=table.match, seq=5)
    assert (turn.used_ms, turn.reported_ms, turn.queued) == (18_050, 60_000, True)
    # the next turn online is held to the gap again, from its own arrival
    legal = table.state["legal"]
    key = sorted(legal)[0]
    dice = [int(d) for d in key.split("-")]
    now.ms += 40_000
    online = table.post("play", dice=dice, steps=legal[key][0], used=2_000)
    assert online.status_code == 201
    assert table.state["clock"]["remaining"] == [BANK - 33_000 - 25_000, BANK - 34_050]


def test_a_phone_may_not_declare_a_flag_fall_the_server_did_not_see(now: Now) -> None:
    table, _ = _opened(now)
    now.ms += 10_000  # player 0 has thought 10 s of a 6-minute bank
    early = table.post("flag", used=BANK + DELAY)
    assert early.status_code == 400 and early.json()["error"]["code"] == "flag_not_fallen"
    # a queued flag is held to the time that passed since the last online turn too
    early = table.post("flag", used=BANK + DELAY, queued=True)
    assert early.status_code == 400 and early.json()["error"]["code"] == "flag_not_fallen"
    now.ms += BANK + DELAY - 10_000 - TOLERANCE_MS  # within the tolerance of the bank
    flagged = table.post("flag", used=BANK + DELAY)
    assert flagged.status_code == 201, flagged.content
    flag = LiveTurn.objects.get(match_id=table.match, action="flag")
    assert (flag.used_ms, flag.reported_ms) == (BANK + DELAY, None)


def test_the_bank_carries_over_from_game_to_game(now: Now) -> None:
    table, _ = _setup(game="backgammon", length=5)
    play_game(table, random.Random(3))
    finished = LiveGame.objects.get(match_id=table.match, number=1)
    following = LiveGame.objects.get(match_id=table.match, number=2)
    assert following.clock is not None and finished.clock is not None
    assert following.clock["remaining"] == finished.clock["remaining"]
    assert following.clock["running"] is None  # stopped between games
    # the same server time throughout: nothing past the delay was charged
    assert following.clock["remaining"] == [5 * 2 * MIN, 5 * 2 * MIN]


def test_without_a_time_control_there_is_no_clock(now: Now) -> None:
    table, _ = _setup(clock_per_point=0, clock_delay=0)
    assert table.state["clock"] is None
    assert table.post("start", dice=[5, 2]).status_code == 201
    assert table.state["turns"][-1]["clock"] is None
    refused = table.post("flag", used=10 * BANK)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "no_clock"


def test_the_organiser_sets_the_time_control_through_the_api() -> None:
    s = drawn(2, lengths=[3], game="backgammon")
    client = client_for(s.organiser)
    url = f"/api/tournaments/{s.tournament.pk}/"
    changed = client.patch(url, {"clock_per_point": 180, "clock_delay": 15}, format="json")
    assert changed.status_code == 200, changed.content
    assert (changed.json()["clock_per_point"], changed.json()["clock_delay"]) == (180, 15)
    too_long = client.patch(url, {"clock_delay": 10_000}, format="json")
    assert too_long.status_code == 400
    s.tournament.refresh_from_db()
    control = TimeControl.of(s.tournament)
    assert control is not None and control.bank_seconds(3) == 540
    assert control.text() == "3 min per point + 15 s delay per move"
