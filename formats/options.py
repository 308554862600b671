"""The registry of tournament options, the options the site knows, and a tournament's
values of them as a format reads them (:class:`Options`).

Each option is declared here once (``formats.option``); a format names the ones it reads
(``Format.options``). In the registry's order (the API's and the creation form's):

- ``third_place_match`` (single elimination): the semifinal losers play for third place;
- ``double_round`` (round robin): everyone meets everyone twice;
- ``progressive_consolation`` (consolation): later main-bracket losers enter it deeper;
- ``consolation_third_place`` (consolation): its final decides third place;
- ``grand_final_reset`` (double elimination): the grand final is replayed if needed;
- ``groups`` (round robin): the number of groups;
- ``group_advance`` (round robin, Swiss, Monrad): the players who go on to a knockout;
- ``swiss_rounds`` (Swiss, Monrad): the number of rounds;
- ``tiebreaks`` (round robin, Swiss, Monrad): the tiebreak chain after match points.

A new option is its spec here (or registered by a plug-in with :func:`register`), its
``Tournament`` column, and the formats that read it.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from core.registry import Registry
from formats.option import OptionKind, OptionSpec, OptionValue, gettext_noop
from stages import crossover, roundrobin, tiebreaks

__all__ = [
    "MAX_PAIRED_ROUNDS",
    "OPTIONS",
    "Options",
    "UnknownOptionError",
    "option_for",
    "option_keys",
    "option_specs",
    "register",
    "unknown_options",
    "unregister",
]

# The most rounds a paired tournament is set up with (players − 1 bounds it at the start).
MAX_PAIRED_ROUNDS = 99


class UnknownOptionError(LookupError):
    """No option is registered under this key."""

    def __init__(self, key: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no tournament option {key!r}; known options: {', '.join(known)}")
        self.key = key


# An option's key is a Tournament column's name.
OPTIONS: Registry[OptionSpec] = Registry(
    what="an option", builtin=(), unknown=UnknownOptionError, key_length=40
)
register = OPTIONS.register
unregister = OPTIONS.unregister


def option_specs() -> tuple[OptionSpec, ...]:
    """Every registered option, in the order they registered (the built-in ones first)."""
    return OPTIONS.all()


def option_keys() -> tuple[str, ...]:
    return tuple(spec.key for spec in option_specs())


def option_for(key: str) -> OptionSpec:
    """The option registered under ``key``; :class:`UnknownOptionError` names the known."""
    return OPTIONS.get(key)


def unknown_options(names: Iterable[str]) -> list[str]:
    """The names among ``names`` that are no option, sorted."""
    known = set(option_keys())
    return sorted(name for name in names if name not in known)


class Options(Mapping[str, OptionValue]):
    """A tournament's options as a stage reads them: every registered option, at its
    default unless given (``Options(grand_final_reset=False)``, ``Options.of(tournament)``).
    A tiebreak chain is a tuple. Read them by kind: :meth:`flag`, :meth:`number`,
    :meth:`chain`."""

    __slots__ = ("_values",)

    def __init__(self, **values: OptionValue) -> None:
        unknown = unknown_options(values)
        if unknown:
            raise TypeError(f"no such tournament options: {', '.join(unknown)}")
        self._values: dict[str, OptionValue] = {
            spec.key: _value(spec, values.get(spec.key, spec.default)) for spec in option_specs()
        }

    @classmethod
    def of(cls, source: object) -> Options:
        """The options of ``source`` (a tournament, or any object with these attributes;
        a missing one keeps its default)."""
        return cls(
            **{
                spec.key: getattr(source, spec.key)
                for spec in option_specs()
                if hasattr(source, spec.key)
            }
        )

    def __getitem__(self, key: str) -> OptionValue:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        changed = {
            key: value
            for key, value in self._values.items()
            if value != _value(option_for(key), option_for(key).default)
        }
        return f"Options({', '.join(f'{k}={v!r}' for k, v in changed.items())})"

    def flag(self, key: str) -> bool:
        return bool(self._of_kind(key, OptionKind.FLAG))

    def number(self, key: str) -> int | None:
        value = self._of_kind(key, OptionKind.NUMBER, OptionKind.OPTIONAL_NUMBER)
        assert value is None or isinstance(value, int)
        return value

    def chain(self, key: str) -> tuple[str, ...]:
        value = self._of_kind(key, OptionKind.TIEBREAKS)
        assert isinstance(value, tuple)
        return value

    def _of_kind(self, key: str, *kinds: OptionKind) -> OptionValue:
        if option_for(key).kind not in kinds:
            raise TypeError(f"the option {key!r} is a {option_for(key).kind}")
        return self._values[key]


def _value(spec: OptionSpec, value: Any) -> OptionValue:
    if spec.kind == OptionKind.TIEBREAKS:
        return tuple(value or ())
    return value  # type: ignore[no-any-return]


# --- the options the site knows -------------------------------------------------------

register(
    OptionSpec(
        key="third_place_match",
        kind=OptionKind.FLAG,
        default=False,
        label=gettext_noop("Match for third place"),
        help=gettext_noop(
            "The semifinal losers play for third place, over the final's length "
            "(with at least 4 players)."
        ),
        description="single elimination: the semifinal losers play for third place, over "
        "the final's length (with at least 4 players)",
        older_than_formats=True,
    )
)
register(
    OptionSpec(
        key="double_round",
        kind=OptionKind.FLAG,
        default=False,
        label=gettext_noop("Double round robin"),
        help=gettext_noop("Everyone meets everyone twice (round robin only)."),
        description="round robin: everyone meets everyone twice",
    )
)
register(
    OptionSpec(
        key="progressive_consolation",
        kind=OptionKind.FLAG,
        default=False,
        label=gettext_noop("Progressive consolation"),
        help=gettext_noop(
            "Consolation: the losers of later main-bracket rounds (all but the final) enter "
            "the consolation too, deeper in it. Unticked: only the players who lose their "
            "first match play the consolation."
        ),
        description="consolation: later main-bracket losers enter the consolation deeper "
        "(progressive); false: only first-match losers (simple)",
    )
)
register(
    OptionSpec(
        key="consolation_third_place",
        kind=OptionKind.FLAG,
        default=False,
        label=gettext_noop("The consolation decides third place"),
        help=gettext_noop(
            "Progressive consolation: its final is the match for third place (its winner "
            "third, its loser fourth), and every consolation round places its losers."
        ),
        description="progressive consolation: its final is the match for third place (its "
        "winner 3rd, its loser 4th) and every consolation round places its losers; "
        "refused with a simple consolation",
    )
)
register(
    OptionSpec(
        key="grand_final_reset",
        kind=OptionKind.FLAG,
        default=True,
        label=gettext_noop("Replay the final if needed"),
        help=gettext_noop(
            "Double elimination: if the losers' bracket's player wins the final, it is "
            "played again, so that nobody goes out after one loss."
        ),
        description="double elimination: the grand final is replayed if the losers' "
        "bracket's player wins it",
    )
)
register(
    OptionSpec(
        key="groups",
        kind=OptionKind.NUMBER,
        default=1,
        minimum=1,
        maximum=roundrobin.MAX_ROUND_ROBIN_GROUPS,
        label=gettext_noop("Groups"),
        help=gettext_noop(
            "Round robin: play in this many groups, the players dealt by seed "
            "(snake seeding: 1 → A, 2 → B, …, back from the last group)."
        ),
        description="round robin: the number of groups (players dealt by snake seeding)",
        too_small=gettext_noop("A round robin is played in 1 to %(max)s groups, not %(value)s."),
        too_large=gettext_noop("A round robin is played in 1 to %(max)s groups, not %(value)s."),
    )
)
register(
    OptionSpec(
        key="group_advance",
        kind=OptionKind.NUMBER,
        default=0,
        minimum=0,
        maximum=crossover.MAX_SWISS_ADVANCE,
        label=gettext_noop("Players per group on to a knockout"),
        help=gettext_noop(
            "Round robin: the top players of each group play a knockout afterwards, placed "
            "crosswise (A1–B2, B1–A2 …). Swiss: the top players of the standings (2 to 32), "
            "seeded in their order. 0: no knockout."
        ),
        description="round robin: the top k (at most 4) of each group go on to a knockout, "
        "placed crosswise (A1–B2, B1–A2 …); Swiss: the top k (2 to 32) of the standings, "
        "seeded in order; 0: no knockout",
    )
)
register(
    OptionSpec(
        key="swiss_rounds",
        kind=OptionKind.OPTIONAL_NUMBER,
        default=None,
        minimum=1,
        maximum=MAX_PAIRED_ROUNDS,
        label=gettext_noop("Number of rounds"),
        help=gettext_noop(
            "Rounds paired one at a time: how many, at most the number of players minus one. "
            "Leave it empty for the usual number (7–8 players: 3 rounds, 9–16: 4, …)."
        ),
        description="Swiss: the number of rounds (at most players − 1); null: "
        "⌈log₂ players⌉ at the start",
        too_small=gettext_noop("Paired rounds are at least 1 round, not %(value)s."),
        too_large=gettext_noop("Paired rounds are at most %(max)s rounds, not %(value)s."),
    )
)
register(
    OptionSpec(
        key="tiebreaks",
        kind=OptionKind.TIEBREAKS,
        default=(),
        choices=tiebreaks.CHOOSABLE,
        label=gettext_noop("Tiebreaks"),
        help=gettext_noop(
            "Round robin and Swiss: players level on match points are ranked by these, in "
            "order, and then by lot. Leave them all empty for the format's usual chain."
        ),
        description="round robin and Swiss: the tiebreaks after match points, in order (the "
        "lots come last); null: the game's usual chain (also what a tournament gets when "
        "this is left out, and a draft whose format changes without it)",
    )
)
