"""Forms of the organiser pages: a new tournament, entries (one by one or from a CSV
file), seeds, referees, the draw and a walkover.

The forms check what a person can get wrong while typing (odd match lengths of at most
``MAX_MATCH_LENGTH`` games, unique seeds, unknown user names, a malformed CSV row) and
say so next to the field; the services check the rest again, so the pages and the API
share one set of rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import UploadedFile
from django.forms.utils import ErrorList
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.bounds import DbIntegerFormField
from core.errors import DomainError
from formats.options import option_for, option_keys, option_specs
from matches.models import Match
from tournaments.csv_import import CsvImportError, ImportRow, parse_entries_csv
from tournaments.csv_messages import csv_error_text
from tournaments.lengths import (
    GAMES,
    MAX_MATCH_LENGTH,
    POINTS,
    lengths_count_problem,
    match_length_problem,
)
from tournaments.models import (
    DEFAULT_FORMAT,
    DEFAULT_GAME,
    Club,
    Entry,
    ResignationPolicyName,
    ResultsBy,
    RuleSetName,
    ScaleName,
    game_choices,
)
from tournaments.time_control import MAX_DELAY, MAX_PER_POINT
from tournaments.tournament_setup import BOARD_ADDONS
from web.formats import format_choices, formats_reading
from web.forms.option_fields import option_field_names, option_form_fields, option_value
from web.games import game_name

# Largest CSV accepted: a field of a few hundred players is a few kilobytes.
CSV_MAX_BYTES = 512 * 1024
DRAW_SEED_MAX = 2**63 - 1  # Tournament.draw_seed is a signed 64-bit integer


class Errors(ErrorList):
    """Django's error list with the site's ``errors`` class (red, next to the field)."""

    def __init__(
        self,
        initlist: Any = None,
        error_class: str | None = None,
        renderer: Any = None,
        field_id: str | None = None,
    ) -> None:
        css = f"errors {error_class}" if error_class else "errors"
        super().__init__(initlist, error_class=css, renderer=renderer, field_id=field_id)


class Form(forms.Form):
    """Base form of these pages: errors styled by the site."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("error_class", Errors)
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


# --- a new tournament -----------------------------------------------------------------

ADDON_CHOICES = [
    ("easy-reentry", gettext_lazy("easy re-entry (entry blasting as in talisman, R15)")),
    ("one-die", gettext_lazy("one die (single-die rolls, R13)")),
    ("double-six", gettext_lazy("double six (a first roll of 6-6, R15)")),
]
assert tuple(code for code, _label in ADDON_CHOICES) == BOARD_ADDONS

RESULTS_BY_CHOICES = [
    (
        ResultsBy.REFEREES.value,
        gettext_lazy("the referees enter them (a referee at every table)"),
    ),
    (
        ResultsBy.PLAYERS.value,
        gettext_lazy(
            "the players report them: one player enters a game, the opponent confirms it; "
            "the referees decide disputes"
        ),
    ),
]

POLICY_CHOICES = [
    (
        ResignationPolicyName.CAPPED.value,
        gettext_lazy("capped: each player may resign at most n games of a best-of-n match"),
    ),
    (ResignationPolicyName.FORBIDDEN.value, gettext_lazy("forbidden: no resigning")),
]


def game_choices_translated() -> list[tuple[str, str]]:
    """The registered games (``games.registry``), their names in the reader's language."""
    return [(key, game_name(key)) for key, _name in game_choices()]


class DateInput(forms.DateInput):
    """The browser's date picker; its value is always ISO (YYYY-MM-DD)."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format="%Y-%m-%d")


class TournamentForm(Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    start_date = forms.DateField(label=gettext_lazy("First day"), widget=DateInput())
    end_date = forms.DateField(
        label=gettext_lazy("Last day"),
        required=False,
        widget=DateInput(),
        help_text=gettext_lazy("Leave empty for a one-day tournament."),
    )
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=200, required=False)
    game = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=game_choices_translated,
        initial=DEFAULT_GAME,
        required=False,  # left out: bräde, as before the choice existed
        help_text=gettext_lazy(
            "The rule set, add-ons, scale and resigning below are bräde's; a backgammon "
            "match is played to a number of points with the Crawford rule, a Kungabräde "
            "match over the best of an odd number of games."
        ),
    )
    rules = forms.ChoiceField(
        label=gettext_lazy("Rule set"),
        choices=RuleSetName.choices,
        initial=RuleSetName.TALISMAN,
    )
    addons = forms.MultipleChoiceField(
        label=gettext_lazy("Add-ons"),
        choices=ADDON_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Only with the board rule set."),
    )
    scale = forms.ChoiceField(
        label=gettext_lazy("Scale"),
        choices=ScaleName.choices,
        initial=ScaleName.WW,
        help_text=gettext_lazy(
            "Points per game: W&W 1956 and Ny 1 break ties on skiljepoäng, Ny 2 needs none."
        ),
    )
    resignation_policy = forms.ChoiceField(
        label=gettext_lazy("Resigning"),
        choices=POLICY_CHOICES,
        initial=ResignationPolicyName.CAPPED,
        widget=forms.RadioSelect,
    )
    is_public = forms.BooleanField(
        label=gettext_lazy("Public"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Anyone may follow a public tournament; a private one is seen only by its "
            "organisers, referees and players."
        ),
    )
    results_by = forms.ChoiceField(
        label=gettext_lazy("Results"),
        choices=RESULTS_BY_CHOICES,
        initial=ResultsBy.REFEREES,
        required=False,  # left out: the referees, as before the choice existed
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Referees and organisers can always enter and correct results themselves."
        ),
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=format_choices,
        initial=DEFAULT_FORMAT,
        required=False,  # left out: single elimination, as before the choice existed
        widget=forms.RadioSelect,
    )
    # The time control (``tournaments.time_control``): any game, any format.
    clock_per_point = forms.IntegerField(
        label=gettext_lazy("Clock: seconds per match point"),
        min_value=0,
        max_value=MAX_PER_POINT,
        initial=0,
        required=False,  # left out: no clock
        help_text=gettext_lazy(
            "Each player's bank per match: e.g. 120 (2 minutes per point, as the U.S. and "
            "Norwegian rules). A best of n counts each game as a point. 0: no clock. The "
            "scoresheet runs it; a flag fall loses the match."
        ),
    )
    clock_delay = forms.IntegerField(
        label=gettext_lazy("Clock: delay per move (seconds)"),
        min_value=0,
        max_value=MAX_DELAY,
        initial=0,
        required=False,
        help_text=gettext_lazy("A simple delay, e.g. 12: the bank runs only after it."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each option's fields (``formats.options``) carry the formats that read it
        # (``data-formats`` on the page): with a script, only the chosen format's options
        # show; without one, all of them do, as before.
        for spec in option_specs():
            readers = " ".join(formats_reading(spec.key))
            for name, field in option_form_fields(spec).items():
                field.formats = readers  # type: ignore[attr-defined]
                self.fields[name] = field

    def _option_fields(self, *, older: bool) -> list[forms.BoundField]:
        return [
            self[name]
            for spec in option_specs()
            if spec.older_than_formats == older
            for name in option_field_names(spec)
        ]

    def format_option_fields(self) -> list[forms.BoundField]:
        """The options' fields shown with the format, in the registry's order."""
        return self._option_fields(older=False)

    def older_option_fields(self) -> list[forms.BoundField]:
        """The fields of the options older than the formats, shown among how the
        tournament is played, where they always were (``OptionSpec.older_than_formats``)."""
        return self._option_fields(older=True)

    def options(self) -> dict[str, Any]:
        """Every option's value by key, for ``tournament_create`` (a left-out number: its
        default; the tiebreak chain left empty: ``None``, the format's usual one)."""
        return {spec.key: option_value(spec, self.cleaned_data) for spec in option_specs()}

    def clean_format(self) -> str:
        return str(self.cleaned_data.get("format") or DEFAULT_FORMAT)

    def clean_game(self) -> str:
        return str(self.cleaned_data.get("game") or DEFAULT_GAME)

    def clean_clock_per_point(self) -> int:
        return int(self.cleaned_data.get("clock_per_point") or 0)

    def clean_clock_delay(self) -> int:
        return int(self.cleaned_data.get("clock_delay") or 0)

    def clean_results_by(self) -> str:
        return str(self.cleaned_data.get("results_by") or ResultsBy.REFEREES)

    # The service checks the values (``tournaments.tournament_setup.tournament_create``: the
    # dates, the add-ons, the tiebreak chain, the format's options); its error shows at the
    # field its code names.
    # An option's error (its code is its key) shows at the option's first field.
    SERVICE_FIELDS: ClassVar[dict[str, str]] = {
        "dates": "end_date",
        "addons": "addons",
        "format": "format",
        "groups_not_round_robin": "groups",
        "clock": "clock_per_point",
    }

    def add_service_error(self, err: DomainError) -> None:
        field = self.SERVICE_FIELDS.get(err.code)
        if field is None and err.code in option_keys():
            field = option_field_names(option_for(err.code))[0]
        self.add_error(field, err.message)


# --- entries ------------------------------------------------------------------------------


class PlayerAddForm(Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"),
        queryset=Club.objects.order_by("name"),
        required=False,
        empty_label=gettext_lazy("(none, or a new club below)"),
    )
    new_club = forms.CharField(
        label=gettext_lazy("New club"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Only for a club that is not in the list above."),
    )
    rating = DbIntegerFormField(
        # the rating given at entry (for seeding), not the one computed here.
        label=gettext_lazy("Given rating"),
        min_value=0,
        required=False,
    )
    seed = DbIntegerFormField(
        label=gettext_lazy("Seed"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("1 = strongest; leave empty for an unseeded player."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("club") and data.get("new_club", "").strip():
            self.add_error(
                "new_club",
                _("Pick a club from the list or type a new one, not both."),
            )
        return data


class PlayersImportForm(Form):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "A header row with the columns name, club, rating, seed (only name is "
            "required), then one player per row; separated by semicolons or commas; UTF-8. "
            "If any row is wrong, nothing is imported."
        ),
    )

    def clean_file(self) -> list[ImportRow]:
        upload: UploadedFile = self.cleaned_data["file"]
        if upload.size is not None and upload.size > CSV_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(kb)d kB; is it really a list of players?")
                % {"kb": CSV_MAX_BYTES // 1024}
            )
        try:
            return parse_entries_csv(upload.read())
        except CsvImportError as err:
            raise forms.ValidationError(
                [*map(csv_error_text, err.errors), _("Nothing was imported; fix the file first.")]
            ) from None


class SeedsForm(Form):
    """One seed input per active entry (``seed_<entry id>``), saved in one post."""

    def __init__(self, *args: Any, entries: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        for entry in self.entries:
            self.fields[self.field_name(entry)] = DbIntegerFormField(
                label=_("Seed of %(name)s") % {"name": entry.player.name},
                min_value=1,
                required=False,
                initial=entry.seed,
                widget=forms.NumberInput(attrs={"class": "seed"}),
            )

    @staticmethod
    def field_name(entry: Entry) -> str:
        return f"seed_{entry.pk}"

    def rows(self) -> list[tuple[Entry, forms.BoundField]]:
        return [(e, self[self.field_name(e)]) for e in self.entries]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        holders: dict[int, list[Entry]] = {}
        for entry in self.entries:
            seed = data.get(self.field_name(entry))
            if seed is not None:
                holders.setdefault(seed, []).append(entry)
        for seed, entries in holders.items():
            if len(entries) > 1:
                for entry in entries:
                    others = ", ".join(e.player.name for e in entries if e is not entry)
                    self.add_error(
                        self.field_name(entry),
                        _("Seed %(seed)d is also given to %(names)s.")
                        % {"seed": seed, "names": others},
                    )
        return data

    def seeds(self) -> dict[int, int | None]:
        """Entry id → seed (``None``: unseeded), as ``entries.entries_seeds_set`` takes them."""
        return {e.pk: self.cleaned_data.get(self.field_name(e)) for e in self.entries}


class WithdrawForm(Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)


# --- referees -------------------------------------------------------------------------------


class RefereesForm(Form):
    usernames = forms.CharField(
        label=gettext_lazy("Referees"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy(
            "User names, separated by commas or spaces. Leave empty for no referees. "
            "Organisers may referee anyway."
        ),
    )

    def clean_usernames(self) -> list[Any]:
        names = [n for n in re.split(r"[\s,;]+", self.cleaned_data["usernames"]) if n]
        names = list(dict.fromkeys(names))  # in order, once each
        users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise forms.ValidationError(
                ngettext(
                    "No user is called %(names)s. Check the spelling; a referee needs an "
                    "account first.",
                    "No users are called %(names)s. Check the spelling; a referee needs an "
                    "account first.",
                    len(unknown),
                )
                % {"names": ", ".join(f"“{n}”" for n in unknown)}
            )
        return [users[n] for n in names]


class StaffInviteForm(Form):
    """Invite a referee or co-organiser (``tournaments.staff_invitations``)."""

    who = forms.CharField(
        label=gettext_lazy("User name or e-mail address"),
        max_length=254,
        help_text=gettext_lazy(
            "An account sees the invitation on its invitations page; an e-mail address gets "
            "a mail with a link, and may create an account first."
        ),
    )
    role = forms.ChoiceField(
        label=gettext_lazy("As"),
        choices=(
            ("referee", gettext_lazy("referee")),
            ("organiser", gettext_lazy("organiser")),
        ),
        initial="referee",
        widget=forms.RadioSelect,
    )


# --- the draw ---------------------------------------------------------------------------------


def lengths_text(lengths: Sequence[int]) -> str:
    return ", ".join(str(n) for n in lengths)


class DrawForm(Form):
    lengths = forms.CharField(
        label=gettext_lazy("Match lengths, round by round"),
        max_length=100,
    )
    draw_seed = forms.IntegerField(
        label=gettext_lazy("Draw seed"),
        required=False,
        min_value=0,
        max_value=DRAW_SEED_MAX,
        help_text=gettext_lazy(
            "Leave empty for a new random draw. The seed of an earlier draw repeats it."
        ),
    )

    def __init__(
        self, *args: Any, rounds: int, players: int, unit: str = GAMES, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rounds = rounds
        self.players = players
        self.unit = unit
        if unit == POINTS:
            self.fields["lengths"].help_text = ngettext(
                "%(players)d players make %(rounds)d round: give %(rounds)d match length in "
                "points (1 to %(max)d).",
                "%(players)d players make %(rounds)d rounds: give %(rounds)d match lengths in "
                "points (1 to %(max)d), first round first, separated by commas.",
                rounds,
            ) % {"players": players, "rounds": rounds, "max": MAX_MATCH_LENGTH}
            return
        self.fields["lengths"].help_text = ngettext(
            "%(players)d players make %(rounds)d round: give %(rounds)d odd number of games "
            "(1, 3, 5, 7, …).",
            "%(players)d players make %(rounds)d rounds: give %(rounds)d odd numbers of games "
            "(1, 3, 5, 7, …), first round first, separated by commas.",
            rounds,
        ) % {"players": players, "rounds": rounds}

    def clean_lengths(self) -> list[int]:
        parts = [p for p in re.split(r"[\s,;]+", self.cleaned_data["lengths"]) if p]
        lengths: list[int] = []
        for part in parts:
            if not part.isdigit():
                raise forms.ValidationError(
                    _("“%(part)s” is not a number of games.") % {"part": part}
                    if self.unit == GAMES
                    else _("“%(part)s” is not a number of points.") % {"part": part}
                )
            # The service's checks (``round_lengths.round_lengths``), in its words.
            problem = match_length_problem(int(part), self.unit)
            if problem is not None:
                raise forms.ValidationError(problem)
            lengths.append(int(part))
        problem = lengths_count_problem(
            given=len(lengths), rounds=self.rounds, players=self.players
        )
        if problem is not None:
            raise forms.ValidationError(problem)
        return lengths


# --- a walkover -----------------------------------------------------------------------------


class WalkoverForm(Form):
    winner = forms.TypedChoiceField(
        label=gettext_lazy("Winner"), coerce=int, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("For example: did not appear, or withdrew because of illness."),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        players = [p for p in (match.player1, match.player2) if p is not None]
        winner = self.fields["winner"]
        assert isinstance(winner, forms.TypedChoiceField)
        winner.choices = [(p.pk, p.name) for p in players]

    def winner_player(self) -> Any:
        pk = self.cleaned_data["winner"]
        return self.match.player1 if pk == self.match.player1_id else self.match.player2


class KnockoutLengthsForm(DrawForm):
    """The lengths of the knockout that a round robin's groups feed
    (``tournaments.group_stage``): a draw form without a draw seed (the tables decide the
    places, not a draw)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["draw_seed"]
