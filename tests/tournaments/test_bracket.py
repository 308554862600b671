"""Bracket layout (pure) and bracket generation for every field size 2–130."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches.models import Match, MatchState
from stages import elimination, knockout
from tests.tournaments.helpers import drawn
from tournaments.models import Round, TournamentStatus


class TestSeedOrder:
    def test_eight(self) -> None:
        assert elimination.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]

    @pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 256])
    def test_pairs_sum_and_halves(self, size: int) -> None:
        order = elimination.seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
        # Seeds 1..k (k a power of two) sit in k different blocks of size/k lines.
        k = 1
        while k <= size:
            blocks = {order.index(s) // (size // k) for s in range(1, k + 1)}
            assert len(blocks) == k
            k *= 2

    @pytest.mark.parametrize("size", [0, 1, 3, 6, 12])
    def test_bad_size(self, size: int) -> None:
        with pytest.raises(ValueError, match="power of two"):
            elimination.seed_order(size)

    def test_size_and_rounds(self) -> None:
        assert [elimination.bracket_size(p) for p in (2, 3, 4, 5, 129)] == [2, 4, 4, 8, 256]
        assert knockout.round_count(130) == 8
        with pytest.raises(ValueError, match="at least 2"):
            elimination.bracket_size(1)


def test_draw_is_reproducible_and_depends_on_seed() -> None:
    names = [f"p{i}" for i in range(20)]
    assert knockout.draw_order(names, 7) == knockout.draw_order(names, 7)
    assert knockout.draw_order(names, 7) != knockout.draw_order(names, 8)


def test_placing_labels() -> None:
    assert knockout.placing_label(3, 3) == (2, 2)
    assert knockout.placing_label(2, 3) == (3, 4)
    assert knockout.placing_label(1, 3) == (5, 8)


def test_default_lengths() -> None:
    assert knockout.default_lengths(1) == [7]
    assert knockout.default_lengths(2) == [5, 7]
    assert knockout.default_lengths(4) == [3, 3, 5, 7]


@pytest.mark.django_db
@pytest.mark.parametrize("n", range(2, 131))
def test_generated_bracket_invariants(n: int) -> None:
    seeded = n // 2 if n % 3 else n  # some fields fully seeded, others half seeded
    setup = drawn(n, seeded=seeded, draw_seed=n)
    tournament, players = setup.tournament, setup.players
    size = elimination.bracket_size(n)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert len(rounds) == knockout.round_count(n)
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.draw_seed == n
    matches = list(Match.objects.filter(tournament=tournament).select_related("round"))
    for rnd in rounds:
        assert sum(m.round_id == rnd.pk for m in matches) == size >> rnd.number
    first = sorted((m for m in matches if m.round.number == 1), key=lambda m: m.slot)
    # Every player placed exactly once in round 1.
    placed = [p for m in first for p in (m.player1_id, m.player2_id) if p is not None]
    assert sorted(placed) == sorted(p.pk for p in players)
    # Byes only in round 1, one per missing player, and only to the top lines.
    byes = [m for m in matches if m.state == MatchState.BYE]
    assert all(m.round.number == 1 for m in byes)
    assert len(byes) == size - n
    for m in byes:
        assert m.player2_id is None and m.winner_id == m.player1_id
    receivers = {m.player1_id for m in byes}
    seeded_ids = [p.pk for p in players[:seeded]]
    if len(byes) <= seeded:
        assert receivers == set(seeded_ids[: len(byes)])
    else:
        assert set(seeded_ids) <= receivers
    # Seeds 1 and 2 in opposite halves (upper/lower line when there is one match).
    slot = {pid: m.slot for m in first for pid in (m.player1_id, m.player2_id) if pid}
    if seeded >= 2:
        half = max(size // 4, 1)
        if size == 2:
            assert first[0].player1_id == players[0].pk and first[0].player2_id == players[1].pk
        else:
            assert slot[players[0].pk] // half != slot[players[1].pk] // half
    if seeded >= 4 and size >= 8:
        quarter = size // 8
        assert len({slot[players[i].pk] // quarter for i in range(4)}) == 4
    # Bye winners already stand in round 2.
    if len(rounds) > 1:
        second = {m.slot: m for m in matches if m.round.number == 2}
        for m in byes:
            target = second[m.slot // 2]
            assert m.player1_id in (target.player1_id, target.player2_id)


@pytest.mark.django_db
def test_same_draw_seed_same_bracket() -> None:
    def layout(seed: int) -> list[tuple[str | None, str | None]]:
        setup = drawn(11, seeded=2, draw_seed=seed)
        first = Match.objects.filter(tournament=setup.tournament, round__number=1)
        return [
            (m.player1.name if m.player1 else None, m.player2.name if m.player2 else None)
            for m in first.select_related("player1", "player2").order_by("slot")
        ]

    assert layout(99) == layout(99)
    assert layout(99) != layout(100)


@pytest.mark.django_db
def test_third_place_match_and_lengths() -> None:
    setup = drawn(8, third_place=True)
    rounds = list(Round.objects.filter(tournament=setup.tournament).order_by("number"))
    assert [r.match_length for r in rounds] == [3, 5, 7]
    assert [r.rounds_after for r in rounds] == [2, 1, 0]
    with translation.override("en"):
        assert [r.name for r in rounds] == ["Quarterfinal", "Semifinal", "Final"]
    with translation.override("sv"):
        assert [r.name for r in rounds] == ["Kvartsfinal", "Semifinal", "Final"]
    third = Match.objects.get(tournament=setup.tournament, is_third_place=True)
    assert third.round == rounds[-1] and third.length == 7


@pytest.mark.parametrize(
    ("number", "rounds", "english", "swedish"),
    [
        (1, 6, "Round 1", "Omgång 1"),
        (2, 6, "Round of 32", "Sextondelsfinal"),
        (3, 6, "Round of 16", "Åttondelsfinal"),
        (4, 6, "Quarterfinal", "Kvartsfinal"),
        (5, 6, "Semifinal", "Semifinal"),
        (6, 6, "Final", "Final"),
        (1, 1, "Final", "Final"),
    ],
)
def test_round_names_in_both_languages(
    number: int, rounds: int, english: str, swedish: str
) -> None:
    """A round's name is made from its place in the bracket in the reader's language."""
    rnd = Round(number=number, rounds_after=knockout.rounds_after(number, rounds))
    with translation.override("en"):
        assert rnd.name == english
    with translation.override("sv"):
        assert rnd.name == swedish


def test_placing_labels_end_at_the_number_of_players() -> None:
    assert knockout.placing_label(1, 4, 12) == (9, 12)
    assert knockout.placing_label(2, 4, 12) == (5, 8)
    assert knockout.placing_label(1, 4, 16) == (9, 16)
    assert knockout.placing_label(1, 3, 5) == (5, 5)
