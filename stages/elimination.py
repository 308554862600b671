"""Knockout brackets as pure descriptions of slots: which source feeds each side of a match.

A bracket is a tuple of :class:`BracketMatch` in playing order (every source refers to an
earlier match). Each side of a match is fed by a :class:`Source`: *seed k* (the player
with seed line number k, as ``stages.knockout`` numbers them: seeds first, then the
drawn players), the *winner of X* or the *loser of X*. Byes are resolved here: a bracket is
laid out on the smallest power of two ``N ≥ n`` with the standard seeding order (seeds 1
and 2 meet at the earliest in the final, byes fall against the top seeds, in round 1
only), and every match with a bye on one side is removed, its winner taking its place and
its loser becoming a bye in turn. What is left are the real matches, and only they have
codes:

- ``M{r}.{i}``: the main bracket of a single elimination (round r, match i from the top);
- ``C{r}.{i}``: the consolation bracket;
- ``W{r}.{i}``, ``L{r}.{i}``: the winners' and the losers' bracket of a double elimination;
  ``GF``: the grand final; ``GF2``: the reset, played only when the losers' bracket's
  player wins ``GF`` (``if_needed``).

Formats
-------
- :func:`single_elimination`: today's knockout; n − 1 matches.
- :func:`consolation` with ``progressive=False`` (*simple*): the players who lose their
  first match play a second knockout: the losers of round 1, and, for a player who had a
  bye in round 1, the loser of its round-2 match if that was its first match (a source with
  ``first_match_only``; otherwise that side is empty and the other advances, as after a
  bye). Every entrant then plays at least two matches once n ≥ 4.
- :func:`consolation` with ``progressive=True``: the losers of every main round but the
  final enter the consolation, later losers deeper: it is the losers' bracket below,
  without the final's loser, ending in a consolation final.
- :func:`double_elimination`: winners' bracket, losers' bracket, grand final and, with
  ``reset=True``, the reset. With the reset every player but the champion leaves after
  exactly two losses: 2n − 2 matches, or 2n − 1 when the reset is played. Without it the
  grand final is the last match (2n − 2), and its loser may leave after one loss.

The losers' bracket
-------------------
Round 1 pairs the losers of winners' round 1 two by two (the losers of W1.1 and W1.2, …).
Then, for each later winners' round r, a *drop-in* round pairs each survivor with a loser
of W r, followed by a round that pairs the survivors two by two. The aim, as in the usual
practice of feeding the dropped players across the draw, is that nobody meets, in its
first losers'-bracket match, a player from its own part of the draw (whom it may have
beaten already). The common charts reverse the order of the losers at every drop-in;
reversing every time brings a dropped player back to its own part of the draw from 16
players on. Here the loser of W r.i enters drop-in match ``i XOR m`` (counting from 0)
with m = 1, *crossed pairwise*: the match next to its own. In a full bracket the block a
loser comes from and the block it enters then never overlap at any level, so no drop-in
is a rematch; the loser of the winners' final has one place to go and may meet an earlier
opponent. Byes thin the losers' bracket, and a dropped player may pass an empty match
and meet the survivors of the next block, which can be its own; so for each winners'
round in turn, when mask 1 leaves such a risk, the smallest mask without one is taken.
When no mask is safe (fields just over half a power of two, where a round's losers
outnumber the survivors they can safely meet), mask 1 stays, and :func:`drop_in_risks`
names the rounds whose losers may meet an earlier opponent.

:func:`resolve` follows a bracket through the results known so far: who plays each match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

SEED = "seed"
WINNER = "winner"
LOSER = "loser"
BYE = "bye"

# In resolve(): 0 is "nobody" (the side stays empty; the other player advances unplayed).
NOBODY = 0


@dataclass(frozen=True, slots=True)
class Source:
    """What feeds one side of a match: ``seed`` k, ``winner``/``loser`` of a match, or a
    ``bye``. ``first_match_only``: the loser only if that match was its first."""

    kind: str
    seed: int = 0
    match: str = ""
    first_match_only: bool = False

    def label(self) -> str:
        if self.kind == SEED:
            return f"seed {self.seed}"
        if self.kind == BYE:
            return "bye"
        text = f"{self.kind} of {self.match}"
        return text + " if it was its first match" if self.first_match_only else text


@dataclass(frozen=True, slots=True)
class BracketMatch:
    code: str
    bracket: str  # "main", "consolation", "winners", "losers" or "final"
    round: int
    number: int
    top: Source
    bottom: Source
    if_needed: bool = False


@dataclass(frozen=True)
class Bracket:
    format: str  # "single", "consolation", "progressive" or "double"
    players: int
    size: int
    matches: tuple[BracketMatch, ...]
    # The layout: for each bracket, the number of places in each of its rounds on the full
    # power-of-two layout, byes' matches included (a removed match's place stays empty
    # where the bracket is drawn, so each match sits between the matches that feed it).
    # The same for every field of the same size.
    places: Mapping[str, tuple[int, ...]] = field(default_factory=dict, compare=False)

    def match(self, code: str) -> BracketMatch:
        for m in self.matches:
            if m.code == code:
                return m
        raise KeyError(code)


def bracket_size(players: int) -> int:
    """The smallest power of two ≥ ``players`` (at least 2)."""
    if players < 2:
        raise ValueError(f"a knockout needs at least 2 players, not {players}")
    size = 2
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers by line, top to bottom (``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8): each seed
    s of the half-size bracket becomes the pair (s, size + 1 − s), so the sum of the two
    seeds on every first-round pair is size + 1 and the two halves hold 1 and 2."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two ≥ 2, not {size}")
    order = [1]
    n = 1
    while n < size:
        n *= 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def _seed(k: int) -> Source:
    return Source(SEED, seed=k)


def _winner(code: str) -> Source:
    return Source(WINNER, match=code)


def _loser(code: str, first_match_only: bool = False) -> Source:
    return Source(LOSER, match=code, first_match_only=first_match_only)


_BYE = Source(BYE)


class _Builder:
    """Raw matches on the full power-of-two layout, byes removed by :meth:`finish`."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.size = bracket_size(players)
        self.rounds = self.size.bit_length() - 1
        self.raw: list[BracketMatch] = []
        self.numbers: dict[str, int] = {}

    def add(self, prefix: str, bracket: str, rnd: int, top: Source, bottom: Source) -> str:
        number = self.numbers.get(f"{prefix}{rnd}", 0) + 1
        self.numbers[f"{prefix}{rnd}"] = number
        code = f"{prefix}{rnd}.{number}"
        self.raw.append(BracketMatch(code, bracket, rnd, number, top, bottom))
        return code

    def main(self, prefix: str, bracket: str) -> list[list[str]]:
        """The main (or winners') bracket; the codes of each round's matches."""
        order = seed_order(self.size)
        rounds = [
            [
                self.add(prefix, bracket, 1, _seed(order[2 * i]), _seed(order[2 * i + 1]))
                for i in range(self.size // 2)
            ]
        ]
        for r in range(2, self.rounds + 1):
            prev = rounds[-1]
            rounds.append(
                [
                    self.add(prefix, bracket, r, _winner(prev[2 * i]), _winner(prev[2 * i + 1]))
                    for i in range(len(prev) // 2)
                ]
            )
        return rounds

    def losers(
        self,
        prefix: str,
        bracket: str,
        main: list[list[str]],
        last_drop: int,
        masks: Mapping[int, int],
    ) -> str:
        """A losers' bracket fed by the main rounds 1…``last_drop``; the code of its final.
        The losers of main round r enter drop-in match ``i XOR masks[r]``."""
        rnd = 1
        current = [
            self.add(prefix, bracket, rnd, _loser(main[0][2 * i]), _loser(main[0][2 * i + 1]))
            for i in range(len(main[0]) // 2)
        ]
        for r in range(2, last_drop + 1):
            dropping = main[r - 1]
            rnd += 1
            mask = masks.get(r, 1) if len(dropping) >= 2 else 0
            current = [
                self.add(prefix, bracket, rnd, _winner(current[i]), _loser(dropping[i ^ mask]))
                for i in range(len(current))
            ]
            if len(current) > 1 and r < last_drop:
                rnd += 1
                current = self._pairwise(prefix, bracket, rnd, current)
        while len(current) > 1:
            rnd += 1
            current = self._pairwise(prefix, bracket, rnd, current)
        return current[0]

    def _pairwise(self, prefix: str, bracket: str, rnd: int, codes: list[str]) -> list[str]:
        return [
            self.add(prefix, bracket, rnd, _winner(codes[2 * i]), _winner(codes[2 * i + 1]))
            for i in range(len(codes) // 2)
        ]

    def finish(self, fmt: str) -> Bracket:
        """Remove the matches with a bye; renumber nothing (codes keep the layout)."""
        won: dict[str, Source] = {}
        lost: dict[str, Source] = {}

        def resolve(source: Source) -> Source:
            if source.kind == SEED and source.seed > self.players:
                return _BYE
            if source.kind == WINNER and source.match in won:
                return won[source.match]
            if source.kind == LOSER and source.match in lost:
                replaced = lost[source.match]
                if replaced.kind == LOSER and source.first_match_only:
                    return _loser(replaced.match, True)
                return replaced
            return source

        kept: list[BracketMatch] = []
        for m in self.raw:
            top, bottom = resolve(m.top), resolve(m.bottom)
            if top.kind == BYE or bottom.kind == BYE:
                won[m.code] = bottom if top.kind == BYE else top
                lost[m.code] = _BYE
                continue
            kept.append(
                BracketMatch(m.code, m.bracket, m.round, m.number, top, bottom, m.if_needed)
            )
        counts: dict[str, dict[int, int]] = {}
        for m in self.raw:
            rounds = counts.setdefault(m.bracket, {})
            rounds[m.round] = rounds.get(m.round, 0) + 1
        places = {
            name: tuple(rounds.get(r, 0) for r in range(1, max(rounds) + 1))
            for name, rounds in counts.items()
        }
        return Bracket(fmt, self.players, self.size, tuple(kept), places)


def single_elimination(players: int) -> Bracket:
    """Today's knockout: n − 1 matches."""
    b = _Builder(players)
    b.main("M", "main")
    return b.finish("single")


def consolation(players: int, *, progressive: bool = False) -> Bracket:
    """A knockout with a consolation bracket, simple or progressive (module docstring)."""
    b = _Builder(players)
    main = b.main("M", "main")
    if b.rounds < 2:
        return b.finish("progressive" if progressive else "consolation")
    if progressive:

        def build(masks: Mapping[int, int]) -> Bracket:
            b = _Builder(players)
            main = b.main("M", "main")
            b.losers("C", "consolation", main, b.rounds - 1, masks)
            return b.finish("progressive")

        return _crossed(build, b.rounds - 1)
    # Simple: the first-round losers; a bye's place goes to the loser of the round-2 match
    # it fed, when that was the loser's first match.
    order = seed_order(b.size)
    entries: list[Source] = []
    for i, code in enumerate(main[0]):
        has_bye = max(order[2 * i], order[2 * i + 1]) > players
        if not has_bye:
            entries.append(_loser(code))
            continue
        sibling = i ^ 1
        sibling_bye = max(order[2 * sibling], order[2 * sibling + 1]) > players
        if sibling_bye and i > sibling:
            entries.append(_BYE)  # both players of that round-2 match had byes: one place
        else:
            # If both had byes, the loser's first match is that round-2 match either way.
            entries.append(_loser(main[1][i // 2], first_match_only=not sibling_bye))
    rnd = 1
    current = [
        b.add("C", "consolation", rnd, entries[2 * i], entries[2 * i + 1])
        for i in range(len(entries) // 2)
    ]
    while len(current) > 1:
        rnd += 1
        current = b._pairwise("C", "consolation", rnd, current)
    return b.finish("consolation")


def double_elimination(players: int, *, reset: bool = True) -> Bracket:
    """Winners' and losers' brackets and the grand final (module docstring)."""

    def build(masks: Mapping[int, int]) -> Bracket:
        b = _Builder(players)
        winners = b.main("W", "winners")
        champion_w = winners[-1][0]
        if b.rounds == 1:
            from_losers = _loser(champion_w)
        else:
            from_losers = _winner(b.losers("L", "losers", winners, b.rounds, masks))
        b.raw.append(BracketMatch("GF", "final", 1, 1, _winner(champion_w), from_losers))
        if reset:
            b.raw.append(BracketMatch("GF2", "final", 2, 1, _winner(champion_w), from_losers, True))
        return b.finish("double")

    return _crossed(build, bracket_size(players).bit_length() - 1)


def _crossed(build: Callable[[Mapping[int, int]], Bracket], last_drop: int) -> Bracket:
    """The bracket with, round by round, the smallest crossing mask (1 first) that leaves
    no drop-in risk in that round; a round where every mask leaves one keeps mask 1."""
    masks: dict[int, int] = {}
    bracket = build(masks)
    for r in range(2, last_drop + 1):
        width = bracket.size >> r
        if width < 2 or r not in drop_in_risks(bracket):
            continue
        for mask in range(2, width):
            trial = build({**masks, r: mask})
            if r not in drop_in_risks(trial):
                masks[r] = mask
                bracket = trial
                break
    return bracket


def drop_in_risks(bracket: Bracket) -> frozenset[int]:
    """The main rounds whose losers could meet, in their first match below, a player from
    their own part of the draw (whom they may have played already): empty when every
    drop-in is safe. The loser of the main final (one place to go) is not counted."""
    main = {"double": "W", "progressive": "M"}.get(bracket.format)
    if main is None:
        return frozenset()
    reach: dict[str, int] = {}  # match → bit set of the seeds that can play in it

    def seeds(source: Source) -> int:
        return 1 << source.seed if source.kind == SEED else reach[source.match]

    risks: set[int] = set()
    for m in bracket.matches:
        reach[m.code] = seeds(m.top) | seeds(m.bottom)
        if m.bracket not in ("losers", "consolation"):
            continue
        for side, other in ((m.top, m.bottom), (m.bottom, m.top)):
            if side.kind != LOSER or not side.match.startswith(main):
                continue
            rnd = int(side.match[len(main) : side.match.index(".")])
            if bracket.size >> rnd >= 2 and reach[side.match] & seeds(other):
                risks.add(rnd)
    return frozenset(risks)


def resolve(
    bracket: Bracket, winners: Mapping[str, int]
) -> dict[str, tuple[int | None, int | None]]:
    """Who plays each match, given the winners (seed numbers) of the matches decided so far:
    a seed number, ``None`` while not yet known, or :data:`NOBODY` when the side stays empty
    (a ``first_match_only`` loser who had played before, or a reset that is not needed). A
    match with an empty side is not played: the other player advances."""
    sides: dict[str, tuple[int | None, int | None]] = {}
    won: dict[str, int | None] = {}
    lost: dict[str, int | None] = {}
    played: dict[int, int] = {}

    def feed(source: Source) -> int | None:
        if source.kind == SEED:
            return source.seed
        if source.kind == BYE:
            return NOBODY
        result = won.get(source.match) if source.kind == WINNER else lost.get(source.match)
        if source.first_match_only and result not in (None, NOBODY):
            # Its first match is the one it lost here, so it has played exactly once.
            return result if played.get(result) == 1 else NOBODY
        return result

    for m in bracket.matches:
        top, bottom = feed(m.top), feed(m.bottom)
        if m.if_needed:
            gf = sides.get("GF", (None, None))
            if won.get("GF") is None:
                top = bottom = None
            elif won["GF"] != gf[1]:
                top = bottom = NOBODY
        sides[m.code] = (top, bottom)
        if top is None or bottom is None:
            won[m.code] = lost[m.code] = None
        elif top == NOBODY or bottom == NOBODY:
            won[m.code] = bottom if top == NOBODY else top
            lost[m.code] = NOBODY
        else:
            for p in (top, bottom):
                played[p] = played.get(p, 0) + 1
            winner = winners.get(m.code)
            if winner is None:
                won[m.code] = lost[m.code] = None
            elif winner not in (top, bottom):
                raise ValueError(f"{winner} does not play in {m.code}")
            else:
                won[m.code] = winner
                lost[m.code] = bottom if winner == top else top
    return sides
