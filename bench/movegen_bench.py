"""Benchmark of ``engine.movegen.legal_plays`` (the speed goals; never a timed test).

Positions come from seeded random games (a random legal play every turn) under each rule
set; every sampled position is timed with a fixed set of non-double and double rolls.
Goals on one core, CPython: ≥ 10,000 calls/s for non-doubles, ≥ 1,000 for doubles.
Also times ``Game.play_turn`` verifying a random legal play (no full generation unless
the play leaves part of the roll unused).

Usage: ``python bench/movegen_bench.py [--games N] [--repeat R]``. Prints figures; the
last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game
from engine.movegen import legal_plays
from engine.position import Position
from engine.rules import RuleSet
from engine.types import Side

RULE_SETS = [
    RuleSet.from_names("talisman"),
    RuleSet.from_names("helmfrid"),
    RuleSet.from_names("board"),
    RuleSet.from_names("vasa"),
]
NON_DOUBLES = [(6, 5), (4, 2), (3, 1), (6, 1), (5, 3)]
DOUBLES = [(6, 6), (3, 3), (2, 2), (5, 5), (1, 1)]


def sample_positions(rules: RuleSet, games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        game = Game(rules, starter=rng.choice([Side.WHITE, Side.BLACK]))
        turns = 0
        while game.outcome is None and turns < 2000:
            out.append(game.position)
            dice: tuple[int, ...] = (rng.randint(1, 6), rng.randint(1, 6))
            if game.single_die() == "required":
                dice = (dice[0],)
            play = rng.choice(game.legal_plays(dice))
            game.play_turn(dice, play.pairs())
            turns += 1
    return out


Call = tuple[Position, tuple[int, ...], RuleSet]


def generate_all(calls: Sequence[Call]) -> None:
    for position, dice, rules in calls:
        legal_plays(position, dice, rules)


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="random games per rule set")
    parser.add_argument("--repeat", type=int, default=3, help="timing repeats (best is kept)")
    args = parser.parse_args()

    figures: dict[str, object] = {"python": sys.version.split()[0]}
    all_nd: list[Call] = []
    all_d: list[Call] = []
    for i, rules in enumerate(RULE_SETS):
        positions = sample_positions(rules, args.games, seed=1000 + i)
        nd = [(p, d, rules) for p in positions for d in NON_DOUBLES]
        dd = [(p, d, rules) for p in positions for d in DOUBLES]
        all_nd += nd
        all_d += dd
        t_nd = best_of(args.repeat, partial(generate_all, nd))
        t_d = best_of(args.repeat, partial(generate_all, dd))
        print(
            f"{rules.name:9s} {len(positions):6d} positions: non-doubles "
            f"{len(nd) / t_nd:10,.0f} calls/s, doubles {len(dd) / t_d:9,.0f} calls/s"
        )
        figures[f"{rules.name}_nondouble_calls_per_s"] = round(len(nd) / t_nd)
        figures[f"{rules.name}_double_calls_per_s"] = round(len(dd) / t_d)
    t_nd = best_of(args.repeat, partial(generate_all, all_nd))
    t_d = best_of(args.repeat, partial(generate_all, all_d))
    figures["nondouble_calls_per_s"] = round(len(all_nd) / t_nd)
    figures["double_calls_per_s"] = round(len(all_d) / t_d)
    print(f"all rule sets: non-doubles {len(all_nd) / t_nd:,.0f} calls/s ({len(all_nd)} calls)")
    print(f"all rule sets: doubles     {len(all_d) / t_d:,.0f} calls/s ({len(all_d)} calls)")

    # Verifying submitted plays (Game.play_turn on a random legal play).
    rng = random.Random(7)
    cases: list[tuple[Position, tuple[int, int], tuple[tuple[int, int], ...], RuleSet]] = []
    for p, d, r in all_nd[:: len(NON_DOUBLES)][:2000]:
        plays = legal_plays(p, d, r)
        cases.append((p, (d[0], d[1]), rng.choice(plays).pairs(), r))

    def verify_all() -> None:
        for p, d, steps, r in cases:
            Game(r, position=p).play_turn(d, steps)

    t_v = best_of(args.repeat, verify_all)
    figures["play_turn_verify_per_s"] = round(len(cases) / t_v)
    print(f"play_turn (verify a legal play): {len(cases) / t_v:,.0f} turns/s ({len(cases)} turns)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
