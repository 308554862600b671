"""Organiser pages: create a tournament, then on one manage page enter players (one by
one or from a CSV file), set seeds, withdraw players, choose referees, draw the
bracket, and give walkovers. Each post reads a form, calls one service and shows the
outcome; the rules (and the transactions) are the services'.

Only the tournament's organisers (``core.permissions.is_organiser``) may use
them: anyone else signed in gets 403, anonymous users are sent to sign in, and a
private tournament they cannot see is a 404 as everywhere else. Every successful post
redirects (post/redirect/get) with a message; a form with errors is shown again with
the errors next to its fields. Errors of the services (``DomainError``) are shown the
same way, never as an error page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import DomainError
from core.http import form_answered, found
from core.permissions import can_create_tournament, is_organiser
from matches import round_selectors, tables, walkovers
from matches import selectors as matches_sel
from matches.models import FINISHED_STATES, Match, MatchState
from tournaments import entries as entry_services
from tournaments import group_stage, staff_invitations, stage_draws, tournament_setup
from tournaments import selectors as tournaments_sel
from tournaments.models import Entry, Tournament, TournamentStatus
from web.formats import format_view
from web.forms.organiser import (
    DrawForm,
    PlayerAddForm,
    PlayersImportForm,
    RefereesForm,
    SeedsForm,
    StaffInviteForm,
    TournamentForm,
    WalkoverForm,
    WithdrawForm,
    lengths_text,
)
from web.games import unit_of
from web.views.group_knockout import group_knockout_context, knockout_lengths_form
from web.views.swiss import swiss_manage_context
from web.views.swiss_byes import swiss_byes_manage_context

OPEN_STATES = (MatchState.READY, MatchState.PLAYING)


# The form of the manage page → (its anchor, what to say when it has errors).
PROBLEMS: dict[str, tuple[str, Any]] = {
    "seeds_form": ("entries", gettext_lazy("The seeds are not saved: see the errors.")),
    "player_form": ("add-one", gettext_lazy("The player is not entered: see the errors.")),
    "import_form": ("import", gettext_lazy("Nothing was imported: see the errors.")),
    "referees_form": ("referees", gettext_lazy("The referees are not saved: see the errors.")),
    "staff_invite_form": ("staff-invite", gettext_lazy("Nobody was invited: see the errors.")),
    "draw_form": ("draw", gettext_lazy("The bracket is not drawn: see the errors.")),
    "knockout_form": (
        "group-knockout",
        gettext_lazy("The knockout is not drawn: see the errors."),
    ),
    "swap_form": ("swiss", gettext_lazy("The players are not swapped yet: see below.")),
}


def managed_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, if ``request.user`` organises it: 404 if they cannot see it, else 403."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may manage it."))
    return tournament


def _drawn_already(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """After the draw the entry, seed and draw forms are gone from the page: a post from
    a page loaded before the draw gets a message (not a form error nobody would see)."""
    if tournament.status == TournamentStatus.DRAFT:
        return None
    messages.error(
        request,
        _("The bracket is drawn already: players, seeds and the draw can no longer change."),
    )
    return redirect(manage_url(tournament))


# A message shown in a part of the manage page rather than at its top: the part the page
# opens at after the action (``base.html`` leaves messages tagged ``at-…`` to the part).
AT_TABLES = "at-tables"


def manage_url(tournament: Tournament, anchor: str = "") -> str:
    url = reverse("web:tournament_manage", args=[tournament.pk])
    return f"{url}#{anchor}" if anchor else url


def form_posted(
    request: HttpRequest,
    tournament: Tournament,
    form: Any,
    done: Callable[[dict[str, Any]], str],
    *,
    anchor: str,
    shown_as: str,
    field: str | None = None,
    refused: Callable[[DomainError], Any] | None = None,
) -> HttpResponse:
    """A manage page's post, the one way each is answered: a valid ``form`` runs its service
    (``done``, given the cleaned data, returns what to say); success redirects to the
    manage page at ``anchor`` with that message (post/redirect/get); the form's errors,
    or the service's refusal (a ``DomainError``, its message — or what ``refused`` makes of
    it — shown at ``field``; None: the whole form), show the manage page again with the
    form as ``shown_as``."""
    return form_answered(
        request,
        form,
        done,
        success=lambda: redirect(manage_url(tournament, anchor)),
        again=lambda: manage_page(request, tournament, **{shown_as: form}),
        field=field,
        refused=refused,
    )


# --- create -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied(_("Ask an administrator for organiser rights."))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournament_setup.tournament_create(
                by=request.user,
                name=data["name"],
                start_date=data["start_date"],
                end_date=data["end_date"],
                venue=data["venue"],
                game=data["game"],
                rules=data["rules"],
                addons=data["addons"],
                scale=data["scale"],
                resignation_policy=data["resignation_policy"],
                is_public=data["is_public"],
                results_by=data["results_by"],
                format=data["format"],
                clock_per_point=data["clock_per_point"],
                clock_delay=data["clock_delay"],
                **form.options(),
            )
        except DomainError as err:
            form.add_service_error(err)
        else:
            messages.success(
                request,
                _("“%(name)s” is created. Now enter the players.") % {"name": tournament.name},
            )
            return redirect(manage_url(tournament))
    return render(request, "web/organiser/tournament_form.html", {"form": form})


# --- the manage page ----------------------------------------------------------------------


def _active(entries: Iterable[Entry]) -> list[Entry]:
    """The entries still in, seeded first (the selector's order puts unseeded entries
    first on SQLite and last on PostgreSQL, where NULLs sort differently)."""
    return sorted(
        (e for e in entries if e.withdrawn_at is None),
        key=lambda e: (e.seed is None, e.seed or 0, e.player.name.casefold(), e.pk),
    )


def _draw_form(tournament: Tournament, data: Any = None) -> DrawForm:
    players = stage_draws.draw_entrants(tournament=tournament)
    lengths = stage_draws.draw_lengths(tournament, players)
    rounds = len(lengths)
    initial = {"lengths": lengths_text(lengths)} if lengths else {}
    unit = unit_of(tournament)
    return DrawForm(data, rounds=rounds, players=players, unit=unit, initial=initial)


def _referees_form(tournament: Tournament, data: Any = None) -> RefereesForm:
    names = " ".join(u.get_username() for u in tournament.referees.order_by("username"))
    return RefereesForm(data, initial={"usernames": names})


def manage_page(request: HttpRequest, tournament: Tournament, **forms: Any) -> HttpResponse:
    """The manage page; ``forms`` replace the blank forms (a posted form with errors)."""
    entries = list(tournaments_sel.tournament_entries(tournament=tournament))
    active = _active(entries)
    draft = tournament.status == TournamentStatus.DRAFT
    drawn = (
        round_selectors.tournament_bracket(tournament=tournament, by=request.user)
        if not draft
        else None
    )
    open_matches: list[Match] = []
    table_matches: list[Match] = []
    if drawn is not None:
        matches = [m for r in drawn.rounds for m in r.matches]
        if drawn.third_place is not None:
            matches.append(drawn.third_place)
        for section in drawn.sections:  # a consolation's or double elimination's others
            matches += [m for column in section.columns for m in column.slots if m is not None]
        open_matches = [
            m
            for m in matches
            if m.state in OPEN_STATES and m.player1_id is not None and m.player2_id is not None
        ]
        # Tables are given while a match is still to be played: an unpublished Swiss
        # round's (waiting) too, so the organiser sets them before publishing.
        table_matches = [
            m
            for m in matches
            if m.state not in FINISHED_STATES
            and m.player1_id is not None
            and m.player2_id is not None
        ]
    # A form with errors: say so at the top and take the reader to it.
    problem = next((PROBLEMS[name] for name in forms if name in PROBLEMS), None)
    context: dict[str, Any] = {
        "problem": problem,
        "tournament": tournament,
        "format": format_view(tournament.format),
        "entries": entries,
        "active_count": len(active),
        "draft": draft,
        "bracket": drawn,
        "open_matches": open_matches,
        "table_matches": table_matches,
        "max_table": tables.MAX_TABLE,
        "referees": list(tournament.referees.order_by("username")),
        # The players' open reports, the disputed ones first: the organisers decide them.
        "open_reports": matches_sel.tournament_open_reports(tournament=tournament),
        "seeds_form": forms.get("seeds_form") or SeedsForm(entries=active),
        "player_form": forms.get("player_form") or PlayerAddForm(),
        "import_form": forms.get("import_form") or PlayersImportForm(),
        "referees_form": forms.get("referees_form") or _referees_form(tournament),
        "staff_invite_form": forms.get("staff_invite_form") or StaffInviteForm(),
        "staff_invitations": list(
            staff_invitations.staff_invitations_open(tournament=tournament, by=request.user)
        ),
        "organisers": list(tournament.organisers.order_by("username")),
        "draw_form": forms.get("draw_form") or _draw_form(tournament),
        "withdraw_form": forms.get("withdraw_form") or WithdrawForm(),
        "group_knockout": group_knockout_context(tournament, forms.get("knockout_form")),
        "swiss_manage": swiss_manage_context(tournament, forms.get("swap_form")),
        "swiss_byes": swiss_byes_manage_context(tournament),
    }
    return render(request, "web/organiser/manage.html", context)


@login_required
@require_GET
def tournament_manage(request: HttpRequest, pk: int) -> HttpResponse:
    return manage_page(request, managed_tournament(request, pk))


# --- entries ------------------------------------------------------------------------------


@login_required
@require_POST
def entry_withdraw(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    """The withdraw buttons of the entries table (before and after the draw)."""
    tournament = managed_tournament(request, pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player", "tournament"), pk=entry_pk, tournament=tournament
    )
    form = WithdrawForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        entry_services.entry_withdraw(entry=entry, by=request.user, reason=reason)
    except DomainError as err:
        messages.error(request, err.message)
    else:
        if tournament.status == TournamentStatus.DRAFT:
            text = _("%(name)s is withdrawn and leaves the draw.")
        else:
            text = _("%(name)s is withdrawn; their opponent gets a walkover.")
        messages.success(request, text % {"name": entry.player.name})
    return redirect(manage_url(tournament, "entries"))


@login_required
@require_POST
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = managed_tournament(request, pk)
    if closed := _drawn_already(request, tournament):
        return closed

    def done(data: dict[str, Any]) -> str:
        entry, created = entry_services.entry_player_add(
            tournament=tournament,
            name=data["name"],
            club=data["club"],
            new_club=data["new_club"],
            rating=data["rating"],
            seed=data["seed"],
            by=request.user,
        )
        if created:
            return _("%(name)s is entered.") % {"name": entry.player.name}
        return _("%(name)s (a player known already) is entered.") % {"name": entry.player.name}

    form = PlayerAddForm(request.POST)
    return form_posted(request, tournament, form, done, anchor="add", shown_as="player_form")


def _refused_rows(err: DomainError) -> list[str]:
    """The rows ``tournaments.entries.entries_import`` refused, one line each (the row number in the
    reader's language; the reason is the service's own message)."""
    return [
        _("row %(row)d: %(message)s") % {"row": e["row"], "message": e["message"]}
        for e in err.extra.get("errors", [])
    ] or [err.message]


@login_required
@require_POST
def players_import(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = managed_tournament(request, pk)
    if closed := _drawn_already(request, tournament):
        return closed

    def done(data: dict[str, Any]) -> str:
        entries = entry_services.entries_import(
            tournament=tournament, rows=data["file"], by=request.user
        )
        count = len(entries)
        return ngettext("%(n)d player is entered.", "%(n)d players are entered.", count) % {
            "n": count
        }

    def refused(err: DomainError) -> list[str]:
        """Each refused row on its own line at the file's field."""
        return [*_refused_rows(err), _("Nothing was imported; fix the file first.")]

    form = PlayersImportForm(request.POST, request.FILES)
    return form_posted(
        request,
        tournament,
        form,
        done,
        anchor="entries",
        shown_as="import_form",
        field="file",
        refused=refused,
    )


@login_required
@require_POST
def seeds_set(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = managed_tournament(request, pk)
    if closed := _drawn_already(request, tournament):
        return closed
    active = _active(tournaments_sel.tournament_entries(tournament=tournament))
    form = SeedsForm(request.POST, entries=active)

    def done(data: dict[str, Any]) -> str:
        entry_services.entries_seeds_set(tournament=tournament, seeds=form.seeds(), by=request.user)
        return _("The seeds are saved.")

    return form_posted(request, tournament, form, done, anchor="entries", shown_as="seeds_form")


# --- referees -------------------------------------------------------------------------------


@login_required
@require_POST
def referees_set(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = managed_tournament(request, pk)

    def done(data: dict[str, Any]) -> str:
        users = data["usernames"]
        tournament_setup.tournament_staff_set(
            tournament=tournament, by=request.user, referees=users
        )
        if users:
            return _("The referees are %(names)s.") % {
                "names": ", ".join(u.get_username() for u in users)
            }
        return _("The tournament has no referees now.")

    form = _referees_form(tournament, request.POST)
    return form_posted(request, tournament, form, done, anchor="referees", shown_as="referees_form")


@login_required
@require_POST
def staff_invite(request: HttpRequest, pk: int) -> HttpResponse:
    """Invite a referee or co-organiser by user name or e-mail address."""
    tournament = managed_tournament(request, pk)

    def done(data: dict[str, Any]) -> str:
        who = data["who"]
        invitation = staff_invitations.staff_invite(
            tournament=tournament, who=who, role=data["role"], by=request.user
        )
        if invitation.email:
            return _("An invitation is mailed to %(who)s.") % {"who": invitation.email}
        return _("%(who)s is invited; they accept on their invitations page.") % {
            "who": who.strip()
        }

    form = StaffInviteForm(request.POST)
    return form_posted(
        request,
        tournament,
        form,
        done,
        anchor="staff-invite",
        shown_as="staff_invite_form",
        field="who",
    )


# --- the draw ---------------------------------------------------------------------------------


def _started_text(tournament: Tournament) -> str:
    """What starting the tournament did, in its format's words (a paired format draws
    nothing yet, a round robin its groups, the other formats their bracket)."""
    return format_view(tournament.format).started(tournament.draw_seed)


@login_required
@require_POST
def tournament_draw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = managed_tournament(request, pk)
    if closed := _drawn_already(request, tournament):
        return closed

    def done(data: dict[str, Any]) -> str:
        drawn = stage_draws.tournament_draw(
            tournament=tournament,
            by=request.user,
            lengths=data["lengths"],
            draw_seed=data["draw_seed"],
        )
        return _started_text(drawn)

    form = _draw_form(tournament, request.POST)
    return form_posted(request, tournament, form, done, anchor="draw", shown_as="draw_form")


@login_required
@require_POST
def group_knockout_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """The knockout drawn from the groups' tables (``web.views.group_knockout``)."""
    tournament = managed_tournament(request, pk)

    def done(data: dict[str, Any]) -> str:
        group_stage.group_knockout_draw(
            tournament=tournament, by=request.user, lengths=data["lengths"]
        )
        return _("The knockout is drawn from the groups' tables.")

    form = knockout_lengths_form(tournament, request.POST)
    return form_posted(
        request, tournament, form, done, anchor="group-knockout", shown_as="knockout_form"
    )


# --- walkover ---------------------------------------------------------------------------------


@login_required
@require_POST
def match_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Set or clear a match's table from the manage page's Tables list
    (``matches.tables.match_table_set``: a table taken in the round is refused)."""
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    tournament = match.tournament
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may manage it."))
    raw = request.POST.get("table", "").strip()
    table: int | None = None
    if raw:
        try:
            table = int(raw)
        except ValueError:
            messages.error(request, _("A table number is a whole number."), extra_tags=AT_TABLES)
            return redirect(manage_url(tournament, "tables"))
    try:
        tables.match_table_set(match=match, table=table, by=request.user)
    except DomainError as err:
        # Shown in the Tables list, where the page opens (not above it, out of sight).
        messages.error(request, err.message, extra_tags=AT_TABLES)
    else:
        if table is None:
            messages.success(request, _("%(match)s has no table now.") % {"match": str(match)})
        else:
            messages.success(
                request,
                _("%(match)s plays at table %(table)s.") % {"match": str(match), "table": table},
            )
    return redirect(manage_url(tournament, "tables"))


@login_required
@require_http_methods(["GET", "POST"])
def match_walkover(request: HttpRequest, pk: int) -> HttpResponse:
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    tournament = match.tournament
    if not is_organiser(request.user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may give walkovers."))
    open_ = (
        match.state in OPEN_STATES and match.player1_id is not None and match.player2_id is not None
    )
    form = WalkoverForm(request.POST or None, match=match)
    if request.method == "POST" and form.is_valid():
        winner = form.winner_player()
        try:
            walkovers.match_walkover(
                match=match, winner=winner, by=request.user, reason=form.cleaned_data["reason"]
            )
        except DomainError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, _("%(name)s wins by walkover.") % {"name": winner.name})
            return redirect(manage_url(tournament, "walkovers"))
    return render(
        request,
        "web/organiser/walkover.html",
        {"match": match, "tournament": tournament, "form": form, "open": open_},
    )
