"""Services for clubs, players, tournaments, entries and the knockout bracket.

Every function is ``<entity>_<action>`` with keyword-only, typed arguments; the
user acting is ``by`` and is checked here (``core.permissions``,
``tournaments.permissions``), so the API, the admin and the pages share the same rules.
Errors are the domain errors of ``core.errors``. What these services do to matches (the
draw's matches, a withdrawal's walkover) goes through ``tournaments.match_play_port``.

Decisions where the docs are silent:
- Rounds default to 3 games, the semifinals to 5 and the final to 7 (the issue's
  example); ``round_length_set`` changes a round while none of its games is entered.
  A length is odd and at most ``MAX_MATCH_LENGTH`` (25) games (``tournaments.lengths``).
- The third-place match is played over the final's length, and only when at least
  4 players are entered (with 3 players one semifinal is a bye).
- Withdrawal before the draw removes the player from the draw; after the draw it
  gives the opponent a walkover at once, or as soon as the opponent is known.
- Entering a player by name (``entry_player_add``, ``entries_import``) enters the one
  known player of that name and club (any case) that the organiser may see
  (``permissions.players_visible_to``) again instead of creating a second;
  with two or more such players (the data is ambiguous) a new one is created.
- A withdrawn player's seed is freed when ``entries_seeds_set`` gives it to another.
"""

from __future__ import annotations

import datetime
import enum
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, assert_never

from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import (
    ConflictError,
    DomainError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
)
from core.permissions import (
    User,
    can_create_tournament,
    can_manage_all_players,
    signed_in,
)
from formats import Stage, format_for
from games.registry import UnknownGameError, family_for
from stages import roundrobin
from tournaments import bracket, elimination_draw, round_robin, swiss_rounds
from tournaments.csv_import import CsvImportError, ImportRow, parse_entries_csv
from tournaments.csv_messages import csv_error_text
from tournaments.format_options import (
    format_values,
)
from tournaments.guards import (
    draft_locked,
    draft_require,
    draw_entries,
    organiser_require,
)
from tournaments.lengths import lengths_count_problem, match_length_problem
from tournaments.match_play_port import match_play
from tournaments.models import (
    DEFAULT_FORMAT,
    DEFAULT_GAME,
    Club,
    Entry,
    Player,
    ResignationPolicyName,
    ResultsBy,
    Round,
    RoundKind,
    RuleSetName,
    ScaleName,
    Tournament,
    TournamentStatus,
    game_choices,
)
from tournaments.permissions import (
    can_manage_players,
    organises_player,
    player_is_theirs,
    players_visible_to,
)
from tournaments.tournament_changes import visibility_changed

# game-record.md: add-ons exist only with the ``board`` rule set.
BOARD_ADDONS = ("easy-reentry", "one-die", "double-six")


def _check_game(game: str) -> None:
    try:
        family_for(game)
    except UnknownGameError:
        raise ValidationError(
            _("Unknown game %(game)s; choose one of %(choices)s.")
            % {"game": repr(game), "choices": ", ".join(key for key, _name in game_choices())}
        ) from None


# What a tournament stores for the options its game does not read (``GameFamily.options``):
# the defaults, so that no page or scoring shows a bräde scale on a backgammon tournament.
_OPTION_DEFAULTS: dict[str, Any] = {
    "rules": RuleSetName.TALISMAN,
    "addons": [],
    "scale": ScaleName.WW,
    "resignation_policy": ResignationPolicyName.CAPPED,
}


def _unused_options(game: str) -> dict[str, Any]:
    """The options ``game`` does not read, with the values they are stored as."""
    read = family_for(game).options
    return {name: value for name, value in _OPTION_DEFAULTS.items() if name not in read}


def _check_rules(rules: str, addons: Sequence[str], scale: str, policy: str) -> None:
    if rules not in RuleSetName.values:
        raise ValidationError(
            _("Unknown rule set %(rules)s; choose one of %(choices)s.")
            % {"rules": repr(rules), "choices": ", ".join(RuleSetName.values)}
        )
    if scale not in ScaleName.values:
        raise ValidationError(
            _("Unknown scale %(scale)s; choose ww, ny1 or ny2 (scoring.md S2).")
            % {"scale": repr(scale)}
        )
    if policy not in ResignationPolicyName.values:
        raise ValidationError(
            _("Unknown resignation policy %(policy)s; choose capped or forbidden (scoring.md S1).")
            % {"policy": repr(policy)}
        )
    for addon in addons:
        if rules != RuleSetName.BOARD:
            raise ValidationError(
                _("Add-on %(addon)s exists only with the board rule set, not with %(rules)s.")
                % {"addon": repr(addon), "rules": rules},
                code="addons",
            )
        if addon not in BOARD_ADDONS:
            raise ValidationError(
                _("Unknown add-on %(addon)s; the board add-ons are %(choices)s.")
                % {"addon": repr(addon), "choices": ", ".join(BOARD_ADDONS)},
                code="addons",
            )
    if len(set(addons)) != len(addons):
        raise ValidationError(_("Each add-on may be listed only once."), code="addons")


# --- clubs and players ------------------------------------------------------------


def _registry_refused(by: User, refusal: str) -> PermissionDeniedError:
    """Why ``by`` may not create clubs or players (``can_manage_players``).

    Decision: a new organiser (one who may create tournaments but organises none yet)
    is told the way in, with the code ``organise_first``: clubs and players are created
    for a tournament, so the first step is creating one (its organiser may then create
    its clubs and players). Anyone else gets ``refusal``.
    """
    if can_create_tournament(by):
        return PermissionDeniedError(
            _(
                "You may create clubs and players once you organise a tournament: create "
                "your tournament first, then enter its players."
            ),
            code="organise_first",
        )
    return PermissionDeniedError(refusal)


def club_create(*, name: str, city: str = "", by: User) -> Club:
    if not can_manage_players(by):
        raise _registry_refused(by, _("Only organisers and staff may create clubs."))
    name = name.strip()
    if not name:
        raise ValidationError(_("A club needs a name."))
    if Club.objects.filter(name__iexact=name).exists():
        raise ConflictError(_("A club named “%(name)s” exists already; use it.") % {"name": name})
    return Club.objects.create(name=name, city=city.strip())


def player_create(
    *,
    name: str,
    club: Club | None = None,
    rating: int | None = None,
    user: Any = None,
    by: User,
) -> Player:
    """A new player. ``user`` (an account or its id) is linked at once by registry staff
    and invited by anyone else (``tournaments.invitations.player_link_or_invite``)."""
    if not can_manage_players(by):
        raise _registry_refused(by, _("Only organisers and staff may create players."))
    name = name.strip()
    if not name:
        raise ValidationError(_("A player needs a name."))
    if rating is not None and rating < 0:
        raise ValidationError(_("A rating cannot be negative."))
    with transaction.atomic():
        player = Player.objects.create(name=name, club=club, rating=rating)
        if user is not None:
            # Registry staff link at once; an organiser invites the account, which must
            # accept (``tournaments.invitations``), and hears nothing about it.
            from tournaments.invitations import player_link_or_invite

            player_link_or_invite(player=player, user_id=getattr(user, "pk", user), by=by)
    return player


def player_shared_error(player: Player) -> PermissionDeniedError:
    """The refusal of an organiser's change to a player who also plays in other
    organisers' tournaments (``player_update``; the admin shows it too)."""
    return PermissionDeniedError(
        _(
            "%(name)s plays in other organisers' tournaments too: only registry staff "
            "may change their name, club or rating."
        )
        % {"name": player.name},
        code="player_shared",
    )


class Keep(enum.Enum):
    """``KEEP``: a field ``player_update`` leaves as it is (``None`` clears a club)."""

    KEEP = "keep"


KEEP = Keep.KEEP


def player_update(
    *,
    player: Player,
    by: User,
    name: str | Keep = KEEP,
    club: Club | Keep | None = KEEP,
    rating: int | Keep | None = KEEP,
) -> Player:
    """Change a player's name, club or rating; a field left out stays as it is.

    Who may change what (as a careful club would):
    - registry staff (``permissions.can_manage_all_players``): everything;
    - an organiser, of a player who is only theirs (``permissions.player_is_theirs``:
      every tournament the player is entered in is one they organise): the club and the
      rating, and the name while the player is linked to no user account. A player
      entered in other organisers' tournaments too is the register's: their name, club
      and rating show in those tournaments, so an organiser who entered them in a draft
      of their own may not rename or re-rate them (403, ``player_shared``) and asks
      registry staff;
    - the user linked to the player: their own name, and only that (club and rating,
      which seeds, are the organisers' to keep);
    - so the name of a linked player is that person's own: an organiser asks them or
      staff to change it.
    A value equal to the stored one is no change, so a client may send a whole player
    back. Everyone else gets ``PermissionDeniedError`` (the API answers 404 before it
    for a player the caller cannot see).
    """
    staff = can_manage_all_players(by)
    organiser = staff or organises_player(by, player)
    own = player.user_id is not None and getattr(by, "pk", None) == player.user_id
    if not (organiser or own):
        raise PermissionDeniedError(
            _("Only staff and the organisers of %(name)s’s tournaments may edit %(name)s.")
            % {"name": player.name}
        )
    if not isinstance(name, Keep):
        name = name.strip()
        if not name:
            raise ValidationError(_("A player needs a name."))
    if not isinstance(rating, Keep) and rating is not None and rating < 0:
        raise ValidationError(_("A rating cannot be negative."))
    name_changes = not isinstance(name, Keep) and name != player.name
    club_changes = not isinstance(club, Keep) and (club.pk if club else None) != player.club_id
    rating_changes = not isinstance(rating, Keep) and rating != player.rating
    if name_changes and not (staff or own or player.user_id is None):
        raise PermissionDeniedError(
            _("%(name)s has a user account: only they and staff may change the name.")
            % {"name": player.name}
        )
    if (club_changes or rating_changes) and not organiser:
        raise PermissionDeniedError(
            _("Your club and rating are kept by the organisers of your tournaments; ask one.")
        )
    organiser_changes = (name_changes and not own) or club_changes or rating_changes
    if organiser_changes and not staff and not player_is_theirs(by, player):
        raise player_shared_error(player)
    # Every check passed: only now change the object (a refusal leaves it as it was).
    if not isinstance(name, Keep):
        player.name = name
    if not isinstance(club, Keep):
        player.club = club
    if not isinstance(rating, Keep):
        player.rating = rating
    with transaction.atomic():
        player.save()
        # The name, club and rating show on the pages of every tournament they entered.
        tournaments_touch(tournaments=Tournament.objects.filter(entries__player=player))
    return player


# --- the live pages' version -------------------------------------------------------


def tournaments_touch(*, tournaments: QuerySet[Tournament], whole: bool = True) -> None:
    """Mark that what the pages of ``tournaments`` show has changed: one UPDATE that bumps
    their ``version`` and sets ``changed_at``, the source of the live pages' ETag and
    Last-Modified (``web.live``).

    ``whole`` (the default, the safe choice): any part of the pages may have changed, so
    every part's version moves (``whole_version``). ``whole=False`` is for a change the
    caller attributes to some matches, which it then stamps itself
    (``matches.common.match_mark``): the other matches' parts keep their versions and their
    viewers keep getting "not modified".

    Call it inside the transaction of the change, so the new version commits with the
    change it announces (a poller never sees the version before the data) and a rolled
    back change bumps nothing. It locks the tournament's row until the commit: the match
    services call it first, before any match row is locked (``matches.common.lock_match``),
    so every writer takes the tournament's lock before its matches' and none deadlock.
    """
    if whole:
        tournaments.update(
            version=F("version") + 1, whole_version=F("version") + 1, changed_at=timezone.now()
        )
    else:
        tournaments.update(version=F("version") + 1, changed_at=timezone.now())


def tournament_touch(*, tournament_id: int, whole: bool = True) -> None:
    """``tournaments_touch`` for one tournament: called by every service that changes what
    its pages show (results, corrections, walkovers, resets, the draw, game records and
    their verdicts, entries, seeds, withdrawals, staff, details, round lengths)."""
    tournaments_touch(tournaments=Tournament.objects.filter(pk=tournament_id), whole=whole)


# --- tournaments --------------------------------------------------------------------


def tournament_create(
    *,
    by: User,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    venue: str = "",
    game: str = DEFAULT_GAME,
    rules: str = RuleSetName.TALISMAN,
    addons: Sequence[str] = (),
    scale: str = ScaleName.WW,
    resignation_policy: str = ResignationPolicyName.CAPPED,
    is_public: bool = True,
    third_place_match: bool = False,
    results_by: str = ResultsBy.REFEREES,
    format: str = DEFAULT_FORMAT,
    double_round: bool = False,
    tiebreaks: Sequence[str] | None = None,
    groups: int = 1,
    group_advance: int = 0,
    progressive_consolation: bool = False,
    grand_final_reset: bool = True,
    swiss_rounds: int | None = None,
    consolation_third_place: bool = False,
) -> Tournament:
    """Create a tournament; ``by`` becomes its first organiser. ``results_by``: who enters
    the results, its referees or its players (one reports, the opponent confirms).
    ``format``: single elimination, or a round robin (``double_round``: everyone meets
    everyone twice) ranked by match points and then ``tiebreaks`` (default: the game's
    chain, ``round_robin.default_chain``)."""
    if not can_create_tournament(by):
        raise PermissionDeniedError(
            _("You may not create tournaments; ask an administrator for organiser rights.")
        )
    end_date = end_date or start_date
    if end_date < start_date:
        raise ValidationError(_("The tournament cannot end before it starts."), code="dates")
    if not name.strip():
        raise ValidationError(_("A tournament needs a name."))
    _check_game(game)
    _check_rules(rules, list(addons), scale, resignation_policy)
    unused = _unused_options(game)
    rules = unused.get("rules", rules)
    addons = unused.get("addons", addons)
    scale = unused.get("scale", scale)
    resignation_policy = unused.get("resignation_policy", resignation_policy)
    shape = format_values(
        game,
        scale,
        format=format,
        tiebreaks=tiebreaks,
        double_round=double_round,
        groups=groups,
        group_advance=group_advance,
        swiss_rounds=swiss_rounds,
        progressive_consolation=progressive_consolation,
        grand_final_reset=grand_final_reset,
        consolation_third_place=consolation_third_place,
    )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip(),
            start_date=start_date,
            end_date=end_date,
            venue=venue,
            game=game,
            rules=rules,
            addons=list(addons),
            scale=scale,
            resignation_policy=resignation_policy,
            is_public=is_public,
            third_place_match=third_place_match,
            results_by=_results_by(results_by),
            **shape,
        )
        creator = signed_in(by)  # can_create_tournament asked for a signed-in user
        tournament.organisers.add(*([creator] if creator is not None else []))
    return tournament


def _results_by(value: str) -> str:
    if value not in ResultsBy.values:
        raise ValidationError(
            _("Results come in from the referees or from the players, not “%(value)s”.")
            % {"value": value}
        )
    return value


# Fields that change how matches are played: fixed once the bracket is drawn.
_PLAY_FIELDS = {"game", "rules", "addons", "scale", "resignation_policy", "third_place_match"}
# ``results_by`` may change while the tournament runs (a club finds it has too few
# referees, or enough after all), once no player's report is left open
# (``match_play_port.MatchPlay.results_by_check``).
_FREE_FIELDS = {"name", "start_date", "end_date", "venue", "is_public", "results_by"}


def tournament_update(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change a tournament's details; rules, scale and policy only before the draw."""
    organiser_require(by, tournament)
    unknown = set(changes) - _PLAY_FIELDS - _FREE_FIELDS
    if unknown:
        raise ValidationError(
            _("These fields cannot be changed: %(fields)s.")
            % {"fields": ", ".join(sorted(unknown))}
        )
    if _PLAY_FIELDS & set(changes):
        draft_require(tournament, _("Changing the rules, scale or resignation policy"))
    if "results_by" in changes:
        match_play().results_by_check(
            tournament=tournament, results_by=_results_by(changes["results_by"])
        )
    visibility_changes = "is_public" in changes and changes["is_public"] != tournament.is_public
    for key, value in changes.items():
        setattr(tournament, key, value)
    if _PLAY_FIELDS & set(changes):
        _check_game(tournament.game)
        for key, value in _unused_options(tournament.game).items():
            if getattr(tournament, key) != value:
                setattr(tournament, key, value)
                changes[key] = value
    if tournament.end_date < tournament.start_date:
        raise ValidationError(_("The tournament cannot end before it starts."))
    _check_game(tournament.game)
    _check_rules(
        tournament.rules, list(tournament.addons), tournament.scale, tournament.resignation_policy
    )
    with transaction.atomic():
        # Only the changed fields: a whole save() would write back this object's copy of
        # ``version``, perhaps older than the stored one.
        tournament.save(update_fields=sorted(changes))
        tournament_touch(tournament_id=tournament.pk)
        if visibility_changes:  # only public tournaments' matches are rated
            visibility_changed(tournament=tournament)
    return tournament


def tournament_staff_set(
    *,
    tournament: Tournament,
    by: User,
    organisers: Iterable[Any] | None = None,
    referees: Iterable[Any] | None = None,
) -> Tournament:
    """Replace the organisers and/or referees; a tournament keeps at least one organiser."""
    organiser_require(by, tournament)
    if organisers is not None:
        organisers = list(organisers)
        if not organisers:
            raise ValidationError(_("A tournament needs at least one organiser."))
    with transaction.atomic():
        if organisers is not None:
            tournament.organisers.set(organisers)
        if referees is not None:
            tournament.referees.set(list(referees))
        # The staff's pages differ (links to enter results, to manage), and a private
        # tournament is seen by its staff only.
        tournament_touch(tournament_id=tournament.pk)
    return tournament


# --- entries ------------------------------------------------------------------------


def entry_add(
    *, tournament: Tournament, player: Player, by: User, seed: int | None = None
) -> Entry:
    organiser_require(by, tournament)
    draft_require(tournament, _("Entering players"))
    if seed is not None and seed < 1:
        raise ValidationError(_("Seeds count from 1."))
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ConflictError(_("%(name)s is entered already.") % {"name": player.name})
    if seed is not None and Entry.objects.filter(tournament=tournament, seed=seed).exists():
        raise ConflictError(
            _("Seed %(seed)s is taken; choose another or clear it first.") % {"seed": seed}
        )
    try:
        with transaction.atomic():
            entry = Entry.objects.create(tournament=tournament, player=player, seed=seed)
            tournament_touch(tournament_id=tournament.pk)
            return entry
    except IntegrityError:
        raise ConflictError(
            _("%(name)s or seed %(seed)s was entered at the same moment; reload the entries.")
            % {"name": player.name, "seed": seed}
        ) from None


def entry_seed_set(*, entry: Entry, seed: int | None, by: User) -> Entry:
    organiser_require(by, entry.tournament)
    draft_require(entry.tournament, _("Changing seeds"))
    if seed is not None:
        if seed < 1:
            raise ValidationError(_("Seeds count from 1."))
        taken = Entry.objects.filter(tournament=entry.tournament, seed=seed).exclude(pk=entry.pk)
        if taken.exists():
            raise ConflictError(_("Seed %(seed)s is taken; clear it first.") % {"seed": seed})
    entry.seed = seed
    with transaction.atomic():
        entry.save(update_fields=["seed"])
        tournament_touch(tournament_id=entry.tournament_id)
    return entry


def _club_found_or_created(name: str, by: User) -> Club | None:
    """The club of that name (any case), created if new; ``None`` for no name."""
    name = name.strip()
    if not name:
        return None
    club = Club.objects.filter(name__iexact=name).first()
    return club or club_create(name=name, by=by)


def _player_enter(
    *,
    tournament: Tournament,
    name: str,
    club: Club | None,
    rating: int | None,
    seed: int | None,
    by: User,
) -> tuple[Entry, bool]:
    """Enter a player by name and club: the one known player of that name and club (any
    case) is entered again, with ``rating`` updated if given; else a new player is
    created. Returns the entry and whether the player is new. The caller holds the
    transaction, so a refused entry leaves no new player behind.

    Only players ``by`` may see are known here (``players_visible_to``): one entered
    only in others' private tournaments is not revealed by being matched. The rating
    is updated once the player is entered, so by an organiser of theirs, and only if the
    player is theirs alone (``permissions.player_is_theirs``): a player who also plays in
    other organisers' tournaments keeps their rating.
    """
    candidates = players_visible_to(by).filter(name__iexact=name.strip(), club=club)
    known = list(candidates[:2])
    if len(known) == 1:
        player, created = known[0], False
    else:
        player, created = player_create(name=name, club=club, rating=rating, by=by), True
    entry = entry_add(tournament=tournament, player=player, seed=seed, by=by)
    # A player of other organisers' tournaments too keeps the register's rating
    # (``player_update``); the entry stands, seeded as the organiser chooses.
    theirs = can_manage_all_players(by) or player_is_theirs(by, player)
    if not created and rating is not None and rating != player.rating and theirs:
        player_update(player=player, rating=rating, by=by)
    return entry, created


def entry_player_add(
    *,
    tournament: Tournament,
    name: str,
    club: Club | None = None,
    new_club: str = "",
    rating: int | None = None,
    seed: int | None = None,
    by: User,
) -> tuple[Entry, bool]:
    """Enter a player given by name: ``club`` is a known club, ``new_club`` a club's name
    (found in any case, or created). A player known already (same name and club, any
    case) is entered again rather than created twice.

    Returns the entry and whether the player was created (as Django's
    ``get_or_create``), so a page can say which happened. All or nothing.
    """
    organiser_require(by, tournament)
    if club is not None and new_club.strip():
        raise ValidationError(_("Pick a known club or name a new one, not both."))
    with transaction.atomic():
        tournament = draft_locked(tournament, _("Entering players"))
        if club is None:
            club = _club_found_or_created(new_club, by)
        return _player_enter(
            tournament=tournament, name=name, club=club, rating=rating, seed=seed, by=by
        )


def entries_import(*, tournament: Tournament, rows: Sequence[ImportRow], by: User) -> list[Entry]:
    """Enter every row (``tournaments.csv_import``) as ``entry_player_add`` would, or none.

    Every row is tried, so one attempt reports every refused row: if any is refused,
    nothing is kept and a ``ValidationError`` is raised whose ``extra["errors"]`` lists
    them in file order as ``{"row": int, "code": str, "message": str}`` (the message is
    the refusing service's own).
    """
    organiser_require(by, tournament)
    if not rows:
        raise ValidationError(_("The file has no players to enter."))
    entries: list[Entry] = []
    errors: list[dict[str, Any]] = []
    with transaction.atomic():
        tournament = draft_locked(tournament, _("Entering players"))
        for row in rows:
            try:
                # A savepoint per row: a refused row leaves the transaction usable
                # (PostgreSQL) while the rows after it are still checked.
                with transaction.atomic():
                    entry, _created = _player_enter(
                        tournament=tournament,
                        name=row.name,
                        club=_club_found_or_created(row.club, by),
                        rating=row.rating,
                        seed=row.seed,
                        by=by,
                    )
            except DomainError as err:
                errors.append({"row": row.line, "code": err.code, "message": err.message})
            else:
                entries.append(entry)
        if errors:
            # Raised inside the transaction: the rows entered are rolled back.
            first = errors[0]
            raise ValidationError(
                _(
                    "Nothing was imported: %(refused)s of %(rows)s rows are refused "
                    "(row %(row)s: %(message)s)"
                )
                % {
                    "refused": len(errors),
                    "rows": len(rows),
                    "row": first["row"],
                    "message": first["message"],
                },
                errors=errors,
            )
    return entries


def entries_csv_import(*, tournament: Tournament, data: bytes, by: User) -> list[Entry]:
    """Enter the players of an entries file (``csv_import.parse_entries_csv``) as
    ``entries_import`` does: all or nothing.

    Organisers only (403), before the draw (409), checked before the file is read. A file
    that cannot be read, or rows refused, are a ``ValidationError`` with the code
    ``import_invalid`` whose ``problems`` list every problem in file order as ``{"row",
    "code", "message"}`` (``row`` is the row number as a spreadsheet counts, ``None`` for
    the file as a whole; a problem of the file's text also names its ``field``).
    """
    organiser_require(by, tournament)
    draft_require(tournament, _("Entering players"))
    try:
        rows = parse_entries_csv(data)
    except CsvImportError as err:
        problems = [
            {"row": e.row, "code": str(e.code), "field": e.field, "message": csv_error_text(e)}
            for e in err.errors
        ]
        raise ValidationError(
            _("Nothing was imported; fix the file first: %(first)s")
            % {"first": problems[0]["message"]},
            code="import_invalid",
            problems=problems,
        ) from None
    try:
        return entries_import(tournament=tournament, rows=rows, by=by)
    except ValidationError as err:
        if "errors" not in err.extra:
            raise
        raise ValidationError(
            err.message, code="import_invalid", problems=err.extra["errors"]
        ) from None


def entries_seeds_set(
    *, tournament: Tournament, seeds: Mapping[int, int | None], by: User
) -> list[Entry]:
    """Set the seeds of several entries at once: ``seeds`` maps entry ids to a seed, or
    ``None`` for unseeded. Seeds may be swapped (all are cleared before any is set); a
    seed held by a withdrawn player is freed; a seed held by an active entry left out of
    ``seeds`` is refused. Returns the entries of ``seeds``. All or nothing.
    """
    organiser_require(by, tournament)
    bad = sorted({s for s in seeds.values() if s is not None and s < 1})
    if bad:
        raise ValidationError(_("Seeds count from 1, not %(seed)s.") % {"seed": bad[0]})
    with transaction.atomic():
        tournament = draft_locked(tournament, _("Changing seeds"))
        entries = {
            e.pk: e
            for e in Entry.objects.filter(tournament=tournament, pk__in=list(seeds))
            .select_related("player")
            .order_by("pk")
        }
        missing = sorted(set(seeds) - set(entries))
        if missing:
            raise NotFoundError(
                _("Entry %(entry)s is not in “%(tournament)s”; reload the entries.")
                % {"entry": missing[0], "tournament": tournament.name}
            )
        for entry in entries.values():
            entry.tournament = tournament
            if entry.withdrawn_at is not None and seeds[entry.pk] is not None:
                raise ValidationError(
                    _("%(name)s has withdrawn and cannot be seeded.") % {"name": entry.player.name}
                )
        doubled = sorted(s for s, n in Counter(seeds.values()).items() if s is not None and n > 1)
        if doubled:
            names = [e.player.name for e in entries.values() if seeds[e.pk] == doubled[0]]
            raise ValidationError(
                _("Seed %(seed)s is given to %(names)s; give each seed once.")
                % {"seed": doubled[0], "names": _(" and ").join(names)}
            )
        wanted = {s for s in seeds.values() if s is not None}
        holders = Entry.objects.filter(tournament=tournament, seed__in=wanted).exclude(
            pk__in=list(seeds)
        )
        active = holders.filter(withdrawn_at__isnull=True).select_related("player").first()
        if active is not None:
            raise ConflictError(
                _("Seed %(seed)s is held by %(name)s; clear it first.")
                % {"seed": active.seed, "name": active.player.name}
            )
        changed = [e for e in entries.values() if e.seed != seeds[e.pk]]
        tournament_touch(tournament_id=tournament.pk)
        # Clear first, then set, so that seeds can be swapped (a seed is unique).
        holders.update(seed=None)  # withdrawn players: out of the draw
        Entry.objects.filter(pk__in=[e.pk for e in changed]).update(seed=None)
        try:
            for entry in changed:
                entry.seed = seeds[entry.pk]
                if entry.seed is not None:
                    entry.save(update_fields=["seed"])
        except IntegrityError:
            # A player entered with one of these seeds at the same moment (entry_add).
            raise ConflictError(
                _("A seed was taken at the same moment; reload the entries.")
            ) from None
    return list(entries.values())


def entry_withdraw(*, entry: Entry, by: User, reason: str = "") -> Entry:
    """Withdraw a player: before the draw they leave it; after it they give a walkover."""
    tournament = entry.tournament
    organiser_require(by, tournament)
    if entry.withdrawn_at is not None:
        raise ConflictError(_("%(name)s has withdrawn already.") % {"name": entry.player.name})
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)  # first: before any match is locked
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        if tournament.status != TournamentStatus.DRAFT:
            match_play().withdrawal_apply(entry=entry, by=by, reason=reason)
    return entry


# --- the bracket --------------------------------------------------------------------


def round_length_set(*, round: Round, length: int, by: User) -> Round:
    """Change a round's match length while none of its games has been entered."""
    organiser_require(by, round.tournament)
    _check_length(length, round.length_unit)
    with transaction.atomic():
        if match_play().round_started(round=round):
            raise ConflictError(
                _("Games of the %(round)s have been entered; its length can no longer change.")
                % {"round": round.name.lower()}
            )
        tournament_touch(tournament_id=round.tournament_id)
        round.match_length = length
        round.save(update_fields=["match_length"])
        match_play().round_length_apply(round=round, length=length)
    return round


def round_lengths(
    *,
    tournament: Tournament,
    lengths: Sequence[int] | None,
    defaults: Sequence[int],
    players: int,
) -> tuple[list[int], str]:
    """A draw's match lengths, one per round (``defaults`` when ``lengths`` is ``None``),
    each checked (``_check_length``) in the unit of the tournament's game; and that unit."""
    chosen = list(lengths) if lengths is not None else list(defaults)
    problem = lengths_count_problem(given=len(chosen), rounds=len(defaults), players=players)
    if problem is not None:
        raise ValidationError(problem, code="match_length")
    unit = family_for(tournament.game).length_unit
    for length in chosen:
        _check_length(length, unit)
    return chosen, unit


def _check_length(length: int, unit: str) -> None:
    """S1: an odd number of games, at most ``MAX_MATCH_LENGTH``; or 1 to
    ``MAX_MATCH_LENGTH`` points (``tournaments.lengths``)."""
    problem = match_length_problem(length, unit)
    if problem is not None:
        raise ValidationError(problem, code="match_length")


def tournament_bracket_generate(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None = None,
    draw_seed: int | None = None,
) -> Tournament:
    """Draw the single-elimination bracket from the active entries.

    ``lengths``: one odd match length per round, first round first (default:
    ``bracket.default_lengths``). ``draw_seed`` reproduces an earlier draw; a new
    one is chosen and stored otherwise. Seeded entries are placed by seed order
    (their seed numbers only order them, gaps are closed), unseeded entries by
    the draw; byes go to the top seeds.
    """
    organiser_require(by, tournament)
    stage = format_for(tournament.format).stage
    if stage == Stage.GROUPS:
        return _round_robin_draw(tournament=tournament, by=by, lengths=lengths, draw_seed=draw_seed)
    if stage == Stage.PAIRED:  # rounds created empty, paired one at a time
        return swiss_rounds.swiss_start(
            tournament=tournament, by=by, lengths=lengths, draw_seed=draw_seed
        )
    if stage == Stage.ELIMINATION:
        return elimination_draw.elimination_draw(
            tournament=tournament, by=by, lengths=lengths, draw_seed=draw_seed
        )
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        draft_require(tournament, _("Drawing the bracket"))
        entries = draw_entries(
            tournament,
            _("A knockout needs at least 2 players; %(count)s entered. Enter more first."),
        )
        rounds = bracket.round_count(len(entries))
        lengths, unit = round_lengths(
            tournament=tournament,
            lengths=lengths,
            defaults=bracket.default_lengths(rounds),
            players=len(entries),
        )
        seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
        unseeded = [e for e in entries if e.seed is None]
        if draw_seed is None:
            draw_seed = secrets.randbits(62)
        pairs = bracket.first_round(
            [e.player for e in seeded], [e.player for e in unseeded], draw_seed
        )
        round_rows = [
            Round.objects.create(
                tournament=tournament,
                number=number,
                rounds_after=bracket.rounds_after(number, rounds),
                match_length=lengths[number - 1],
                length_unit=unit,
            )
            for number in range(1, rounds + 1)
        ]
        tournament.draw_seed = draw_seed
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["draw_seed", "status"])
        tournament_touch(tournament_id=tournament.pk)
        match_play().bracket_create(
            tournament=tournament,
            rounds=round_rows,
            first_round=[(p.upper, p.lower) for p in pairs],
            third_place=tournament.third_place_match and len(entries) >= 4,
            by=by,
        )
    return tournament


def _groups_fit(tournament: Tournament, players: int) -> None:
    """The entered players fill the round robin's groups (``round_robin.groups_problem``)."""
    problem = round_robin.groups_problem(players, tournament.groups, tournament.group_advance)
    if problem is not None:
        raise groups_problem_error(
            problem=problem,
            players=players,
            groups=tournament.groups,
            advance=tournament.group_advance,
        )


def groups_problem_error(
    *, problem: round_robin.GroupsProblem, players: int, groups: int, advance: int
) -> ValidationError:
    """Why ``players`` cannot be dealt into the groups (``round_robin.groups_problem``)."""
    match problem:
        case "large" if groups == 1:
            text = _(
                "A round robin takes at most %(max)s players; %(count)s entered. Play "
                "in groups, Swiss or a knockout, or withdraw players first."
            ) % {"max": round_robin.MAX_PLAYERS, "count": players}
        case "large":
            text = _(
                "%(count)s players in %(groups)s groups make groups larger than %(max)s; "
                "play in more groups."
            ) % {"max": round_robin.MAX_PLAYERS, "count": players, "groups": groups}
        case "small":
            text = _(
                "%(count)s players cannot fill %(groups)s groups of at least two, each with "
                "more players than the %(advance)s who go on; enter more players or play in "
                "fewer groups."
            ) % {"count": players, "groups": groups, "advance": advance}
        case _:
            assert_never(problem)
    return ValidationError(text)


def _round_robin_draw(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None,
    draw_seed: int | None,
) -> Tournament:
    """Draw a round robin: every round at once from the Berger tables
    (``stages.roundrobin``); with an odd number of players each round has one bye.
    ``lengths`` and ``draw_seed`` as for a knockout (``round_robin`` for the order)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        draft_require(tournament, _("Drawing the round robin"))
        entries = draw_entries(
            tournament,
            _("A round robin needs at least 2 players; %(count)s entered. Enter more first."),
        )
        _groups_fit(tournament, len(entries))
        rounds = round_robin.group_round_count(
            len(entries), tournament.groups, double=tournament.double_round
        )
        lengths, unit = round_lengths(
            tournament=tournament,
            lengths=lengths,
            defaults=round_robin.default_lengths(rounds),
            players=len(entries),
        )
        if draw_seed is None:
            draw_seed = secrets.randbits(62)
        seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
        unseeded = [e for e in entries if e.seed is None]
        order = round_robin.draw_order(
            [e.player for e in seeded], [e.player for e in unseeded], draw_seed
        )
        dealt = roundrobin.snake_groups(order, tournament.groups)
        if tournament.groups > 1:
            group_of = {p.pk: g for g, members in enumerate(dealt) for p in members}
            for entry in entries:
                entry.group = group_of[entry.player_id]
            Entry.objects.bulk_update(entries, ["group"])
        # Round i holds every group's round i, group A's tables first (a smaller group
        # may have fewer rounds: its later rounds are empty).
        per_group = [roundrobin.round_robin(m, double=tournament.double_round) for m in dealt]
        fixtures = [
            [f for table in per_group if i < len(table) for f in table[i]] for i in range(rounds)
        ]
        round_rows = [
            Round.objects.create(
                tournament=tournament,
                number=number,
                rounds_after=rounds - number,
                match_length=lengths[number - 1],
                length_unit=unit,
                kind=RoundKind.ROUND_ROBIN,
            )
            for number in range(1, rounds + 1)
        ]
        tournament.draw_seed = draw_seed
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["draw_seed", "status"])
        tournament_touch(tournament_id=tournament.pk)
        match_play().round_robin_create(
            tournament=tournament,
            rounds=round_rows,
            pairs=[[(f.first, f.second) for f in fixture] for fixture in fixtures],
            by=by,
        )
    return tournament
