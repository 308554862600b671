"""Output serializers shared by the tournament and match APIs (read-only shapes)."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.names import display_name, person_name
from core.permissions import is_organiser, is_referee
from formats.options import option_specs
from games.registry import UnknownGameError, family_for
from stages.roundrobin import group_label
from tournaments.api_options import with_options
from tournaments.lengths import MAX_MATCH_LENGTH, validate_length_bounds
from tournaments.models import Club, Entry, Player, Round, Tournament

# display_name and person_name: core.names, re-exported for the API's serializers.
__all__ = ["PersonField", "display_name", "person_name", "staff_context", "staff_member"]


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


class PersonField(serializers.CharField):
    """A user, read-only, named by ``core.names.person_name``: the user name when the serializer's
    context says the reader is the tournament's staff (``{"staff": True}``,
    ``staff_context``), else the display name. A serializer given no such context shows
    the display name, so one that forgets it leaks no user name."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault(
            "help_text",
            "who: the user name to the tournament's organisers and referees, else the "
            "display name (full name, else the linked player's name, else null)",
        )
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str | None:  # type: ignore[override]
        return person_name(value, full=bool(self.context.get("staff")))


def staff_context(user: Any, tournament: Tournament) -> dict[str, Any]:
    """The serializer context ``PersonField`` reads: whether ``user`` is the tournament's
    staff (an organiser or referee of it, or a superuser)."""
    return {"staff": is_referee(user, tournament)}


def staff_member(user: Any, *, full: bool) -> dict[str, Any]:
    """One organiser or referee as ``/api/tournaments/N/staff/`` shows them: the
    display name to everyone, the id and user name only when ``full``."""
    out: dict[str, Any] = {"name": display_name(user)}
    if full:
        out = {"id": user.pk, "username": user.get_username(), **out}
    return out


class StaffMemberOut(serializers.Serializer[Any]):
    id = serializers.IntegerField(required=False, help_text="to the tournament's staff only")
    username = serializers.CharField(required=False, help_text="to the tournament's staff only")
    name = serializers.CharField(allow_null=True, help_text="full name, or the player's name")


class RoundOut(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ("id", "number", "name", "match_length", "length_unit", "kind", "published")
        extra_kwargs: ClassVar[dict[str, dict[str, Any]]] = {
            "published": {
                "help_text": "shown to players and playable (a Swiss round is "
                "paired unpublished, so the organiser can check the pairings first)"
            },
        }


# The tournament settings that belong to a game (``GameFamily.options``).
GAME_OPTIONS = ("rules", "addons", "scale", "resignation_policy")


# A tournament. Its options (``formats.options``) are placed among these fields and
# described by ``tournaments.api_options`` (a docstring would be the schema's description);
# each is the tournament's column.
class TournamentOut(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields: tuple[str, ...] = (
            "id",
            "name",
            "start_date",
            "end_date",
            "venue",
            "game",
            "rules",
            "addons",
            "scale",
            "resignation_policy",
            "status",
            "is_public",
            "results_by",
            "format",
            "draw_seed",
            "clock_per_point",
            "clock_delay",
        )
        # The game's own settings (bräde's rule set, add-ons, scale and resignation
        # policy) are null for a game that does not read them (``GameFamily.options``).
        # The models' help texts name the code's modules; the API speaks the pages' words.
        extra_kwargs: ClassVar[dict[str, dict[str, Any]]] = {
            **{name: {"allow_null": True} for name in GAME_OPTIONS},
            "game": {"help_text": "the game played: bräde, backgammon or Kungabräde"},
        }

    def get_field_names(self, declared_fields: Any, info: Any) -> list[str]:
        return list(with_options(super().get_field_names(declared_fields, info)))

    def get_extra_kwargs(self) -> dict[str, Any]:
        described = {spec.key: {"help_text": spec.description} for spec in option_specs()}
        return described | super().get_extra_kwargs()

    def to_representation(self, instance: Tournament) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        try:
            read = family_for(instance.game).options
        except UnknownGameError:
            return data
        for name in GAME_OPTIONS:
            if name in data and name not in read:
                data[name] = None
        return data


class TournamentDetailOut(TournamentOut):
    my_roles = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField(
        help_text="the tournament's rounds in order (none before the draw); a Swiss round "
        "paired but not yet published is listed to the tournament's staff only"
    )

    class Meta(TournamentOut.Meta):
        fields = (*TournamentOut.Meta.fields, "my_roles", "rounds")

    @extend_schema_field(RoundOut(many=True))
    def get_rounds(self, obj: Tournament) -> list[dict[str, Any]]:
        rounds = Round.objects.filter(tournament=obj).order_by("number")
        if not is_referee(self.context["request"].user, obj):
            rounds = rounds.filter(published=True)
        return list(RoundOut(rounds, many=True).data)

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
    group = serializers.SerializerMethodField(
        help_text='round robin in groups: the player\'s group (A, B, …) once drawn, else ""'
    )
    present = serializers.SerializerMethodField(
        help_text="Swiss: true while checked in (paired in the next round), false when "
        "checked out (POST /api/entries/{id}/presence/ changes it); true in other formats"
    )

    class Meta:
        model = Entry
        fields = ("id", "player", "seed", "withdrawn_at", "group", "present")

    def get_group(self, obj: Entry) -> str:
        return "" if obj.group is None else group_label(obj.group)

    def get_present(self, obj: Entry) -> bool:
        return not obj.absent


class MatchLengthField(serializers.IntegerField):
    """An input match length: 1 to ``MAX_MATCH_LENGTH``; past either limit the 400 says so
    in the reader's language (``tournaments.lengths``). That a length in games is odd (S1)
    is the services' to check: they know the tournament's game (backgammon's points may
    be even)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("validators", [validate_length_bounds])
        kwargs.setdefault(
            "help_text",
            "bräde and Kungabräde: an odd number of games, best of 1–25 (even is refused); "
            "backgammon: 1–25 points, even or odd",
        )
        super().__init__(**kwargs)
        # For the schema's minimum/maximum only: validate_match_length gives the message.
        self.min_value, self.max_value = 1, MAX_MATCH_LENGTH


class PlacingOut(serializers.Serializer[Any]):
    player = PlayerBrief()
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    walkover = serializers.BooleanField()
