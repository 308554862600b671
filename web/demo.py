"""The demo tournament behind ``python manage.py seed_demo``.

DEMO ONLY: every demo account has the password ``brade-demo`` (``DEMO_PASSWORD``),
printed by the command. Never run this against a database that real people log in to.

``demo_build`` creates "Klubbmästerskapet 2026", a 16-player club championship in
progress, through the real services only (those of ``tournaments`` and
``matches.services``), so everything in it is what the site itself would have made:

- users ``arrangor`` (may create tournaments; organises this one), ``domare`` (its
  referee), ``admin`` (superuser), ``kansli`` (a club administrator: grants and revokes
  the organiser right on ``/organisers/``, ``accounts.organiser_rights``) and
  ``anna``/``johan`` (linked to two players; ``johan`` has an open invitation from
  ``arrangor`` to referee the Swiss below, ``tournaments.staff_invitations``);
- 4 clubs, 16 players with ratings, the top 8 seeded; rules talisman, scale ww, rounds
  of 3, 3, 5 and 7 games (four rounds), bracket drawn with a fixed draw seed;
- round 1 fully played: early decisions (S4) after a *jan* and after a *sprängjan*,
  a *hemspel with munk*, a *vackert spel*, a resigned game (*uppgivet*, S1) and one
  walkover (S6);
- round 2 partly played: two matches decided, one being played (one game entered), one
  waiting to be played; the semifinals and the final wait for their players;
- game records: whole matches played by the engine's seeded random player
  (``games.demo_brade``) and submitted — one by the referee for a match with
  no results (verification enters them), two agreeing with entered results — plus one
  record with an illegal move (rejected with the engine's message citing the rule).

Two smaller tournaments show the other games (organised and refereed by the same users,
players from the same clubs): "Backgammon Open 2026", 4 players, semifinals to 5 points
and a final to 7 — one semifinal decided with a gammon on a cube of 2, the Crawford game
and a dropped double, the other being played (a backgammon, a resigned gammon on a cube of
2); and "Kungabrädecupen 2026", 4 players, best of 3 — one semifinal decided, one being
played (results only: Kungabräde has no replay).

Two more show the club formats, bräde best of 1: "Höstgrupperna 2026", a round
robin of 8 players in two groups whose top two go on to a knockout — every group match
played, so the organiser can look at the tables and draw the knockout (A1–B2, B1–A2);
and "Onsdagsschweizer 2026", a Swiss of 8 players over 3 rounds — round 1 paired,
published and played, round 2 paired and not yet published, so the organiser can check
it, swap a pairing and publish it.

Deterministic: the draw, the simulated games and the results are fixed by seeds.
Verification is enqueued by ``game_record_submit`` when its transaction commits (run
in-process without ``REDIS_URL``); ``demo_build`` then calls ``game_record_verify``
itself, which does nothing for a record already verified, so every record has its
verdict before ``demo_build`` returns, with or without a worker.

``demo_delete`` removes the demo tournaments, their demo players (by name, when they are
in no other tournament), the demo users (marked by their ``@demo.brade-arena.invalid``
e-mail address) and the demo clubs left without players.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import Count

from games.demo_brade import (
    SimulatedMatch,
    illegal_record_text,
    result_from_text,
    simulate_match,
)
from games.results import ResultValue
from games.seats import letter_of
from matches.models import (
    RECORD_DONE_STATES,
    GameRecordSubmission,
    Match,
    MatchState,
)
from matches.records import game_record_submit, game_record_verify
from matches.result_values import result_value_from
from matches.results import game_result_enter
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from matches.walkovers import match_walkover
from tournaments.entries import entry_add, entry_seed_set
from tournaments.invitations import invitation_accept, invitation_list, player_link_or_invite
from tournaments.models import Club, Player, Tournament
from tournaments.players import club_create, player_create, player_name_holder
from tournaments.staff_invitations import staff_invite
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create, tournament_staff_set

__all__ = [
    "DEMO_PASSWORD",
    "TOURNAMENT_NAME",
    "ApiExample",
    "DemoAccount",
    "DemoError",
    "DemoSummary",
    "demo_accounts",
    "demo_api_example",
    "demo_build",
    "demo_delete",
    "demo_summary",
    "demo_tournament",
]

DEMO_PASSWORD = "brade-demo"  # demo only: printed by the command for every demo account
DEMO_EMAIL_DOMAIN = "demo.brade-arena.invalid"  # marks the users demo_delete may remove
TOURNAMENT_NAME = "Klubbmästerskapet 2026"
BACKGAMMON_NAME = "Backgammon Open 2026"
KUNGABRADE_NAME = "Kungabrädecupen 2026"
GROUPS_NAME = "Höstgrupperna 2026"
SWISS_NAME = "Onsdagsschweizer 2026"
TOURNAMENT_NAMES = (TOURNAMENT_NAME, BACKGAMMON_NAME, KUNGABRADE_NAME, GROUPS_NAME, SWISS_NAME)
START = datetime.date(2026, 11, 21)
END = datetime.date(2026, 11, 22)
VENUE = "Folkets hus, Uppsala"
RULES = "talisman"
SCALE = "ww"
POLICY = "capped"
LENGTHS = (3, 3, 5, 7)
DRAW_SEED = 20261121
VERIFY_TIMEOUT = 60.0  # seconds to wait for a worker that holds a record (REDIS_URL set)

CLUBS: tuple[tuple[str, str], ...] = (
    ("Uppsala Brädklubb", "Uppsala"),
    ("Göteborgs Brädesällskap", "Göteborg"),
    ("Brädeklubben Talisman", "Stockholm"),
    ("Lunds Brädgille", "Lund"),
)


@dataclass(frozen=True)
class DemoPlayer:
    name: str
    club: int  # index into CLUBS
    rating: int
    seed: int | None = None
    username: str | None = None  # a demo user linked to the player (Player.user)


PLAYERS: tuple[DemoPlayer, ...] = (
    DemoPlayer("Anna Lindqvist", 0, 1912, 1, "anna"),
    DemoPlayer("Erik Johansson", 1, 1874, 2),
    DemoPlayer("Karin Bergström", 2, 1851, 3),
    DemoPlayer("Johan Nyström", 3, 1830, 4, "johan"),
    DemoPlayer("Maria Holm", 0, 1798, 5),
    DemoPlayer("Lars Ekström", 1, 1776, 6),
    DemoPlayer("Sara Lundgren", 2, 1752, 7),
    DemoPlayer("Per Sandberg", 3, 1731, 8),
    DemoPlayer("Ingrid Axelsson", 0, 1702),
    DemoPlayer("Olof Hedlund", 1, 1688),
    DemoPlayer("Elin Forsberg", 2, 1665),
    DemoPlayer("Gustav Dahl", 3, 1640),
    DemoPlayer("Britt Sjöberg", 0, 1618),
    DemoPlayer("Nils Wallin", 1, 1597),
    DemoPlayer("Astrid Engström", 2, 1570),
    DemoPlayer("Mats Björk", 3, 1533),
)

# username → role shown in the summary; the order is the order of the summary.
USERS: tuple[tuple[str, str], ...] = (
    ("admin", "superuser (Django admin)"),
    ("kansli", "club administrator: grants the organiser right on /organisers/"),
    ("arrangor", f"organiser of {TOURNAMENT_NAME}, may create tournaments"),
    ("domare", f"referee of {TOURNAMENT_NAME}"),
    ("anna", "player Anna Lindqvist"),
    ("johan", f"player Johan Nyström; invited to referee {SWISS_NAME} (his Invitations)"),
)

# Results entered by the referee, W = the match's player1 (upper line), B = player2.
# Round 1 slot → games. Slots 1 and 4 are played by the engine, slot 3 is a walkover.
ROUND1_SCRIPTED: dict[int, tuple[str, ...]] = {
    0: ("W jan", "W hemspel"),  # 3–0 with one game left: decided after game 2 (S4)
    2: ("B hemspel munk", "W hemspel", "W jan"),  # munk gives W a skiljepoäng; W 3–2
    5: ("W hemspel", "B vackert trappspel", "B hemspel"),  # B 2–1
    6: ("W sprangjan", "W hemspel"),  # 5–0 with one game left: decided after game 2
    7: ("B uppgivet", "W hemspel", "W hemspel", "W jan"),  # a resigned game lengthens it
}
ROUND1_WALKOVER_SLOT = 3  # player2 does not appear
ROUND1_ENTERED_BY_RECORD_SLOT = 1  # the referee submits the record, no results entered
ROUND1_VERIFIED_SLOT = 4  # the referee enters the results, then submits the record
ROUND2_SCRIPTED: dict[int, tuple[str, ...]] = {
    0: ("W hemspel", "B jan", "W jan"),  # W 3–2
    3: ("W hemspel", "B jan", "B hemspel munk"),  # B 4–1
}
ROUND2_PLAYING_SLOT = 1  # one game entered and verified by a player's record
# The match waiting to be played (round 2, slot 2): nothing in the demo enters a game in
# it, so the README's API example enters its game 1 (``demo_api_example``).
API_EXAMPLE_ROUND = 2
API_EXAMPLE_SLOT = 2
# Seeds of the engine's random player, one per simulated match or game.
SIM_SEEDS = {"r1-record": 8101, "r1-verified": 8104, "r2-playing": 8201, "invalid": 8200}


class DemoError(Exception):
    """The demo cannot be built here (e.g. a real user has a demo username)."""


@dataclass
class DemoSummary:
    """What ``demo_build`` did, for the command to print."""

    tournament: Tournament
    seconds: float
    accounts: list[tuple[str, str, bool]]  # username, role, made by the demo?


@dataclass(frozen=True)
class DemoAccount:
    """A demo login as the command prints it; ``password`` None: changed since the build."""

    username: str
    role: str
    password: str | None


@dataclass(frozen=True)
class ApiExample:
    """The match the README's API example enters a game in, and that game's number."""

    match: Match
    next_game: int

    @property
    def is_ready(self) -> bool:
        return self.match.state == MatchState.READY


# --- lookups ------------------------------------------------------------------------


def demo_tournament() -> Tournament | None:
    """The demo tournament, if it has been built (the newest of that name)."""
    return Tournament.objects.filter(name=TOURNAMENT_NAME).order_by("-id").first()


def _demo_email(username: str) -> str:
    return f"{username}@{DEMO_EMAIL_DOMAIN}"


def _match(tournament: Tournament, round_number: int, slot: int) -> Match:
    return Match.objects.select_related("round", "tournament", "player1", "player2").get(
        tournament=tournament, round__number=round_number, slot=slot, is_third_place=False
    )


def demo_accounts() -> list[DemoAccount]:
    """The demo logins that exist, in the order of ``USERS``, whether built now or before.

    Printed on every run of ``seed_demo`` (and so at every start of ``scripts/run.sh``),
    not only the first: whoever starts the demo the second evening needs them as much.
    The password shown is ``DEMO_PASSWORD`` only while it still is the account's (it is
    checked): a club that changed a password on its machine is told so, not misled.
    """
    user_model = get_user_model()
    found = {
        user.get_username(): user
        for user in user_model.objects.filter(
            username__in=[name for name, _role in USERS], email__endswith=f"@{DEMO_EMAIL_DOMAIN}"
        )
    }
    return [
        DemoAccount(
            name, role, DEMO_PASSWORD if found[name].check_password(DEMO_PASSWORD) else None
        )
        for name, role in USERS
        if name in found
    ]


def demo_api_example(tournament: Tournament) -> ApiExample:
    """The README's API example: the demo's match waiting to be played and its next game.

    The demo leaves that match untouched, so on a fresh demo it is ready for game 1; once
    someone entered a game there, ``next_game`` follows (and ``is_ready`` may be false).
    """
    match = _match(tournament, API_EXAMPLE_ROUND, API_EXAMPLE_SLOT)
    numbers = match.games.filter(voided_at__isnull=True).values_list("number", flat=True)
    return ApiExample(match, max(numbers, default=0) + 1)


# --- delete ---------------------------------------------------------------------------


def demo_delete() -> dict[str, int]:
    """Remove the demo tournament and whatever demo objects are left; counts by kind."""
    user_model = get_user_model()
    counts = {"tournaments": 0, "players": 0, "users": 0, "clubs": 0}
    with transaction.atomic():
        for tournament in Tournament.objects.filter(name__in=TOURNAMENT_NAMES):
            tournament.delete()  # entries, rounds, matches, games, records, events
            counts["tournaments"] += 1
        demo_clubs = [name for name, _city in CLUBS]
        players = (
            Player.objects.filter(name__in=[p.name for p in PLAYERS], club__name__in=demo_clubs)
            .annotate(entry_count=Count("entries"))
            .filter(entry_count=0)
        )
        counts["players"] = len(players)
        Player.objects.filter(pk__in=[p.pk for p in players]).delete()
        users = user_model.objects.filter(
            username__in=[name for name, _role in USERS],
            email__in=[_demo_email(name) for name, _role in USERS],
        )
        counts["users"] = users.count()
        users.delete()
        clubs = Club.objects.filter(name__in=demo_clubs).annotate(n=Count("players")).filter(n=0)
        counts["clubs"] = clubs.count()
        Club.objects.filter(pk__in=[c.pk for c in clubs]).delete()
    return counts


# --- build ----------------------------------------------------------------------------


def _account(username: str, *, password_hash: str, superuser: bool = False) -> tuple[Any, bool]:
    """A demo user (created, or a demo user left by an earlier run); (user, made by us?).

    An existing superuser ``admin`` that the demo did not make is used as it is (its
    password is not touched); any other existing account with a demo username stops
    the build, since the demo would give it rights and a known password.
    ``password_hash`` is ``DEMO_PASSWORD`` hashed once for all demo users: the hasher
    is slow by design, and these passwords are public anyway.
    """
    user_model = get_user_model()
    email = _demo_email(username)
    user = user_model.objects.filter(username=username).first()
    if user is not None and user.email != email:
        if superuser and user.is_superuser:
            return user, False
        raise DemoError(
            f"A user named “{username}” exists and was not made by seed_demo; the demo "
            "needs that name. Use a fresh database (DATABASE_URL) or rename that user."
        )
    if user is None:
        create = (
            user_model.objects.create_superuser if superuser else user_model.objects.create_user
        )
        user = create(username, email, None)
    user.password = password_hash
    user.save(update_fields=["password"])
    return user, True


def _demo_player(spec: DemoPlayer, club: Club, users: dict[str, Any], *, by: Any) -> Player:
    """The demo's player ``spec`` of ``club``, linked to its demo account if it has one.

    A club has one player per name: a player of that name left in the demo's club (one
    ``--reset`` kept, being entered in another tournament) is taken as they are (rating
    kept) rather than made twice, and linked to the demo account if linked to nobody.
    One linked to another account stops the build.
    """
    account = users[spec.username] if spec.username else None
    player = player_name_holder(name=spec.name, club=club)
    if player is None:
        player = player_create(name=spec.name, club=club, rating=spec.rating, user=account, by=by)
    elif account is not None and player.user_id is None:
        player_link_or_invite(player=player, user_id=account.pk, by=by)
    elif account is not None and player.user_id != account.pk:
        raise DemoError(
            f"{club.name} has a player called “{spec.name}” linked to another account; the "
            "demo needs that name for its account. Use a fresh database (DATABASE_URL) "
            "or rename that player."
        )
    if account is not None and player.user_id is None:
        # The organiser invited the account; its user accepts.
        invitation_accept(invitation=invitation_list(by=account).get(player=player), by=account)
        player.refresh_from_db()
    return player


def _setup() -> tuple[Tournament, dict[str, Any], list[tuple[str, str, bool]]]:
    """Users, tournament, clubs, players, entries, seeds and the drawn bracket."""
    users: dict[str, Any] = {}
    made: dict[str, bool] = {}
    password_hash = make_password(DEMO_PASSWORD)
    for username, _role in USERS:
        users[username], made[username] = _account(
            username, password_hash=password_hash, superuser=username == "admin"
        )
    accounts = [(name, role, made[name]) for name, role in USERS]
    arrangor = users["arrangor"]
    arrangor.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    )
    arrangor = get_user_model().objects.get(pk=arrangor.pk)  # drop the cached permissions
    users["kansli"].user_permissions.add(
        Permission.objects.get(content_type__app_label="accounts", codename="grant_organiser")
    )
    tournament = tournament_create(
        by=arrangor,
        name=TOURNAMENT_NAME,
        start_date=START,
        end_date=END,
        venue=VENUE,
        rules=RULES,
        scale=SCALE,
        resignation_policy=POLICY,
        is_public=True,
    )
    tournament_staff_set(tournament=tournament, by=arrangor, referees=[users["domare"]])
    clubs: list[Club] = []
    for name, city in CLUBS:
        existing = Club.objects.filter(name__iexact=name).first()
        clubs.append(existing or club_create(name=name, city=city, by=arrangor))
    for spec in PLAYERS:
        player = _demo_player(spec, clubs[spec.club], users, by=arrangor)
        entry = entry_add(tournament=tournament, player=player, by=arrangor)
        if spec.seed is not None:
            entry_seed_set(entry=entry, seed=spec.seed, by=arrangor)
    tournament = tournament_draw(
        tournament=tournament, by=arrangor, lengths=list(LENGTHS), draw_seed=DRAW_SEED
    )
    return tournament, users, accounts


def _enter(match: Match, results: Sequence[ResultValue], *, by: Any, starter: int | None) -> None:
    """The referee enters ``results`` as games 1, 2, …; game 1 started by the seat
    ``starter``."""
    for number, result in enumerate(results, start=1):
        game_result_enter(
            match=match,
            number=number,
            result=result,
            starter=letter_of(starter) if starter is not None and number == 1 else None,
            by=by,
        )


def _scripted(match: Match, results: Sequence[str], *, by: Any, starter: int) -> None:
    _enter(match, [result_from_text(text) for text in results], by=by, starter=starter)


def _tags(match: Match) -> dict[str, str]:
    assert match.player1 is not None and match.player2 is not None
    return {
        "Event": TOURNAMENT_NAME,
        "Site": VENUE,
        "Date": START.isoformat(),
        "Round": match.round.name,
        "White": match.player1.name,
        "Black": match.player2.name,
        "Rules": RULES,
        "Length": str(match.length),
        "Scale": SCALE,
    }


def _simulate(match: Match, key: str, max_games: int | None = None) -> SimulatedMatch:
    return simulate_match(
        rules=RULES,
        length=match.length,
        scale=SCALE,
        policy=POLICY,
        seed=SIM_SEEDS[key],
        max_games=max_games,
    )


def _verified(submission_id: int, timeout: float = VERIFY_TIMEOUT) -> GameRecordSubmission:
    """Wait until the record has its verdict, verifying it here if no one else is.

    ``game_record_verify`` does nothing for a record that is done, or that a worker is
    verifying right now; so this is safe with in-process tasks and with workers alike.
    """
    deadline = time.monotonic() + timeout
    while True:
        sub = GameRecordSubmission.objects.get(pk=submission_id)
        if sub.state in RECORD_DONE_STATES:
            return sub
        game_record_verify(submission_id=submission_id)
        sub.refresh_from_db()
        if sub.state in RECORD_DONE_STATES:
            return sub
        if time.monotonic() > deadline:
            raise DemoError(
                f"Game record #{submission_id} is still {sub.state} after {timeout:.0f} s; "
                "is the Celery worker running?"
            )
        time.sleep(0.2)


def _submit(match: Match, text: str, *, by: Any) -> GameRecordSubmission:
    submission = game_record_submit(match=match, text=text, by=by)
    return _verified(submission.pk)


def _play(tournament: Tournament, users: dict[str, Any]) -> None:
    """Round 1 in full, round 2 in part, and the game records (see the module doc)."""
    referee = users["domare"]
    for slot in range(8):
        match = _match(tournament, 1, slot)
        if slot in ROUND1_SCRIPTED:
            _scripted(match, ROUND1_SCRIPTED[slot], by=referee, starter=0)
        elif slot == ROUND1_WALKOVER_SLOT:
            assert match.player1 is not None and match.player2 is not None
            match_walkover(
                match=match,
                winner=match.player1,
                by=referee,
                reason=f"{match.player2.name} did not appear",
            )
        elif slot == ROUND1_ENTERED_BY_RECORD_SLOT:
            played = _simulate(match, "r1-record")
            _submit(match, played.text(_tags(match)), by=referee)
        elif slot == ROUND1_VERIFIED_SLOT:
            played = _simulate(match, "r1-verified")
            _enter(match, played.results, by=referee, starter=played.first_starter)
            _submit(match, played.text(_tags(match)), by=referee)

    for slot, results in ROUND2_SCRIPTED.items():
        _scripted(_match(tournament, 2, slot), results, by=referee, starter=1)

    playing = _match(tournament, 2, ROUND2_PLAYING_SLOT)
    played = _simulate(playing, "r2-playing", max_games=1)
    _enter(playing, played.results, by=referee, starter=played.first_starter)
    _submit(playing, played.text(_tags(playing)), by=users["johan"])

    # Anna uploads her notes of her quarterfinal, with a slip: an illegal move.
    annas = _match(tournament, 2, 0)
    text = illegal_record_text(rules=RULES, seed=SIM_SEEDS["invalid"], tags=_tags(annas))
    _submit(annas, text, by=users["anna"])


def demo_build(*, log: Callable[[str], None] | None = None) -> DemoSummary:
    """Build the demo tournament; ``DemoError`` if it exists already (see ``demo_delete``).

    The set-up (users to drawn bracket) is one transaction; the play is not, so each
    record's verification is enqueued when its own transaction commits, as on the site.
    """
    started = time.monotonic()
    say = log or (lambda _text: None)
    if demo_tournament() is not None:
        raise DemoError(f"“{TOURNAMENT_NAME}” exists already.")
    demo_delete()  # leftovers of an earlier demo whose tournament was deleted by hand
    with transaction.atomic():
        tournament, users, accounts = _setup()
    say("Bracket drawn; entering results and game records …")
    _play(tournament, users)
    _other_games(tournament, users)
    _club_formats(tournament, users)
    _staff_invitation(users)
    tournament.refresh_from_db()
    return DemoSummary(tournament, time.monotonic() - started, accounts)


# --- the other games -------------------------------------------------------------------

# (tournament, game, round lengths, players by index into PLAYERS, semifinal results).
# A result: (winner W/B, outcome, the family's own fields). W is the match's player1.
OtherResult = tuple[str, str, dict[str, Any]]
OTHER_GAMES: tuple[
    tuple[str, str, tuple[int, ...], tuple[int, ...], tuple[tuple[OtherResult, ...], ...]], ...
] = (
    (
        BACKGAMMON_NAME,
        "backgammon",
        (5, 7),
        (0, 1, 2, 3),
        (
            (
                ("W", "gammon", {"cube": 2}),  # 4–0: W at match point
                ("B", "single", {"cube": 1}),  # the Crawford game: no doubling
                ("B", "drop", {"cube": 1}),  # B doubles after it, W drops: 4–2
                ("W", "single", {"cube": 1}),  # 5–2, decided
            ),
            (
                ("W", "backgammon", {"cube": 1}),  # 3–0
                ("B", "resign", {"cube": 2, "conceded": "gammon"}),  # 3–4, being played
            ),
        ),
    ),
    (
        KUNGABRADE_NAME,
        "kungabrade",
        (3, 3),
        (4, 5, 6, 7),
        (
            (
                ("W", "castle", {"game_type": "maktkamp"}),
                ("B", "destroyed", {"game_type": "erovring"}),
                ("W", "driven_back", {"game_type": "slagfalt"}),  # 2–1, decided (§1.2)
            ),
            (("B", "castle", {"game_type": "other"}),),  # being played
        ),
    ),
)


def _other_games(main: Tournament, users: dict[str, Any]) -> list[Tournament]:
    """The backgammon and Kungabräde tournaments (module doc), through the services, with
    players of the ``main`` tournament."""
    arrangor = get_user_model().objects.get(pk=users["arrangor"].pk)
    referee = users["domare"]
    made: list[Tournament] = []
    for name, game, lengths, indexes, semifinals in OTHER_GAMES:
        tournament = tournament_create(
            by=arrangor,
            name=name,
            start_date=START,
            end_date=END,
            venue=VENUE,
            game=game,
            is_public=True,
        )
        tournament_staff_set(tournament=tournament, by=arrangor, referees=[referee])
        for seed, index in enumerate(indexes, start=1):
            spec = PLAYERS[index]
            player = Player.objects.get(name=spec.name, entries__tournament=main)
            entry = entry_add(tournament=tournament, player=player, by=arrangor)
            entry_seed_set(entry=entry, seed=seed, by=arrangor)
        tournament = tournament_draw(
            tournament=tournament, by=arrangor, lengths=list(lengths), draw_seed=DRAW_SEED
        )
        for slot, games in enumerate(semifinals):
            match = _match(tournament, 1, slot)
            for number, (winner, outcome, own) in enumerate(games, start=1):
                result = result_value_from({"winner": winner, "outcome": outcome, **own})
                game_result_enter(match=match, number=number, result=result, by=referee)
        made.append(tournament)
    return made


def _one_game(match: Match, referee: Any, number: int) -> None:
    """A best-of-1 bräde match decided in one game: player 1 wins on even ``number``."""
    game_result_enter(
        match=match,
        number=1,
        result=ResultValue(winner=number % 2, outcome="hemspel" if number % 3 else "jan"),
        by=referee,
        starter="W",
    )


def _staff_invitation(users: dict[str, Any]) -> None:
    """The organiser invites ``johan`` to referee the Swiss; he has not answered yet."""
    staff_invite(
        tournament=Tournament.objects.get(name=SWISS_NAME),
        who="johan",
        role="referee",
        by=get_user_model().objects.get(pk=users["arrangor"].pk),
    )


def _club_formats(main: Tournament, users: dict[str, Any]) -> list[Tournament]:
    """The round robin in groups and the Swiss (module doc), with players of ``main``."""
    arrangor = get_user_model().objects.get(pk=users["arrangor"].pk)
    referee = users["domare"]
    made: list[Tournament] = []
    for name, fmt, indexes in (
        (GROUPS_NAME, "round_robin", range(8)),
        (SWISS_NAME, "swiss", range(8, 16)),
    ):
        swiss = fmt == "swiss"
        tournament = tournament_create(
            by=arrangor,
            name=name,
            start_date=START,
            end_date=END,
            venue=VENUE,
            format=fmt,
            is_public=True,
            groups=1 if swiss else 2,
            group_advance=0 if swiss else 2,
            swiss_rounds=3 if swiss else None,
        )
        tournament_staff_set(tournament=tournament, by=arrangor, referees=[referee])
        for seed, index in enumerate(indexes, start=1):
            player = Player.objects.get(name=PLAYERS[index].name, entries__tournament=main)
            entry = entry_add(tournament=tournament, player=player, by=arrangor)
            entry_seed_set(entry=entry, seed=seed, by=arrangor)
        tournament = tournament_draw(
            tournament=tournament, by=arrangor, lengths=[1, 1, 1], draw_seed=DRAW_SEED
        )
        if swiss:
            first = swiss_round_pair(tournament=tournament, by=arrangor)
            swiss_round_publish(round=first, by=arrangor)
        playable = Match.objects.filter(tournament=tournament, state=MatchState.READY)
        for number, match in enumerate(playable.order_by("round__number", "slot")):
            _one_game(match, referee, number)
        if swiss:
            swiss_round_pair(tournament=tournament, by=arrangor)
        made.append(tournament)
    return made


def other_games_summary() -> list[str]:
    """The backgammon and Kungabräde tournaments as lines of text."""
    lines: list[str] = []
    for tournament in Tournament.objects.filter(name__in=TOURNAMENT_NAMES[1:]).order_by("id"):
        lines.append(
            f"{tournament.name} ({tournament.game}, {tournament.entries.count()} players):"
        )
        for rnd in tournament.rounds.order_by("number"):
            matches = rnd.matches.select_related("player1", "player2", "winner", "round")
            lines.extend(_match_line(m) for m in matches.order_by("slot"))
    return lines


# --- the summary ------------------------------------------------------------------------


def _match_line(match: Match) -> str:
    one = match.player1.name if match.player1 else "?"
    two = match.player2.name if match.player2 else "?"
    head = f"  {match.round.name} #{match.slot + 1}: {one} – {two}"
    state = match.state
    if state == MatchState.WALKOVER:
        return f"{head}: walkover, {match.winner} advances"
    if state == MatchState.DECIDED:
        early = " (decided early, S4)" if match.decided_early else ""
        return (
            f"{head}: {match.winner} wins {max(match.points1, match.points2)}–"
            f"{min(match.points1, match.points2)} after game {match.decided_after_game}{early}"
        )
    if state == MatchState.PLAYING:
        games = match.games.filter(voided_at__isnull=True).count()
        return f"{head}: being played, {match.points1}–{match.points2} after {games} game(s)"
    return f"{head}: {match.get_state_display()}"


def demo_summary(*, tournament: Tournament) -> list[str]:
    """The demo tournament as lines of text: rounds, matches and game records."""
    lines = [
        f"{tournament.name} ({tournament.start_date:%Y-%m-%d}, {tournament.venue}): rules "
        f"{tournament.rules}, scale {tournament.get_scale_display()}, "
        f"{tournament.entries.count()} players, {tournament.get_status_display()}",
    ]
    for rnd in tournament.rounds.order_by("number"):
        lines.append(f"{rnd.name} (best of {rnd.match_length}):")
        matches = rnd.matches.select_related("player1", "player2", "winner", "round")
        lines.extend(_match_line(m) for m in matches.order_by("slot"))
    lines.append("Game records:")
    subs = (
        GameRecordSubmission.objects.filter(match__tournament=tournament)
        .select_related("match__round", "match__player1", "match__player2", "submitted_by")
        .order_by("id")
    )
    for sub in subs:
        by = sub.submitted_by.get_username() if sub.submitted_by else "?"
        lines.append(
            f"  #{sub.pk} {sub.match.round.name} #{sub.match.slot + 1} ({sub.match}), "
            f"by {by}: {sub.state} — {sub.message}"
        )
    return lines + other_games_summary()
