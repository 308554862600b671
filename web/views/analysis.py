"""A backgammon match's analysis on its page (``matches.analysis``): a part the match page
fetches (htmx), which fetches itself again every few seconds while a worker runs it, and
the button that asks for it."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.http import found
from matches import analysis
from matches import selectors as matches_sel
from matches.models import AnalysisState
from web.live import part_of

__all__ = ["LEVELS", "level_name", "match_analysis", "match_analysis_ask"]

LEVELS = {
    "super_grandmaster": _("super grandmaster"),
    "grandmaster": _("grandmaster"),
    "master": _("master"),
    "advanced": _("advanced"),
    "intermediate": _("intermediate"),
}
MARKS = {"doubtful": _("doubtful"), "bad": _("bad"), "very_bad": _("very bad")}
KINDS = {
    "move": _("checker play"),
    "nodouble": _("no double"),
    "double": _("double"),
    "take": _("take"),
    "drop": _("pass"),
}
POLL_EVERY = 2


def level_name(code: str | None) -> str:
    """The BMAB level's name in the reader's language ("below intermediate" for none)."""
    return str(LEVELS[code]) if code in LEVELS else str(_("below intermediate"))


def _play(text: str) -> str:
    words = {"no double": _("no double"), "double": _("double"), "take": _("take")}
    words["drop"] = _("pass")
    return str(words.get(text, text))


def _context(request: HttpRequest, pk: int) -> dict[str, Any]:
    match = found(matches_sel.match_get, pk=pk, by=request.user)
    row = analysis.match_analysis_of(match=match)
    analysable = analysis.analysable_record(match=match) is not None
    players: list[dict[str, Any]] = []
    if row is not None and row.state == AnalysisState.DONE and row.result:
        worst = row.result.get("worst", [[], []])
        for index, p in enumerate(row.result.get("players", [])):
            mistakes = [
                {
                    **d,
                    "kind_name": KINDS.get(d["kind"], d["kind"]),
                    "mark_name": MARKS.get(d["mark"] or "", ""),
                    "played_text": _play(d["played"]),
                    "best_text": _play(d["best"]),
                }
                for d in worst[index]
            ]
            players.append({**p, "level_name": level_name(p.get("level")), "worst": mistakes})
    return {
        "match": match,
        "analysis": row,
        "analysable": analysable,
        "players": players,
        "active": row is not None and row.state in analysis.ACTIVE,
        "can_ask": request.user.is_authenticated
        and analysable
        and (row is None or row.state not in analysis.ACTIVE),
        "poll_every": POLL_EVERY,
    }


@part_of("web:match_detail")
def match_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis part of a match's page."""
    return render(request, "web/_match_analysis.html", _context(request, pk))


@require_POST
@login_required
def match_analysis_ask(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask for the match's analysis: the part again for htmx, else back to the page."""
    match = found(matches_sel.match_get, pk=pk, by=request.user)
    with suppress(analysis.AnalysisRefused):  # the part says there is nothing to analyse
        analysis.match_analysis_request(match=match)
    if request.headers.get("HX-Request") == "true":
        return render(request, "web/_match_analysis.html", _context(request, pk))
    return redirect("web:match_detail", pk)
