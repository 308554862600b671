"""A signed-in person's home ("Mitt", ``/home/``): what waits for them tonight.

One page for whoever the person is: a player (their next matches, the reports waiting for
their confirmation, their disputes, their last results and rating changes), a referee
(matches waiting for a result by round, disputes to decide, flagged and rejected records)
and an organiser (each running tournament's round progress and what needs them). A person
may be several at once; each part that applies is shown. Every item links to the page
where it is handled. ``/`` stays the public tournament list; the header links here.

The reads are ``matches.home_selectors`` (and the rating changes ``clubs``'s), a fixed
number of queries however many tournaments and matches the person has.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.rating_selectors import rating_changes
from matches import home_selectors
from matches.models import Match
from notifications import services as notification_services
from teams.selectors import team_boards_of

__all__ = ["home", "notification_choice", "notifications_read"]


def _opponent(match: Match, player_id: int) -> Any:
    return match.player2 if match.player1_id == player_id else match.player1


@login_required
def home(request: HttpRequest) -> HttpResponse:
    player = home_selectors.player_home(by=request.user)
    results: list[dict[str, Any]] = []
    to_play: list[dict[str, Any]] = []
    if player is not None:
        pid = player.player.pk
        changes = rating_changes(player=player.player, matches=[m.pk for m in player.results])
        results = [
            {
                "match": m,
                "opponent": _opponent(m, pid),
                "won": m.winner_id == pid,
                "change": changes.get(m.pk),
            }
            for m in player.results
        ]
        seen: set[int] = set()
        boards = team_boards_of([m.pk for m in player.to_play])
        for m in player.to_play:
            # The first unfinished match of each tournament is the next one.
            to_play.append(
                {
                    "match": m,
                    "opponent": _opponent(m, pid),
                    "next": m.tournament_id not in seen,
                    "board": boards.get(m.pk),  # a team match's board: its team match
                }
            )
            seen.add(m.tournament_id)
    context: dict[str, Any] = {
        "player": player,
        "to_play": to_play,
        "results": results,
        "referee": home_selectors.referee_home(by=request.user),
        "organiser": home_selectors.organiser_home(by=request.user),
    }
    notifications = notification_services.notifications_home(user=request.user)
    context.update(
        notifications=notifications,
        unread=any(n.is_new for n, _text in notifications),  # type: ignore[attr-defined]
        choice=notification_services.notification_choice(user=request.user),
    )
    return render(request, "web/home.html", context)


@login_required
@require_POST
def notification_choice(request: HttpRequest) -> HttpResponse:
    """Turn the notifications on the home and by e-mail on or off."""
    notification_services.notification_choice_set(
        user=request.user,
        on_home=request.POST.get("on_home") == "on",
        by_email=request.POST.get("by_email") == "on",
    )
    messages.success(request, _("Saved."))
    return redirect("web:home")


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    notification_services.notifications_read(user=request.user)
    return redirect("web:home")
