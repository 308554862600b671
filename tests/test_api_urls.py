"""The REST API's addresses, as the whole site serves them (``config.urls``).

The apps' API routes were gathered in ``tournaments`` before they moved to
``config/api_urls.py`` (the apps' layers); every address had to stay what it was. A
sample from each app's URL module, plus the API's own pages, written out as they were
before the move: each name reverses to its path and the path resolves back to the name and
the same view.
"""

from __future__ import annotations

import pytest
from django.urls import resolve, reverse

# (name, arguments, path, module.class of the view) — as served before the move
SAMPLE: list[tuple[str, list[object], str, str]] = [
    ("api:root", [], "/api/", "tournaments.api_account.ApiRootApi"),
    ("api:token", [], "/api/token/", "tournaments.api_account.ApiTokenApi"),
    ("api:schema", [], "/api/schema/", "drf_spectacular.views.SpectacularAPIView"),
    ("api:docs", [], "/api/docs/", "drf_spectacular.views.SpectacularSwaggerView"),
    ("api:club-detail", [3], "/api/clubs/3/", "tournaments.api.ClubDetailApi"),
    ("api:player-list", [], "/api/players/", "tournaments.api.PlayerListApi"),
    (
        "api:tournament-staff",
        [4],
        "/api/tournaments/4/staff/",
        "tournaments.api.TournamentStaffApi",
    ),
    ("api:entry-withdraw", [5], "/api/entries/5/withdraw/", "tournaments.api.EntryWithdrawApi"),
    ("api:round-detail", [6], "/api/rounds/6/", "tournaments.api.RoundDetailApi"),
    (
        "api:tournament-draw",
        [7],
        "/api/tournaments/7/draw/",
        "matches.api_rounds.TournamentDrawApi",
    ),
    (
        "api:tournament-bracket",
        [7],
        "/api/tournaments/7/bracket/",
        "matches.api_rounds.TournamentBracketApi",
    ),
    ("api:match-list", [], "/api/matches/", "matches.api.MatchListApi"),
    (
        "api:game-versions",
        [8, 2],
        "/api/matches/8/games/2/versions/",
        "matches.api.GameVersionsApi",
    ),
    ("api:record-detail", [9], "/api/records/9/", "matches.api.RecordDetailApi"),
    (
        "api:report-confirm",
        [10],
        "/api/reports/10/confirm/",
        "matches.api_reports.ReportConfirmApi",
    ),
    ("api:rating-list", [], "/api/ratings/", "clubs.api.RatingListApi"),
    (
        "api:player-rating-history",
        [11, "backgammon"],
        "/api/players/11/ratings/backgammon/",
        "clubs.api.PlayerRatingHistoryApi",
    ),
    ("api:match-rating", [12], "/api/matches/12/rating/", "clubs.api.MatchRatingApi"),
    (
        "api:tournament-seed-by-rating",
        [13],
        "/api/tournaments/13/seeds/by-rating/",
        "clubs.api.TournamentSeedByRatingApi",
    ),
    ("api:season-import", [14], "/api/seasons/14/imports/", "clubs.api.SeasonImportApi"),
]


@pytest.mark.parametrize(("name", "args", "path", "view"), SAMPLE, ids=[s[0] for s in SAMPLE])
def test_an_api_address_is_unchanged(name: str, args: list[object], path: str, view: str) -> None:
    assert reverse(name, args=args) == path
    match = resolve(path)
    assert f"{match.namespace}:{match.url_name}" == name
    view_class = match.func.view_class  # type: ignore[attr-defined]
    assert f"{view_class.__module__}.{view_class.__qualname__}" == view
    assert [str(a) for a in match.args] + [str(v) for v in match.kwargs.values()] == [
        str(a) for a in args
    ]
