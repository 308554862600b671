"""API routes of the tournaments app (mounted under ``api/`` by ``config.api_urls``)."""

from django.urls import URLPattern, path

from tournaments import api, api_invitations

urlpatterns: list[URLPattern] = [
    path("clubs/", api.ClubListApi.as_view(), name="club-list"),
    path("clubs/<int:pk>/", api.ClubDetailApi.as_view(), name="club-detail"),
    path("players/", api.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:pk>/", api.PlayerDetailApi.as_view(), name="player-detail"),
    path(
        "players/<int:pk>/invitations/",
        api_invitations.PlayerInviteApi.as_view(),
        name="player-invite",
    ),
    path("invitations/", api_invitations.InvitationListApi.as_view(), name="invitation-list"),
    path(
        "invitations/<int:pk>/accept/",
        api_invitations.InvitationAcceptApi.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:pk>/decline/",
        api_invitations.InvitationDeclineApi.as_view(),
        name="invitation-decline",
    ),
    path("tournaments/", api.TournamentListApi.as_view(), name="tournament-list"),
    path("tournaments/<int:pk>/", api.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("tournaments/<int:pk>/staff/", api.TournamentStaffApi.as_view(), name="tournament-staff"),
    path("tournaments/<int:pk>/entries/", api.EntryListApi.as_view(), name="entry-list"),
    path(
        "tournaments/<int:pk>/entries/import/",
        api.EntryImportApi.as_view(),
        name="entry-import",
    ),
    path("entries/<int:pk>/", api.EntryDetailApi.as_view(), name="entry-detail"),
    path("entries/<int:pk>/withdraw/", api.EntryWithdrawApi.as_view(), name="entry-withdraw"),
    path("rounds/<int:pk>/", api.RoundDetailApi.as_view(), name="round-detail"),
]
