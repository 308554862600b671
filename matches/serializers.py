"""Output serializers for matches, games, result versions, records and events."""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import serializers

from games.seats import seat_of
from matches.engine_text import submission_text
from matches.models import (
    Game,
    GameRecordSubmission,
    GameReport,
    GameResult,
    Match,
    MatchEvent,
    MatchState,
    SiteNote,
)
from matches.selectors import game_version
from matches.site_words import note_text, reason_text
from tournaments.models import Venue
from tournaments.serializers import PersonField, PlayerBrief, RoundOut

# A match's place in a consolation or double elimination bracket: its code and where its
# winner and loser go. A knockout's matches have no code and no links: they feed by slot,
# the winner of slot s to slot s // 2 of the next round (as player 1 when s is even).
LINK_HELP = {
    "code": "the match's code in its bracket (M2.1, C1.3, W1.2, L4.1, GF, GF2); empty in a "
    "knockout (whose winner of slot s plays slot s // 2 of the next round, as player 1 when "
    "s is even) and a round robin",
    "winner_to": "consolation and double elimination: the match the winner goes to (id); "
    "null in a knockout (by slot, see code) and after the last match",
    "winner_to_upper": "the winner goes there as its player 1 (upper line), else player 2",
    "loser_to": "consolation and double elimination: the match the loser goes to (id); "
    "null: the loser is out",
    "loser_to_upper": "the loser goes there as its player 1 (upper line), else player 2",
    "loser_first_match_only": "the loser goes there only if this was its first match "
    "(simple consolation)",
    "if_needed": "the grand final's reset: played only if the losers' bracket's player wins "
    "the grand final",
}
BRACKET_LINKS = tuple(LINK_HELP)

NOTE_HELP = (
    "what is noted on it, in the request's language (Accept-Language): the site's own note "
    "(site_note, worded) and the person's, with '; ' between"
)
SITE_NOTE_HELP = (
    "what the site itself notes, as a code: 'recorded_live' (recorded move by move), "
    "'from_record' (entered from a game record); empty for none"
)


class NotedOut(serializers.ModelSerializer[Any]):
    """A row with a person's note and the site's (``matches.site_words``)."""

    note = serializers.SerializerMethodField(help_text=NOTE_HELP)
    site_note = serializers.ChoiceField(
        choices=SiteNote.choices, allow_blank=True, read_only=True, help_text=SITE_NOTE_HELP
    )

    def get_note(self, obj: GameResult | GameReport) -> str:
        return note_text(obj)


EVENT_DATA_HELP = (
    "the change's details; a walkover's, withdrawal's or reset's reason as 'reason' (in the "
    "request's language where the site gave it, then also as 'reason_code': "
    "'opponent_withdrew', 'admin')"
)


class MatchOut(serializers.ModelSerializer[Match]):
    round = RoundOut()
    player1 = PlayerBrief(allow_null=True)
    player2 = PlayerBrief(allow_null=True)
    points = serializers.SerializerMethodField()
    tiebreak = serializers.SerializerMethodField()
    table = serializers.IntegerField(
        source="board",
        allow_null=True,
        read_only=True,
        help_text="the table (board) number; null for a bye, a walkover or no table given",
    )
    venue: serializers.PrimaryKeyRelatedField[Venue] = serializers.PrimaryKeyRelatedField(
        read_only=True,
        allow_null=True,
        help_text="the venue it is played at (its table is numbered there), in a tournament "
        "played at several venues; null: the tournament's one place",
    )

    class Meta:
        model = Match
        fields = (
            "id",
            "tournament",
            "round",
            "slot",
            "is_third_place",
            "table",
            "venue",
            *BRACKET_LINKS,
            "player1",
            "player2",
            "length",
            "length_unit",
            "state",
            "winner",
            "points",
            "tiebreak",
            "decided_after_game",
            "decided_early",
            "crawford_game",
            "walkover",
            "flag",
        )
        extra_kwargs: ClassVar[dict[str, dict[str, Any]]] = {
            name: {"read_only": True, "help_text": text} for name, text in LINK_HELP.items()
        }

    def get_points(self, obj: Match) -> list[int]:
        return [obj.points1, obj.points2]

    def get_tiebreak(self, obj: Match) -> list[int]:
        return [obj.tiebreak1, obj.tiebreak2]


def game_etag(game: Game, version: int) -> str:
    """The ``ETag`` of a game's current result: ``"game-<id>-v<version>"`` (strong).

    The game's id is part of it, so the tag of a game voided by a reset never matches
    the game entered in its place (whose versions start at 1 again)."""
    return f'"game-{game.pk}-v{version}"'


def current_version(game: Game) -> int:
    """The confirmed version: the selectors' annotation when present, else read."""
    version = getattr(game, "current_version", None)
    if version is None:
        version = game_version(game=game)
    return int(version)


class GameOut(serializers.ModelSerializer[Game]):
    winner_player = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField(
        help_text="the confirmed result's version; a correction names it (body 'version')"
    )
    etag = serializers.SerializerMethodField(
        help_text="the game's ETag, for If-Match on a correction (PUT)"
    )

    class Meta:
        model = Game
        fields = (
            "number",
            "starter",
            "winner",
            "winner_player",
            "outcome",
            "pattern",
            "munk",
            "cube",
            "conceded",
            "game_type",
            "source",
            "verified",
            "version",
            "etag",
        )

    def get_winner_player(self, obj: Game) -> int | None:
        match: Match = self.context["match"]
        return (match.player1_id, match.player2_id)[seat_of(obj.winner)]

    def get_version(self, obj: Game) -> int:
        return current_version(obj)

    def get_etag(self, obj: Game) -> str:
        return game_etag(obj, current_version(obj))


class GameResultOut(NotedOut):
    """A version of a game's result: who entered it and when, and what is noted on it."""

    entered_by = PersonField()
    confirmed_by = PersonField(
        help_text="the opponent who confirmed a player's report (source 'players'): the user "
        "name to the tournament's organisers and referees, else the display name"
    )

    class Meta:
        model = GameResult
        fields = (
            "version",
            "winner",
            "outcome",
            "pattern",
            "munk",
            "cube",
            "conceded",
            "game_type",
            "source",
            "submission",
            "confirmed",
            "entered_by",
            "entered_at",
            "confirmed_by",
            "report",
            "note",
            "site_note",
        )


class GameReportOut(NotedOut):
    """A player's report of a game: it counts only once the opponent confirms it."""

    reported_by = PersonField()
    answered_by = PersonField()
    closed_by = PersonField()
    winner_player = serializers.SerializerMethodField(help_text="the winner's player id")

    class Meta:
        model = GameReport
        fields = (
            "id",
            "match",
            "number",
            "starter",
            "winner",
            "winner_player",
            "outcome",
            "pattern",
            "munk",
            "cube",
            "conceded",
            "game_type",
            "note",
            "site_note",
            "state",
            "reporter",
            "reported_by",
            "reported_at",
            "answerer",
            "answered_by",
            "answered_at",
            "dispute_note",
            "closed_by",
            "closed_at",
            "close_note",
        )

    def get_winner_player(self, obj: GameReport) -> int | None:
        match = obj.match
        return (match.player1_id, match.player2_id)[seat_of(obj.winner)]


class SubmissionOut(serializers.ModelSerializer[GameRecordSubmission]):
    submitted_by = PersonField()
    message = serializers.SerializerMethodField(
        help_text="the engine's verdict in the request's language (Accept-Language)"
    )

    def get_message(self, sub: GameRecordSubmission) -> str:
        return submission_text(sub)

    class Meta:
        model = GameRecordSubmission
        fields: tuple[str, ...] = (
            "id",
            "match",
            "submitted_by",
            "submitted_at",
            "state",
            "attempts",
            "message",
            "finished_at",
        )


class SubmissionDetailOut(SubmissionOut):
    class Meta(SubmissionOut.Meta):
        fields = (*SubmissionOut.Meta.fields, "text", "report")


class EventOut(serializers.ModelSerializer[MatchEvent]):
    by = PersonField()

    class Meta:
        model = MatchEvent
        fields = ("kind", "by", "at", "data")
        extra_kwargs: ClassVar[dict[str, dict[str, Any]]] = {"data": {"help_text": EVENT_DATA_HELP}}

    def to_representation(self, instance: MatchEvent) -> dict[str, Any]:
        """A reason the site keeps as a code (``reason_code``) comes with its words
        (``reason``) in the request's language, as a person's reason does."""
        out: dict[str, Any] = super().to_representation(instance)
        data = out.get("data")
        if isinstance(data, dict) and data.get("reason_code"):
            out["data"] = {**data, "reason": reason_text(data)}
        return out


class MatchDetailOut(serializers.Serializer[Any]):
    match = MatchOut()
    games = serializers.SerializerMethodField()
    explanation = serializers.ListField(child=serializers.CharField())
    submissions = SubmissionOut(many=True)
    events = EventOut(many=True)
    reports = GameReportOut(
        many=True,
        help_text="the players' reports of games (shown to the match's players, referees and "
        "organisers)",
    )

    def get_games(self, obj: Any) -> list[dict[str, Any]]:
        return list(GameOut(obj.games, many=True, context={"match": obj.match}).data)


class BracketMatchOut(serializers.Serializer[Match]):
    """A match as the bracket shows it (its round is given once, by the round)."""

    # The docstring is the schema's description, for the club's volunteer. The fields
    # document the shape; ``to_representation`` is written by hand because a bracket of
    # 256 players has 255 matches and field-by-field serialization dominated the
    # endpoint's time (bench/web_bench.py).

    id = serializers.IntegerField()
    slot = serializers.IntegerField()
    is_third_place = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True, help_text="the table (board) number")
    venue = serializers.IntegerField(
        allow_null=True, help_text="the venue's id, in a tournament played at several venues"
    )
    player1 = PlayerBrief(allow_null=True)
    player2 = PlayerBrief(allow_null=True)
    length = serializers.IntegerField()
    state = serializers.ChoiceField(MatchState.choices)
    winner = serializers.IntegerField(allow_null=True, help_text="the winner's player id")
    points = serializers.ListField(child=serializers.IntegerField())
    tiebreak = serializers.ListField(child=serializers.IntegerField())
    decided_after_game = serializers.IntegerField(allow_null=True)
    walkover = serializers.BooleanField()
    flagged = serializers.BooleanField()

    def to_representation(self, instance: Match) -> dict[str, Any]:
        def player(p: Any) -> dict[str, Any] | None:
            return None if p is None else {"id": p.pk, "name": p.name}

        return {
            "id": instance.pk,
            "slot": instance.slot,
            "is_third_place": instance.is_third_place,
            "table": instance.board,
            "venue": instance.venue_id,
            "player1": player(instance.player1),
            "player2": player(instance.player2),
            "length": instance.length,
            "state": instance.state,
            "winner": instance.winner_id,
            "points": [instance.points1, instance.points2],
            "tiebreak": [instance.tiebreak1, instance.tiebreak2],
            "decided_after_game": instance.decided_after_game,
            "walkover": instance.walkover,
            "flagged": bool(instance.flag),
        }


class BracketRoundOut(serializers.Serializer[Any]):
    round = RoundOut()
    matches = BracketMatchOut(many=True)


class BracketOut(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament.pk")
    rounds = BracketRoundOut(many=True)
    third_place = BracketMatchOut(allow_null=True)
