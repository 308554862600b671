"""The bracket endpoint's output with the other brackets of a consolation or double
elimination: ``sections`` (the consolation or losers' bracket and the
final), each match with its code and the links its winner and loser follow. A knockout's
bracket has no sections and its matches no code or links."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from matches.models import Match
from matches.serializers import BracketMatchOut, BracketOut
from tournaments.serializers import PlayerBrief, RoundOut

__all__ = ["EliminationBracketOut", "LinkedMatchOut"]


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
        if instance is None:  # an empty place in a column (``ColumnOut.slots``)
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


class LinkedRoundOut(serializers.Serializer[Any]):
    round = RoundOut()
    matches = LinkedMatchOut(many=True)


class ColumnOut(serializers.Serializer[Any]):
    round = RoundOut()
    title = serializers.CharField(help_text="the round's name in its bracket, in your language")
    slots = LinkedMatchOut(
        many=True,
        allow_null=True,
        help_text="the round's places from the top; null where the byes removed a match",
    )


class SectionOut(serializers.Serializer[Any]):
    key = serializers.ChoiceField(["consolation", "losers", "final"])
    title = serializers.CharField()
    columns = ColumnOut(many=True)
    winner = PlayerBrief(allow_null=True, help_text="the consolation's winner, once decided")


class EliminationBracketOut(BracketOut):
    rounds = LinkedRoundOut(many=True)  # type: ignore[assignment]  # its matches with links
    main_title = serializers.CharField(
        help_text="the main bracket's title when there are other brackets (else empty)"
    )
    sections = SectionOut(many=True)
