"""The game registry: families by key, their order, registration, and content detection."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.messages import Msg
from engine.record import read_record, write_json
from games import registry
from games.family import BoardDrawing, RecordFormat, Replayer, Term, Vocabulary
from games.registry import UnknownGameError, detect, families, family_for, register
from games.results import MatchSettings, MatchStanding, ResultValue
from matches.explain_text import explanation

DATA = Path(__file__).resolve().parent.parent / "data"
BRADE_FILES = sorted((DATA / "corpus").glob("*.txt")) + sorted((DATA / "scoring").glob("*.txt"))
MAT_FILES = sorted((DATA / "backgammon").glob("*.mat"))


def words(messages: Sequence[Msg], lang: str) -> list[str]:
    """A family's explanation as the pages word it in ``lang``."""
    return explanation(messages, lang=lang)


class FakeScoring:
    def __init__(self, settings: MatchSettings) -> None:
        self.settings = settings

    def standing(self, results: Sequence[ResultValue]) -> MatchStanding:
        return MatchStanding(self.settings.length, "games", (0, 0), None, None, ())


class FakeFamily:
    """A minimal family, as a plug-in would write one."""

    key = "fake"
    name = "Fake"
    vocabulary = Vocabulary(outcomes=(Term("won", "won"),))
    records: tuple[RecordFormat[Any], ...] = ()
    replay: Replayer | None = None
    board: BoardDrawing[Any] | None = None

    def detect(self, text: str) -> float:
        return 0.0

    def match_scoring(self, settings: MatchSettings) -> FakeScoring:
        return FakeScoring(settings)

    length_unit = "games"
    loser_starts = False
    options: tuple[str, ...] = ()
    result_fields: tuple[str, ...] = ()
    tiebreak_scales: tuple[str, ...] = ()

    def cube_limit(self, settings: MatchSettings, score: tuple[int, int]) -> int | None:
        return None

    def record_format(self, text: str) -> RecordFormat[Any] | None:
        return None

    def describe(self, result: ResultValue) -> str:
        return f"player {result.winner + 1} {result.outcome}"

    def explain(
        self,
        settings: MatchSettings,
        results: Sequence[ResultValue],
        *,
        names: tuple[str, str],
    ) -> tuple[Msg, ...]:
        return ()


def detected(data: str | bytes) -> str:
    family = detect(data)
    assert family is not None
    return family.key


@pytest.fixture
def fake() -> Iterator[FakeFamily]:
    family = FakeFamily()
    register(family)
    yield family
    registry.unregister("fake")


class TestLookup:
    def test_the_three_games_in_order(self) -> None:
        assert [f.key for f in families()] == ["brade", "backgammon", "kungabrade"]
        assert registry.choices() == (
            ("brade", "Bräde"),
            ("backgammon", "Backgammon"),
            ("kungabrade", "Kungabräde"),
        )

    @pytest.mark.parametrize("key", ["brade", "backgammon", "kungabrade"])
    def test_family_for_each_key(self, key: str) -> None:
        family = family_for(key)
        assert family.key == key
        assert family in families()

    def test_unknown_key_names_the_known_ones(self) -> None:
        with pytest.raises(UnknownGameError) as info:
            family_for("chess")
        assert "brade, backgammon, kungabrade" in str(info.value)
        assert isinstance(info.value, LookupError) and info.value.key == "chess"

    def test_only_kungabrade_has_no_replay_board_or_records(self) -> None:
        assert [f.key for f in families() if f.replay is None] == ["kungabrade"]
        assert [f.key for f in families() if f.board is None] == ["kungabrade"]
        assert [f.key for f in families() if not f.records] == ["kungabrade"]


class TestRegistration:
    def test_a_new_family_registers_and_is_listed_after_the_builtins(
        self, fake: FakeFamily
    ) -> None:
        assert family_for("fake") is fake
        assert [f.key for f in families()][-1] == "fake"
        # a second import of its module registers the same object again: harmless
        assert register(fake) is fake

    def test_another_family_under_a_taken_key_is_refused(self, fake: FakeFamily) -> None:
        with pytest.raises(ValueError, match="already registered"):
            register(FakeFamily())
        with pytest.raises(ValueError, match="already registered"):

            class Impostor(FakeFamily):
                key = "brade"

            register(Impostor())

    def test_bad_key(self) -> None:
        class Bad(FakeFamily):
            key = "Bad Key"

        with pytest.raises(ValueError, match="lower-case"):
            register(Bad())

    def test_unregister(self, fake: FakeFamily) -> None:
        registry.unregister("fake")
        with pytest.raises(UnknownGameError):
            family_for("fake")
        register(fake)  # the fixture unregisters it again
        with pytest.raises(UnknownGameError):
            registry.unregister("nothing")

    def test_a_family_without_a_replay_is_never_detected(self, fake: FakeFamily) -> None:
        class Greedy(FakeFamily):
            key = "greedy"

            def detect(self, text: str) -> float:
                return 1.0  # claims everything, but has no replay

        register(Greedy())
        try:
            assert detected("Game 1\nTek: 2-5\n") == "brade"
        finally:
            registry.unregister("greedy")


class TestDetection:
    @pytest.mark.parametrize("path", BRADE_FILES, ids=[p.name for p in BRADE_FILES])
    def test_brade_text_records(self, path: Path) -> None:
        assert detected(path.read_bytes()) == "brade"
        assert family_for("brade").detect(path.read_text(encoding="utf-8")) == 0.9

    def test_brade_json_record(self) -> None:
        text = write_json(read_record(BRADE_FILES[0].read_text(encoding="utf-8")))
        assert detected(text) == "brade"

    @pytest.mark.parametrize("path", MAT_FILES, ids=[p.name for p in MAT_FILES])
    def test_mat_files(self, path: Path) -> None:
        text = path.read_text()
        assert detected(path.read_bytes()) == "backgammon"
        assert family_for("backgammon").detect(text) == 0.95
        # bräde claims its ``Game N`` lines less surely than backgammon claims the file
        assert family_for("brade").detect(text) < 0.95

    def test_mat_without_its_length_line(self) -> None:
        text = MAT_FILES[0].read_text().replace(" 9 point match\n", "")
        assert family_for("backgammon").detect(text) == 0.6
        assert detected(text) == "backgammon"

    @pytest.mark.parametrize(
        "text",
        [
            "",
            "garbage\n",
            "; padding\n" * 10,
            "\ufeff",
            '{"name": "not a record", "moves": [1, 2]}',
            "[1, 2, 3]\n",
            "(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[dp])\n",
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        ],
    )
    def test_a_file_no_game_reads_is_detected_by_none(self, text: str | bytes) -> None:
        """Decision (games.brade.detect): a file no game recognises is no record, and says
        so (games.unread), instead of going to bräde's reader."""
        if isinstance(text, str):
            assert family_for("backgammon").detect(text) == 0.0
        assert detect(text) is None
        # while a broken record of bräde's shape — a ``Game N`` or tag line, a JSON record,
        # text that opens as JSON and is not — still goes to bräde's reader, which says
        # what is wrong with it
        for brade in ("Game 1\n", '[White "Anna"]\n', "{not json", '{"games": [], "x": 1}'):
            assert detected(brade) == "brade"

    def test_bytes_that_are_not_utf8(self) -> None:
        assert detected(b" 3 point match\n\n Game 1\n J\xf6rgen : 0   Bo : 0\n") == "backgammon"


class TestWhatThePagesAsk:
    """What the site reads from a family instead of asking which game it is."""

    def test_units_starters_options_and_entry_fields(self) -> None:
        seen = {
            f.key: (f.length_unit, f.loser_starts, f.options, f.result_fields) for f in families()
        }
        assert seen == {
            "brade": (
                "games",
                True,
                ("rules", "addons", "scale", "resignation_policy"),
                ("pattern", "munk"),
            ),
            "backgammon": ("points", False, (), ("cube", "conceded")),
            "kungabrade": ("games", False, (), ("game_type",)),
        }

    def test_describe_a_result_in_each_game(self) -> None:
        assert family_for("brade").describe(ResultValue(1, "jan")) == "Black jan"
        gammon = ResultValue(1, "gammon", cube=2)
        assert family_for("backgammon").describe(gammon) == "player 2 gammon, cube 2"
        castle = ResultValue(0, "castle", game_type="slagfalt")
        assert family_for("kungabrade").describe(castle) == "player 1 castle (slagfalt)"

    def test_explain_in_both_languages(self) -> None:
        names = ("Anna", "Bo")
        settings = MatchSettings(length=5)
        games = [ResultValue(0, "gammon", cube=2)]  # Anna on match point: game 2 is Crawford
        english = words(family_for("backgammon").explain(settings, games, names=names), "en")
        assert english == [
            "Score: Anna 4, Bo 0 of 5 points.",
            "Anna needs 1 more point.",
            "Bo needs 5 more points.",
            "The next game is the Crawford game: no one may double in it.",
        ]
        games.append(ResultValue(1, "single"))
        swedish = words(family_for("backgammon").explain(settings, games, names=names), "sv")
        assert swedish[0] == "Ställning: Anna 4, Bo 1 av 5 poäng."
        assert swedish[-1] == "Parti 2 var Crawfordpartiet (ingen dubbling)."
        won = family_for("kungabrade").explain(
            MatchSettings(length=3),
            [ResultValue(0, "castle", game_type="slagfalt")] * 2,
            names=names,
        )
        assert words(won, "en") == [
            "Games won: Anna 2, Bo 0 (best of 3).",
            "Anna won 2 games and the match.",
        ]
        brade = words(
            family_for("brade").explain(
                MatchSettings(length=3), [ResultValue(0, "jan")], names=names
            ),
            "en",
        )
        assert brade and "Anna" in brade[0]
