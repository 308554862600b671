"""Output serializers shared by the tournament and match APIs (read-only shapes)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Club, Entry, Player, Round, Tournament
from tournaments.permissions import is_organiser, is_referee


class ClubOut(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ("id", "name", "city")


class PlayerBrief(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ("id", "name")


class PlayerOut(serializers.ModelSerializer[Player]):
    club = ClubOut(allow_null=True)

    class Meta:
        model = Player
        fields = ("id", "name", "club", "rating")


class TournamentOut(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields: tuple[str, ...] = (
            "id",
            "name",
            "start_date",
            "end_date",
            "venue",
            "rules",
            "addons",
            "scale",
            "resignation_policy",
            "status",
            "is_public",
            "third_place_match",
            "draw_seed",
        )


class TournamentDetailOut(TournamentOut):
    my_roles = serializers.SerializerMethodField()

    class Meta(TournamentOut.Meta):
        fields = (*TournamentOut.Meta.fields, "my_roles")

    def get_my_roles(self, obj: Tournament) -> list[str]:
        user = self.context["request"].user
        roles = []
        if is_organiser(user, obj):
            roles.append("organiser")
        if is_referee(user, obj):
            roles.append("referee")
        if obj.entries.filter(player__user=user.pk).exists() if user.is_authenticated else False:
            roles.append("player")
        return roles


class EntryOut(serializers.ModelSerializer[Entry]):
    player = PlayerOut()

    class Meta:
        model = Entry
        fields = ("id", "player", "seed", "withdrawn_at")


class RoundOut(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ("id", "number", "name", "match_length")


class PlacingOut(serializers.Serializer[Any]):
    player = PlayerBrief()
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    walkover = serializers.BooleanField()
