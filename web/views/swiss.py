"""A Swiss tournament's pages: on the tournament page its standings
(each tiebreak's value, why each player is above the next) and its rounds with their
pairings, each with the reason it is so; on the manage page the organiser's part: the
presence list, the next round to pair, the unpublished pairing and its swap form (the
posts are ``web.views.pairing``'s).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches import stage_text, swiss_text
from matches.models import MatchState
from matches.standing_lines import StandingLine
from matches.swiss_standings import SwissPairing, SwissRoundView, swiss_standings
from matches.visibility import sees_unpublished
from stages.messages import number
from tournaments.models import Player, Tournament
from web.stage_pages import page_for
from web.views.swiss_byes import swiss_byes_player_context

__all__ = [
    "SwapForm",
    "swap_players",
    "swiss_context",
    "swiss_manage_context",
]


@dataclass
class LineView:
    line: StandingLine
    values: list[tuple[str, str]]  # (tiebreak's name, value)
    why: str


@dataclass
class PairingView:
    pairing: SwissPairing
    table: int | None  # the match's table (``Match.board``): none for the bye
    score1: str
    score2: str
    result: str
    reason: str


@dataclass
class RoundView:
    view: SwissRoundView
    label: str
    pairings: list[PairingView]
    half_byes: list[tuple[Player, str]]  # who sits it out for ½, with the score before


def _score(value: Any) -> str:
    return stage_text.score_text(number(value))


def _result(p: SwissPairing) -> str:
    m = p.match
    if m.state == MatchState.BYE:
        return _("bye")
    if m.state == MatchState.WALKOVER:
        return "+ –" if m.winner_id == m.player1_id else "– +"
    if m.state in (MatchState.DECIDED, MatchState.PLAYING):
        return f"{m.points1}–{m.points2}"
    return "–"


def _rounds(views: list[SwissRoundView]) -> list[RoundView]:
    return [
        RoundView(
            view=v,
            label=v.round.name,
            pairings=[
                PairingView(
                    pairing=p,
                    table=p.match.board,
                    score1=_score(p.score1),
                    score2="" if p.score2 is None else _score(p.score2),
                    result=_result(p),
                    reason=swiss_text.render(p.reason) if p.reason is not None else "",
                )
                for p in v.pairings
            ],
            half_byes=[(h.player, _score(h.score)) for h in v.half_byes],
        )
        for v in views
    ]


def swiss_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The tournament page's Swiss part: standings and the rounds the reader may see."""
    staff = sees_unpublished(request.user, tournament)
    table = swiss_standings(tournament=tournament, staff=staff)
    columns = [stage_text.tiebreak_name(key) for key in table.chain]
    lines = [
        LineView(
            line=line,
            values=[
                (name, "" if v is None else _score(v))
                for name, v in zip(columns, line.values, strict=True)
            ],
            why=swiss_text.render(line.why) if line.why is not None else "",
        )
        for line in table.lines
    ]
    rounds = [r for r in _rounds(table.round_views) if r.pairings]
    return {
        "table": table,
        "columns": columns,
        "headings": stage_text.tiebreak_headings(table.chain),
        "lines": lines,
        "rounds": list(reversed(rounds)),  # the latest round first
        "staff": staff,
        "half_byes": swiss_byes_player_context(request, tournament),
    }


# --- the manage page ----------------------------------------------------------------


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    second = forms.TypedChoiceField(label=gettext_lazy("swaps places with"), coerce=int)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # labels sit above their lists, as elsewhere
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []  # a refused swap's: shown with a confirming button
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = players
        # The lists open on two different players: a swap of a player with themself is
        # never meant.
        if len(players) > 1:
            self.fields["first"].initial = players[0][0]
            self.fields["second"].initial = players[1][0]


def swap_players(view: SwissRoundView) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for p in view.pairings:
        for player in (p.match.player1, p.match.player2):
            if player is not None:
                out.append((player.pk, player.name))
    return sorted(out, key=lambda x: x[1].casefold())


def swiss_manage_context(
    tournament: Tournament, swap_form: SwapForm | None = None
) -> dict[str, Any] | None:
    """For the manage page: ``None`` unless a started tournament of paired rounds (a
    Swiss, a Monrad); else the presence list, the
    next round to pair, the unpublished pairing with its swap form."""
    if not page_for(tournament).paired_rounds or tournament.draw_seed is None:
        return None
    table = swiss_standings(tournament=tournament, staff=True)
    unpublished = table.unpublished
    swappable = unpublished
    if swappable is None:  # a published round may still be swapped before any game
        latest = [v for v in table.round_views if v.paired]
        if latest and not latest[-1].started and not latest[-1].finished:
            swappable = latest[-1]
    views = _rounds([swappable] if swappable is not None else [])
    form = swap_form
    if form is None and swappable is not None:
        form = SwapForm(players=swap_players(swappable))
    return {
        "table": table,
        "entries": sorted(
            (e for e in table.entries if e.withdrawn_at is None),
            key=lambda e: e.player.name.casefold(),
        ),
        "next": table.next_round,
        "next_label": table.next_round.round.name if table.next_round else "",
        # In a sentence: "Lotta omgång 2", not the heading's "Omgång 2".
        "pair_label": (
            _("Pair round %(n)s") % {"n": table.next_round.round.number} if table.next_round else ""
        ),
        "can_pair": table.can_pair,
        "unpublished": unpublished,
        "swappable": views[0] if views else None,
        "swap_form": form,
        "warnings": swap_form.warnings if swap_form is not None else [],
    }
