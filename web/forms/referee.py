"""The result form of referees and reporting players: a winner and one outcome button
(R10–R12, R14), and for game 1 who started it (the tek, R2).

The outcome buttons carry everything but the winner in one value, so a result takes two
taps (three for vackert spel, whose pattern is a third): ``hemspel``, ``hemspel+munk``,
``jan``, ``sprangjan``, ``uppgivet``, ``vackert_spel:trappspel``,
``vackert_spel:trappspel+munk``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from core.bounds import DbIntegerFormField
from games.family import QualifiedOutcome, Vocabulary
from games.registry import families
from games.results import ResultValue
from matches.result_values import result_value_from
from tournaments.time_control import MAX_PER_POINT
from web.games import CUBE_VALUES


@dataclass(frozen=True)
class Choice:
    """One outcome button: what it submits and how it is labelled (Swedish game words)."""

    value: str
    label: Any  # a lazy translation: "with munk" in the reader's language


def choice_value(result: Any) -> str:
    """The outcome button's value for a stored result (a game or a report): the inverse
    of ``parse_outcome``."""
    value = str(result.outcome)
    if result.pattern:
        value += f":{result.pattern}"
    return value + ("+munk" if result.munk else "")


def _choice(vocabulary: Vocabulary, qualified: QualifiedOutcome) -> Choice:
    """The button of an outcome with its qualifiers, in the game's words: the pattern's
    name for vackert spel (its pattern buttons stand under "vackert spel…"), the
    outcome's otherwise; "… with munk" in the reader's language."""
    pattern, outcome = qualified.pattern, qualified.outcome
    word = (vocabulary.qualifier(pattern) if pattern else vocabulary.outcome(outcome)).name
    if qualified.munk:
        return Choice(choice_value(qualified), format_lazy(_("{pattern} with munk"), pattern=word))
    return Choice(choice_value(qualified), word)


# The buttons of the games whose outcomes carry qualifiers (bräde: hemspel, hemspel with
# munk, jan, sprängjan, uppgivet; vackert spel is its patterns' buttons), from the
# family's qualified outcomes (R11, R12) and its words (``OutcomeKind.word``,
# ``Pattern.word``).
_QUALIFIED = tuple(
    (family.vocabulary, qualified)
    for family in families()
    for qualified in family.vocabulary.qualified
)
PLAIN_CHOICES = tuple(_choice(v, q) for v, q in _QUALIFIED if not q.pattern)
PATTERN_CHOICES = tuple(_choice(v, q) for v, q in _QUALIFIED if q.pattern)
ALL_VALUES = {c.value for c in PLAIN_CHOICES + PATTERN_CHOICES}


@dataclass(frozen=True)
class ParsedOutcome:
    outcome: str
    pattern: str | None
    munk: bool


def parse_outcome(value: str, codes: tuple[str, ...] = ()) -> ParsedOutcome:
    """``vackert_spel:trappspel+munk`` → (vackert_spel, trappspel, munk): bräde's buttons;
    any other game's button is one of its outcome ``codes`` (``gammon``, ``castle``)."""
    if value in codes and value not in ALL_VALUES:
        return ParsedOutcome(value, None, False)
    if value not in ALL_VALUES:
        raise ValueError(value)
    body, _plus, munk = value.partition("+")
    kind, _colon, pattern = body.partition(":")
    return ParsedOutcome(kind, pattern or None, munk == "munk")


class ResultForm(forms.Form):
    """A game's result as the buttons send it. ``number`` is the game the page showed,
    so a result entered meanwhile by another referee is a conflict, not an overwrite."""

    number = DbIntegerFormField(min_value=1, widget=forms.HiddenInput)
    winner = forms.ChoiceField(
        choices=(("W", "W"), ("B", "B")),
        error_messages={"required": _("Choose the winner first.")},
    )
    outcome = forms.CharField(error_messages={"required": _("Choose how the game was won.")})
    note = forms.CharField(required=False, max_length=500)
    # Game 1's tek (R2): who started it; optional, and only game 1 asks for it (later
    # games are started by the loser of the game before, S5).
    starter = forms.ChoiceField(choices=(("W", "W"), ("B", "B")), required=False)
    # Backgammon: the cube's value and what a resignation conceded; Kungabräde: the game
    # type. Which a game takes is its family's (``web.games.entry_choices``); the service
    # refuses a field that is not the game's.
    cube = forms.TypedChoiceField(
        choices=[(str(v), str(v)) for v in CUBE_VALUES], coerce=int, required=False
    )
    conceded = forms.ChoiceField(
        choices=(("single", "single"), ("gammon", "gammon"), ("backgammon", "backgammon")),
        required=False,
    )
    game_type = forms.CharField(required=False, max_length=16)
    # The referee confirmed a cube past what the match can use (the family's ``cube_limit``).
    confirm_cube = forms.BooleanField(required=False)

    def __init__(self, *args: Any, codes: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.codes = codes

    def clean_outcome(self) -> ParsedOutcome:
        try:
            return parse_outcome(self.cleaned_data["outcome"], self.codes)
        except ValueError:
            raise forms.ValidationError(_("Unknown outcome.")) from None

    def clean_cube(self) -> int | None:
        return self.cleaned_data.get("cube") or None

    def result_value(self) -> ResultValue:
        """The result as the services take it (``results.game_result_enter``): the
        outcome button's parts and the game's own fields, converted at the edge
        (``matches.result_values``)."""
        parsed: ParsedOutcome = self.cleaned_data["outcome"]
        return result_value_from(
            {
                **self.cleaned_data,
                "outcome": parsed.outcome,
                "pattern": parsed.pattern,
                "munk": parsed.munk,
            }
        )

    def clean_starter(self) -> str | None:
        return self.cleaned_data.get("starter") or None


class CorrectionForm(ResultForm):
    """A correction also names the version of the result it corrects (a hidden field
    the page fills in), so a correction saved meanwhile by another referee is a
    conflict shown on the page, not silently replaced (``game_result_correct``)."""

    version = DbIntegerFormField(
        min_value=1,
        widget=forms.HiddenInput,
        error_messages={
            "required": _(
                "The page did not say which version of the result it corrects; reload it "
                "and correct again."
            )
        },
    )


class FlagOverruleForm(forms.Form):
    """A referee overrules a flag fall (``scoresheets.services.live_flag_overrule``): why
    (required, kept in the audit log) and the time the flagged player goes on with."""

    note = forms.CharField(
        label=_("Why the flag fall is overruled"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the audit log."),
    )
    seconds = forms.IntegerField(
        label=_("Seconds for the player whose time ran out"),
        min_value=1,
        max_value=MAX_PER_POINT,
        initial=60,
    )


class NoteForm(forms.Form):
    """A dispute's or a withdrawal's note (optional)."""

    note = forms.CharField(required=False, max_length=500)


def chosen(data: Any) -> SimpleNamespace:
    """What an entry had chosen when it was refused (the winner, the cube, what a
    resignation conceded, the game type), so that the page shows them chosen again and
    the referee does not choose them twice."""
    raw = str(data.get("cube") or "")
    return SimpleNamespace(
        winner=str(data.get("winner") or ""),
        cube=int(raw) if raw.isdigit() else 1,
        conceded=str(data.get("conceded") or ""),
        game_type=str(data.get("game_type") or ""),
    )
