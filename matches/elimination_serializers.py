"""The bracket endpoint's output with the other brackets of a consolation or double
elimination: ``sections`` (the consolation or losers' bracket and the final), each match
with its code and the links its winner and loser follow. A knockout's bracket has no
sections and its matches no code or links.

One shape for every bracket: the main bracket's ``rounds`` and each section's ``rounds``
are lists of ``{round, title, matches}`` (``LinkedRoundOut``), so a client draws them
all with one piece of code. (The sections once had ``columns`` of ``{round, title,
slots}``: a second shape for the same thing.)"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_array_type
from rest_framework import serializers

from matches.elimination_brackets import Column
from matches.models import Match
from matches.round_selectors import BracketRound
from matches.serializers import BracketMatchOut, BracketOut
from tournaments.elimination_draw import round_title
from tournaments.serializers import PlayerBrief, RoundOut

__all__ = ["EliminationBracketOut", "LinkedMatchOut", "LinkedRoundOut"]


class LinkedMatchOut(BracketMatchOut):
    """A match of the bracket, with its code and where its winner and loser go next."""

    code = serializers.CharField(
        help_text="the match's code (M2.1, C1.3, W1.2, L4.1, GF, GF2); empty in a knockout"
    )
    winner_to = serializers.IntegerField(
        allow_null=True, help_text="the match the winner goes to (id)"
    )
    winner_to_upper = serializers.BooleanField(help_text="as its player 1 (upper line)")
    loser_to = serializers.IntegerField(
        allow_null=True, help_text="the match the loser goes to (id); null: the loser is out"
    )
    loser_to_upper = serializers.BooleanField()
    loser_first_match_only = serializers.BooleanField(
        help_text="the loser goes there only if this was its first match (simple consolation)"
    )
    if_needed = serializers.BooleanField(
        help_text="the grand final's reset: played only if the losers' bracket's player wins "
        "the grand final (state not_needed otherwise)"
    )

    def to_representation(self, instance: Match | None) -> dict[str, Any] | None:  # type: ignore[override]
        if instance is None:  # an empty place in a section's round
            return None
        data = super().to_representation(instance)
        data.update(
            code=instance.code,
            winner_to=instance.winner_to_id,
            winner_to_upper=instance.winner_to_upper,
            loser_to=instance.loser_to_id,
            loser_to_upper=instance.loser_to_upper,
            loser_first_match_only=instance.loser_first_match_only,
            if_needed=instance.if_needed,
        )
        return data


class NullableItemsField(serializers.ListField):
    """A list whose items are the child serializer's objects or null, and a schema that
    says so (drf-spectacular leaves a list's item ``allow_null`` out)."""


class _NullableItemsSchema(OpenApiSerializerFieldExtension):
    target_class = NullableItemsField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        component = auto_schema.resolve_serializer(self.target.child, direction)
        schema = build_array_type({"allOf": [component.ref], "nullable": True})
        if self.target.help_text:
            schema["description"] = str(self.target.help_text)
        return schema


class LinkedRoundOut(serializers.Serializer[Any]):
    """One round of one bracket: the same shape in the main bracket and in every other
    section (consolation, losers' bracket, final)."""

    round = RoundOut()
    title = serializers.CharField(help_text="the round's name in its bracket, in your language")
    matches = NullableItemsField(
        child=LinkedMatchOut(allow_null=True),
        help_text="the round's matches from the top. In a consolation or losers' bracket, "
        "null where the byes removed a match, so that each match sits between the two "
        "that feed it; the main bracket has no nulls",
    )

    def to_representation(self, instance: BracketRound | Column) -> dict[str, Any]:
        """A main bracket's round (``BracketRound``) or another section's column
        (``Column``), in one shape."""
        if isinstance(instance, Column):
            title, matches = instance.title, instance.slots
        else:
            title, matches = round_title(instance.round), list(instance.matches)
        row = LinkedMatchOut()
        return {
            "round": RoundOut(instance.round).data,
            "title": title,
            "matches": [None if m is None else row.to_representation(m) for m in matches],
        }


class SectionOut(serializers.Serializer[Any]):
    key = serializers.ChoiceField(["consolation", "losers", "final"])
    title = serializers.CharField()
    rounds = LinkedRoundOut(many=True, source="columns")
    winner = PlayerBrief(allow_null=True, help_text="the consolation's winner, once decided")


class EliminationBracketOut(BracketOut):
    """A tournament's bracket. Every bracket of it has one shape, ``rounds`` of
    ``{round, title, matches}``: the main (or winners') bracket at the top, the others
    (a consolation, a double elimination's losers' bracket and final) in ``sections``."""

    rounds = LinkedRoundOut(many=True)  # type: ignore[assignment]  # its matches with links
    main_title = serializers.CharField(
        help_text="the main bracket's title when there are other brackets (else empty)"
    )
    sections = SectionOut(many=True)
