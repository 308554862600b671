"""The formats at the pages' edge: names, choices and page words in the reader's language,
read from the format (``formats.registry``) — no page asks which format it is.

A format's English words (its name, its description on the creation form, what its pages
say: ``formats.format.Words``) are translated here with gettext; the translations are in
``locale/sv/LC_MESSAGES/django.po`` like every other message.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from formats import format_for, formats
from formats.format import words_of
from formats.registry import UnknownFormatError
from web.stage_pages import stage_page

__all__ = ["FormatView", "format_choices", "format_name", "format_view", "formats_reading"]


def format_name(key: str) -> str:
    """The format's name in the reader's language (``Swiss``, ``Monrad``, …)."""
    try:
        return _(format_for(key).name)
    except UnknownFormatError:
        return key


def formats_reading(option: str) -> list[str]:
    """The keys of the formats that read ``option`` (a tournament's field, as a format's
    ``options`` names it): the creation form shows the option only with those."""
    return [f.key for f in formats() if option in f.options]


def format_choices() -> list[tuple[str, str]]:
    """The creation form's choices: each format with its description, translated."""
    return [(f.key, _(f.description)) for f in formats()]


@dataclass(frozen=True)
class FormatView:
    """What a template asks of a tournament's format: the parts its stage's pages show
    (``web.stage_pages``: ``groups`` its round robin's tables, ``paired`` its paired
    rounds, ``elimination`` its brackets after the main one) and its words, translated."""

    name: str
    start: str
    rounds: str
    knockout_after: str
    groups: bool = False
    paired: bool = False
    elimination: bool = False

    def started(self, seed: int | None) -> str:
        """What starting the tournament did, with its draw seed."""
        return _(self._started) % {"seed": seed or 0}

    _started: str = ""


def format_view(key: str) -> FormatView:
    fmt = format_for(key)
    words = words_of(fmt)
    page = stage_page(key)
    return FormatView(
        groups=page.group_table,
        paired=page.paired_rounds,
        elimination=page.brackets,
        name=_(fmt.name),
        start=_(words.start),
        rounds=_(words.rounds) if words.rounds else "",
        knockout_after=_(words.knockout_after) if words.knockout_after else "",
        _started=words.started,
    )
