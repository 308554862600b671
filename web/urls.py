"""Server-rendered pages: public pages, referee entry, players' reports, record upload and
viewer, organiser pages."""

from django.urls import URLPattern, URLResolver, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from web.views import (
    account,
    analysis,
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
    venues,
)

app_name = "web"
urlpatterns: list[URLPattern | URLResolver] = [
    # Public (anyone may read public tournaments; private ones for their staff and players).
    path("", public.tournament_list, name="tournament_list"),
    # Browsers ask for /favicon.ico whatever the page names: the site's icon.
    path("favicon.ico", public.favicon, name="favicon"),
    path("tournaments/<id:pk>/", public.tournament_detail, name="tournament_detail"),
    path("tournaments/<id:pk>/bracket/", public.tournament_bracket, name="tournament_bracket"),
    path(
        "tournaments/<id:pk>/rounds/<num:number>/",
        rounds.round_detail,
        name="tournament_round",
    ),
    # The venue's big screen: pairings with tables and live results, then standings.
    path("tournaments/<id:pk>/screen/", screen.screen, name="tournament_screen"),
    path(
        "tournaments/<id:pk>/screen/panels/",
        screen.screen_panels,
        name="tournament_screen_panels",
    ),
    path("matches/<id:pk>/", public.match_detail, name="match_detail"),
    path("matches/<id:pk>/live/", public.match_live, name="match_live"),
    path("matches/<id:pk>/analysis/", analysis.match_analysis, name="match_analysis"),
    path("matches/<id:pk>/analysis/ask/", analysis.match_analysis_ask, name="match_analysis_ask"),
    # The digital scoresheet: a game recorded at the table, and the boards being recorded.
    path("matches/<id:pk>/record/", scoresheet.match_record, name="match_record"),
    path(
        "matches/<id:pk>/flag/overrule/",
        scoresheet.match_flag_overrule,
        name="match_flag_overrule",
    ),
    path("tournaments/<id:pk>/live/", scoresheet.tournament_live, name="tournament_live"),
    path("players/<id:pk>/", public.player_detail, name="player_detail"),
    path("words/", public.glossary, name="glossary"),
    # The signed-in person's home: what waits for them as player, referee, organiser.
    path("home/", home.home, name="home"),
    path("home/notifications/", home.notification_choice, name="notification_choice"),
    path("home/notifications/read/", home.notifications_read, name="notifications_read"),
    # The signed-in user's API token (create once, revoke).
    path("account/token/", account.token, name="account_token"),
    path("account/invitations/", invitations.invitation_list, name="account_invitations"),
    path(
        "account/invitations/<id:pk>/accept/",
        invitations.invitation_accept,
        name="account_invitation_accept",
    ),
    path(
        "account/invitations/<id:pk>/decline/",
        invitations.invitation_decline,
        name="account_invitation_decline",
    ),
    path(
        "account/invitations/join/<str:token>/",
        invitations.staff_invitation_open,
        name="staff_invitation_open",
    ),
    path(
        "account/staff-invitations/<id:pk>/accept/",
        invitations.staff_invitation_accept,
        name="account_staff_invitation_accept",
    ),
    path(
        "account/staff-invitations/<id:pk>/decline/",
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
    path("matches/<id:pk>/enter/", referee.match_enter, name="match_enter"),
    path("games/<id:pk>/correct/", referee.game_correct, name="game_correct"),
    # Players who report their own results (tournaments with results_by = players).
    path("matches/<id:pk>/report/", reports.match_report, name="match_report"),
    path("reports/<id:pk>/", reports.report_detail, name="report_detail"),
    path("reports/<id:pk>/confirm/", reports.report_confirm, name="report_confirm"),
    path("reports/<id:pk>/dispute/", reports.report_dispute, name="report_dispute"),
    path("reports/<id:pk>/withdraw/", reports.report_withdraw, name="report_withdraw"),
    # Players without accounts: their private link, and the organiser's list of links.
    path("p/<str:token>/", private_links.private_home, name="private_home"),
    path(
        "p/<str:token>/matches/<id:pk>/report/",
        private_links.private_report,
        name="private_report",
    ),
    path(
        "p/<str:token>/reports/<id:pk>/<str:action>/",
        private_links.private_answer,
        name="private_answer",
    ),
    path(
        "tournaments/<id:pk>/private-links/",
        private_links.links_manage,
        name="private_links",
    ),
    path(
        "tournaments/<id:pk>/private-links/issue-missing/",
        private_links.links_issue_missing,
        name="private_links_issue_missing",
    ),
    path(
        "tournaments/<id:pk>/private-links/<id:player_pk>/issue/",
        private_links.link_issue,
        name="private_link_issue",
    ),
    path(
        "tournaments/<id:pk>/private-links/<id:player_pk>/revoke/",
        private_links.link_revoke,
        name="private_link_revoke",
    ),
    # Game records: upload (players of the match, referees), status, viewer.
    path("matches/<id:pk>/records/new/", records.record_upload, name="record_upload"),
    path("records/<id:pk>/", records.record_detail, name="record_detail"),
    path("records/<id:pk>/status/", records.record_status, name="record_status"),
    path("records/<id:pk>/viewer/", records.record_viewer, name="record_viewer"),
    # Organisers.
    path("tournaments/new/", organiser.tournament_create, name="tournament_create"),
    path("tournaments/<id:pk>/manage/", organiser.tournament_manage, name="tournament_manage"),
    path("tournaments/<id:pk>/players/add/", organiser.player_add, name="tournament_player_add"),
    path(
        "tournaments/<id:pk>/players/import/",
        organiser.players_import,
        name="tournament_players_import",
    ),
    path("tournaments/<id:pk>/seeds/", organiser.seeds_set, name="tournament_seeds"),
    path(
        "tournaments/<id:pk>/entries/<id:entry_pk>/withdraw/",
        organiser.entry_withdraw,
        name="tournament_entry_withdraw",
    ),
    path("tournaments/<id:pk>/referees/", organiser.referees_set, name="tournament_referees"),
    path(
        "tournaments/<id:pk>/staff/invite/",
        organiser.staff_invite,
        name="tournament_staff_invite",
    ),
    path(
        "tournaments/<id:pk>/draw/", organiser.tournament_draw, name="tournament_bracket_generate"
    ),
    path("matches/<id:pk>/walkover/", organiser.match_walkover, name="match_walkover"),
    path("matches/<id:pk>/table/", organiser.match_table, name="match_table"),
    # A championship at several venues: the organiser's venues page and its changes.
    path("tournaments/<id:pk>/venues/", venues.venues_manage, name="tournament_venues"),
    path(
        "tournaments/<id:pk>/venues/referee/",
        venues.referee_venue,
        name="tournament_referee_venue",
    ),
    path("venues/<id:pk>/save/", venues.venue_save, name="venue_save"),
    path("venues/<id:pk>/delete/", venues.venue_delete, name="venue_delete"),
    path("rounds/<id:pk>/venues/split/", venues.round_split, name="round_venues_split"),
    path("matches/<id:pk>/venue/", venues.match_venue, name="match_venue"),
    path(
        "tournaments/<id:pk>/knockout/",
        organiser.group_knockout_draw,
        name="tournament_group_knockout",
    ),  # A Swiss's rounds.
    path("tournaments/<id:pk>/swiss/pair/", pairing.round_pair, name="swiss_pair"),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/swap/",
        pairing.round_swap,
        name="swiss_swap",
    ),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/publish/",
        pairing.round_publish,
        name="swiss_publish",
    ),
    path(
        "tournaments/<id:pk>/entries/<id:entry_pk>/presence/",
        pairing.entry_presence,
        name="swiss_presence",
    ),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/unpair/",
        swiss_byes.round_unpair,
        name="swiss_unpair",
    ),
    path(
        "tournaments/<id:pk>/swiss/rounds/<num:number>/repair/",
        swiss_byes.round_repair,
        name="swiss_repair",
    ),
    path(
        "tournaments/<id:pk>/swiss/half-byes/rules/",
        swiss_byes.half_bye_rules,
        name="swiss_half_bye_rules",
    ),
    path(
        "tournaments/<id:pk>/swiss/half-byes/", swiss_byes.half_bye_ask, name="swiss_half_bye_ask"
    ),
    path(
        "tournaments/<id:pk>/swiss/half-byes/<id:bye>/cancel/",
        swiss_byes.half_bye_cancel,
        name="swiss_half_bye_cancel",
    ),
]
