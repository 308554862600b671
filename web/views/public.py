"""Public pages: tournaments, the bracket (updating itself while matches are played),
matches with their games and explanation, players, and the glossary of game words.

Everyone may read public tournaments; a private one looks absent (404) to anyone who
is not its organiser, referee or player (``tournaments.permissions``).

The tournament and match pages and their live parts answer conditional GETs (ETag,
Last-Modified, 304) and keep their rendered fragments in the cache: ``web.live``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs.rating_selectors import ratings_version
from core.conditional import cached
from core.http import found, lang
from core.permissions import User, is_match_player, is_match_referee, is_organiser, is_referee
from games.results import MatchStanding, ScoredGame
from matches import elimination_brackets, group_standings, round_selectors, stage_text
from matches import selectors as matches_sel
from matches.analysis import player_analyses
from matches.models import Game, Match, MatchState, RecordState
from matches.standing import family_of, match_standing
from matches.standing_lines import StandingLine
from stages.messages import number
from teams.stage_pages import team_stage_context
from tournaments import selectors as tournaments_sel
from tournaments.models import (
    Player,
    Tournament,
    TournamentStatus,
)
from tournaments.round_kinds import round_kind
from tournaments.selectors import LiveStamp
from web.formats import format_view
from web.forms.referee import FlagOverruleForm
from web.games import entry_choices
from web.live import conditional, fragment, part_of
from web.stage_pages import page_for
from web.views.bracket_parts import knockout_bracket_html
from web.views.reports import can_report, report_rows
from web.views.rounds import rounds_shown
from web.views.scoresheet import (
    can_record,
    clock_text,
    flag_fall_reason,
    live_board,
    recordable,
)
from web.views.swiss import swiss_context

# How often a page that is being played refreshes its live part (seconds).
LIVE_EVERY = 10


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = tournaments_sel.tournament_list(by=request.user)
    return render(request, "web/tournament_list.html", {"tournaments": tournaments})


def _bracket_context(request: HttpRequest, pk: int) -> dict[str, Any]:
    return _bracket_context_of(
        found(tournaments_sel.tournament_get, pk=pk, by=request.user), by=request.user
    )


def _bracket_context_of(tournament: Tournament, *, by: User) -> dict[str, Any]:
    bracket = round_selectors.tournament_bracket(tournament=tournament, by=by)
    return {
        "tournament": tournament,
        "bracket": bracket,
        "live": tournament.status == TournamentStatus.RUNNING,
        "live_every": LIVE_EVERY,
    }


def _page_context(
    request: HttpRequest, tournament: Tournament, *, bracket_html: bool = False
) -> dict[str, Any]:
    """Everything the tournament page shows (the cached parts are built from it). With
    ``bracket_html`` a knockout's bracket comes rendered (``_bracket_html``), and of its
    own only the rounds are read (the match lengths)."""
    page = page_for(tournament)
    if bracket_html and page.bracket_columns:
        drawn = round_selectors.Bracket(
            tournament=tournament,
            rounds=[
                round_selectors.BracketRound(r) for r in tournament.rounds.order_by("number").all()
            ],
            third_place=None,
        )
    else:
        drawn = round_selectors.tournament_bracket(tournament=tournament, by=request.user)
    context: dict[str, Any] = {
        "tournament": tournament,
        "bracket": drawn,
        "live": tournament.status == TournamentStatus.RUNNING,
        "live_every": LIVE_EVERY,
        "entries": tournaments_sel.tournament_entries(tournament=tournament),
    }
    context["rounds"] = [br.round for br in context["bracket"].rounds]
    if page.group_table:
        knockout, table_rounds = _split_knockout(context["bracket"])
        table_rounds, round_links = rounds_shown(table_rounds)
        context.update(
            round_links=round_links,
            knockout=knockout,
            table_rounds=table_rounds,
            # One group: its table is the placings; in groups they are shared or come
            # from the knockout (``matches.group_placings``).
            placings=(
                round_selectors.tournament_placings(tournament=tournament)
                if tournament.groups > 1
                else []
            ),
            group=group_context(tournament),
        )
    else:
        context["placings"] = round_selectors.tournament_placings(tournament=tournament)
    return context


@conditional("tournament", tournaments_sel.tournament_stamp)
def tournament_detail(
    request: HttpRequest, pk: int, *, stamp: LiveStamp | None = None
) -> HttpResponse:
    """The tournament page. Outside paired rounds, what it shows below its heading depends on
    nobody's role: with a stamp it comes from the cache, rendered once per version and
    language (``web.live``), so a first load costs a few queries, not the bracket's; the
    knockout's bracket is the one the live part polls, put together from its rounds
    (``web.views.bracket_parts``)."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    viewer_context = {
        "tournament": tournament,
        "format": format_view(tournament.format),
        "live": tournament.status == TournamentStatus.RUNNING,
        # the boards being recorded move by move ("Pågående partier")
        "live_boards": tournament.status == TournamentStatus.RUNNING
        and recordable(tournament.game),
        "live_every": LIVE_EVERY,
        "is_organiser": is_organiser(request.user, tournament),
        "is_referee": is_referee(request.user, tournament),
    }
    page = page_for(tournament)
    if page.paired_rounds:  # its rounds: web.views.swiss
        context = {**_bracket_context_of(tournament, by=request.user), **viewer_context}
        context.update(
            swiss=swiss_context(request, tournament),
            knockout=_split_knockout(context["bracket"])[0],
            entries=tournaments_sel.tournament_entries(tournament=tournament),
        )
        return render(request, "web/tournament_detail.html", context)
    if page.team_table:  # the team matches' part depends on who reads (its organisers' forms)
        context = {
            **viewer_context,
            "team_stage": team_stage_context(tournament=tournament, by=request.user),
            "entries": tournaments_sel.tournament_entries(tournament=tournament),
        }
        return render(request, "web/tournament_detail.html", context)
    if stamp is None:
        context = {**_page_context(request, tournament), **viewer_context}
        return render(request, "web/tournament_detail.html", context)
    built: dict[str, Any] = {}

    def full() -> dict[str, Any]:
        if not built:
            built.update(_page_context(request, tournament, bracket_html=True), **viewer_context)
            if page.bracket:
                built["bracket_html"] = _bracket_html(request, stamp, tournament)
        return built

    def lengths() -> str:
        return render_to_string("web/_match_lengths.html", full(), request)

    def entries() -> str:
        return render_to_string("web/_tournament_entries.html", full(), request)

    def body() -> str:
        # The players change with the whole tournament (entries, names, seeds) and with
        # the ratings, not with a result: kept apart, so an entry does not render them.
        players = replace(stamp, version=tournament.whole_version)
        ratings = ratings_version(tournament=tournament)
        return render_to_string(
            "web/_tournament_body.html",
            {
                **full(),
                "entries_html": mark_safe(fragment(f"entries:{ratings}", players, entries)),
            },
            request,
        )

    context = {
        **viewer_context,
        "lengths_html": mark_safe(fragment("lengths", stamp, lengths)),
        "body_html": mark_safe(fragment(f"body:{LIVE_EVERY}", stamp, body)),
    }
    return render(request, "web/tournament_detail.html", context)


@conditional("bracket", tournaments_sel.tournament_stamp)
def tournament_bracket(
    request: HttpRequest, pk: int, *, stamp: LiveStamp | None = None
) -> HttpResponse:
    """The bracket alone: what the tournament page swaps in every few seconds (htmx).

    Rendered once per version and language and kept in the cache (``web.live``): the
    bracket shows nothing that depends on who looks, so ``_bracket.html`` must not either.
    A knockout's is put together from its rounds' columns, each cached under its own
    version (``web.views.bracket_parts``): after an entry only its round is rendered again.
    A format played without a bracket (a round robin, a Swiss) has none to show:
    the address leads to the tournament page's standings instead. The format comes with
    the cached fragment (empty for such a format), so a poll still costs one query.
    """
    if stamp is None:
        context = _bracket_context(request, pk)
        html = _bracket_part(request, context)
    else:
        if not stamp.is_public:
            found(tournaments_sel.tournament_get, pk=pk, by=request.user)  # may they see it?
        html = _bracket_html(request, stamp, None, pk=pk)
    if not html:
        return redirect(reverse("web:tournament_detail", args=[pk]) + "#standings-h")
    return HttpResponse(html)


def _split_knockout(
    drawn: round_selectors.Bracket,
) -> tuple[round_selectors.Bracket | None, list[Any]]:
    """A round robin's rounds: the knockout its groups feed (``tournaments.group_stage``),
    drawn as a bracket, or ``None`` before it is drawn; and the table's own rounds."""
    table = [br for br in drawn.rounds if round_kind(br.round.kind).table]
    ko = [br for br in drawn.rounds if not round_kind(br.round.kind).table]
    if not ko:
        return None, table
    return round_selectors.Bracket(tournament=drawn.tournament, rounds=ko, third_place=None), table


@dataclass
class GroupLine:
    """One row of a round robin's table as the page shows it: the values written in the
    reader's language, and why this player is above the next, in words."""

    line: StandingLine
    values: list[tuple[str, str]]  # (tiebreak's name, value)
    why: str
    cells: list[tuple[bool, list[tuple[Match, str]]]]  # (diagonal?, [(match, text)])


def group_context(tournament: Tournament) -> dict[str, Any]:
    """The round robin's table (``matches.group_standings``) with its tiebreaks' names
    and the reasons rendered in the active language (``matches.stage_text``)."""
    tables = group_standings.group_tables(tournament=tournament)
    columns = [stage_text.tiebreak_name(key) for key in tables[0].chain]
    shown = [
        {"standings": table, "lines": _group_lines(table, columns), "label": table.label}
        for table in tables
    ]
    # A round robin in groups: the whole draw's rounds, as many as its largest group's.
    return {
        "table": max(tables, key=lambda t: t.rounds),
        "columns": columns,
        "headings": stage_text.tiebreak_headings(tables[0].chain),
        "tables": shown,
        "lines": shown[0]["lines"],
        "in_groups": len(tables) > 1,
    }


def _group_lines(table: group_standings.GroupStandings, columns: list[str]) -> list[GroupLine]:
    return [
        GroupLine(
            line=line,
            values=[
                (name, "" if v is None else stage_text.score_text(number(v)))
                for name, v in zip(columns, line.values, strict=True)
            ],
            why=stage_text.render(line.why) if line.why is not None else "",
            cells=[
                (cell.me, list(zip(cell.matches, texts, strict=True))) for cell, texts in line.cells
            ],
        )
        for line in table.lines
    ]


def _bracket_html(
    request: HttpRequest, stamp: LiveStamp, tournament: Tournament | None, pk: int = 0
) -> SafeString:
    """The rendered bracket, the same for the page and its live part: from the cache
    (``tournament`` is read when it is not given and the cache has no bracket).

    Shared by every reader: a bracket format's rounds are all published (only a paired
    round is paired unpublished, ``matches.visibility``), so what the staff and the
    public see of it is the same."""

    def build() -> str:
        shown = tournament or found(tournaments_sel.tournament_get, pk=pk, by=request.user)
        if page_for(shown).bracket_columns:
            live = {"live": shown.status == TournamentStatus.RUNNING, "live_every": LIVE_EVERY}
            return knockout_bracket_html(request, stamp, shown, live)
        return _bracket_part(request, _bracket_context_of(shown, by=request.user))

    html = fragment(f"bracket:{LIVE_EVERY}", stamp, build)
    return mark_safe(html)  # our own template's output, escaped by it when rendered


def _bracket_part(request: HttpRequest, context: dict[str, Any]) -> str:
    """``_bracket.html`` rendered, or "" for a format without a bracket."""
    if not page_for(context["tournament"]).bracket:
        return ""
    return render_to_string("web/_bracket.html", context, request)


@dataclass
class GameRow:
    """One game of a match as the match page shows it: its points and tiebreak as its
    game writes them (bräde: on the tournament's scale), the Crawford game marked
    (backgammon)."""

    game: Game
    winner: Player | None
    starter: Player | None
    points_text: str
    tiebreak_text: str = ""
    crawford: bool = False


# A match in these states shows no score of its own (not begun, or given without play).
NO_SCORE = (MatchState.WAITING, MatchState.BYE, MatchState.WALKOVER)


def _rows(
    match: Match, games: list[Game]
) -> tuple[list[GameRow], MatchStanding | None, tuple[str, str] | None]:
    """The games' rows as the family scores them, the standing they come from (None for a
    match without games and without a score) and the players' points (None without a
    score)."""
    if not games and match.state in NO_SCORE:
        return [], None, None
    standing = match_standing(match, [g.result_value() for g in games])
    rows = [
        GameRow(
            game=game,
            winner=match.player_for(game.winner),
            starter=match.player_for(game.starter) if game.starter else None,
            points_text=scored.text,
            tiebreak_text=_tiebreak_text(scored),
            crawford=scored.crawford,
        )
        for game, scored in zip(games, standing.games, strict=True)
    ]
    return rows, standing, None if match.state in NO_SCORE else standing.score_text


def _match_context(request: HttpRequest, pk: int) -> dict[str, Any]:
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    detail = matches_sel.match_detail(match=match, by=request.user, lang=lang(request))
    tournament = match.tournament
    family = family_of(tournament)
    rows, standing, points_text = _rows(match, detail.games)
    rows_of_reports = report_rows(request.user, match, detail.reports)
    next_number = len(detail.games) + 1
    walkover_reason = flag_fall_reason(match)
    return {
        "match": match,
        # A walkover the clock gave: the page says the time ran out, and a referee may
        # overrule it there (``web.views.scoresheet.match_flag_overrule``).
        "walkover_reason": walkover_reason,
        "flag_form": FlagOverruleForm()
        if walkover_reason and is_match_referee(request.user, match)
        else None,
        "tournament": tournament,
        "detail": detail,
        # The players' open reports (their players, referees and organisers only).
        "report_rows": rows_of_reports,
        "next_number": next_number,
        "can_report": can_report(request.user, match, next_number, rows_of_reports),
        "rows": rows,
        # The scale the score is on (bräde's), for the tiebreak's heading; "" without one.
        "scale": standing.scale if standing is not None else "",
        "entry": entry_choices(tournament.game),
        "has_records": family.replay is not None,
        "points_text": points_text,
        "tiebreak_text": standing.tiebreak_text if standing is not None else None,
        "can_enter": is_match_referee(request.user, match)
        and match.state in (MatchState.READY, MatchState.PLAYING),
        "can_correct": is_match_referee(request.user, match),
        # User names (login identifiers) to the tournament's staff only (``person``).
        "names_in_full": is_referee(request.user, tournament),
        "can_upload": (is_referee(request.user, tournament) or is_match_player(request.user, match))
        and match.state != MatchState.WAITING
        and family.replay is not None,
        # The digital scoresheet: who may record here, and the live board that follows a
        # game being recorded (drawn by live-board.js from the live API).
        "can_record": can_record(request.user, match),
        "live_board": live_board(match),
        # the tournament's time control in words (``tournaments.time_control``)
        "clock_text": clock_text(tournament),
        "can_walkover": is_organiser(request.user, tournament)
        and match.state in (MatchState.READY, MatchState.PLAYING),
        "live": match.state in (MatchState.READY, MatchState.PLAYING)
        or any(s.state in (RecordState.PENDING, RecordState.VERIFYING) for s in detail.submissions)
        or bool(rows_of_reports),
        "live_every": LIVE_EVERY,
        # the live part's version as its stream names it (push.js's ``?v=``)
        "live_version": tournaments_sel.part_version(match.live_version, tournament.whole_version),
        "viewable_states": (RecordState.VERIFIED, RecordState.ENTERED, RecordState.MISMATCH),
        # A consolation's or double elimination's match: where its winner and loser go.
        "links": elimination_brackets.match_links(match),
    }


def _tiebreak_text(game: ScoredGame) -> str:
    """A game's tiebreak: a point to the winner or the loser (bräde's W&W skiljepoäng) in
    words, else the mark its points carry (Ny 1's sign, which is its tiebreak)."""
    if game.tiebreak_to is None:
        return game.mark
    return _("1 to the winner") if game.tiebreak_to == game.winner else _("1 to the loser")


@conditional("match", matches_sel.match_stamp)
def match_detail(request: HttpRequest, pk: int, *, stamp: LiveStamp | None = None) -> HttpResponse:
    """A match's page. For anonymous readers of a public tournament what it shows below
    the site's header is the same for all of them: rendered once per version of the match
    and language and kept in the cache (``web.live``), as its live part is; signed-in
    readers may see links others do not."""
    if stamp is None or not stamp.is_public or request.user.is_authenticated:
        return render(request, "web/match_detail.html", _match_context(request, pk))

    def build() -> tuple[str, str]:
        context = _match_context(request, pk)
        return (
            render_to_string("web/_match_title.html", context, request),
            render_to_string("web/_match_page.html", context, request),
        )

    title, html = cached(f"match-page:{pk}:{LIVE_EVERY}", stamp, build)
    # Our own templates' output, escaped by them when rendered.
    context = {"match_title": mark_safe(title), "match_html": mark_safe(html)}
    return render(request, "web/match_detail.html", context)


@part_of("web:match_detail")
@conditional("match-live", matches_sel.match_stamp)
def match_live(request: HttpRequest, pk: int, *, stamp: LiveStamp | None = None) -> HttpResponse:
    """The games, standing and records of a match: swapped in every few seconds (htmx);
    opened as a page of its own, it sends the reader to the match's page (``part_of``).

    For anonymous viewers of a public tournament it is kept in the cache per version and
    language (``web.live``); signed-in viewers may see links others do not.
    """
    if stamp is None or not stamp.is_public or request.user.is_authenticated:
        return render(request, "web/_match_live.html", _match_context(request, pk))
    html = fragment(
        f"match-live:{pk}:{LIVE_EVERY}",
        stamp,
        lambda: render_to_string("web/_match_live.html", _match_context(request, pk), request),
    )
    return HttpResponse(html)


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player and their matches: a player entered only in tournaments the visitor may
    not see is a 404, and of the others only the visible tournaments' matches show."""
    player = found(tournaments_sel.player_get, pk=pk, by=request.user)
    matches = list(round_selectors.player_matches(player=player, by=request.user))
    # each analysed backgammon match's PR of this player, shown beside its result
    prs = player_analyses(player=player, match_ids=[m.pk for m in matches])
    rows = [(m, prs.get(m.pk)) for m in matches]
    return render(
        request,
        "web/player_detail.html",
        {"player": player, "matches": matches, "rows": rows, "analysed": bool(prs)},
    )


def glossary(request: HttpRequest) -> HttpResponse:
    return render(request, "web/glossary.html")


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers whatever a page names: the site's icon
    (its static address found when asked, so a collected, hashed name is followed)."""
    return HttpResponsePermanentRedirect(static("web/favicon.svg"))
