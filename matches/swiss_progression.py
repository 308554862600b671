"""A Swiss tournament's rounds as the organiser runs them (issue 14, items 2 and 4): check
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
- Two players *have met* when they were paired in an earlier round, whatever the result
  (a walkover too): pairing them again is a rematch.
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
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ConflictError, ValidationError
from core.permissions import User, signed_in
from matches import swiss_text
from matches.common import event_add
from matches.match_changes import NEWS_ROUND_PUBLISHED, news_tell
from matches.models import (
    FINISHED_STATES,
    EntryEvent,
    EntryEventKind,
    EventKind,
    Match,
    MatchEvent,
    MatchState,
)
from matches.progression import tournament_finish_check
from matches.swiss_standings import STARTED_STATES
from matches.tables import tables_number
from stages.messages import Msg
from stages.swiss import SwissPlayer, pair_round, pairing_swap_warnings
from tournaments.guards import organiser_require
from tournaments.models import (
    Entry,
    Player,
    Round,
    RoundKind,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.services import tournament_touch
from tournaments.swiss_rounds import pairing_ranks

__all__ = [
    "SwapRefused",
    "entry_presence_set",
    "next_round_to_pair",
    "swiss_history",
    "swiss_pairing_swap",
    "swiss_round_pair",
    "swiss_round_publish",
]


def _require_swiss_organiser(by: User, tournament: Tournament) -> None:
    organiser_require(by, tournament)
    if tournament.format != TournamentFormat.SWISS:
        raise ValidationError(
            _("“%(tournament)s” is not a Swiss tournament.") % {"tournament": tournament.name},
            code="not_swiss",
        )


def _user(by: User) -> Any:
    return signed_in(by)


@dataclass(frozen=True)
class History:
    """What the pairing needs of the rounds played: match points so far, who met whom,
    who had a bye."""

    score: dict[int, Decimal]
    opponents: dict[int, set[int]]
    had_bye: set[int]


def swiss_history(matches: Iterable[Match]) -> History:
    """The history of ``matches`` (one query's rows: player ids, winner and state)."""
    score: dict[int, Decimal] = defaultdict(Decimal)
    opponents: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    for m in matches:
        if m.player1_id is None:
            continue
        if m.player2_id is None:
            if m.state == MatchState.BYE:
                had_bye.add(m.player1_id)
                score[m.player1_id] += 1
            continue
        opponents[m.player1_id].add(m.player2_id)
        opponents[m.player2_id].add(m.player1_id)
        if m.state in (MatchState.DECIDED, MatchState.WALKOVER) and m.winner_id is not None:
            score[m.winner_id] += 1
    return History(score=score, opponents=opponents, had_bye=had_bye)


def _swiss_players(
    entries: Sequence[Entry], history: History, ids: Iterable[int]
) -> list[SwissPlayer]:
    ranks = pairing_ranks(entries)
    return [
        SwissPlayer(
            id=pid,
            score=history.score.get(pid, Decimal(0)),
            rank=ranks.get(pid, len(ranks)),
            opponents=frozenset(history.opponents.get(pid, set())),
            had_bye=pid in history.had_bye,
        )
        for pid in ids
    ]


def next_round_to_pair(tournament: Tournament) -> Round | None:
    """The first Swiss round without matches, or ``None`` when every round is paired."""
    paired = Match.objects.filter(tournament=tournament).values("round_id")
    return (
        Round.objects.filter(tournament=tournament, kind=RoundKind.SWISS)
        .exclude(pk__in=paired)
        .order_by("number")
        .first()
    )


# --- check-in -----------------------------------------------------------------------


def entry_presence_set(*, entry: Entry, present: bool, by: User) -> Entry:
    """Check a player in (``present``) or out before the next round is paired (item 4);
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
    """Pair the next round (item 2): the players present and not withdrawn, by their match
    points, pairing rank and the stored draw seed; created unpublished, each match with
    the reason of its pairing (audited), the bye decided at once."""
    _require_swiss_organiser(by, tournament)
    with transaction.atomic():
        # The lock that makes two organisers' presses one round.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status != TournamentStatus.RUNNING:
            raise ConflictError(
                _("Start the Swiss first; a finished one pairs no more rounds.")
                if tournament.status == TournamentStatus.DRAFT
                else _("The Swiss is finished; every round is played."),
                code="not_running",
            )
        rnd = next_round_to_pair(tournament)
        if rnd is None:
            raise ConflictError(_("Every round of the Swiss is paired."), code="all_paired")
        played = list(
            Match.objects.filter(tournament=tournament, round__kind=RoundKind.SWISS).only(
                "player1_id", "player2_id", "winner_id", "state", "round_id"
            )
        )
        if rnd.number > 1:
            before = Round.objects.get(tournament=tournament, number=rnd.number - 1)
            if not before.published:
                raise ConflictError(
                    _("Publish round %(n)s before pairing the next.") % {"n": before.number},
                    code="not_published",
                )
            left = [m for m in played if m.round_id == before.pk and m.state not in FINISHED_STATES]
            if left:
                raise ConflictError(
                    ngettext(
                        "%(count)s match of round %(n)s is not finished; enter its result "
                        "(or a walkover) before pairing round %(next)s.",
                        "%(count)s matches of round %(n)s are not finished; enter their "
                        "results (or walkovers) before pairing round %(next)s.",
                        len(left),
                    )
                    % {"count": len(left), "n": before.number, "next": rnd.number},
                    code="round_open",
                )
        entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
        present = [e for e in entries if e.withdrawn_at is None and not e.absent]
        if len(present) < 2:
            raise ValidationError(
                _("Fewer than 2 players are checked in; check players in first."),
                code="too_few_present",
            )
        history = swiss_history(played)
        players = _swiss_players(entries, history, [e.player_id for e in present])
        names = {e.player_id: e.player.name for e in entries}
        paired = pair_round(players, seed=tournament.draw_seed or 0, names=names)
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
            reason = pair.reason
            reasons.append(reason)
        tables_number(matches)
        Match.objects.bulk_create(matches)
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
        tournament_touch(tournament_id=tournament.pk)
    return rnd


def _swiss_round(round: Round, by: User) -> Round:
    """The round, fresh, if ``by`` organises its Swiss (the rights first, then the kind)."""
    rnd = Round.objects.select_related("tournament").get(pk=round.pk)
    _require_swiss_organiser(by, rnd.tournament)
    if rnd.kind != RoundKind.SWISS:
        raise ValidationError(_("This round is not a Swiss round."), code="not_swiss")
    return rnd


def swiss_round_publish(*, round: Round, by: User) -> Round:
    """Publish a paired round: shown to everyone, and its matches ready to play."""
    rnd = _swiss_round(round, by)
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
    rnd = _swiss_round(round, by)
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
        earlier = list(
            Match.objects.filter(
                tournament=tournament, round__kind=RoundKind.SWISS, round__number__lt=rnd.number
            ).only("player1_id", "player2_id", "winner_id", "state")
        )
        entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
        names = {e.player_id: e.player.name for e in entries}
        ids = [pid for pair in before for pid in pair if pid]
        players = _swiss_players(entries, swiss_history(earlier), ids)
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
    return warnings


def before_pairs(pairs: Sequence[tuple[int | None, int | None]]) -> list[tuple[int, int | None]]:
    """``(player1, player2)`` rows as ``stages.swiss`` pairs (the bye's second is None)."""
    return [(a, b) for a, b in pairs if a is not None]
