"""A tournament's format and the settings it reads, checked and normalised as
``tournament_setup.tournament_create`` and ``format_change.tournament_format_set`` store them.

The format is asked (``formats.format_for``), never compared: the settings a format does
not read (``Format.options``) are kept at their defaults, its tiebreak chain's default
comes from its stage (none for a bracket, the round robin's or the paired rounds'), and
groups and a knockout after the standings are allowed where the format reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from django.utils.translation import gettext as _

from core.errors import ValidationError
from formats import format_for
from formats.format import Format
from formats.registry import UnknownFormatError, keys
from games.registry import family_for
from stages import crossover, roundrobin
from stages.tiebreaks import CHOOSABLE, ChainProblem, chain_problem
from tournaments import consolation_places, swiss_rounds
from tournaments.stage_draws import stage_draw

__all__ = ["advance_problem_error", "chain_problem_error", "format_values"]


def _format(key: str) -> Format:
    try:
        return format_for(key)
    except UnknownFormatError:
        raise ValidationError(
            _("“%(format)s” is not a tournament format; choose one of: %(choices)s.")
            % {"format": key, "choices": ", ".join(keys())},
            code="format",
        ) from None


def _chain(fmt: Format, game: str, scale: str, tiebreaks: Sequence[str] | None) -> list[str]:
    """The tournament's tiebreak chain after match points (empty for a bracket)."""
    if "tiebreaks" not in fmt.options:
        return []
    if tiebreaks is None:
        default = stage_draw(fmt.stage).chain
        return default(game, scale) if default is not None else []
    chain = list(tiebreaks)
    problem = chain_problem(chain, family_for(game))
    if problem is not None:
        raise chain_problem_error(problem)
    return chain


def chain_problem_error(problem: ChainProblem) -> ValidationError:
    """Why a tiebreak chain is refused (``chain_problem``), in words."""
    match problem:
        case "unknown":
            text = _("Unknown tiebreak; choose from: %(choices)s.") % {
                "choices": ", ".join(CHOOSABLE)
            }
        case "twice":
            text = _("A tiebreak is given twice in the chain.")
        case "skiljepoang":
            text = _("Skiljepoäng are bräde's tiebreak points; this game has none.")
        case _:
            assert_never(problem)
    return ValidationError(text, code="tiebreaks")


def format_values(
    game: str,
    scale: str,
    *,
    format: str,
    tiebreaks: Sequence[str] | None,
    double_round: bool,
    groups: int,
    group_advance: int,
    swiss_rounds: int | None,
    progressive_consolation: bool,
    grand_final_reset: bool,
    consolation_third_place: bool = False,
) -> dict[str, Any]:
    """A tournament's format fields, checked for ``game`` and ``scale`` and normalised:
    the tiebreak chain (``None``: the format's default), a double round, a progressive
    consolation and a number of paired rounds only where the format reads them (``None``
    rounds: decided at the start), groups and a knockout after them only where
    ``_groups_check`` allows, and a consolation final deciding third place only for a
    progressive consolation (``consolation_places``)."""
    fmt = _format(format)
    chain = _chain(fmt, game, scale, tiebreaks)
    _groups_check(fmt, groups, group_advance)
    progressive = bool(progressive_consolation) and "progressive_consolation" in fmt.options
    return {
        "format": format,
        "tiebreaks": chain,
        "double_round": bool(double_round) and "double_round" in fmt.options,
        "groups": groups,
        "group_advance": group_advance,
        "swiss_rounds": _rounds_check(fmt, swiss_rounds),
        "progressive_consolation": progressive,
        "consolation_third_place": consolation_places.third_place_check(
            format, progressive=progressive, third_place=bool(consolation_third_place)
        ),
        "grand_final_reset": grand_final_reset,
    }


def _rounds_check(fmt: Format, rounds: int | None) -> int | None:
    """A paired format's number of rounds, if given (``swiss_rounds.rounds_problem``);
    other formats have none."""
    if "swiss_rounds" not in fmt.options or rounds is None:
        return None
    problem = swiss_rounds.rounds_problem(rounds, None)
    if problem is not None:
        raise ValidationError(problem, code="swiss_rounds")
    return rounds


def _groups_check(fmt: Format, groups: int, group_advance: int) -> None:
    """A format in groups may be played in ``groups`` groups
    (``roundrobin.MAX_ROUND_ROBIN_GROUPS`` at most) and feed a knockout with the top
    ``group_advance`` of each group (``crossover.advance_problem``); a format that feeds a
    knockout from one table (the paired rounds' standings) with its top ``group_advance``;
    other formats have one group and feed nothing."""
    in_groups = "groups" in fmt.options
    if fmt.feeds_knockout and not in_groups and groups == 1 and group_advance != 0:
        if not 2 <= group_advance <= crossover.MAX_SWISS_ADVANCE:
            raise ValidationError(
                _("From 2 to %(max)s players of the standings can go on to a knockout.")
                % {"max": crossover.MAX_SWISS_ADVANCE},
                code="group_advance",
            )
        return
    if not in_groups:
        if groups != 1 or group_advance != 0:
            raise ValidationError(
                _("Only a round robin is played in groups."), code="groups_not_round_robin"
            )
        return
    if not 1 <= groups <= roundrobin.MAX_ROUND_ROBIN_GROUPS:
        raise ValidationError(
            _("A round robin is played in 1 to %(max)s groups, not %(groups)s.")
            % {"max": roundrobin.MAX_ROUND_ROBIN_GROUPS, "groups": groups},
            code="groups",
        )
    problem = crossover.advance_problem(groups, group_advance)
    if problem is not None:
        raise advance_problem_error(problem)


def advance_problem_error(problem: crossover.AdvanceProblem) -> ValidationError:
    """Why groups cannot feed a knockout (``crossover.advance_problem``), in words."""
    match problem:
        case "too_many":
            text = _("At most %(max)s players of each group can go on to the knockout.") % {
                "max": crossover.MAX_ADVANCE
            }
        case "groups":
            text = _("At most %(max)s groups can feed a knockout.") % {
                "max": crossover.MAX_FEEDING_GROUPS
            }
        case "alone":
            text = _("A knockout needs at least two players: let two or more of the group go on.")
        case _:
            assert_never(problem)
    return ValidationError(text, code="group_advance")
