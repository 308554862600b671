"""Record benchmark: the worst shapes of a 1 MB record, and what verifying each costs.

Run: ``.venv/bin/python bench/record_bench.py [--repeat N] [--profile SHAPE]``.

Each shape is built as close to the 1 MB limit (``engine.record.MAX_RECORD_BYTES``) as
it goes and verified on the real path: what the verification task runs,
``matches.records._real_replay`` (the engine's replay with the match's scorer and game
limit) for a match of length 25 (``scoring.match.MAX_MATCH_LENGTH``), capped
resignations: at most 75 games (``scoring.report.max_games``). Shapes marked "command"
go through ``manage.py replay``'s path instead (the record's own tags; without a
``Length`` tag there is no match, so no game limit).

Shapes: resignations only; forfeited rolls only (a set-up position where neither side
can move a 6-6, 9,998 rolls of it per game, then a resignation); the longest legal games
a seeded random player made (rolls of ones and twos, hits preferred, the game's end put
off). Each within the game limit and past it. Printed: bytes, games and turns in the
record, games and turns replayed, the verdict, and the CPU seconds of one core (best of
``--repeat``). Goal: every shape under 3 s. The LAST line is one JSON object.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django

django.setup()

from engine.game import Game  # noqa: E402
from engine.movegen import legal_plays  # noqa: E402
from engine.position import Position  # noqa: E402
from engine.record import MAX_RECORD_BYTES, MAX_TURNS_PER_GAME  # noqa: E402
from engine.replay import ReplayReport, replay_text  # noqa: E402
from engine.rules import RuleSet  # noqa: E402
from matches.records import _real_replay  # noqa: E402
from scoring.report import match_scorer, max_games_from_tags  # noqa: E402

LENGTH = 25
MATCH = SimpleNamespace(
    length=LENGTH,
    tournament=SimpleNamespace(game="brade", scale="ww", resignation_policy="capped"),
)
LIMIT = 3 * LENGTH  # scoring.report.max_games(length=25, policy="capped")
INITIAL = "W 1:15 | B 1:15 | W"
# Neither side can move a 6-6: White's 1 -> 7 lands on Black's band (Black's 19), Black's
# 7 -> 13 on White's home band, and Black may not bear off with a checker on 7. White
# (only on its point 1) may resign at any turn of its own (R14).
FORFEIT = "W 1:15 | B 7 19:14 | W"


def fill(head: str, games: Callable[[int], str], budget: int = MAX_RECORD_BYTES) -> str:
    """``head`` then games ``games(1)``, ``games(2)``… while the record stays in budget."""
    parts = [head]
    size = len(head.encode())
    number = 1
    while True:
        game = games(number)
        grown = size + len(game.encode())
        if grown > budget:
            return "".join(parts)
        parts.append(game)
        size = grown
        number += 1


def resignations(count: int | None, head: str = "") -> str:
    """Resigned games, the two players in turn so the cap (n each) lasts 2n games: White
    resigns; White, the loser, starts the next and Black resigns after one roll; Black
    starts the next and resigns; Black starts the next and White resigns after one roll."""
    cycle = (
        "W resigns\n",
        "W 2-1: 1/3 1/2\nB resigns\n",
        "B resigns\n",
        "B 2-1: 1/3 1/2\nW resigns\n",
    )

    def game(n: int) -> str:
        opening = "Starter: White\n" if n == 1 else ""
        return f"\nGame {n}\n{opening}{cycle[(n - 1) % 4]}"

    if count is None:
        return fill(head, game)
    return head + "".join(game(n) for n in range(1, count + 1))


def forfeits(turns_per_game: int, count: int | None, head: str = "") -> str:
    """Games from FORFEIT: ``turns_per_game`` forfeited 6-6 rolls (even), then White
    resigns."""
    body = "W 6-6: -\nB 6-6: -\n" * (turns_per_game // 2)

    def game(n: int) -> str:
        return f"\nGame {n}\nPosition: {FORFEIT}\n{body}W resigns\n"

    if count is None:
        return fill(head, game)
    return head + "".join(game(n) for n in range(1, count + 1))


def long_game(rng: random.Random, rules: RuleSet, min_turns: int) -> list[str]:
    """One legal game from the initial position: the turn lines. Until ``min_turns``:
    rolls of ones, twos and threes, a play that does not end the game and a hit
    preferred; then any roll and a play without a hit, so the game comes to its end."""
    game = Game(rules, position=Position.from_text(INITIAL))
    lines: list[str] = []
    rolls = [(2, 1), (1, 1), (2, 2), (2, 1), (3, 1)]
    while game.outcome is None and len(lines) < MAX_TURNS_PER_GAME - 1:
        if len(lines) < min_turns:
            dice = rng.choice(rolls)
        else:  # any roll: small dice alone could leave a side on the bar for good
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(game.position, dice, rules)
        if len(lines) < min_turns:
            going_on = []
            for play in plays:
                trial = Game(rules, position=game.position)
                trial.play_turn(dice, play.pairs())
                if trial.outcome is None:
                    going_on.append(play)
            plays = going_on or plays
            hits = [p for p in plays if any(s.hit or s.blast for s in p.steps)]
            plays = hits or plays  # a hit sends a checker back: the game lasts longer
        else:
            calm = [p for p in plays if not any(s.hit or s.blast for s in p.steps)]
            plays = calm or plays  # no more hits: the game runs to its end
        play = rng.choice(plays)
        side = game.position.to_move
        game.play_turn(dice, play.pairs())
        lines.append(f"{side.value} {dice[0]}-{dice[1]}: {play.text()}")
    if game.outcome is None:
        raise SystemExit("a generated game did not end within the turn limit")
    return lines


def long_games(seed: int, how_many: int, min_turns: int) -> list[str]:
    rng = random.Random(seed)
    rules = RuleSet.from_names("talisman")
    return ["\n".join(long_game(rng, rules, min_turns)) + "\n" for _ in range(how_many)]


def longest(pool: list[str], count: int | None, head: str = "") -> str:
    def game(n: int) -> str:
        return f"\nGame {n}\nPosition: {INITIAL}\n{pool[(n - 1) % len(pool)]}"

    if count is None:
        return fill(head, game)
    text = head
    for n in range(1, count + 1):
        more = game(n)
        if len((text + more).encode()) > MAX_RECORD_BYTES:
            break
        text += more
    return text


def verify_task(text: str) -> ReplayReport:
    """What the verification task runs for a match of length 25."""
    report = _real_replay(text, match=MATCH)  # type: ignore[arg-type]
    assert isinstance(report, ReplayReport)  # bräde's record form
    return report


def verify_command(text: str) -> ReplayReport:
    """What ``manage.py replay`` runs (the record's own tags)."""
    return replay_text(text, match_scorer=match_scorer, max_games=max_games_from_tags)


def cpu_best(repeat: int, work: Callable[[], Any]) -> float:
    """The fastest of ``repeat`` runs, in CPU seconds of this process (one core)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def turns_in(text: str) -> int:
    return sum(1 for line in text.split("\n") if line[:2] in ("W ", "B ") and "resigns" not in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", help="profile one verification of this shape")
    args = parser.parse_args()

    pool = long_games(seed=11, how_many=3, min_turns=2_000)
    per_game = 2 * ((MAX_TURNS_PER_GAME - 2) // 2)  # forfeited rolls, then the resignation
    tagged = f'[Length "{LENGTH}"]\n'
    shapes: list[tuple[str, Callable[[str], ReplayReport], str]] = [
        ("resign, within limit (task)", verify_task, resignations(2 * LENGTH)),
        ("resign, past limit (task)", verify_task, resignations(None)),
        ("resign, no Length (command)", verify_command, resignations(None)),
        ("resign, past limit (command)", verify_command, resignations(None, tagged)),
        ("forfeit, within limit (task)", verify_task, forfeits(per_game, None)),
        ("forfeit, past limit (task)", verify_task, forfeits(1_300, None)),
        ("forfeit, no Length (command)", verify_command, forfeits(per_game, None)),
        ("longest, within limit (task)", verify_task, longest(pool, LIMIT)),
        ("longest, past limit (task)", verify_task, longest(pool, None)),
        ("longest, no Length (command)", verify_command, longest(pool, None)),
    ]
    results: dict[str, dict[str, object]] = {}
    header = (
        f"{'shape':30} {'bytes':>9} {'games':>6} {'turns':>7} {'g.repl':>6} {'t.repl':>7} "
        f"{'verdict':>22} {'cpu s':>7}"
    )
    print(header)
    for name, verify, text in shapes:
        report = verify(text)
        seconds = cpu_best(args.repeat, lambda v=verify, t=text: v(t))  # type: ignore[misc]
        games = text.count("\nGame ")
        verdict = (
            "valid" if report.error is None else f"{report.error.kind} @ game {report.error.game}"
        )
        replayed_turns = sum(g.turns for g in report.games)
        size = len(text.encode())
        print(
            f"{name:30} {size:>9,} {games:>6,} {turns_in(text):>7,} {len(report.games):>6,} "
            f"{replayed_turns:>7,} {verdict:>22} {seconds:>7.3f}"
        )
        results[name] = {
            "bytes": size,
            "games": games,
            "turns": turns_in(text),
            "games_replayed": len(report.games),
            "turns_replayed": replayed_turns,
            "verdict": verdict,
            "cpu_s": round(seconds, 4),
        }
        if args.profile and args.profile in name:
            profile = cProfile.Profile()
            profile.enable()
            verify(text)
            profile.disable()
            pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    worst = max(r["cpu_s"] for r in results.values())  # type: ignore[type-var]
    print(f"worst shape: {worst:.3f} s (goal: under 3 s on one core)")
    print(json.dumps({"worst_cpu_s": worst, "shapes": results}))


if __name__ == "__main__":
    main()
