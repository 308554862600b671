"""The registry of tournament formats: register, find by key, list, choose by stage.

Shaped like ``games.registry``: a format module registers what it provides when it is
imported (``register(SWISS)`` at its end) and callers ask the registry —
``format_for(tournament.format)`` — never compare a tournament's format with a key. The
built-in formats (:data:`BUILTIN_MODULES`) are imported on the first question;
:func:`formats` lists them in that order, then any other registered format.
"""

from __future__ import annotations

from core.registry import Registry
from formats.format import Format, Stage

__all__ = [
    "BUILTIN_MODULES",
    "FORMATS",
    "UnknownFormatError",
    "choices",
    "format_for",
    "formats",
    "keys",
    "register",
    "unregister",
]

BUILTIN_MODULES = (
    "formats.knockout",
    "formats.round_robin",
    "formats.swiss",
    "formats.consolation",
    "formats.double_elimination",
    "formats.monrad",
    "formats.league",
    "formats.team_swiss",
)


class UnknownFormatError(LookupError):
    """No format is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no tournament format {key!r}; known formats: {', '.join(known)}")
        self.key = key


# Tournament.format holds 24 characters.
FORMATS: Registry[Format] = Registry(
    what="a format", builtin=BUILTIN_MODULES, unknown=UnknownFormatError, key_length=24
)
register = FORMATS.register
unregister = FORMATS.unregister


def formats() -> tuple[Format, ...]:
    """Every registered format, the built-in ones first."""
    return FORMATS.all()


def format_for(key: str) -> Format:
    """The format registered under ``key``; :class:`UnknownFormatError` names the known."""
    return FORMATS.get(key)


def keys(*, stage: Stage | None = None, feeds_knockout: bool | None = None) -> tuple[str, ...]:
    """The keys of the formats with this first stage and/or that feed a knockout (for a
    query over many tournaments: ``tournament__format__in=keys(stage=Stage.PAIRED)``)."""
    return tuple(
        f.key
        for f in formats()
        if (stage is None or f.stage == stage)
        and (feeds_knockout is None or f.feeds_knockout == feeds_knockout)
    )


def choices() -> tuple[tuple[str, str], ...]:
    """``(key, name)`` pairs in :func:`formats` order (the edge translates the names)."""
    return tuple((f.key, f.name) for f in formats())
