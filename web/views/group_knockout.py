"""The organiser's step between a round robin's groups and the knockout they feed
(``tournaments.group_stage``): what the manage page shows, and the lengths form of the draw
(the post is ``web.views.organiser.group_knockout_draw``)."""

from __future__ import annotations

from typing import Any

from matches.group_standings import open_table_matches
from matches.swiss_standings import unplayed_swiss_rounds
from stages import knockout
from tournaments import group_stage
from tournaments.models import Tournament, TournamentStatus
from web.formats import format_view
from web.forms.organiser import KnockoutLengthsForm, lengths_text
from web.games import unit_of

__all__ = ["group_knockout_context", "knockout_lengths_form"]


def knockout_lengths_form(tournament: Tournament, data: Any = None) -> KnockoutLengthsForm:
    """The lengths of the knockout's rounds, for the draw from the groups' tables."""
    players = tournament.groups * tournament.group_advance
    rounds = knockout.round_count(players)
    return KnockoutLengthsForm(
        data,
        rounds=rounds,
        players=players,
        unit=unit_of(tournament),
        initial={"lengths": lengths_text(knockout.default_lengths(rounds))},
    )


def group_knockout_context(
    tournament: Tournament, form: KnockoutLengthsForm | None = None
) -> dict[str, Any] | None:
    """For the manage page: ``None`` when the groups feed no knockout; else whether it is
    drawn, how many group matches are left, and the lengths form."""
    if not group_stage.feeds_knockout(tournament) or tournament.status == TournamentStatus.DRAFT:
        return None
    drawn = group_stage.knockout_drawn(tournament.pk)
    shown = format_view(tournament.format)
    swiss = shown.paired  # one table, the standings of its paired rounds
    return {
        "drawn": drawn,
        "swiss": swiss,
        "title": shown.knockout_after,
        "rounds_left": unplayed_swiss_rounds(tournament=tournament) if swiss and not drawn else 0,
        "open": 0 if drawn else open_table_matches(tournament=tournament),
        "players": tournament.groups * tournament.group_advance,
        "form": None if drawn else form or knockout_lengths_form(tournament),
    }
