"""Ratings on the pages of other apps: the match page's rating change and the player
page's ratings, each one tag, so those pages need one line each::

    {% load club_ratings %}{% match_rating_box match %}     (templates/web/match_detail.html)
    {% load club_ratings %}{% player_rating_box player %}   (templates/web/player_detail.html)

the seeding form (``clubs/_seed_by_rating.html``) offers the kept rating lists::

    {% kept_rating_formulas as formulas %}

and the entries tables of a tournament's pages show each player's computed rating beside
the given one (``Player.rating``)::

    {% computed_ratings tournament as computed %} … {{ computed|rating_of:entry.player_id }}
        (templates/web/tournament_detail.html, templates/web/organiser/manage.html)

A match is rated only in a public tournament (``clubs.rating_selectors``), and a player's
page is shown only to who may see the player, so neither shows anything private.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template

from clubs.charts import history_chart, signed
from clubs.models import RatedGame
from clubs.rating_formulas import FormulaView, formula_view
from clubs.rating_selectors import (
    kept_formulas,
    match_rating_change,
    player_history,
    player_ratings,
    tournament_ratings,
)

register = template.Library()

register.filter("signed", signed)


@register.inclusion_tag("clubs/_match_rating.html")
def match_rating_box(match: Any) -> dict[str, Any]:
    """The rating change of a rated match (one query), or nothing."""
    return {"change": match_rating_change(match=match), "match": match}


@register.inclusion_tag("clubs/_player_ratings.html")
def player_rating_box(player: Any) -> dict[str, Any]:
    """The player's rating in each game they have one in, with the chart of its history
    (one query, plus one per game). ``Player.rating``, the number organisers type in with
    the entries, is shown as the *given* rating: below the computed ones when there
    are any, alone otherwise (two unlabelled ratings on one page confused readers)."""
    boxes = []
    for rating in player_ratings(player=player):
        game_name = RatedGame(rating.game).label
        entries = list(player_history(player=player, game=rating.game))
        boxes.append(
            {
                "rating": rating,
                "game_name": game_name,
                "chart": history_chart(game_name=game_name, entries=entries),
            }
        )
    return {"player": player, "boxes": boxes}


@register.simple_tag
def kept_rating_formulas() -> list[FormulaView]:
    """The formulas whose rating lists are kept (FIBS first), in the reader's language:
    one query."""
    return [formula_view(key) for key in kept_formulas()]


@register.simple_tag
def computed_ratings(tournament: Any) -> dict[int, Decimal]:
    """The computed ratings of the tournament's players by player id, one query for the
    whole table (``rating_selectors.tournament_ratings``). On the public tournament page
    they may lag behind a match decided in another tournament until this tournament
    changes: the page answers conditional GETs by its own version (``web.live``)."""
    return tournament_ratings(tournament=tournament)


@register.filter
def rating_of(ratings: dict[int, Decimal], player_id: int) -> Decimal | str:
    """``ratings[player_id]``, or "" for a player not rated yet."""
    return ratings.get(player_id, "")
