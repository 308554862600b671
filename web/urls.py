"""Server-rendered pages: public pages, referee entry, players' reports, record upload and
viewer, organiser pages."""

from django.urls import URLPattern, URLResolver, path

from web.views import (
    account,
    home,
    invitations,
    organiser,
    organiser_rights,
    pairing,
    private_links,
    public,
    records,
    referee,
    reports,
    rounds,
    scoresheet,
    screen,
    swiss_byes,
)

app_name = "web"
urlpatterns: list[URLPattern | URLResolver] = [
    # Public (anyone may read public tournaments; private ones for their staff and players).
    path("", public.tournament_list, name="tournament_list"),
    # Browsers ask for /favicon.ico whatever the page names: the site's icon.
    path("favicon.ico", public.favicon, name="favicon"),
    path("tournaments/<int:pk>/", public.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/bracket/", public.tournament_bracket, name="tournament_bracket"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/",
        rounds.round_detail,
        name="tournament_round",
    ),
    # The venue's big screen: pairings with tables and live results, then standings.
    path("tournaments/<int:pk>/screen/", screen.screen, name="tournament_screen"),
    path(
        "tournaments/<int:pk>/screen/panels/",
        screen.screen_panels,
        name="tournament_screen_panels",
    ),
    path("matches/<int:pk>/", public.match_detail, name="match_detail"),
    path("matches/<int:pk>/live/", public.match_live, name="match_live"),
    # The digital scoresheet: a game recorded at the table, and the boards being recorded.
    path("matches/<int:pk>/record/", scoresheet.match_record, name="match_record"),
    path("tournaments/<int:pk>/live/", scoresheet.tournament_live, name="tournament_live"),
    path("players/<int:pk>/", public.player_detail, name="player_detail"),
    path("words/", public.glossary, name="glossary"),
    # The signed-in person's home: what waits for them as player, referee, organiser.
    path("home/", home.home, name="home"),
    path("home/notifications/", home.notification_choice, name="notification_choice"),
    path("home/notifications/read/", home.notifications_read, name="notifications_read"),
    # The signed-in user's API token (create once, revoke).
    path("account/token/", account.token, name="account_token"),
    path("account/invitations/", invitations.invitation_list, name="account_invitations"),
    path(
        "account/invitations/<int:pk>/accept/",
        invitations.invitation_accept,
        name="account_invitation_accept",
    ),
    path(
        "account/invitations/<int:pk>/decline/",
        invitations.invitation_decline,
        name="account_invitation_decline",
    ),
    path(
        "account/invitations/join/<str:token>/",
        invitations.staff_invitation_open,
        name="staff_invitation_open",
    ),
    path(
        "account/staff-invitations/<int:pk>/accept/",
        invitations.staff_invitation_accept,
        name="account_staff_invitation_accept",
    ),
    path(
        "account/staff-invitations/<int:pk>/decline/",
        invitations.staff_invitation_decline,
        name="account_staff_invitation_decline",
    ),
    # A club administrator grants and revokes the organiser right.
    path("organisers/", organiser_rights.organiser_rights, name="organiser_rights"),
    path("organisers/grant/", organiser_rights.organiser_grant, name="organiser_grant"),
    path("organisers/revoke/", organiser_rights.organiser_revoke, name="organiser_revoke"),
    path("account/token/create/", account.token_create, name="account_token_create"),
    path("account/token/revoke/", account.token_revoke, name="account_token_revoke"),
    # Referees at the table.
    path("matches/<int:pk>/enter/", referee.match_enter, name="match_enter"),
    path("games/<int:pk>/correct/", referee.game_correct, name="game_correct"),
    # Players who report their own results (tournaments with results_by = players).
    path("matches/<int:pk>/report/", reports.match_report, name="match_report"),
    path("reports/<int:pk>/", reports.report_detail, name="report_detail"),
    path("reports/<int:pk>/confirm/", reports.report_confirm, name="report_confirm"),
    path("reports/<int:pk>/dispute/", reports.report_dispute, name="report_dispute"),
    path("reports/<int:pk>/withdraw/", reports.report_withdraw, name="report_withdraw"),
    # Players without accounts: their private link, and the organiser's list of links.
    path("p/<str:token>/", private_links.private_home, name="private_home"),
    path(
        "p/<str:token>/matches/<int:pk>/report/",
        private_links.private_report,
        name="private_report",
    ),
    path(
        "p/<str:token>/reports/<int:pk>/<str:action>/",
        private_links.private_answer,
        name="private_answer",
    ),
    path(
        "tournaments/<int:pk>/private-links/",
        private_links.links_manage,
        name="private_links",
    ),
    path(
        "tournaments/<int:pk>/private-links/issue-missing/",
        private_links.links_issue_missing,
        name="private_links_issue_missing",
    ),
    path(
        "tournaments/<int:pk>/private-links/<int:player_pk>/issue/",
        private_links.link_issue,
        name="private_link_issue",
    ),
    path(
        "tournaments/<int:pk>/private-links/<int:player_pk>/revoke/",
        private_links.link_revoke,
        name="private_link_revoke",
    ),
    # Game records: upload (players of the match, referees), status, viewer.
    path("matches/<int:pk>/records/new/", records.record_upload, name="record_upload"),
    path("records/<int:pk>/", records.record_detail, name="record_detail"),
    path("records/<int:pk>/status/", records.record_status, name="record_status"),
    path("records/<int:pk>/viewer/", records.record_viewer, name="record_viewer"),
    # Organisers.
    path("tournaments/new/", organiser.tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/manage/", organiser.tournament_manage, name="tournament_manage"),
    path("tournaments/<int:pk>/players/add/", organiser.player_add, name="tournament_player_add"),
    path(
        "tournaments/<int:pk>/players/import/",
        organiser.players_import,
        name="tournament_players_import",
    ),
    path("tournaments/<int:pk>/seeds/", organiser.seeds_set, name="tournament_seeds"),
    path(
        "tournaments/<int:pk>/entries/<int:entry_pk>/withdraw/",
        organiser.entry_withdraw,
        name="tournament_entry_withdraw",
    ),
    path("tournaments/<int:pk>/referees/", organiser.referees_set, name="tournament_referees"),
    path(
        "tournaments/<int:pk>/staff/invite/",
        organiser.staff_invite,
        name="tournament_staff_invite",
    ),
    path(
        "tournaments/<int:pk>/draw/", organiser.tournament_draw, name="tournament_bracket_generate"
    ),
    path("matches/<int:pk>/walkover/", organiser.match_walkover, name="match_walkover"),
    path("matches/<int:pk>/table/", organiser.match_table, name="match_table"),
    path(
        "tournaments/<int:pk>/knockout/",
        organiser.group_knockout_draw,
        name="tournament_group_knockout",
    ),  # A Swiss's rounds.
    path("tournaments/<int:pk>/swiss/pair/", pairing.round_pair, name="swiss_pair"),
    path(
        "tournaments/<int:pk>/swiss/rounds/<int:number>/swap/",
        pairing.round_swap,
        name="swiss_swap",
    ),
    path(
        "tournaments/<int:pk>/swiss/rounds/<int:number>/publish/",
        pairing.round_publish,
        name="swiss_publish",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_pk>/presence/",
        pairing.entry_presence,
        name="swiss_presence",
    ),
    path(
        "tournaments/<int:pk>/swiss/rounds/<int:number>/unpair/",
        swiss_byes.round_unpair,
        name="swiss_unpair",
    ),
    path(
        "tournaments/<int:pk>/swiss/rounds/<int:number>/repair/",
        swiss_byes.round_repair,
        name="swiss_repair",
    ),
    path(
        "tournaments/<int:pk>/swiss/half-byes/rules/",
        swiss_byes.half_bye_rules,
        name="swiss_half_bye_rules",
    ),
    path(
        "tournaments/<int:pk>/swiss/half-byes/", swiss_byes.half_bye_ask, name="swiss_half_bye_ask"
    ),
    path(
        "tournaments/<int:pk>/swiss/half-byes/<int:bye>/cancel/",
        swiss_byes.half_bye_cancel,
        name="swiss_half_bye_cancel",
    ),
]
