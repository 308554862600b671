"""The consolation, losers' and final brackets of a tournament as its pages and API draw
them, beside the main bracket (``matches.round_selectors``).

Each bracket is a *section* of columns, one per round, drawn like the main bracket: every
column lists its round's full layout (``stages.elimination`` keeps the layout's match
numbers; a match removed by the byes is an empty place, ``None``), so that each match sits
between the matches that feed it. The places are the layout's
(``stages.elimination.Bracket.places``). A column is *straight* when the next one has as
many places (a losers' bracket's drop-in round: each match feeds the one beside it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from formats import format_for
from matches.models import Match, MatchState
from stages import elimination
from tournaments.elimination_draw import KINDS, bracket_shape, round_title
from tournaments.models import (
    Player,
    Round,
    RoundKind,
    Tournament,
    round_label,
)

__all__ = [
    "Column",
    "Section",
    "elimination_sections",
    "main_title",
    "match_links",
]


@dataclass
class Column:
    round: Round
    title: str
    slots: list[Match | None]
    straight: bool = False


@dataclass
class Section:
    key: str  # "consolation", "losers" or "final"
    title: str
    columns: list[Column] = field(default_factory=list)
    winner: Player | None = None


def _local(code: str) -> int:
    """The round number within its bracket of a match code (``L3.2`` → 3; ``GF2`` → 2)."""
    if code.startswith("GF"):
        return int(code[2:] or 1)
    return int(code[1 : code.index(".")])


def main_title(tournament: Tournament) -> str:
    if format_for(tournament.format).losers_bracket:
        return _("Winners' bracket")
    return _("Main bracket")


# A round's kind → its bracket in ``stages.elimination`` (the main brackets aside).
_BRACKETS: dict[str, str] = {
    kind: name for name, kind in KINDS.items() if kind != RoundKind.KNOCKOUT
}

_TITLES: dict[str, tuple[str, Callable[[], str]]] = {
    RoundKind.CONSOLATION: ("consolation", lambda: _("Consolation bracket")),
    RoundKind.LOSERS: ("losers", lambda: _("Losers' bracket")),
    RoundKind.GRAND_FINAL: ("final", lambda: _("Final")),
}


def elimination_sections(
    *,
    tournament: Tournament,
    rounds: Sequence[Round],
    matches: Mapping[int, list[Match]],
) -> list[Section]:
    """The brackets after the main one: ``rounds`` in order, ``matches`` by round id."""
    # Main round 1 keeps its byes' matches: its places are the layout's first round, and
    # the layout is the same for every field of its size.
    size = 2 * len(matches.get(rounds[0].pk, [])) if rounds else 0
    layout: elimination.Bracket | None = None
    sections: dict[str, Section] = {}
    for rnd in rounds:
        if rnd.kind not in _TITLES:
            continue
        key, title = _TITLES[rnd.kind]
        section = sections.setdefault(key, Section(key, title()))
        round_matches = matches.get(rnd.pk, [])
        local = _local(round_matches[0].code) if round_matches else len(section.columns) + 1
        layout = layout or bracket_shape(tournament, size)
        slots: list[Match | None] = [None] * layout.places[_BRACKETS[rnd.kind]][local - 1]
        for m in round_matches:
            slots[m.slot] = m
        # Titles count the bracket's own rounds (``Round.bracket_number``, set at the draw).
        section.columns.append(Column(rnd, round_title(rnd), slots))
    for section in sections.values():
        for column, after in zip(section.columns, section.columns[1:], strict=False):
            column.straight = len(after.slots) == len(column.slots)
        last = section.columns[-1].slots[0] if section.columns else None
        if section.key == "consolation" and last is not None:
            decided = last.state in (MatchState.DECIDED, MatchState.WALKOVER, MatchState.BYE)
            section.winner = last.winner if decided else None
    return list(sections.values())


def _where(target: Match, tournament: Tournament) -> str:
    """ "Förlorarträd, Omgång 2": the bracket and the round of a match, for a sentence."""
    rnd = target.round
    if rnd.kind == RoundKind.KNOCKOUT:
        return _("%(bracket)s, %(round)s") % {
            "bracket": main_title(tournament),
            # "Winners' bracket, final": the bracket is named already (``Round.name``
            # alone says "Winners' final").
            "round": round_label(rnd.number, rnd.rounds_after).lower(),
        }
    if rnd.kind == RoundKind.GRAND_FINAL:
        return rnd.name.lower()
    return rnd.name


def match_links(match: Match) -> list[tuple[str, Match | None]]:
    """Where a consolation's or double elimination's match sends its winner and its loser,
    as sentences for the match page, each with the match it names (None: none)."""
    if not match.code:
        return []
    tournament = match.tournament
    ids = [pk for pk in (match.winner_to_id, match.loser_to_id) if pk is not None]
    targets = {m.pk: m for m in Match.objects.filter(pk__in=ids).select_related("round")}
    out: list[tuple[str, Match | None]] = []
    if match.winner_to_id is not None:
        target = targets[match.winner_to_id]
        where = _where(target, tournament)
        out.append((_("The winner goes on to %(where)s.") % {"where": where}, target))
    elif match.code == "GF":
        reset = Match.objects.filter(tournament=tournament, if_needed=True).first()
        if reset is None:
            out.append((_("The winner wins the tournament."), None))
        else:
            out.append(
                (
                    _(
                        "If the winners' bracket's player (the upper line) wins, the "
                        "tournament is over; if the losers' bracket's player wins, the final "
                        "is played again."
                    ),
                    reset,
                )
            )
    elif match.round.kind == RoundKind.CONSOLATION and tournament.consolation_third_place:
        out.append((_("The winner takes third place, the loser fourth."), None))
        return out
    elif match.round.kind == RoundKind.CONSOLATION:
        out.append((_("The winner wins the consolation."), None))
    else:
        out.append((_("The winner wins the tournament."), None))
    if match.state == MatchState.BYE:
        return out
    if match.loser_to_id is not None:
        target = targets[match.loser_to_id]
        where = _where(target, tournament)
        if match.loser_first_match_only:
            text = _(
                "The loser goes to %(where)s if this was its first match (after a bye in "
                "round 1); otherwise the loser is out."
            )
        else:
            text = _("The loser goes to %(where)s.")
        out.append((text % {"where": where}, target))
    elif match.code != "GF" or not out[0][1]:
        out.append((_("The loser is out."), None))
    return out
