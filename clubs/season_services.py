"""Services for club seasons: create a season with its points rules, rename it or move
its dates, change the rules, add and remove its events.

Who: a *season keeper* — a superuser, or a user an administrator gave the model
permission ``clubs.change_season`` (a club's secretary). Organising a tournament is not
enough: a season spans many tournaments and their organisers. A tournament added to a
season must be one the keeper may see; private ones are listed but not counted
(``clubs.season_selectors``).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import EventKind, Season, SeasonEvent, placings_problem
from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.permissions import signed_in
from tournaments.models import Club, Tournament
from tournaments.permissions import User, visible_tournaments

POINT_FIELDS = (
    "tournament_taking_part",
    "tournament_match_won",
    "tournament_placings",
    "club_night_taking_part",
    "club_night_match_won",
    "club_night_placings",
)


def can_keep_seasons(user: User) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_superuser or user.has_perm("clubs.change_season"))
    )


def _require_keeper(by: User) -> None:
    if not can_keep_seasons(by):
        raise PermissionDeniedError(
            _("Only the season keepers of the clubs may change seasons; ask an administrator.")
        )


def _points(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The points fields of ``changes``, checked: whole numbers ≥ 0, placings a table."""
    out: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in POINT_FIELDS:
            raise ValidationError(_("Unknown season field: %(name)s.") % {"name": name})
        if name.endswith("_placings"):
            value = {str(k): v for k, v in dict(value or {}).items()}
            problem = placings_problem(value)
            if problem is not None:
                raise ValidationError(_("Points per placing: %(problem)s.") % {"problem": problem})
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValidationError(_("Points are whole numbers, 0 or more."))
        out[name] = value
    return out


def season_create(
    *,
    club: Club,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date,
    by: User,
    **points: Any,
) -> Season:
    """A new season of ``club`` with its points rules (``POINT_FIELDS``; 0 if left out)."""
    _require_keeper(by)
    name = _details_check(name, start_date, end_date)
    fields = _points(points)
    try:
        with transaction.atomic():
            return Season.objects.create(
                club=club,
                name=name,
                start_date=start_date,
                end_date=end_date,
                created_by=signed_in(by),
                **fields,
            )
    except IntegrityError:
        raise _name_taken(club, name) from None


def _details_check(name: str, start_date: datetime.date, end_date: datetime.date) -> str:
    """A season's name (stripped) and dates, checked: a name, an end not before the start."""
    name = name.strip()
    if not name:
        raise ValidationError(_("A season needs a name."))
    if end_date < start_date:
        raise ValidationError(_("The season cannot end before it starts."))
    return name


def _name_taken(club: Club, name: str) -> ConflictError:
    return ConflictError(
        _("%(club)s already has a season called “%(name)s”.") % {"club": club, "name": name}
    )


def season_details_set(
    *,
    season: Season,
    by: User,
    name: str | None = None,
    start_date: datetime.date | None = None,
    end_date: datetime.date | None = None,
) -> Season:
    """Rename the season or move its dates (each left out: unchanged), checked as at
    creation: a name, unique within the club, and an end not before the start.

    Decisions (nothing asked for more): the season's events are not checked against
    the new dates, as adding an event does not check them either (a club may count a
    tournament that ran over the new year); and, like the points rules, the change is
    not audited: a season keeps no edit history, only its creator and creation time.
    """
    _require_keeper(by)
    new_start = season.start_date if start_date is None else start_date
    new_end = season.end_date if end_date is None else end_date
    new_name = _details_check(season.name if name is None else name, new_start, new_end)
    changes = {
        field: value
        for field, value in (("name", new_name), ("start_date", new_start), ("end_date", new_end))
        if getattr(season, field) != value
    }
    if not changes:
        return season
    try:
        with transaction.atomic():  # the name's unique constraint decides, races included
            Season.objects.filter(pk=season.pk).update(**changes)
    except IntegrityError:
        raise _name_taken(season.club, new_name) from None
    for field, value in changes.items():
        setattr(season, field, value)
    return season


def season_rules_set(*, season: Season, by: User, **points: Any) -> Season:
    """Change the season's points rules; the standings follow at once (they are computed)."""
    _require_keeper(by)
    fields = _points(points)
    for name, value in fields.items():
        setattr(season, name, value)
    season.save(update_fields=sorted(fields))
    return season


def season_event_add(
    *, season: Season, tournament: Tournament, by: User, kind: str = EventKind.TOURNAMENT
) -> SeasonEvent:
    """Count ``tournament`` in the season, as a tournament or a club night."""
    _require_keeper(by)
    if kind not in EventKind.values:
        raise ValidationError(
            _("An event is a tournament or a club night (%(kinds)s), not “%(kind)s”.")
            % {"kinds": ", ".join(EventKind.values), "kind": kind}
        )
    if not visible_tournaments(by).filter(pk=tournament.pk).exists():
        raise NotFoundError(_("No tournament #%(id)s that you can see.") % {"id": tournament.pk})
    try:
        with transaction.atomic():
            return SeasonEvent.objects.create(season=season, tournament=tournament, kind=kind)
    except IntegrityError:
        raise ConflictError(
            _("“%(tournament)s” is in the season already.") % {"tournament": tournament.name}
        ) from None


def season_event_remove(*, event: SeasonEvent, by: User) -> None:
    _require_keeper(by)
    event.delete()


def season_update(
    *,
    season: Season,
    by: User,
    name: str | None = None,
    start_date: datetime.date | None = None,
    end_date: datetime.date | None = None,
    **points: Any,
) -> Season:
    """Change a season's name and dates (``season_details_set``) and its points rules
    (``season_rules_set``, fields of ``POINT_FIELDS``) in one step, all or nothing: what
    the API's change of a season calls. Each field left out stays as it is."""
    _require_keeper(by)
    with transaction.atomic():
        season = season_details_set(
            season=season, by=by, name=name, start_date=start_date, end_date=end_date
        )
        if points:
            season = season_rules_set(season=season, by=by, **points)
    return season


def season_event_remove_tournament(*, season: Season, tournament_id: int, by: User) -> None:
    """Stop counting a tournament in the season: as the season's page removes an event,
    only one the keeper may see (404 otherwise, as for one not in the season)."""
    _require_keeper(by)
    event = SeasonEvent.objects.filter(
        season=season, tournament_id=tournament_id, tournament__in=visible_tournaments(by)
    ).first()
    if event is None:
        raise NotFoundError(
            _("No tournament #%(id)s in this season that you can see.") % {"id": tournament_id}
        )
    season_event_remove(event=event, by=by)
