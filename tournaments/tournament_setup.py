"""Services that create a tournament and change its details, rules and staff.

Every function is ``<entity>_<action>`` with keyword-only, typed arguments; the user acting
is ``by`` and is checked here (``core.permissions``, ``tournaments.guards``). Errors are the
domain errors of ``core.errors``. The format's settings are checked by
``tournaments.format_options``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import (
    PermissionDeniedError,
    ValidationError,
)
from core.permissions import (
    User,
    can_create_tournament,
    signed_in,
)
from games.registry import UnknownGameError, family_for
from tournaments.format_options import format_values
from tournaments.guards import (
    draft_require,
    organiser_require,
)
from tournaments.match_play_port import match_play
from tournaments.models import (
    DEFAULT_FORMAT,
    DEFAULT_GAME,
    ResignationPolicyName,
    ResultsBy,
    RuleSetName,
    ScaleName,
    Tournament,
    game_choices,
)
from tournaments.page_versions import tournament_touch
from tournaments.time_control import time_control_check
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
    results_by: str = ResultsBy.REFEREES,
    format: str = DEFAULT_FORMAT,
    clock_per_point: int = 0,
    clock_delay: int = 0,
    **options: Any,
) -> Tournament:
    """Create a tournament; ``by`` becomes its first organiser. ``results_by``: who enters
    the results, its referees or its players (one reports, the opponent confirms).
    ``format``: a registered format (``formats.registry``); ``options``: its options by
    key (``formats.options``: ``third_place_match=True``, ``groups=2``,
    ``tiebreaks=[...]``, …), each left out at its default (the tiebreak chain at the
    format's usual one), checked and normalised by ``format_options.format_values``; a
    keyword that is no option is a TypeError. ``clock_per_point``, ``clock_delay``: the
    time control (``scoresheets.clock``; 0 seconds per point: no clock)."""
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
    time_control_check(clock_per_point, clock_delay)
    unused = _unused_options(game)
    rules = unused.get("rules", rules)
    addons = unused.get("addons", addons)
    scale = unused.get("scale", scale)
    resignation_policy = unused.get("resignation_policy", resignation_policy)
    shape = format_values(game, scale, format=format, options=options)
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
            results_by=_results_by(results_by),
            clock_per_point=clock_per_point,
            clock_delay=clock_delay,
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


# Fields that change how matches are played: fixed once the bracket is drawn. (The
# format's options are changed by ``format_change.tournament_format_set``.)
_PLAY_FIELDS = {"game", "rules", "addons", "scale", "resignation_policy"}
# ``results_by`` may change while the tournament runs (a club finds it has too few
# referees, or enough after all), once no player's report is left open
# (``match_play_port.MatchPlay.results_by_check``).
# The time control may change too: a match's clock is set when its first game's recording
# starts (``scoresheets.clock``), so a change reaches the matches not started yet.
_FREE_FIELDS = {
    "name",
    "start_date",
    "end_date",
    "venue",
    "is_public",
    "results_by",
    "clock_per_point",
    "clock_delay",
}


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
    time_control_check(tournament.clock_per_point, tournament.clock_delay)
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
