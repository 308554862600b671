"""The registry of tournament formats: register, find by key, list, choose by stage.

Shaped like ``games.registry``: a format module registers what it provides when it is
imported (``register(SWISS)`` at its end) and callers ask the registry —
``format_for(tournament.format)`` — never compare a tournament's format with a key. The
built-in formats (:data:`BUILTIN_MODULES`) are imported on the first question;
:func:`formats` lists them in that order, then any other registered format.
"""

from __future__ import annotations

import importlib
import re

from formats.format import Format, Stage

__all__ = [
    "BUILTIN_MODULES",
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
)

_FORMATS: dict[str, Format] = {}
_KEY_RE = re.compile(r"^[a-z][a-z0-9_]{0,23}$")  # Tournament.format holds 24 characters
_loaded = False


class UnknownFormatError(LookupError):
    """No format is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no tournament format {key!r}; known formats: {', '.join(known)}")
        self.key = key


def register(fmt: Format) -> Format:
    """Register ``fmt`` under its key and return it; the same object twice is harmless,
    another format under a taken key is an error."""
    if not _KEY_RE.match(fmt.key):
        raise ValueError(f"a format's key is lower-case letters, digits and _, not {fmt.key!r}")
    existing = _FORMATS.get(fmt.key)
    if existing is not None and existing is not fmt:
        raise ValueError(f"a format is already registered under {fmt.key!r}")
    _FORMATS[fmt.key] = fmt
    return fmt


def unregister(key: str) -> None:
    """Remove the format under ``key`` (tests, plug-ins); ``UnknownFormatError`` if none."""
    _load_builtins()
    if key not in _FORMATS:
        raise UnknownFormatError(key, tuple(_FORMATS))
    del _FORMATS[key]


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        for module in BUILTIN_MODULES:
            importlib.import_module(module)  # each registers its format at import
        _loaded = True


def _order(fmt: Format) -> int:
    builtin = [module.rsplit(".", 1)[1] for module in BUILTIN_MODULES]
    return builtin.index(fmt.key) if fmt.key in builtin else len(builtin)


def formats() -> tuple[Format, ...]:
    """Every registered format, the built-in ones first."""
    _load_builtins()
    return tuple(sorted(_FORMATS.values(), key=_order))


def format_for(key: str) -> Format:
    """The format registered under ``key``; :class:`UnknownFormatError` names the known."""
    _load_builtins()
    try:
        return _FORMATS[key]
    except KeyError:
        raise UnknownFormatError(key, tuple(f.key for f in formats())) from None


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
