"""The rating formulas at the pages' edge: each formula's name and summary in the reader's
language, read from the formula (``ratings.formulas``) — no page asks which formula it is.

A formula's English words (``name``, ``summary``: ``ratings.formula.RatingFormula``) are
translated here with gettext; the translations are in ``locale/sv/LC_MESSAGES/django.po``
like every other message ("FIBS"; "Danska förbundets rating").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ratings.formulas import formula_for, formulas

__all__ = ["FormulaView", "formula_choices", "formula_view"]


@dataclass(frozen=True)
class FormulaView:
    """What a page shows of a formula: its key (the ``?formula=`` of a link), its name
    and its summary, translated."""

    key: str
    name: str
    summary: str


def formula_view(key: str) -> FormulaView:
    """``key``'s formula in the reader's language (``UnknownFormulaError`` if none)."""
    formula = formula_for(key)
    return FormulaView(key=formula.key, name=_(formula.name), summary=_(formula.summary))


def formula_choices() -> list[tuple[str, str]]:
    """Every registered formula as a form's choice, (key, translated name)."""
    return [(formula.key, _(formula.name)) for formula in formulas()]
