"""GNU Backgammon 1.07's evaluation as the analysis reproduces it: its nets
(``backgammon.gnubg_nets``), its contact and crashed inputs where gnubg-nn's differ
(``backgammon.gnubg_contact``) and its two-sided bear-off database
(``backgammon.gnubg_bearoff``).

The expected figures were printed by Debian's ``gnubg`` 1.07.001: the probabilities by
``scripts/gnubg_evaluate.py`` (its docstring gives the command), the bear-off indexes by its
Python's ``gnubg.positionbearoff(board, 6, 6)``.
"""

from __future__ import annotations

import hashlib
import struct

import pytest

from backgammon.gnubg_bearoff import (
    BEAROFF_EFFICIENCY,
    cube_efficiency,
    money_live,
    position_bearoff,
)
from backgammon.gnubg_contact import ContactEvaluator, differs_from_gnubg_nn, pip_loss
from backgammon.gnubg_nets import (
    NETS,
    SHA256,
    TEXT_ORDER,
    gnubg_107_nets,
    read_binary,
    weights_text,
)

gnubg_nn = pytest.importorskip("gnubg_nn")  # pinned in requirements-dev.txt

# position ID: gnubg 1.07's 0-ply probabilities of the side on roll
GNUBG_PROBS = {
    # the opening position (before the opening roll): the nets alone
    "4HPwATDgc/ABMA": (0.5214831, 0.1539093, 0.0075635, 0.1298667, 0.0075485),
    # the side on roll holds three home points, two of them made, and the other side has a
    # blot on its 24-point: gnubg 1.07's pip loss counts the shot at it, gnubg-nn's not
    "2J2DESBot8EAKg": (0.4816146, 0.1364321, 0.0054076, 0.2206293, 0.0157787),
}


def _board(position_id: str) -> list[list[int]]:
    board = gnubg_nn.board_from_position_id(position_id)
    return [list(board[0]), list(board[1])]


class TestNets:
    def test_the_stored_file_is_gnubg_107s(self) -> None:
        assert hashlib.sha256(NETS.read_bytes()).hexdigest() == SHA256

    def test_six_nets_of_gnubgs_shapes(self) -> None:
        nets = gnubg_107_nets()
        shapes = {name: (n.inputs, n.hidden, n.outputs) for name, n in nets.items()}
        assert shapes == {
            "contact contact250": (250, 128, 5),
            "race": (214, 128, 5),
            "crashed": (250, 128, 5),
            "prune contact": (200, 16, 5),
            "prune crashed": (200, 16, 5),
            "prune race": (200, 8, 5),
        }

    def test_the_text_form_reads_back_as_the_same_float32(self) -> None:
        nets = gnubg_107_nets()
        lines = weights_text(nets).split("\n")
        assert lines[0] == "GNU Backgammon 1.01"
        at = 1
        for name in TEXT_ORDER:
            net = nets[name]
            assert lines[at] == name
            count = net.size
            text = lines[at + 2 : at + 2 + count]
            assert struct.pack(f"<{count}f", *map(float, text)) == struct.pack(
                f"<{count}f", *net.weights
            )
            at += 2 + count

    def test_a_file_of_another_form_is_refused(self) -> None:
        with pytest.raises(ValueError, match="magic"):
            read_binary(b"GNU Backgammon 1.01\n")
        with pytest.raises(ValueError, match="inside the net"):
            read_binary(NETS.read_bytes()[:1000])


class TestContact:
    @pytest.mark.parametrize("position_id", sorted(GNUBG_PROBS))
    def test_gnubg_107s_probabilities(self, position_id: str) -> None:
        board = _board(position_id)
        probs = ContactEvaluator(gnubg_107_nets()).probabilities(board, crashed=False)
        assert probs == pytest.approx(GNUBG_PROBS[position_id], abs=1e-4)

    def test_where_gnubg_nn_counts_the_home_points_otherwise(self) -> None:
        board = _board("2J2DESBot8EAKg")
        me, opp = board[1], board[0]  # the side on roll hits the blot on its 1-point
        assert opp[23] == 1
        assert me[:6] == [0, 0, 0, 1, 2, 3]  # three points held, two made
        held = pip_loss(me, opp, home_points=3)
        made = pip_loss(me, opp, home_points=2)
        assert held[0] > made[0]
        assert differs_from_gnubg_nn(board)

    def test_the_opening_position_is_left_to_gnubg_nn(self) -> None:
        assert not differs_from_gnubg_nn(_board("4HPwATDgc/ABMA"))


class TestBearoff:
    @pytest.mark.parametrize(
        ("side", "index"),
        [
            ([0, 0, 0, 0, 0, 0], 0),
            ([1, 0, 0, 0, 0, 0], 1),
            ([0, 0, 0, 0, 0, 1], 6),
            ([2, 0, 0, 0, 0, 0], 7),
            ([0, 0, 0, 0, 0, 6], 923),
            ([1, 1, 1, 1, 1, 1], 637),
        ],
    )
    def test_gnubgs_position_index(self, side: list[int], index: int) -> None:
        assert position_bearoff(side + [0] * 19) == index

    def test_janowskis_live_cube_without_gammons(self) -> None:
        assert money_live(0.2, "centred") == pytest.approx(-1.0)
        assert money_live(0.8, "centred") == pytest.approx(1.0)
        assert money_live(0.5, "centred") == pytest.approx(0.0)
        assert money_live(0.4, "mine") == pytest.approx(0.0)
        assert money_live(0.6, "theirs") == pytest.approx(0.0)

    def test_the_efficiency_lies_between_dead_and_the_usual(self) -> None:
        # exact cubeful equity halfway from the cubeless one to the live cube's: 0.5
        live = money_live(0.6, "centred")
        halfway = (0.2 + live) / 2
        assert cube_efficiency((0.2, 0.0, halfway, 0.0), "centred") == pytest.approx(0.5)
        assert cube_efficiency((0.2, 0.0, live, 0.0), "centred") == BEAROFF_EFFICIENCY
        assert cube_efficiency((0.2, 0.0, 0.1, 0.0), "centred") == 0.0
