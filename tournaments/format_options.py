"""A tournament's format and the options it reads, checked and normalised as
``tournament_setup.tournament_create`` and ``format_change.tournament_format_set`` store them.

The format is asked (``formats.format_for``), never compared, and the options follow their
registry (``formats.options``), never a list here: every option the format does not read
(``Format.options``) is stored at its default; every one it reads passes its own check (a
number its bounds, the tiebreak chain ``stages.tiebreaks.chain_problem`` for the game;
left out, the chain is the usual one of the format's stage) after the checks across
options (:data:`CROSS_CHECKS`), which run for every format: groups and a knockout after
the standings only where the format reads them, a consolation deciding third place only
when it is progressive. A cross check runs first because it names the combination that
is wrong (a knockout played in groups), which no option's own check can.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, assert_never

from django.utils.translation import gettext as _

from core.errors import ValidationError
from formats import format_for
from formats.format import Format
from formats.option import OptionKind, OptionSpec
from formats.options import option_for, option_specs, unknown_options
from formats.registry import UnknownFormatError, keys
from games.registry import family_for
from stages import crossover
from stages.tiebreaks import CHOOSABLE, ChainProblem, chain_problem
from tournaments import consolation_places
from tournaments.option_problems import option_problem_error
from tournaments.stage_draws import stage_draw

__all__ = [
    "CROSS_CHECKS",
    "advance_problem_error",
    "chain_problem_error",
    "format_values",
    "stored_value",
]


def _format(key: str) -> Format:
    try:
        return format_for(key)
    except UnknownFormatError:
        raise ValidationError(
            _("“%(format)s” is not a tournament format; choose one of: %(choices)s.")
            % {"format": key, "choices": ", ".join(keys())},
            code="format",
        ) from None


def _left_out(spec: OptionSpec) -> Any:
    """What an option left out means: its default, but the tiebreak chain's is ``None``
    (the usual chain of the format's stage)."""
    return None if spec.kind == OptionKind.TIEBREAKS else spec.default


def stored_value(spec: OptionSpec, value: Any) -> Any:
    """``value`` as the option's column stores it (a tiebreak chain as a list)."""
    return list(value or ()) if spec.kind == OptionKind.TIEBREAKS else value


def format_values(
    game: str, scale: str, *, format: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    """A tournament's ``format`` and every option (``formats.options``), checked for
    ``game`` and ``scale`` and normalised (module docstring), by column. ``options``: the
    options given (one left out: :func:`_left_out`); a name that is no option is a
    TypeError."""
    unknown = unknown_options(options)
    if unknown:
        raise TypeError(f"no such tournament options: {', '.join(unknown)}")
    fmt = _format(format)
    given = {spec.key: options.get(spec.key, _left_out(spec)) for spec in option_specs()}
    for check in CROSS_CHECKS:
        check(fmt, given)
    return {
        "format": format,
        **{
            spec.key: stored_value(spec, _checked(spec, fmt, game, scale, given[spec.key]))
            for spec in option_specs()
        },
    }


def _checked(spec: OptionSpec, fmt: Format, game: str, scale: str, value: Any) -> Any:
    """The option as the format reads it, after its own check; its default if the
    format does not read it."""
    if spec.key not in fmt.options:
        return spec.default
    match spec.kind:
        case OptionKind.FLAG:
            return bool(value)
        case OptionKind.NUMBER | OptionKind.OPTIONAL_NUMBER:
            problem = spec.problem(value)
            if problem is not None:
                raise option_problem_error(spec, problem, value)
            return value
        case OptionKind.TIEBREAKS:
            return _chain(fmt, game, scale, value)
        case _:
            assert_never(spec.kind)


def _chain(fmt: Format, game: str, scale: str, tiebreaks: Sequence[str] | None) -> list[str]:
    """The tournament's tiebreak chain after match points (``None``: the usual one of the
    format's stage)."""
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


def _groups_check(fmt: Format, given: Mapping[str, Any]) -> None:
    """A format in groups may be played in ``groups`` groups (the option's own bounds,
    checked first here: the advance is judged for a number of groups that can be) and
    feed a knockout with the top ``group_advance`` of each group
    (``crossover.advance_problem``); a format that feeds a knockout from one table (the
    paired rounds' standings) with its top ``group_advance``; other formats have one group
    and feed nothing."""
    groups, group_advance = given["groups"], given["group_advance"]
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
    groups_problem = option_for("groups").problem(groups)
    if groups_problem is not None:
        raise option_problem_error(option_for("groups"), groups_problem, groups)
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


# The checks across options, run for every format before each option's own check.
CROSS_CHECKS: tuple[Callable[[Format, Mapping[str, Any]], None], ...] = (
    _groups_check,
    consolation_places.third_place_check,
)
