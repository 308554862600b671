"""Every refusal code of the format checks has its words: the checks (in ``stages``)
return codes, the services word them with ``match`` and
``assert_never`` (mypy refuses a code left out); here each code is worded, differently
from the others, in both languages."""

from __future__ import annotations

from typing import get_args

import pytest
from django.utils import translation

from core.errors import ValidationError
from games.registry import family_for
from stages import crossover, roundrobin, tiebreaks
from tournaments.format_options import advance_problem_error, chain_problem_error
from tournaments.round_robin_draw import groups_problem_error


def _words(error: ValidationError) -> str:
    return str(error.message)


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_chain_problem_has_its_words(lang: str) -> None:
    codes = get_args(tiebreaks.ChainProblem)
    assert set(codes) == {"unknown", "twice", "skiljepoang"}
    with translation.override(lang):
        words = [_words(chain_problem_error(code)) for code in codes]
    assert all(words) and len(set(words)) == len(codes)
    assert all(chain_problem_error(code).code == "tiebreaks" for code in codes)


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_advance_problem_has_its_words(lang: str) -> None:
    codes = get_args(crossover.AdvanceProblem)
    with translation.override(lang):
        words = [_words(advance_problem_error(code)) for code in codes]
    assert all(words) and len(set(words)) == len(codes)


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_groups_problem_has_its_words(lang: str) -> None:
    codes = get_args(roundrobin.GroupsProblem)
    for groups in (1, 3):
        with translation.override(lang):
            words = [
                _words(groups_problem_error(problem=code, players=40, groups=groups, advance=2))
                for code in codes
            ]
        assert len(set(words)) == len(codes)
        assert all("40" in text for text in words)


def test_the_checks_return_only_their_codes() -> None:
    assert tiebreaks.chain_problem(["wins", "wins"], family_for("brade")) == "twice"
    assert tiebreaks.chain_problem(["skiljepoang"], family_for("backgammon")) == "skiljepoang"
    assert tiebreaks.chain_problem(["nonsense"], family_for("brade")) == "unknown"
    assert crossover.advance_problem(2, crossover.MAX_ADVANCE + 1) == "too_many"
    assert crossover.advance_problem(1, 1) == "alone"
    assert roundrobin.groups_problem(3, 2, 0) == "small"
    assert roundrobin.groups_problem(roundrobin.MAX_PLAYERS + 1, 1, 0) == "large"
