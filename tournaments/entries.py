"""Services for a tournament's entries: entering players (one by one, by name or from a
file), their seeds, and withdrawing them.

Decisions where the docs are silent:
- Withdrawal before the draw removes the player from the draw; after the draw it
  gives the opponent a walkover at once, or as soon as the opponent is known.
- Entering a player by name (``entry_player_add``, ``entries_import``) enters the one
  known player of that name and club (by the name's key: any case, Unicode form and
  spacing) that the organiser may see (``permissions.players_visible_to``) again
  instead of creating a second. A club has one player per name (the database holds
  it), so a name of the club taken by a player the organiser may not see is refused
  (``player_name_taken``); of no club, two or more such players (the data is
  ambiguous) make a new one.
- A withdrawn player's seed is freed when ``entries_seeds_set`` gives it to another.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import (
    ConflictError,
    DomainError,
    NotFoundError,
    ValidationError,
)
from core.permissions import (
    User,
    can_manage_all_players,
)
from core.reasons import Reason
from tournaments.csv_import import CsvImportError, ImportRow, parse_entries_csv
from tournaments.csv_messages import csv_error_text
from tournaments.guards import (
    draft_locked,
    draft_require,
    organiser_require,
)
from tournaments.match_play_port import match_play
from tournaments.models import (
    Club,
    Entry,
    Player,
    Tournament,
    TournamentStatus,
)
from tournaments.page_versions import tournament_touch
from tournaments.permissions import (
    player_is_theirs,
    players_visible_to,
)
from tournaments.player_names import player_name_key
from tournaments.players import club_create, player_create, player_update


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

    Names are compared by their key (``tournaments.player_names``: any case, Unicode
    form and spacing). Only players ``by`` may see are known here
    (``players_visible_to``): one entered only in others' private tournaments is not
    revealed by being matched; as a club has one player per name, a new player of that
    name and club is then refused (409, ``player_name_taken``), and the organiser asks
    the register's staff to enter that player or names the new one apart. The rating
    is updated once the player is entered, so by an organiser of theirs, and only if the
    player is theirs alone (``permissions.player_is_theirs``): a player who also plays in
    other organisers' tournaments keeps their rating.
    """
    candidates = players_visible_to(by).filter(name_key=player_name_key(name), club=club)
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


def entry_withdraw(*, entry: Entry, by: User, reason: Reason = "") -> Entry:
    """Withdraw a player: before the draw they leave it; after it they give a walkover.
    ``reason``: the organiser's words, or the site's code (``core.reasons``)."""
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
