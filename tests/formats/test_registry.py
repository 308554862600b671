"""formats.registry and the protocol: every stored format has a registered format and
back, lookups name the known keys, and each format gives what its stage promises (an
elimination its bracket, paired rounds their pairing, every format its page words)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from formats import Options, Stage, format_for, formats, keys
from formats.format import FormatSpec, words_of
from formats.options import option_keys
from formats.registry import UnknownFormatError, choices, register, unregister
from stages.swiss import SwissPlayer
from tournaments.models import TournamentFormat


def test_the_stored_choices_are_the_registered_formats() -> None:
    assert tuple(TournamentFormat.values) == keys()
    assert tuple(TournamentFormat.choices) == choices()


def test_an_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(UnknownFormatError, match="known formats: knockout, round_robin"):
        format_for("ladder")


def test_keys_by_stage_and_composition() -> None:
    assert keys(stage=Stage.PAIRED) == ("swiss", "monrad")
    assert keys(stage=Stage.ELIMINATION) == ("consolation", "double_elimination")
    assert keys(feeds_knockout=True) == ("round_robin", "swiss", "monrad")


def test_each_format_gives_what_its_stage_promises() -> None:
    field = [SwissPlayer(i, Decimal(0), i) for i in range(1, 6)]
    for fmt in formats():
        words = words_of(fmt)
        assert words.start and "%(seed)d" in words.started, fmt.key
        assert fmt.options <= set(option_keys()), fmt.key
        if fmt.stage == Stage.ELIMINATION:
            assert fmt.bracket(6, Options()).players == 6
        else:
            with pytest.raises(ValueError, match="no elimination bracket"):
                fmt.bracket(6, Options())
        if fmt.stage == Stage.PAIRED:
            assert len(fmt.pair(field, seed=1).pairs) == 3
            assert fmt.feeds_knockout and words.rounds and words.knockout_after
        elif fmt.stage == Stage.TEAMS and "swiss_rounds" in fmt.options:  # a team Swiss
            assert len(fmt.pair(field, seed=1).pairs) == 3
            assert not fmt.feeds_knockout
        else:
            with pytest.raises(ValueError, match="not paired round by round"):
                fmt.pair(field, seed=1)


def test_options_of_a_tournament_keep_their_defaults_where_missing() -> None:
    class Shaped:
        def __init__(self) -> None:
            self.grand_final_reset = False
            self.tiebreaks = ["buchholz"]

    assert Options.of(Shaped()) == Options(grand_final_reset=False, tiebreaks=("buchholz",))


def test_register_refuses_a_taken_key_and_a_bad_one() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(FormatSpec("swiss", "Other", "Other", Stage.PAIRED))
    with pytest.raises(ValueError, match="lower-case"):
        register(FormatSpec("Ladder", "Ladder", "Ladder", Stage.PAIRED))
    ladder = register(FormatSpec("ladder", "ladder", "A ladder", Stage.KNOCKOUT))
    try:
        assert format_for("ladder") is ladder and keys()[-1] == "ladder"
    finally:
        unregister("ladder")
    assert "ladder" not in keys()
