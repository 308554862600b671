"""API routes of the tournaments app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from tournaments import api, api_invitations, api_venues

urlpatterns: list[URLPattern] = [
    path("clubs/", api.ClubListApi.as_view(), name="club-list"),
    path("clubs/<id:pk>/", api.ClubDetailApi.as_view(), name="club-detail"),
    path("players/", api.PlayerListApi.as_view(), name="player-list"),
    path("players/<id:pk>/", api.PlayerDetailApi.as_view(), name="player-detail"),
    path(
        "players/<id:pk>/invitations/",
        api_invitations.PlayerInviteApi.as_view(),
        name="player-invite",
    ),
    path("invitations/", api_invitations.InvitationListApi.as_view(), name="invitation-list"),
    path(
        "invitations/<id:pk>/accept/",
        api_invitations.InvitationAcceptApi.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<id:pk>/decline/",
        api_invitations.InvitationDeclineApi.as_view(),
        name="invitation-decline",
    ),
    path("tournaments/", api.TournamentListApi.as_view(), name="tournament-list"),
    path("tournaments/<id:pk>/", api.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("tournaments/<id:pk>/staff/", api.TournamentStaffApi.as_view(), name="tournament-staff"),
    path("tournaments/<id:pk>/entries/", api.EntryListApi.as_view(), name="entry-list"),
    path("tournaments/<id:pk>/venues/", api_venues.VenueListApi.as_view(), name="venue-list"),
    path("venues/<id:pk>/", api_venues.VenueDetailApi.as_view(), name="venue-detail"),
    path(
        "tournaments/<id:pk>/entries/import/",
        api.EntryImportApi.as_view(),
        name="entry-import",
    ),
    path("entries/<id:pk>/", api.EntryDetailApi.as_view(), name="entry-detail"),
    path("entries/<id:pk>/withdraw/", api.EntryWithdrawApi.as_view(), name="entry-withdraw"),
    path("rounds/<id:pk>/", api.RoundDetailApi.as_view(), name="round-detail"),
]
