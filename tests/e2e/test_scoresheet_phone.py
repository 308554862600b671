"""The digital scoresheet on a 360 px phone: whole games recorded through the page for
every bräde rule set and for backgammon with the cube; a forced move played with one tap,
an undo, a reload mid-game, the network cut for several turns (recorded unchecked, sent
when it is back), another device's turn shown as a conflict; the match page's live board
follows by itself; the tournament page lists the boards being recorded. The stored record
replays valid with the same outcome.

To keep the tests short, a game's actions are chosen beforehand by playing the same game
through the pure live game (``games.live``: what the server runs), with random legal plays
from a fixed seed; the API (a second device) records most turns and the page the ones
that matter — the first and the last, the game's end among them.

Elements are found by id, class and data attributes, never by their words.
"""

from __future__ import annotations

import random
import re
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import expect
from rest_framework.test import APIClient

from engine.record import read_record
from engine.replay import replay
from games.live import LiveAction, LiveSetup, live_game_for
from matches.models import (
    EventKind,
    Game,
    GameRecordSubmission,
    GameReport,
    Match,
    MatchEvent,
    RecordState,
)
from scoresheets.models import LiveGame, LiveStatus
from tests.e2e.conftest import login, shoot
from tests.factories import UserFactory
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.models import PrivateLinkUse
from tournaments.private_links import private_link_issue, private_link_token

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
OTHER_DEVICE = str(uuid.UUID(int=77))


# --- the game, chosen beforehand --------------------------------------------------------


@dataclass(frozen=True)
class Act:
    """One action as the API takes it, and how many different plays its dice allowed."""

    action: str
    dice: tuple[int, ...] | None = None
    steps: tuple[tuple[int, int], ...] = ()
    side: int | None = None
    choices: int = 0

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.action == "play":
            out["steps"] = [list(s) for s in self.steps]
        return out


def _distinct(plays: list[list[list[int]]]) -> int:
    return len({tuple(sorted(tuple(s) for s in p)) for p in plays})


def _key(dice: tuple[int, ...]) -> str:
    return "-".join(str(d) for d in sorted(dice, reverse=True))


def _steps(play: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a, b in play)


def simulate(
    game: str, seed: int, *, prefix: list[Act], limit: int = 400, **setup: Any
) -> list[Act]:
    """The actions of a whole game: ``prefix`` first, then random legal plays (pure)."""
    rng = random.Random(seed)
    live = live_game_for(game).new_game(LiveSetup(**setup))
    acts: list[Act] = []
    while live.phase != "over":
        assert len(acts) < limit, "the simulated game did not end"
        side = live.to_move
        legal = live.legal() or {}
        if len(acts) < len(prefix):
            act = prefix[len(acts)]
        elif live.phase == "start":
            a = rng.randint(1, 6)
            act = Act("start", dice=(a, rng.choice([d for d in range(1, 7) if d != a])))
        elif live.phase == "move":  # dice known already (backgammon's opening roll)
            act = Act("play", steps=_steps(rng.choice(next(iter(legal.values())))))
        else:
            key = rng.choice(sorted(legal))
            dice = tuple(int(d) for d in key.split("-"))
            act = Act("play", dice=dice, steps=_steps(rng.choice(legal[key])))
        if act.action == "play":
            plays = legal.get(_key(act.dice), []) if act.dice else next(iter(legal.values()))
            act = Act("play", act.dice, act.steps, side, _distinct(plays))
        live.apply(LiveAction(act.action, dice=act.dice, steps=act.steps))
        acts.append(act)
    return acts


# --- the match, the API, the page --------------------------------------------------------


def _match(username: str, **fields: Any) -> tuple[Match, Any]:
    setup = drawn(2, **fields)
    match = match_of(setup.tournament, 1, 0)
    user = UserFactory.create(username=username)
    player = players_of(match)[0]
    player.user = user
    player.save()
    return match, user


class Device:
    """Another phone recording the same match through the API."""

    def __init__(self, match: Match, user: Any) -> None:
        self.client = APIClient()
        self.client.force_authenticate(user)
        self.match = match.pk

    def start(self) -> Any:
        return self.client.post(
            f"/api/matches/{self.match}/live/", {"dice": "entered"}, format="json"
        )

    def state(self) -> dict[str, Any]:
        response = self.client.get(f"/api/matches/{self.match}/live/")
        assert response.status_code == 200, response.content
        data: dict[str, Any] = response.json()
        return data

    def post(self, act: Act, seq: int | None = None) -> Any:
        seq = self.state()["seq"] + 1 if seq is None else seq
        body = {"seq": seq, "device": OTHER_DEVICE, **act.body()}
        return self.client.post(f"/api/matches/{self.match}/live/turns/", body, format="json")


def _hit(layout: str, side: int, point: int) -> str:
    """The tap area (data-hit) of ``side``'s own point as the page draws it (view 0)."""
    bg = layout == "backgammon"
    if point == (25 if bg else 0):
        return "bar"
    if point == (0 if bg else 25):
        return "off"
    if side == 0:
        return str(point)
    return str(25 - point) if bg else str(((point + 11) % 24) + 1)


class Sheet:
    """The recording page, driven by taps as a player would."""

    def __init__(self, page: Any, layout: str) -> None:
        self.page = page
        self.layout = layout
        self.root = page.locator("#scoresheet")

    def seq(self) -> int:
        return int(self.root.get_attribute("data-seq") or 0)

    def wait_saved(self, seq: int) -> None:
        expect(self.root).to_have_attribute("data-seq", str(seq), timeout=15_000)
        expect(self.page.locator("#sheet-net")).to_have_attribute("data-waiting", "0")

    def tap(self, hit: str) -> None:
        self.page.locator(f"#scoresheet svg [data-hit='{hit}']").first.click()

    def dice(self, dice: tuple[int, ...]) -> None:
        for die in dice:
            self.page.locator(f"#sheet-controls .die-row button[data-die='{die}']").click()

    def steps(self, side: int, steps: tuple[tuple[int, int], ...]) -> None:
        """Tap the steps in: a destination alone where only that step reaches it, else
        the checker (unless it is chosen already) and then its destination."""
        for src, dst in steps:
            path = self.page.evaluate(
                "to => document.getElementById('scoresheet').sheet.direct(to)", dst
            )
            if path != [[src, dst]]:
                selected = self.page.evaluate(
                    "() => document.getElementById('scoresheet').sheet.selected()"
                )
                if selected != src:
                    self.tap(_hit(self.layout, side, src))
            self.tap(_hit(self.layout, side, dst))

    def taps(self) -> int:
        return int(self.page.evaluate("() => document.getElementById('scoresheet').sheet.taps()"))

    def play(self, act: Act, *, forced: bool = False, entered: bool = False) -> int:
        """Record ``act`` (a play with its dice, unless ``entered`` already) and return
        the taps after the dice."""
        if act.dice is not None and not entered and self.root.get_attribute("data-phase") != "move":
            if len(act.dice) == 1:  # R13: one die instead of two, where the rule set allows
                one = self.page.locator("#sheet-controls button[data-act=one-die]")
                if one.count():
                    one.click()
            self.dice(act.dice)
        if forced:
            self.page.locator("#sheet-controls button[data-act=forced]").click()
        else:
            self.steps(act.side or 0, act.steps)
            self.page.locator("#sheet-controls button[data-act=confirm]").click()
        return self.taps()


def _open(new_page: Any, base: str, user: str, match: Match) -> Sheet:
    page = new_page(**PHONE)
    login(page, base, user)
    page.goto(f"{base}/matches/{match.pk}/record/")
    layout = "backgammon" if match.tournament.game == "backgammon" else "brade"
    return Sheet(page, layout)


def _record_replays(match: Match, words: str) -> None:
    """The game's record was stored, verified, and replays to the same outcome."""
    live = LiveGame.objects.filter(match=match).order_by("number").first()
    assert live is not None and live.status == LiveStatus.FINISHED
    assert live.submission_id is not None
    sub = GameRecordSubmission.objects.get(pk=live.submission_id)
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED), sub.message
    if match.tournament.game != "backgammon":
        report = replay(read_record(sub.text))
        assert report.error is None
        outcome = report.games[0].outcome
        assert outcome is not None
        assert live.outcome is not None and live.outcome["words"] == words


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px)"


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "addons", "seed", "whole"),
    [
        ("helmfrid", (), 7, True),
        ("board", ("double-six", "easy-reentry", "one-die"), 12, False),
        ("vasa", (), 9, False),
    ],
)
def test_a_brade_game_on_the_page(
    live_server: Any, new_page: Any, rules: str, addons: tuple[str, ...], seed: int, whole: bool
) -> None:
    """A whole game through the page (helmfrid: the taps per turn measured), or most of it
    by another device and the last turns (the winning one among them) on the page; the
    result enters itself and the record replays the same."""
    match, user = _match(f"p-{rules}", lengths=[1], rules=rules, addons=list(addons))
    acts = simulate("brade", seed, prefix=[], rules=rules, addons=addons, names=("P001", "P002"))
    page_part = len(acts) - 1 if whole else 3
    device = Device(match, user)
    assert device.start().status_code == 201
    for act in acts[: len(acts) - page_part]:
        assert device.post(act).status_code == 201
    sheet = _open(new_page, live_server.url, user.username, match)
    expect(sheet.root).to_have_attribute("data-phase", "roll")
    taps = []
    for act in acts[-page_part:]:
        seq = sheet.seq()
        taps.append(sheet.play(act, forced=act.choices == 1))
        sheet.wait_saved(seq + 1)
    expect(sheet.root).to_have_attribute("data-phase", "over")
    shoot(sheet.page, f"scoresheet-over-{rules}")
    live = LiveGame.objects.get(match=match, number=1)
    assert live.outcome is not None
    _record_replays(match, live.outcome["words"])
    match.refresh_from_db()
    assert match.state == "decided"
    # The record afterwards: the viewer steps through it like an uploaded one.
    viewer = sheet.page.locator(f"#sheet-controls a[href='/records/{live.submission_id}/viewer/']")
    viewer.click()
    expect(sheet.page.locator("#viewer")).to_be_visible()
    print(f"{rules}: taps after the dice per page turn {taps}")
    if whole:
        # The goal: a typical turn takes four taps or fewer once the dice are in.
        typical = sorted(taps)[len(taps) // 2]
        assert typical <= 4, taps


def _follow_pages(new_page: Any, base: str, match: Match) -> tuple[Any, Any]:
    """An anonymous reader's match page and tournament page, on a phone."""
    reader = new_page(**PHONE)
    reader.goto(f"{base}/matches/{match.pk}/")
    boards = new_page(**PHONE)
    boards.goto(f"{base}/tournaments/{match.tournament.pk}/")
    return reader, boards


def test_talisman_forced_undo_reload_offline_and_followers(live_server: Any, new_page: Any) -> None:
    """The tek and a forced opening on the page, an undo, a reload, another device's turns
    picked up, three turns with the network cut, the end on the page; the match page's
    board and the tournament's boards follow by themselves."""
    base = live_server.url
    match, user = _match("p-talisman", lengths=[1], rules="talisman")
    prefix = [Act("start", dice=(2, 5)), Act("play", dice=(4, 4), steps=((1, 5), (5, 9), (1, 5)))]
    acts = simulate("brade", 7, prefix=prefix, rules="talisman", names=("P001", "P002"))
    assert acts[1].choices == 1  # 4-4 from the start is forced (talisman)
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    _no_sideways_scroll(page)
    expect(page.locator("#scoresheet svg.board")).to_be_hidden()  # no empty board yet
    shoot(page, "scoresheet-empty-phone")
    page.locator("#sheet-controls button[data-act=begin-entered]").click()
    expect(sheet.root).to_have_attribute("data-phase", "start")
    shoot(page, "scoresheet-tek-phone")

    # The tek: White's die 2, Black's die 5: White starts (the lower die, R2).
    page.locator(".die-row[data-name=tek-0] button[data-die='2']").click()
    page.locator(".die-row[data-name=tek-1] button[data-die='5']").click()
    sheet.wait_saved(1)
    expect(sheet.root).to_have_attribute("data-phase", "roll")

    # 4-4 from the start: one legal play, played and confirmed with one tap.
    sheet.dice((4, 4))
    expect(page.locator("#sheet-controls button[data-act=forced]")).to_be_visible()
    shoot(page, "scoresheet-forced-phone")
    assert sheet.play(acts[1], forced=True, entered=True) == 1
    sheet.wait_saved(2)
    board = page.locator("#scoresheet svg")
    for point in ("5", "9"):
        stack = board.locator(f".stack[data-side='0'][data-point='{point}']")
        expect(stack).to_have_attribute("data-count", "1")

    # Black's turn with an undo: a step taken back, then the turn as played.
    black = acts[2]
    sheet.dice(black.dice or ())
    first = black.steps[0]
    sheet.steps(1, (first,))
    expect(page.locator("#sheet-hint")).to_contain_text(f"{first[0]}/{first[1]}")
    page.locator("#sheet-controls button[data-act=undo]").click()
    expect(page.locator("#sheet-controls button[data-act=confirm]")).to_be_disabled()
    sheet.steps(1, black.steps)
    shoot(page, "scoresheet-turn-phone")
    page.locator("#sheet-controls button[data-act=confirm]").click()
    sheet.wait_saved(3)

    # A reload resumes where the game stands.
    page.reload()
    expect(sheet.root).to_have_attribute("data-seq", "3")
    expect(sheet.root).to_have_attribute("data-phase", "roll")

    # The followers: the match page's board and the tournament's boards in progress.
    reader, boards = _follow_pages(new_page, base, match)
    live = reader.locator("#live-board")
    expect(live).to_be_visible()
    expect(live).to_have_attribute("data-seq", "3")
    small = boards.locator("#live-boards li.live-small")
    expect(small).to_have_count(1)
    expect(small.locator("a")).to_have_attribute("href", f"/matches/{match.pk}/")
    expect(small.locator("svg .stack").first).to_be_attached()
    _no_sideways_scroll(reader)
    shoot(reader, "scoresheet-match-live-phone")
    shoot(boards, "scoresheet-tournament-live-phone")

    # Another device records the middle of the game; the page picks it up by itself.
    device = Device(match, user)
    cut = len(acts) - 6
    for act in acts[3:cut]:
        assert device.post(act).status_code == 201, act
    expect(sheet.root).to_have_attribute("data-seq", str(cut), timeout=15_000)
    expect(live).to_have_attribute("data-seq", str(cut), timeout=15_000)

    # The network cut for three turns: the first checked, the others unchecked, all kept.
    page.context.set_offline(True)
    for i, act in enumerate(acts[cut : cut + 3]):
        sheet.play(act, forced=act.choices == 1 and i == 0)
    net = page.locator("#sheet-net")
    expect(net).to_have_class(re.compile(r"\boffline\b"))
    expect(net).to_have_attribute("data-waiting", "3")
    expect(page.locator("#sheet-turns li.unchecked")).to_have_count(2)
    shoot(page, "scoresheet-offline-phone")
    assert device.state()["seq"] == cut
    page.context.set_offline(False)
    sheet.wait_saved(cut + 3)
    assert device.state()["seq"] == cut + 3

    # The last turns, the end among them, on the page.
    for act in acts[cut + 3 :]:
        seq = sheet.seq()
        sheet.play(act, forced=act.choices == 1)
        sheet.wait_saved(seq + 1)
    expect(sheet.root).to_have_attribute("data-phase", "over")
    live_game = LiveGame.objects.get(match=match, number=1)
    assert live_game.outcome is not None
    _record_replays(match, live_game.outcome["words"])
    shoot(page, "scoresheet-over-phone")


def test_offline_turns_meet_a_conflict_and_a_refusal(live_server: Any, new_page: Any) -> None:
    """A turn queued offline that another device recorded differently is shown as a
    conflict; an unchecked offline turn the server refuses stops the queue with the
    engine's message until the players correct it."""
    base = live_server.url
    match, user = _match("p-conflict", lengths=[3], rules="talisman")
    device = Device(match, user)
    assert device.start().status_code == 201
    assert device.post(Act("start", dice=(2, 5))).status_code == 201  # White starts
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    expect(sheet.root).to_have_attribute("data-seq", "1")

    # Offline, White plays 3-1; meanwhile the other device stores 6-5 for that turn.
    page.context.set_offline(True)
    sheet.play(Act("play", dice=(3, 1), steps=((1, 4), (1, 2)), side=0))
    expect(page.locator("#sheet-net")).to_have_attribute("data-waiting", "1")
    assert device.post(Act("play", dice=(6, 5), steps=((1, 7), (1, 6)))).status_code == 201
    page.context.set_offline(False)
    banner = page.locator("#sheet-banner")
    expect(banner).to_be_visible(timeout=15_000)
    expect(banner).to_have_class(re.compile(r"\bwarn\b"))
    sheet.wait_saved(2)
    expect(page.locator("#scoresheet svg .stack[data-side='0'][data-point='7']")).to_have_count(1)
    shoot(page, "scoresheet-conflict-phone")

    # Offline again: Black's 2-1 (checked), then White's 3-3 stacking four checkers on 4,
    # which only the dice constrain offline (R5 forbids bands on 2–11).
    page.context.set_offline(True)
    sheet.play(Act("play", dice=(2, 1), steps=((1, 3), (1, 2)), side=1))
    sheet.dice((3, 3))
    expect(page.locator("#sheet-hint")).to_be_visible()
    for _ in range(4):
        sheet.tap("1")
        sheet.tap("4")
    page.locator("#sheet-controls button[data-act=confirm]").click()
    expect(page.locator("#sheet-net")).to_have_attribute("data-waiting", "2")
    page.context.set_offline(False)
    expect(banner).to_have_class(re.compile(r"\bbad\b"), timeout=15_000)
    message = banner.locator(".engine-message")
    expect(message).to_contain_text("R5")  # the rule it breaks, in the page's Swedish
    expect(message).not_to_contain_text("may not")
    assert device.state()["seq"] == 3  # Black's turn stored, White's refused
    shoot(page, "scoresheet-refused-phone")
    banner.locator("button[data-act=correct]").click()
    expect(banner).to_be_hidden()
    sheet.wait_saved(3)
    expect(sheet.root).to_have_attribute("data-phase", "roll")


def test_backgammon_with_the_cube(live_server: Any, new_page: Any) -> None:
    """The opening roll, a double taken, a redouble dropped — all on the page; the game's
    result (two points to the redoubler) enters itself and the next game starts."""
    base = live_server.url
    match, user = _match("p-bg", lengths=[5], game="backgammon")
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    device = Device(match, user)
    page.locator("#sheet-controls button[data-act=begin-entered]").click()
    expect(sheet.root).to_have_attribute("data-phase", "start")
    # Player 0 throws 5, player 1 throws 2: player 0 starts and plays 5-2.
    page.locator(".die-row[data-name=tek-0] button[data-die='5']").click()
    page.locator(".die-row[data-name=tek-1] button[data-die='2']").click()
    sheet.wait_saved(1)
    expect(sheet.root).to_have_attribute("data-phase", "move")

    def page_turn(dice: tuple[int, int] | None) -> None:
        state = device.state()
        legal = state["legal"]
        key = _key(dice) if dice else next(iter(legal))
        play = legal[key][0]
        side = state["to_move"]
        act = Act("play", dice=dice, steps=tuple((a, b) for a, b in play), side=side)
        act = Act("play", dice, act.steps, side, _distinct(legal[key]))
        sheet.play(act, forced=act.choices == 1)
        sheet.wait_saved(state["seq"] + 1)

    page_turn(None)  # the opening 5-2
    # Player 1 doubles before rolling; player 0 takes.
    page.locator("#sheet-controls button[data-act=double]").click()
    sheet.wait_saved(3)
    expect(sheet.root).to_have_attribute("data-phase", "cube")
    expect(page.locator("#scoresheet svg .cube.offered")).to_have_count(1)
    shoot(page, "scoresheet-cube-phone")
    page.locator("#sheet-controls button[data-act=take]").click()
    sheet.wait_saved(4)
    expect(page.locator("#scoresheet svg .cube")).to_have_attribute("data-value", "2")
    page_turn((6, 4))  # player 1 plays
    # Another device records two turns.
    for dice in ((3, 1), (5, 5)):
        state = device.state()
        act = Act("play", dice=dice, steps=_steps(state["legal"][_key(dice)][0]))
        assert device.post(act).status_code == 201
    expect(sheet.root).to_have_attribute("data-seq", "7", timeout=15_000)
    # Player 0 owns the cube and redoubles; player 1 drops: player 0 wins 2 points.
    assert device.state()["to_move"] == 0
    page.locator("#sheet-controls button[data-act=double]").click()
    sheet.wait_saved(8)
    page.locator("#sheet-controls button[data-act=drop]").click()
    sheet.wait_saved(9)
    match.refresh_from_db()
    assert (match.points1, match.points2) == (2, 0)
    finished = LiveGame.objects.get(match=match, number=1)
    assert finished.outcome is not None and finished.outcome["points"] == 2
    assert finished.submission is not None
    sub = finished.submission
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED), sub.message
    # The next game is being recorded: its opening roll is asked for, the last result shown.
    expect(sheet.root).to_have_attribute("data-phase", "start")
    expect(page.locator("#sheet-controls .sheet-note")).to_be_visible()
    _no_sideways_scroll(page)
    shoot(page, "scoresheet-next-game-phone")


@pytest.mark.parametrize("size", [(1280, 900), (800, 1280)], ids=["wide", "tablet"])
def test_wide_screens_put_the_controls_beside_or_under_the_board(
    live_server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    """On a wide screen the controls stand beside the board; on a tablet standing between
    the players the board is large and the dice under it; the board can be turned for the
    other side. The match page and the tournament page show the board being recorded."""
    base = live_server.url
    match, user = _match(f"p-wide-{size[0]}", lengths=[3], rules="talisman")
    device = Device(match, user)
    assert device.start().status_code == 201
    for act in simulate("brade", 7, prefix=[], rules="talisman", names=("P001", "P002"))[:9]:
        assert device.post(act).status_code == 201
    page = new_page(*size)
    login(page, base, user.username)
    page.goto(f"{base}/matches/{match.pk}/record/")
    root = page.locator("#scoresheet")
    expect(root).to_have_attribute("data-seq", "9")
    page.locator(".die-row button[data-die='5']").click()
    page.locator(".die-row button[data-die='3']").click()
    board = page.locator("#scoresheet svg.board").bounding_box()
    dice = page.locator("#sheet-controls").bounding_box()
    assert board is not None and dice is not None
    if size[0] > size[1]:
        assert dice["x"] >= board["x"] + board["width"]  # beside the board
    else:
        assert dice["y"] >= board["y"] + board["height"]  # under it
        assert board["width"] >= size[0] * 0.9
    shoot(page, f"scoresheet-record-{size[0]}")
    # Turned for the other side: Black's home (White's 13) is drawn where White's 1 was.
    black_home = page.locator("#scoresheet svg .stack[data-side='1'][data-point='13']")
    count = black_home.get_attribute("data-count")
    page.locator("#sheet-flip").click()
    expect(page.locator("#sheet-flip")).to_have_attribute("aria-pressed", "true")
    turned = page.locator("#scoresheet svg .stack[data-side='1'][data-point='1']")
    expect(turned).to_have_attribute("data-count", count or "")
    shoot(page, f"scoresheet-record-turned-{size[0]}")
    page.goto(f"{base}/matches/{match.pk}/")
    expect(page.locator("#live-board")).to_be_visible()
    shoot(page, f"scoresheet-match-live-{size[0]}")
    page.goto(f"{base}/tournaments/{match.tournament.pk}/")
    expect(page.locator("#live-boards li.live-small")).to_have_count(1)
    shoot(page, f"scoresheet-tournament-live-{size[0]}")


def test_rolled_dice_and_a_resignation(live_server: Any, new_page: Any) -> None:
    """A club that lets the site roll: the tek and the dice rolled by the site, the turn
    tapped in; then a player resigns before rolling (R14) and the next game starts."""
    base = live_server.url
    match, user = _match("p-rolled", lengths=[3], rules="vasa")
    sheet = _open(new_page, base, user.username, match)
    page = sheet.page
    device = Device(match, user)
    page.locator("#sheet-controls button[data-act=begin-rolled]").click()
    expect(sheet.root).to_have_attribute("data-phase", "start")
    page.locator("#sheet-controls button[data-act=roll-start]").click()
    sheet.wait_saved(1)
    expect(sheet.root).to_have_attribute("data-phase", "roll")
    page.locator("#sheet-controls button[data-act=roll]").click()
    sheet.wait_saved(2)
    expect(sheet.root).to_have_attribute("data-phase", "move")
    state = device.state()
    assert state["dice"] and state["phase"] == "move"
    plays = next(iter(state["legal"].values()))
    act = Act("play", None, _steps(plays[0]), state["to_move"], _distinct(plays))
    sheet.play(act, forced=act.choices == 1)
    sheet.wait_saved(3)
    shoot(page, "scoresheet-rolled-phone")
    # The other player resigns at the start of the turn; asked once more on the page.
    loser = device.state()["to_move"]
    page.locator("#sheet-controls button[data-act=resign]").click()
    page.locator("#sheet-controls button[data-act=resign-cancel]").click()
    expect(page.locator("#sheet-controls button[data-act=roll]")).to_be_visible()
    page.locator("#sheet-controls button[data-act=resign]").click()
    page.locator("#sheet-controls button[data-act=resign-yes]").click()
    sheet.wait_saved(4)
    finished = LiveGame.objects.get(match=match, number=1)
    assert finished.outcome is not None and finished.outcome["winner"] == 1 - loser
    _record_replays(match, finished.outcome["words"])
    # Game 2 is being recorded, started by the loser of game 1 (R2), the result shown.
    state = device.state()
    assert state["game_number"] == 2 and state["to_move"] == loser
    expect(page.locator("#sheet-controls .sheet-note")).to_be_visible()
    expect(sheet.root).to_have_attribute("data-phase", "roll")


def test_a_game_recorded_through_a_private_link(live_server: Any, new_page: Any) -> None:
    """A player without an account opens their private link on a phone, taps "Record" for
    the match being played and records a short game (the tek, two turns, a resignation);
    the result is their report, which the opponent confirms through their own link, and
    the confirmed game is verified by its record."""
    base = live_server.url
    setup = drawn(2, lengths=[1], rules="talisman", results_by="players")
    match = match_of(setup.tournament, 1, 0)
    one, two = players_of(match)
    mine = private_link_issue(tournament=setup.tournament, player=one, by=setup.organiser)
    theirs = private_link_issue(tournament=setup.tournament, player=two, by=setup.organiser)
    acts = simulate(
        "brade", 5, prefix=[Act("start", dice=(2, 5))], rules="talisman", names=("P001", "P002")
    )
    page = new_page(**PHONE)
    page.goto(f"{base}/p/{private_link_token(mine)}/")
    _no_sideways_scroll(page)
    shoot(page, "scoresheet-private-link-home-phone")
    page.locator(f"#match-{match.pk} a.private-record").click()
    page.wait_for_url(f"{base}/matches/{match.pk}/record/")
    sheet = Sheet(page, "brade")
    _no_sideways_scroll(page)
    page.locator("#sheet-controls button[data-act=begin-entered]").click()
    expect(sheet.root).to_have_attribute("data-phase", "start")
    page.locator(".die-row[data-name=tek-0] button[data-die='2']").click()
    page.locator(".die-row[data-name=tek-1] button[data-die='5']").click()
    sheet.wait_saved(1)
    for act in acts[1:3]:  # White's turn, then Black's
        seq = sheet.seq()
        sheet.play(act, forced=act.choices == 1)
        sheet.wait_saved(seq + 1)
    shoot(page, "scoresheet-private-link-phone")
    # White resigns before rolling (R14): Black wins game 1, reported through the link.
    page.locator("#sheet-controls button[data-act=resign]").click()
    page.locator("#sheet-controls button[data-act=resign-yes]").click()
    sheet.wait_saved(4)
    expect(sheet.root).to_have_attribute("data-phase", "over")
    report = GameReport.objects.get(match=match)
    assert (report.state, report.reporter_id, report.winner) == ("pending", one.pk, "B")
    submitted = MatchEvent.objects.get(match=match, kind=EventKind.REPORT_SUBMITTED)
    assert submitted.data["private_link"] == mine.pk
    assert set(PrivateLinkUse.objects.filter(link=mine).values_list("action", flat=True)) == {
        "record",
        "turn",
    }
    # The opponent confirms on their own link's page.
    other = new_page(**PHONE)
    other.goto(f"{base}/p/{private_link_token(theirs)}/")
    other.locator(f"#answer-{report.pk} button.primary").click()
    expect(other.locator(f"#answer-{report.pk}")).to_have_count(0)
    game = Game.objects.get(match=match, number=1)
    assert game.winner == "B" and game.verified
    live = LiveGame.objects.get(match=match, number=1)
    assert game.verified_by_id == live.submission_id
    _record_replays(match, live.outcome["words"] if live.outcome else "")
