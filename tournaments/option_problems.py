"""An option's own check in words: a number out of its bounds (``OptionSpec.problem``),
said with the option's words (``too_small``, ``too_large``) or, when it has none, with
general ones that name it by its label. The words are English in ``formats.options`` and
translated here, at the edge."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ValidationError
from formats.option import OptionProblem, OptionSpec, OptionValue

__all__ = ["option_problem_error", "option_problem_text"]


def option_problem_text(spec: OptionSpec, problem: OptionProblem, value: OptionValue) -> str:
    """Why ``value`` cannot be the option ``spec``, in the reader's language."""
    words = spec.too_small if problem == "too_small" else spec.too_large
    if not words:
        words = (
            _("%(option)s: at least %(min)s, not %(value)s.")
            if problem == "too_small"
            else _("%(option)s: at most %(max)s, not %(value)s.")
        )
    else:
        words = _(words)
    return words % {
        "option": _(spec.label),
        "min": spec.minimum,
        "max": spec.maximum,
        "value": value,
    }


def option_problem_error(
    spec: OptionSpec, problem: OptionProblem, value: OptionValue
) -> ValidationError:
    """The 400 of a value out of bounds; its code is the option's key (the form shows it
    at the option's field)."""
    return ValidationError(option_problem_text(spec, problem, value), code=spec.key)
