"""The big screen (``/tournaments/N/screen/``): a venue's TV showing the current round's
pairings with their tables and live results, then the standings (a round robin, a Swiss)
or the bracket (the knockout formats), page after page.

How it keeps up: the page holds panels (``screen_panels``), fetched again every
``POLL_SECONDS`` from ``/tournaments/N/screen/panels/`` by a few lines of old-fashioned
JavaScript (``web/static/web/screen.js``: no modules, no arrow functions, ``fetch`` where
the browser has it, ``XMLHttpRequest`` otherwise), as conditional GETs: both addresses
answer ``304`` while the tournament's version stands (``web.live``), so a screen costs
one query per poll between results. Which panel shows follows the clock
(``ROTATE_SECONDS`` each), so a reload keeps the rotation's place; ``?panel=N`` keeps
panel N up (a second TV that shows only the standings).

Without JavaScript every panel is shown one below the other and the page reloads itself
(``<noscript>`` meta refresh, ``NOSCRIPT_REFRESH``); a script that stopped (an old TV's
browser throwing on something) is caught by a slower meta refresh that is always there
(``WATCHDOG_REFRESH``), so the screen is never stale for long.

Decisions where the docs are silent:
- **What is shown** is what the public sees (``matches.visibility`` with ``by=None`` for
  a public tournament): a screen stands in the hall, so an organiser's TV signed in as
  the organiser shows no unpublished Swiss pairing. A private tournament's screen shows
  what its signed-in viewer may see, and no unpublished round either.
- **The current round**: of each bracket (a round's kind and bracket number) the first
  round with a match still to play (ready or being played): a round robin's first round
  not finished, in a double elimination the winners' and losers' rounds of the evening
  together. With none (between rounds, or finished) the last round that has a result.
- **Panels**: pairings by table, ``PAIRINGS_PER_PANEL`` a panel; the standings,
  ``LINES_PER_PANEL`` lines a panel (each group of a round robin its own); a knockout's
  bracket from the current round on, at most ``BRACKET_COLUMNS`` rounds, a round of more
  than ``BRACKET_MAX_MATCHES`` matches left out (it would not be readable from three
  metres; its matches are on the pairings panels while it is played). A finished
  tournament starts with its placings (the winner first, down to place
  ``PODIUM_PLACES``), so the evening ends on its champion, not on the final's row.
- **A venue's screen** (``?venue=N``, a tournament played at several venues,
  ``tournaments.venues``): the pairings of that venue's matches only, its current round
  read from them, with the tournament's one standings and bracket as on every screen.
- **A game being recorded move by move** shows as being played, with the match's score,
  from the moment its recording starts (``scoresheets.services.live_start`` moves the
  tournament's version), not "–" until its first result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.http import found
from core.permissions import User
from matches import round_selectors, stage_text
from matches.models import Match, MatchState
from matches.stage_handlers import handler_for
from matches.visibility import visible_matches
from scoresheets.models import LiveGame, LiveStatus
from stages.messages import number
from teams.models import TeamMatch
from teams.tables import team_table
from tournaments import selectors as tournaments_sel
from tournaments import venues
from tournaments.models import Round, Tournament, TournamentStatus, Venue
from tournaments.round_kinds import round_kind
from tournaments.selectors import LiveStamp
from web.live import conditional
from web.stage_pages import page_for

__all__ = ["screen", "screen_context", "screen_panels"]

POLL_SECONDS = 10
ROTATE_SECONDS = 15
NOSCRIPT_REFRESH = 30
WATCHDOG_REFRESH = 300
PAIRINGS_PER_PANEL = 8
LINES_PER_PANEL = 8
BRACKET_COLUMNS = 4
BRACKET_MAX_MATCHES = 8
PLAYABLE = (MatchState.READY, MatchState.PLAYING)
PODIUM_PLACES = 4  # a finished tournament's first panel: its winner and the places to 4


@dataclass
class Panel:
    """One screenful: ``kind`` is ``pairings``, ``standings``, ``bracket``, ``podium``,
    or a team stage's ``team_table`` and ``team_matches``."""

    kind: str
    title: str
    rows: list[Any] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    page: int = 1
    pages: int = 1


def _chunks(rows: list[Any], size: int) -> list[list[Any]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]


def _paged(kind: str, title: str, rows: list[Any], size: int, **extra: Any) -> list[Panel]:
    chunks = _chunks(rows, size)
    return [
        Panel(kind, title, chunk, page=i + 1, pages=len(chunks), **extra)
        for i, chunk in enumerate(chunks)
    ]


def _shown_matches(tournament: Tournament, by: User, venue: Venue | None = None) -> list[Match]:
    viewer = None if tournament.is_public else by
    shown = visible_matches(by=viewer, tournament=tournament)
    if venue is not None:
        shown = shown.filter(venue=venue)
    return list(
        shown.filter(round__published=True)
        .exclude(state__in=(MatchState.NOT_NEEDED, MatchState.BYE))
        .select_related("player1", "player2", "winner", "round")
        .order_by("round__number", "is_third_place", "slot")
    )


def current_rounds(matches: list[Match]) -> list[Round]:
    """The rounds being played (see the module text), in their order."""
    rounds: dict[tuple[str, int | None], Round] = {}
    for m in matches:  # in round order: the first round of each bracket still played
        if m.state in PLAYABLE:
            rounds.setdefault((m.round.kind, m.round.bracket_number), m.round)
    if not rounds:
        done = [m for m in matches if m.state in (MatchState.DECIDED, MatchState.WALKOVER)]
        if done:
            last = max(done, key=lambda m: (m.round.number, m.round_id))
            rounds[(last.round.kind, last.round.bracket_number)] = last.round
    return sorted(rounds.values(), key=lambda r: (r.number, r.pk))


def _pairings(matches: list[Match], rounds: list[Round]) -> list[Match]:
    ids = {r.pk for r in rounds}
    chosen = [m for m in matches if m.round_id in ids]
    return sorted(
        chosen, key=lambda m: (m.board is None, m.board or 0, m.round.number, m.slot, m.pk)
    )


def _standings_panels(tournament: Tournament) -> list[Panel]:
    """Its tables' standings (a round robin's groups, paired rounds' one table)."""
    panels: list[Panel] = []
    read = handler_for(tournament).tables
    tables = read(tournament) if read is not None else []
    for t in tables:
        columns = [stage_text.tiebreak_name(key) for key in t.chain][:2]
        lines = [
            (line, [_value(v) for v in line.values[: len(columns)]])
            for line in t.lines
            if not line.withdrawn
        ]
        title = _("Standings")
        if len(tables) > 1:
            title += " · " + _("Group %(label)s") % {"label": t.label}
        panels += _paged("standings", title, lines, LINES_PER_PANEL, columns=columns)
    return panels


def _value(v: Any) -> str:
    return "" if v is None else stage_text.score_text(number(v))


def _bracket_panels(tournament: Tournament, by: User, rounds: list[Round]) -> list[Panel]:
    viewer = None if tournament.is_public else by
    bracket = round_selectors.tournament_bracket(tournament=tournament, by=viewer)
    eligible = [
        br
        for br in bracket.rounds
        if br.round.published and br.matches and len(br.matches) <= BRACKET_MAX_MATCHES
    ]
    if not eligible:
        return []
    # From the first knockout round being played on; near the end, the last rounds.
    start = min((r.number for r in rounds if round_kind(r.kind).bracket), default=0)
    first = next((i for i, br in enumerate(eligible) if br.round.number >= start), 0)
    first = max(0, min(first, len(eligible) - BRACKET_COLUMNS))
    title = bracket.main_title or _("Bracket")
    return [Panel("bracket", title, eligible[first : first + BRACKET_COLUMNS])]


def _team_panels(tournament: Tournament, rounds: list[Round]) -> list[Panel]:
    """A team stage's table (place, team, played, match points, board points) and the
    team matches of the rounds being played (the first round's before any is), with
    their board scores."""
    table = team_table(tournament=tournament)
    rows = [(row, table.teams[row.team]) for row in table.rows]
    panels = _paged("team_table", _("Team table"), rows, LINES_PER_PANEL)
    first = Round.objects.filter(tournament=tournament).order_by("number")
    ids = [r.pk for r in rounds] or list(first.values_list("pk", flat=True)[:1])
    team_matches = list(
        TeamMatch.objects.filter(tournament=tournament, round_id__in=ids)
        .select_related("home", "away", "round")
        .order_by("round__number", "number")
    )
    if team_matches:
        title = " · ".join(sorted({tm.round.name for tm in team_matches}))
        panels += _paged("team_matches", title, team_matches, PAIRINGS_PER_PANEL)
    return panels


def screen_context(
    tournament: Tournament, *, by: User, venue: Venue | None = None
) -> dict[str, Any]:
    """The panels the screen rotates through (see the module text); ``venue``: that
    venue's pairings only."""
    matches = _shown_matches(tournament, by, venue)
    rounds = current_rounds(matches)
    pairings = _pairings(matches, rounds)
    title = " · ".join(r.name for r in rounds) or _("Pairings")
    if venue is not None:
        title = f"{title} · {venue.name}"
    panels = _paged("pairings", title, pairings, PAIRINGS_PER_PANEL) if rounds else []
    page = page_for(tournament)
    knockout_rounds = [m for m in matches if not round_kind(m.round.kind).table]
    if page.standings:
        panels += _standings_panels(tournament)
    if page.team_table:
        panels += _team_panels(tournament, rounds)
    if page.bracket or (page.standings and knockout_rounds):
        panels += _bracket_panels(tournament, by, rounds)
    finished = tournament.status == TournamentStatus.FINISHED
    if finished:
        # The evening ends on its winner, not on the final's row.
        placings = round_selectors.tournament_placings(tournament=tournament)
        podium = [p for p in placings if p.first <= PODIUM_PLACES]
        if podium:
            panels.insert(0, Panel("podium", _("Placings"), podium))
    recording = set(
        LiveGame.objects.filter(
            match__tournament=tournament, status=LiveStatus.RECORDING
        ).values_list("match_id", flat=True)
    )
    for m in matches:
        m.recording = m.pk in recording  # type: ignore[attr-defined]
    return {
        "tournament": tournament,
        "venue": venue,
        "panels": panels,
        "finished": finished,
        "poll_seconds": POLL_SECONDS,
        "rotate_seconds": ROTATE_SECONDS,
        "noscript_refresh": NOSCRIPT_REFRESH,
        "watchdog_refresh": WATCHDOG_REFRESH,
    }


@conditional("screen", tournaments_sel.tournament_stamp)
def screen(request: HttpRequest, pk: int, *, stamp: LiveStamp | None = None) -> HttpResponse:
    """The whole screen page (see the module text)."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    context = screen_context(tournament, by=request.user, venue=_venue(request, tournament))
    context["version"] = tournament.version
    return render(request, "web/screen.html", context)


@conditional("screen-panels", tournaments_sel.tournament_stamp)
def screen_panels(request: HttpRequest, pk: int, *, stamp: LiveStamp | None = None) -> HttpResponse:
    """The panels alone: what the screen's script fetches every few seconds."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    context = screen_context(tournament, by=request.user, venue=_venue(request, tournament))
    context["version"] = tournament.version
    return render(request, "web/_screen_panels.html", context)


def _venue(request: HttpRequest, tournament: Tournament) -> Venue | None:
    """The venue of ``?venue=N``; a number not of the tournament's venues is a 404."""
    return found(venues.venue_get, tournament=tournament, pk=request.GET.get("venue"))
