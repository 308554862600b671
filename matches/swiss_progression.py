"""A Swiss tournament's rounds as the organiser runs them: check
players in and out, pair the next round (``stages.swiss.pair_round``) from the matches
played, swap two players of a pairing, publish the round. Every action is audited
(``MatchEvent`` for a match, ``EntryEvent`` for a player's presence).

The start (every round created, unpublished and empty) is ``tournaments.swiss_rounds``.

Decisions where the issue is silent:
- A round is *paired* once it has matches; the next round to pair is the first without.
  It is paired only when the round before it is published and every match of it is
  finished (a result, a walkover or the bye).
- A paired round is unpublished: its matches wait (``MatchState.WAITING``), so nobody can
  enter a game or report one (``results.next_game_check``) nor give a walkover
  (``walkovers.match_walkover``); public pages and the API show it to its organisers and
  referees only. Publishing makes its matches ready to play.
- The bye scores a won match (``stages.tiebreaks.MatchPoints.bye``) and no game points,
  as a walkover (scoring.md S6): it is not a match at the board, so it adds nothing to
  game points, skiljepoäng or wins, and counts for Buchholz as FIDE's unplayed round.
- Two players *have met* when they played in an earlier round: a forfeit (a walkover
  given before any game of the match) is no game, so pairing them again is no rematch
  (FIDE C.04.1 b). The forfeit's winner counts as having had the bye and does not get it
  (FIDE C.04.1 d). A walkover after a game was played (a player left mid-match) is a
  meeting, and its winner may still get the bye.
- The float history (``SwissFloat``) is stored with the pairing (and again after a swap):
  a player who floated down in the round before floats down again only when nobody else
  of the group can (``stages.swiss``, term 6).
- The pairing keeps the rounds after it (the Swiss's rounds of higher number)
  pairable without a rematch or a second bye when it can (``stages.swiss``,
  Completion), supposing the players present now play every one of them.
- A half-point bye asked for (``matches.swiss_byes``) leaves the player out of that
  round's pairing; a withdrawn player's wish for the round is dropped when it is paired.
- A checked-out player (``Entry.absent``) stays out of every pairing until checked in
  again (a player who leaves the evening early is checked out once); the rounds they miss
  score nothing. A withdrawn player is never paired again; their results stay, and a
  match of theirs not finished is a walkover to the opponent (``entry_withdraw``).
- A swap exchanges two players between their pairings (one of them may hold the bye)
  while the round is unpublished, or after publishing while neither match has a game or
  a result. A swap that makes a rematch or a second bye is refused with the warnings
  (``stages.swiss.pairing_swap_warnings``) until it is confirmed.
- Two organisers pairing at once get one round: the pairing locks the tournament's row
  (``select_for_update``; on SQLite the write transaction serialises them) and reads which
  rounds are paired under that lock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ConflictError, ValidationError
from core.permissions import User, signed_in
from formats import format_for
from matches import swiss_text
from matches.common import event_add
from matches.match_changes import NEWS_ROUND_PUBLISHED, news_tell
from matches.models import (
    FINISHED_STATES,
    EntryEvent,
    EntryEventKind,
    EventKind,
    FloatDirection,
    Game,
    HalfPointBye,
    Match,
    MatchEvent,
    MatchState,
    SwissFloat,
)
from matches.progression import tournament_finish_check
from matches.stage_handlers import handler_for
from matches.swiss_standings import STARTED_STATES, swiss_standings
from matches.tables import tables_number
from stages.messages import Msg
from stages.swiss import Pairs, SwissPlayer, pair_floats, pairing_swap_warnings
from tournaments.guards import organiser_require
from tournaments.models import (
    Entry,
    Player,
    Round,
    RoundKind,
    Tournament,
    TournamentStatus,
)
from tournaments.page_versions import tournament_touch
from tournaments.round_kinds import round_kind
from tournaments.swiss_rounds import entry_pairing_numbers

__all__ = [
    "HALF",
    "History",
    "SwapRefused",
    "entry_presence_set",
    "floats_store",
    "half_byes_in",
    "history_before",
    "next_round_to_pair",
    "pair_locked",
    "swiss_history",
    "swiss_pairing_swap",
    "swiss_round_checked",
    "swiss_round_pair",
    "swiss_round_publish",
]


def _require_swiss_organiser(by: User, tournament: Tournament) -> None:
    organiser_require(by, tournament)
    if not handler_for(tournament).pairs_rounds:
        raise ValidationError(
            _("“%(tournament)s” is not played in paired rounds.") % {"tournament": tournament.name},
            code="not_swiss",
        )


def _user(by: User) -> Any:
    return signed_in(by)


@dataclass(frozen=True)
class History:
    """What the pairing needs of the rounds played: match points so far (half-point byes
    included), who played whom, who had a bye or a forfeit win, who floated down in the
    round before."""

    score: dict[int, Decimal]
    opponents: dict[int, set[int]]
    had_bye: set[int]
    floated_down: frozenset[int] = frozenset()


HALF = Decimal("0.5")


def swiss_history(
    matches: Iterable[Match],
    *,
    played_walkovers: Iterable[int] = (),
    half_byes: Iterable[int] = (),
    floated_down: Iterable[int] = (),
) -> History:
    """The history of ``matches`` (one query's rows: player ids, winner and state).
    ``played_walkovers``: the ids of the walkovers among them with a game played (the
    others are forfeits); ``half_byes``: a player id for each half-point bye taken;
    ``floated_down``: who floated down in the round before."""
    score: dict[int, Decimal] = defaultdict(Decimal)
    opponents: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    with_games = set(played_walkovers)
    for pid in half_byes:
        score[pid] += HALF
    for m in matches:
        if m.player1_id is None:
            continue
        if m.player2_id is None:
            if m.state == MatchState.BYE:
                had_bye.add(m.player1_id)
                score[m.player1_id] += 1
            continue
        forfeit = m.state == MatchState.WALKOVER and m.pk not in with_games
        if not forfeit:
            opponents[m.player1_id].add(m.player2_id)
            opponents[m.player2_id].add(m.player1_id)
        elif m.winner_id is not None:
            had_bye.add(m.winner_id)
        if m.state in (MatchState.DECIDED, MatchState.WALKOVER) and m.winner_id is not None:
            score[m.winner_id] += 1
    return History(
        score=score, opponents=opponents, had_bye=had_bye, floated_down=frozenset(floated_down)
    )


def history_before(tournament: Tournament, number: int) -> History:
    """The history of the Swiss rounds before round ``number``: four queries."""
    played = list(
        Match.objects.filter(
            tournament=tournament, round__kind=RoundKind.PAIRED, round__number__lt=number
        ).only("player1_id", "player2_id", "winner_id", "state")
    )
    walkovers = [m.pk for m in played if m.state == MatchState.WALKOVER]
    with_games = set(Game.objects.filter(match_id__in=walkovers).values_list("match_id", flat=True))
    half = HalfPointBye.objects.filter(
        entry__tournament=tournament, round_number__lt=number
    ).values_list("entry__player_id", flat=True)
    down = SwissFloat.objects.filter(
        round__tournament=tournament,
        round__kind=RoundKind.PAIRED,
        round__number=number - 1,
        direction=FloatDirection.DOWN,
    ).values_list("player_id", flat=True)
    return swiss_history(
        played, played_walkovers=with_games, half_byes=list(half), floated_down=list(down)
    )


def _swiss_players(
    entries: Sequence[Entry], history: History, ids: Iterable[int], tournament: Tournament
) -> list[SwissPlayer]:
    ranks = entry_pairing_numbers(entries, seed=tournament.draw_seed or 0)
    return [
        SwissPlayer(
            id=pid,
            score=history.score.get(pid, Decimal(0)),
            rank=ranks[pid],
            opponents=frozenset(history.opponents.get(pid, set())),
            had_bye=pid in history.had_bye,
            floated_down=pid in history.floated_down,
        )
        for pid in ids
    ]


def floats_store(rnd: Round, players: Sequence[SwissPlayer], pairs: Pairs) -> None:
    """Store the round's floats (``SwissFloat``), replacing those stored before."""
    SwissFloat.objects.filter(round=rnd).delete()
    SwissFloat.objects.bulk_create(
        SwissFloat(round=rnd, player_id=pid, direction=direction)
        for pid, direction in pair_floats(players, pairs).items()
    )


def half_byes_in(tournament: Tournament, number: int) -> QuerySet[HalfPointBye]:
    """The half-point byes asked for round ``number``."""
    return HalfPointBye.objects.filter(entry__tournament=tournament, round_number=number)


def _standing(tournament: Tournament) -> dict[int, int]:
    """Each player's place in the standings the players see (``swiss_standings``: match
    points, the tournament's chain, then, for a format that pairs by the standings, the
    pairing number, then the lots): what such a format ranks by, taken from the table
    itself so that the pairing and the page cannot disagree."""
    return {line.player.pk: line.place for line in swiss_standings(tournament=tournament).lines}


def next_round_to_pair(tournament: Tournament) -> Round | None:
    """The first Swiss round without matches, or ``None`` when every round is paired."""
    paired = Match.objects.filter(tournament=tournament).values("round_id")
    return (
        Round.objects.filter(tournament=tournament, kind=RoundKind.PAIRED)
        .exclude(pk__in=paired)
        .order_by("number")
        .first()
    )


# --- check-in -----------------------------------------------------------------------


def entry_presence_set(*, entry: Entry, present: bool, by: User) -> Entry:
    """Check a player in (``present``) or out before the next round is paired;
    audited. A withdrawn player cannot be checked in again."""
    tournament = entry.tournament
    _require_swiss_organiser(by, tournament)
    if tournament.status == TournamentStatus.FINISHED:
        raise ConflictError(_("The tournament is finished."), code="finished")
    if entry.withdrawn_at is not None:
        raise ConflictError(
            _("%(name)s has withdrawn and is not paired again.") % {"name": entry.player.name},
            code="withdrawn",
        )
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        locked = Entry.objects.select_for_update().get(pk=entry.pk)
        if locked.absent == (not present):
            return locked
        locked.absent = not present
        locked.save(update_fields=["absent"])
        EntryEvent.objects.create(
            entry=locked,
            kind=EntryEventKind.CHECKED_IN if present else EntryEventKind.CHECKED_OUT,
            by=_user(by),
        )
    entry.absent = locked.absent
    return entry


# --- pairing ------------------------------------------------------------------------


def swiss_round_pair(*, tournament: Tournament, by: User) -> Round:
    """Pair the next round: the players present and not withdrawn, by their match
    points, pairing number and the stored draw seed, less those who asked for a half-point
    bye in it; created unpublished, each match with the reason of its pairing (audited),
    the bye decided at once, the floats stored."""
    _require_swiss_organiser(by, tournament)
    with transaction.atomic():
        # The lock that makes two organisers' presses one round.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        rnd = _round_to_pair(tournament)
        pair_locked(tournament, rnd, by)
        tournament_touch(tournament_id=tournament.pk)
    return rnd


def _round_to_pair(tournament: Tournament) -> Round:
    """The next round, if it may be paired now (the tournament's row locked)."""
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError(
            _("Start the tournament first; a finished one pairs no more rounds.")
            if tournament.status == TournamentStatus.DRAFT
            else _("The tournament is finished; every round is played."),
            code="not_running",
        )
    rnd = next_round_to_pair(tournament)
    if rnd is None:
        raise ConflictError(_("Every round is paired."), code="all_paired")
    if rnd.number > 1:
        before = Round.objects.get(tournament=tournament, number=rnd.number - 1)
        if not before.published:
            raise ConflictError(
                _("Publish round %(n)s before pairing the next.") % {"n": before.number},
                code="not_published",
            )
        left = Match.objects.filter(round=before).exclude(state__in=FINISHED_STATES).count()
        if left:
            raise ConflictError(
                ngettext(
                    "%(count)s match of round %(n)s is not finished; enter its result "
                    "(or a walkover) before pairing round %(next)s.",
                    "%(count)s matches of round %(n)s are not finished; enter their "
                    "results (or walkovers) before pairing round %(next)s.",
                    left,
                )
                % {"count": left, "n": before.number, "next": rnd.number},
                code="round_open",
            )
    return rnd


def pair_locked(tournament: Tournament, rnd: Round, by: User) -> list[Match]:
    """Pair ``rnd`` (checked and empty; the tournament's row locked by the caller)."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    withdrawn = [e.pk for e in entries if e.withdrawn_at is not None]
    half_byes_in(tournament, rnd.number).filter(entry_id__in=withdrawn).delete()
    sitting_out = set(half_byes_in(tournament, rnd.number).values_list("entry_id", flat=True))
    present = [
        e for e in entries if e.withdrawn_at is None and not e.absent and e.pk not in sitting_out
    ]
    if len(present) < 2:
        raise ValidationError(
            _("Fewer than 2 players are checked in; check players in first."),
            code="too_few_present",
        )
    history = history_before(tournament, rnd.number)
    players = _swiss_players(entries, history, [e.player_id for e in present], tournament)
    names = {e.player_id: e.player.name for e in entries}
    fmt = format_for(tournament.format)
    rounds_after = Round.objects.filter(
        tournament=tournament, kind=RoundKind.PAIRED, number__gt=rnd.number
    ).count()
    paired = fmt.pair(
        players,
        seed=tournament.draw_seed or 0,
        names=names,
        standing=_standing(tournament) if fmt.pairs_by_standings else None,
        rounds_after=rounds_after,
    )
    matches: list[Match] = []
    reasons: list[Msg] = []
    for slot, pair in enumerate(paired.pairs):
        bye = pair.second is None
        matches.append(
            Match(
                tournament=tournament,
                round=rnd,
                slot=slot,
                player1_id=pair.first,
                player2_id=pair.second,
                length=rnd.match_length,
                length_unit=rnd.length_unit,
                state=MatchState.BYE if bye else MatchState.WAITING,
                winner_id=pair.first if bye else None,
            )
        )
        reasons.append(pair.reason)
    tables_number(matches)
    Match.objects.bulk_create(matches)
    floats_store(rnd, players, [(p.first, p.second) for p in paired.pairs])
    user = _user(by)
    events = [
        MatchEvent(
            match=m,
            kind=EventKind.SWISS_PAIRED,
            by=user,
            data={"round": rnd.number, "reason": reason.to_dict()},
        )
        for m, reason in zip(matches, reasons, strict=True)
    ]
    events += [
        MatchEvent(match=m, kind=EventKind.BYE, by=user, data={"player": m.player1_id})
        for m in matches
        if m.state == MatchState.BYE
    ]
    MatchEvent.objects.bulk_create(events)
    return matches


def swiss_round_checked(round: Round, by: User) -> Round:
    """The round, fresh, if ``by`` organises its Swiss (the rights first, then the kind)."""
    rnd = Round.objects.select_related("tournament").get(pk=round.pk)
    _require_swiss_organiser(by, rnd.tournament)
    if not round_kind(rnd.kind).paired:
        raise ValidationError(_("This round is not a paired round."), code="not_swiss")
    return rnd


def swiss_round_publish(*, round: Round, by: User) -> Round:
    """Publish a paired round: shown to everyone, and its matches ready to play."""
    rnd = swiss_round_checked(round, by)
    with transaction.atomic():
        tournament_touch(tournament_id=rnd.tournament_id)  # the tournament's lock first
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.published:
            raise ConflictError(
                _("Round %(n)s is published already.") % {"n": rnd.number}, code="published"
            )
        matches = list(Match.objects.filter(round=rnd))
        if not matches:
            raise ConflictError(
                _("Round %(n)s is not paired yet; pair it first.") % {"n": rnd.number},
                code="not_paired",
            )
        ready = [
            m
            for m in matches
            if m.state == MatchState.WAITING and m.player1_id is not None and m.player2_id
        ]
        Match.objects.filter(pk__in=[m.pk for m in ready]).update(state=MatchState.READY)
        rnd.published = True
        rnd.save(update_fields=["published"])
        user = _user(by)
        MatchEvent.objects.bulk_create(
            [MatchEvent(match=m, kind=EventKind.SWISS_PUBLISHED, by=user, data={}) for m in matches]
        )
        news_tell(
            kind=NEWS_ROUND_PUBLISHED,
            tournament_id=rnd.tournament_id,
            round=rnd.pk,
            number=rnd.number,
        )
        # The last round may be over already (a bye and walkovers only).
        tournament_finish_check(rnd.tournament_id)
    return rnd


# --- swaps --------------------------------------------------------------------------


class SwapRefused(ConflictError):
    """A swap that makes a rematch or a second bye, not confirmed: ``warnings`` says what."""

    code = "swap_warnings"


def _side(m: Match, pid: int) -> int:
    return 1 if m.player1_id == pid else 2


def swiss_pairing_swap(
    *, round: Round, first: Player, second: Player, by: User, confirm: bool = False
) -> list[str]:
    """Exchange ``first`` and ``second`` between their pairings of ``round`` (either may
    hold the bye): before publishing, or after while neither match has a game or a
    result. A swap that creates a rematch or a second bye raises ``SwapRefused`` with the
    warnings in the reader's language unless ``confirm``; confirmed, the warnings are
    returned and kept in the audit trail with the pairing before and after."""
    rnd = swiss_round_checked(round, by)
    tournament = rnd.tournament
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different players to swap."), code="same_player")
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)
        matches = list(Match.objects.select_for_update().filter(round=rnd).order_by("slot"))
        if not matches:
            raise ConflictError(
                _("Round %(n)s is not paired yet.") % {"n": rnd.number}, code="not_paired"
            )
        where = {pid: m for m in matches for pid in (m.player1_id, m.player2_id) if pid}
        for p in (first, second):
            if p.pk not in where:
                raise ValidationError(
                    _("%(name)s is not paired in round %(n)s.") % {"name": p.name, "n": rnd.number},
                    code="not_paired",
                )
        m1, m2 = where[first.pk], where[second.pk]
        if m1.pk == m2.pk:
            raise ValidationError(
                _("%(a)s and %(b)s are paired together already.")
                % {"a": first.name, "b": second.name},
                code="same_pair",
            )
        # A game entered makes its match PLAYING (``matches.standing``): states suffice.
        started = {m.pk for m in (m1, m2) if m.state in STARTED_STATES}
        if started:
            raise ConflictError(
                _("A game or result of these matches is entered; they can no longer be swapped."),
                code="started",
            )
        before = [(m.player1_id, m.player2_id) for m in matches]
        swap = {first.pk: second.pk, second.pk: first.pk}
        after = [
            (swap.get(a, a) if a else a, swap.get(b, b) if b else None)
            for a, b in ((m.player1_id, m.player2_id) for m in matches)
        ]
        entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
        names = {e.player_id: e.player.name for e in entries}
        ids = [pid for pair in before for pid in pair if pid]
        history = history_before(tournament, rnd.number)
        players = _swiss_players(entries, history, ids, tournament)
        found = pairing_swap_warnings(
            players, before_pairs(after), before=before_pairs(before), names=names
        )
        warnings = [swiss_text.render(w) for w in found]
        if warnings and not confirm:
            raise SwapRefused(
                _("Confirm the swap: %(warnings)s.") % {"warnings": "; ".join(warnings)},
                warnings=warnings,
            )
        for m in {m1.pk: m1, m2.pk: m2}.values():
            old = (m.player1_id, m.player2_id)
            m.player1_id = swap.get(m.player1_id, m.player1_id) if m.player1_id else None
            m.player2_id = swap.get(m.player2_id, m.player2_id) if m.player2_id else None
            if m.state == MatchState.BYE:
                m.winner_id = m.player1_id
            m.save(update_fields=["player1", "player2", "winner", "updated_at"])
            event_add(
                m,
                EventKind.SWISS_SWAPPED,
                by,
                round=rnd.number,
                before=list(old),
                after=[m.player1_id, m.player2_id],
                warnings=warnings,
                reason=Msg(swiss_text.SWAPPED).to_dict(),
            )
        floats_store(rnd, players, before_pairs(after))
    return warnings


def before_pairs(pairs: Sequence[tuple[int | None, int | None]]) -> list[tuple[int, int | None]]:
    """``(player1, player2)`` rows as ``stages.swiss`` pairs (the bye's second is None)."""
    return [(a, b) for a, b in pairs if a is not None]
