"""Reads of a Swiss tournament: its standings by the tournament's
tiebreak chain (``stages.tiebreaks``: Buchholz, its cut 1, Sonneborn–Berger …), each
tiebreak's value, why each player is above the next, and its rounds with their pairings,
each pair's scores before the round and the reason it was paired so.

Five queries whatever the field (the entries with their players, the rounds, the matches
with their players, the pairing events, the half-point byes), so the page costs the same
for 16 players as for 256 (``tests/tournaments/test_swiss.py`` counts them;
``bench/pairing_bench.py`` prints them).

Decisions where the issue is silent:
- The standings count the finished rounds only (published, every match with a result,
  a walkover or the bye), as arbiters publish standings after a round: publishing the
  next round, or a result entered in it, moves nobody until the round is over (counting
  a published round without results as a round everyone missed made Buchholz and
  Sonneborn–Berger jump). An unpublished round's pairings are shown to the tournament's
  organisers and referees only (``matches.visibility``).
- A half-point bye (``HalfPointBye``) scores ½ once its round is finished, a voluntarily
  unplayed round for the tiebreaks (``stages.tiebreaks``); it is shown in its round's
  pairings as soon as it is asked for, to the readers who see that round.
- Match points: a won match or walkover 1, the bye 1 (``stages.tiebreaks.MatchPoints``);
  game points and skiljepoäng are the match's cached points, as in a round robin
  (``matches.group_standings``), so every game (bräde, backgammon, Kungabräde) ranks by
  its own scoring.
- A format that pairs by the standings (``FormatSpec.pairs_by_standings``: the Monrad)
  ranks the players level on the whole chain by pairing number (``Entry.pairing_number``),
  the lower first, before the lots: the order its rounds are paired by is the order its
  players see (``matches.swiss_progression`` pairs from these lines' places).
- Lots and withdrawn players as in every table (``matches.standing_lines``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from formats import format_for
from matches import swiss_text
from matches.group_standings import standing_result
from matches.models import (
    FINISHED_STATES,
    EventKind,
    HalfPointBye,
    Match,
    MatchEvent,
    MatchState,
)
from matches.standing_lines import StandingLine, standing_table
from matches.visibility import published_q
from stages.messages import Msg
from stages.tiebreaks import (
    DEFAULT_POINTS,
    HALF,
    Result,
)
from tournaments.models import Entry, Player, Round, RoundKind, Tournament
from tournaments.swiss_rounds import entry_pairing_numbers

__all__ = [
    "SWISS_POINTS",
    "HalfByeView",
    "SwissPairing",
    "SwissRoundView",
    "SwissStandings",
    "published_q",
    "swiss_standings",
    "unplayed_swiss_rounds",
]

SWISS_POINTS = DEFAULT_POINTS  # a win 1, the bye 1
# A match of a round in these states has a game or a result: its pairing is fixed.
STARTED_STATES = (MatchState.DECIDED, MatchState.WALKOVER, MatchState.PLAYING)


@dataclass
class SwissPairing:
    match: Match
    reason: Msg | None
    score1: Decimal  # match points before the round
    score2: Decimal | None  # None: the bye


@dataclass
class HalfByeView:
    player: Player
    score: Decimal  # match points before the round


@dataclass
class SwissRoundView:
    round: Round
    pairings: list[SwissPairing] = field(default_factory=list)
    half_byes: list[HalfByeView] = field(default_factory=list)

    @property
    def paired(self) -> bool:
        return bool(self.pairings)

    @property
    def finished(self) -> bool:
        return self.paired and all(p.match.state in FINISHED_STATES for p in self.pairings)

    @property
    def started(self) -> bool:
        """A game or result is entered (swaps are refused from then on)."""
        return any(p.match.state in STARTED_STATES for p in self.pairings)


@dataclass
class SwissStandings:
    tournament: Tournament
    chain: tuple[str, ...]
    lines: list[StandingLine]
    rounds: int  # the Swiss's number of rounds
    published_rounds: int
    finished_rounds: int
    round_views: list[SwissRoundView]
    entries: list[Entry]
    # Players level on the whole chain are ranked by pairing number (a Monrad), else by lot.
    by_pairing_number: bool = False

    @property
    def label(self) -> str:
        """No group's name: paired rounds are one table."""
        return ""

    @property
    def next_round(self) -> SwissRoundView | None:
        """The first round not paired yet."""
        return next((v for v in self.round_views if not v.paired), None)

    @property
    def unpublished(self) -> SwissRoundView | None:
        """The paired round waiting to be published."""
        return next((v for v in self.round_views if v.paired and not v.round.published), None)

    @property
    def can_pair(self) -> bool:
        """Whether the next round may be paired now (the one before published and over)."""
        nxt = self.next_round
        if nxt is None:
            return False
        before = [v for v in self.round_views if v.round.number == nxt.round.number - 1]
        return not before or (before[0].round.published and before[0].finished)


def swiss_standings(*, tournament: Tournament, staff: bool = False) -> SwissStandings:
    """The standings after the finished rounds, and every round's pairings and half-point
    byes (the unpublished one only for ``staff``: ``matches.visibility.sees_unpublished``
    of the reader, as every caller that shows them asks). Five queries."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player__club"))
    rounds = list(
        Round.objects.filter(tournament=tournament, kind=RoundKind.PAIRED).order_by("number")
    )
    shown = {r.pk for r in rounds if r.published or staff}
    number = {r.pk: r.number for r in rounds}
    matches = list(
        Match.objects.filter(tournament=tournament, round__kind=RoundKind.PAIRED)
        .select_related("player1", "player2")
        .order_by("round__number", "slot")
    )
    events = MatchEvent.objects.filter(
        match__tournament=tournament,
        kind__in=(EventKind.SWISS_PAIRED, EventKind.SWISS_SWAPPED),
    ).order_by("at", "id")
    reasons: dict[int, Msg] = {}
    for match_id, data in events.values_list("match_id", "data"):
        if isinstance(data, dict) and isinstance(data.get("reason"), dict):
            reasons[match_id] = swiss_text.msg_from_dict(data["reason"])

    entered = {e.player_id for e in entries}
    half_byes = list(
        HalfPointBye.objects.filter(entry__tournament=tournament).values_list(
            "entry__player_id", "round_number"
        )
    )
    published = {r.pk for r in rounds if r.published}
    by_round: dict[int, list[Match]] = {r.pk: [] for r in rounds}
    for m in matches:
        by_round[m.round_id].append(m)
    # The finished rounds: a prefix, as a round is paired only once the one before is over.
    done: list[Round] = []
    for r in rounds:
        if r.pk not in published or not by_round[r.pk]:
            break
        if any(m.state not in FINISHED_STATES for m in by_round[r.pk]):
            break
        done.append(r)
    finished_numbers = {r.number for r in done}
    counted = [m for r in done for m in by_round[r.pk]]
    results: list[Result] = [
        res for m in counted if (res := standing_result(m, number[m.round_id])) is not None
    ]
    results += [
        Result(round=n, first=pid, half=True)
        for pid, n in half_byes
        if n in finished_numbers and pid in entered
    ]
    players = {e.player_id: e.player for e in entries}
    by_number = format_for(tournament.format).pairs_by_standings
    ranked = standing_table(
        tournament=tournament,
        players=players,
        results=results,
        matches=counted,
        points=SWISS_POINTS,
        withdrawn={e.player_id for e in entries if e.withdrawn_at is not None},
        absent={e.player_id for e in entries if e.absent},
        rounds=len(done),
        numbers=(
            entry_pairing_numbers(entries, seed=tournament.draw_seed or 0) if by_number else None
        ),
    )

    # Scores before each round, from the finished matches of the rounds before it.
    views = {r.pk: SwissRoundView(round=r) for r in rounds}
    score: dict[int, Decimal] = dict.fromkeys(players, Decimal(0))
    halves: dict[int, list[int]] = {}
    for pid, n in half_byes:
        halves.setdefault(n, []).append(pid)
    for r in rounds:
        sitting = [pid for pid in halves.get(r.number, []) if pid in players]
        if r.pk in shown:
            views[r.pk].half_byes = sorted(
                (HalfByeView(player=players[pid], score=score[pid]) for pid in sitting),
                key=lambda h: h.player.name.casefold(),
            )
            for m in by_round[r.pk]:
                views[r.pk].pairings.append(
                    SwissPairing(
                        match=m,
                        reason=reasons.get(m.pk),
                        score1=score.get(m.player1_id or 0, Decimal(0)),
                        score2=None
                        if m.player2_id is None
                        else score.get(m.player2_id, Decimal(0)),
                    )
                )
        for m in by_round[r.pk]:
            over = m.state in (MatchState.BYE, MatchState.DECIDED, MatchState.WALKOVER)
            if over and m.winner_id in score:
                score[m.winner_id] += 1
        if by_round[r.pk]:  # a paired round: its half-point byes are taken
            for pid in sitting:
                score[pid] += HALF
    finished = len(done)
    return SwissStandings(
        tournament=tournament,
        chain=ranked.chain,
        lines=ranked.lines,
        rounds=len(rounds),
        published_rounds=len(published),
        finished_rounds=finished,
        round_views=[views[r.pk] for r in rounds],  # an unshown round: no pairings
        entries=entries,
        by_pairing_number=by_number,
    )


def unplayed_swiss_rounds(*, tournament: Tournament) -> int:
    """How many of a Swiss tournament's rounds are not paired or not published yet (a
    knockout after the Swiss waits for every round: ``tournaments.group_stage``)."""
    rounds = Round.objects.filter(tournament=tournament, kind=RoundKind.PAIRED)
    return rounds.filter(Q(published=False) | Q(matches__isnull=True)).distinct().count()
