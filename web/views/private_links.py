"""Private links (``tournaments.private_links``): the pages of a player without an
account, reached by their link, and the organiser's page that issues and revokes them.

- ``/p/<token>/``: the player's matches in the tournament, the reports waiting for their
  answer (confirm with one tap, dispute with a note), their own open reports (withdraw)
  "report game N" and "Record" (the digital scoresheet, ``web.views.scoresheet``) for each
  match being played. Opening it keeps the link in the
  session (``private_link_remember``) so other pages may accept it.
- ``/p/<token>/matches/<id>/report/``: the same report page a signed-in player has.
- ``/tournaments/<id>/private-links/``: the organiser's list, with each live link and its
  QR code to print and hand out, issue / re-issue and revoke.

Every action through a link is counted and limited (``private_link_use``) and goes
through the report services with the link, which the audit trail names.
"""

from __future__ import annotations

import hashlib
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.client_address import client_address
from core.conditional import RELEASE
from core.errors import ConflictError, DomainError
from core.permissions import is_organiser
from core.site_address import site_is_loopback, site_root, site_url
from games.seats import other, seat_of
from matches import reports as report_services
from matches.models import OPEN_REPORT_STATES, GameReport, Match, MatchState, ReportState
from tournaments import private_links
from tournaments import selectors as tournaments_sel
from tournaments.models import Player, PrivateLink, ResultsBy, Tournament
from tournaments.selectors import LiveStamp
from web.forms.referee import NoteForm, ResultForm
from web.games import outcome_codes
from web.views.reports import report_context, report_said
from web.views.scoresheet import recordable

OPEN_MATCH = (MatchState.READY, MatchState.PLAYING)
# How often a player's own page asks for its matches again (seconds): a report of the
# opponent's shows within this, as on a match page.
PRIVATE_HOME_EVERY = 10


def _link(request: HttpRequest, token: str) -> PrivateLink:
    link = private_links.private_link_find(token)
    if link is None:
        raise Http404(_("This link is not valid: it was revoked or mistyped. Ask the organiser."))
    return link


def _home_url(token: str) -> str:
    return reverse("web:private_home", args=[token])


def _use(request: HttpRequest, link: PrivateLink, action: str) -> None:
    private_links.private_link_use(link=link, action=action, address=client_address(request))


def _matches(link: PrivateLink) -> list[Match]:
    """The link's player's matches in its tournament, in published rounds."""
    return list(
        Match.objects.filter(tournament=link.tournament, round__published=True).filter(
            Q(player1=link.player) | Q(player2=link.player)
        )
    )


@require_http_methods(["GET"])
def private_home(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page through their link. Its matches follow changes as a match page
    does: the page asks for them (``?part=matches``) every ``PRIVATE_HOME_EVERY``
    seconds, and they are sent only when the tournament changed (an ETag on its version;
    otherwise 304), so an opponent's report shows without a reload."""
    link = _link(request, token)
    private_links.private_link_remember(request, link, token)
    if request.GET.get("part") == "matches":
        tag = _private_home_tag(link, tournaments_sel.tournament_stamp(pk=link.tournament_id))
        if request.headers.get("If-None-Match") == tag:
            unchanged = HttpResponseNotModified()
            _private_validators(unchanged, tag)
            return unchanged
        response = _private_home(request, link, token)
        _private_validators(response, tag)
        return response
    # The whole page is never kept (as before); its matches' part is kept by the
    # browser only to be asked again with its ETag (``private, no-cache``).
    page = _private_home(request, link, token)
    add_never_cache_headers(page)
    return page


def _private_validators(response: HttpResponse, tag: str) -> None:
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"


def _private_home(request: HttpRequest, link: PrivateLink, token: str) -> HttpResponse:
    player = link.player
    ids = [m.pk for m in _matches(link)]
    matches = list(
        Match.objects.filter(pk__in=ids)
        .select_related("round", "player1", "player2", "winner", "tournament")
        .order_by("round__number", "slot")
    )
    reports = list(
        GameReport.objects.filter(match_id__in=ids, state__in=OPEN_REPORT_STATES)
        .select_related("match__player1", "match__player2", "match__tournament", "reporter")
        .order_by("match_id", "number")
    )
    rows = []
    for m in matches:
        side = m.side_of(player)
        mine = [r for r in reports if r.match_id == m.pk]
        rows.append(
            {
                "match": m,
                "opponent": m.player_for(side.other) if side is not None else None,
                "to_answer": [
                    r
                    for r in mine
                    if r.state == ReportState.PENDING and r.reporter_side != side.value
                ]
                if side
                else [],
                "own": [r for r in mine if side and r.reporter_side == side.value],
                "disputed": [r for r in mine if r.state == ReportState.DISPUTED],
                "open": m.state in OPEN_MATCH,
                # An open report holds the next game: nothing more to report until it is
                # answered (as on the signed-in player's report page).
                "waiting": bool(mine),
                # the digital scoresheet, through this link (the session keeps it)
                "record": m.state in OPEN_MATCH and recordable(m.tournament.game),
            }
        )
    part = request.GET.get("part") == "matches"
    response = render(
        request,
        "web/private/_matches.html" if part else "web/private/home.html",
        {
            "link": link,
            "token": token,
            "player": player,
            "tournament": link.tournament,
            "rows": rows,
            "players_report": link.tournament.results_by == ResultsBy.PLAYERS,
            "form": NoteForm(),
            "every": PRIVATE_HOME_EVERY,
        },
    )
    return response


def _private_home_tag(link: PrivateLink, stamp: LiveStamp | None) -> str:
    """The ETag of a private page's matches: the tournament's version (a report, an
    answer, a result, a draw all move it), the link, the language and the release."""
    version = "" if stamp is None else f"{stamp.version}.{stamp.changed_at.timestamp()}"
    key = f"{link.pk}|{version}|{get_language()}|{RELEASE}"
    return f'"private-{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def _own_match(link: PrivateLink, pk: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("tournament", "round", "player1", "player2"),
        pk=pk,
        tournament=link.tournament,
        round__published=True,
    )
    if match.side_of(link.player) is None:
        raise Http404(_("This is not one of your matches."))
    return match


@never_cache
@require_http_methods(["GET", "POST"])
def private_report(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    link = _link(request, token)
    match = _own_match(link, pk)
    context: dict[str, Any]
    if request.method != "POST":
        context = report_context(match)
        context["private_home"] = _home_url(token)
        return render(request, "web/reports/report.html", context)
    form = ResultForm(request.POST, codes=outcome_codes(match))
    if not form.is_valid():
        context = report_context(match, form)
        context["private_home"] = _home_url(token)
        return render(request, "web/reports/report.html", context, status=400)
    try:
        _use(request, link, "report")
        report = report_services.game_report_submit(
            match=match,
            number=form.cleaned_data["number"],
            result=form.result_value(),
            starter=form.cleaned_data["starter"],
            note=form.cleaned_data["note"],
            by=None,
            link=link,
        )
    except DomainError as err:
        context = report_context(match, form)
        context.update(
            error=err.message,
            conflict=isinstance(err, ConflictError),
            private_home=_home_url(token),
        )
        return render(request, "web/reports/report.html", context, status=err.status)
    opponent = match.player_for(other(seat_of(report.reporter_side)))
    messages.success(
        request,
        _("Reported. %(said)s It counts once %(opponent)s confirms it.")
        % {"said": report_said(match, report), "opponent": opponent},
    )
    return redirect(_home_url(token))


@never_cache
@require_POST
def private_answer(request: HttpRequest, token: str, pk: int, action: str) -> HttpResponse:
    """Confirm, dispute or withdraw report ``pk`` through the link."""
    link = _link(request, token)
    report = get_object_or_404(
        GameReport.objects.select_related("match__tournament", "match__player1", "match__player2"),
        pk=pk,
        match__tournament=link.tournament,
    )
    match = report.match
    note = ""
    form = NoteForm(request.POST)
    if form.is_valid():
        note = form.cleaned_data["note"]
    try:
        _use(request, link, action)
        if action == "confirm":
            report_services.game_report_confirm(report=report, by=None, link=link)
            messages.success(
                request, _("Confirmed. %(said)s") % {"said": report_said(match, report)}
            )
        elif action == "dispute":
            report_services.game_report_dispute(report=report, by=None, note=note, link=link)
            messages.success(
                request,
                _("Disputed. The referees decide game %(n)s; it counts for nothing until then.")
                % {"n": report.number},
            )
        else:
            report_services.game_report_withdraw(report=report, by=None, note=note, link=link)
            messages.success(request, _("Withdrawn."))
    except DomainError as err:
        messages.error(request, err.message)
    return redirect(_home_url(token))


# --- the organiser's page ----------------------------------------------------------------


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG (segno, pure Python)."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2, title=url))


def _organiser_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_organiser(request.user, tournament):
        raise Http404
    return tournament


@never_cache
@login_required
@require_http_methods(["GET"])
def links_manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organiser_tournament(request, pk)
    live = {
        link.player_id: link
        for link in PrivateLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
    }
    players = [
        e.player
        for e in tournament.entries.select_related("player").order_by("player__name")
        if e.withdrawn_at is None
    ]
    rows = []
    for player in players:
        link = live.get(player.pk)
        url = (
            site_url(_home_url(private_links.private_link_token(link))) if link is not None else ""
        )
        rows.append(
            {
                "player": player,
                "link": link,
                "url": url,
                "qr": mark_safe(qr_svg(url)) if url else "",
                "uses": link.uses.count() if link is not None else 0,
            }
        )
    rounds = list(tournament.rounds.filter(matches__isnull=False).distinct().order_by("number"))
    return render(
        request,
        "web/private/manage.html",
        {
            "tournament": tournament,
            "rows": rows,
            "rounds": rounds,
            "without_link": sum(1 for row in rows if row["link"] is None),
            "site_root": site_root(),
            "site_loopback": site_is_loopback(),
        },
    )


@login_required
@require_POST
def link_issue(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    tournament = _organiser_tournament(request, pk)
    player = get_object_or_404(Player, pk=player_pk)
    try:
        link = private_links.private_link_issue(
            tournament=tournament, player=player, by=request.user
        )
        if private_links.private_link_replaced(link):
            text = _("A new link for %(player)s; the old one no longer opens.")
        else:
            text = _("A link for %(player)s.")
        messages.success(request, text % {"player": player.name})
    except DomainError as err:
        messages.error(request, err.message)
    return redirect("web:private_links", pk=tournament.pk)


@login_required
@require_POST
def links_issue_missing(request: HttpRequest, pk: int) -> HttpResponse:
    """Issue a link to every player without one, at once (the live links stay)."""
    tournament = _organiser_tournament(request, pk)
    try:
        made = private_links.private_links_issue_missing(tournament=tournament, by=request.user)
        messages.success(
            request,
            ngettext(
                "%(n)d new link; the links already issued are unchanged.",
                "%(n)d new links; the links already issued are unchanged.",
                len(made),
            )
            % {"n": len(made)},
        )
    except DomainError as err:
        messages.error(request, err.message)
    return redirect("web:private_links", pk=tournament.pk)


@login_required
@require_POST
def link_revoke(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    tournament = _organiser_tournament(request, pk)
    for link in PrivateLink.objects.filter(
        tournament=tournament, player_id=player_pk, revoked_at__isnull=True
    ):
        private_links.private_link_revoke(link=link, by=request.user)
        messages.success(request, _("Revoked: the link opens nothing now."))
    return redirect("web:private_links", pk=tournament.pk)
