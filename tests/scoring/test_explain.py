"""Explanations of a match state, in Swedish and English (S3, S4): the coded messages of
``scoring.explain`` as the edge words them (``matches.explain_text``)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine.messages import Param
from engine.types import Outcome, OutcomeKind, Side
from matches.explain_text import explanation
from scoring.explain import explain
from scoring.match import MatchState, match_state

W, B = Side.WHITE, Side.BLACK
AB = {W: "A", B: "B"}


def state(length: int, scale: str, *texts: str) -> MatchState:
    return match_state(length=length, scale=scale, outcomes=[Outcome.from_text(t) for t in texts])


def words(
    s: MatchState, *, lang: str = "sv", names: Mapping[Side, Param] | None = None
) -> list[str]:
    """The explanation of ``s`` in ``lang``."""
    return explanation(explain(s, names=names), lang=lang)


EXAMPLE_1 = ("W jan", "W hemspel", "W hemspel", "B vackert trappspel munk")


class TestWhyDecided:
    def test_helmfrid_best_of_5(self) -> None:
        lines = words(state(5, "ww", *EXAMPLE_1), lang="en", names=AB)
        assert lines == [
            "Best of 5 completed games (W&W), after 4 games (4 completed): A 4, B 2; "
            "skiljepoäng 2–0; 1 game left.",
            "A has won the match: it was decided after game 4.",
            "B needs a sprängjan: even a jan in the last game gives 4–4, and A leads 2–1 on "
            "skiljepoäng.",
        ]

    def test_helmfrid_best_of_5_swedish(self) -> None:
        lines = words(state(5, "ww", *EXAMPLE_1), lang="sv", names=AB)
        assert lines[1:] == [
            "A har vunnit matchen: den avgjordes efter parti 4.",
            "B behöver en sprängjan: även jan i sista partiet ger bara 4–4, och A leder med "
            "2–1 på skiljepoäng.",
        ]

    def test_ny1_shows_plus_minus(self) -> None:
        lines = words(state(5, "ny1", *EXAMPLE_1), lang="en", names=AB)
        assert "A 4+, B 2−" in lines[0]
        assert lines[2] == (
            "B needs a sprängjan: even a jan in the last game gives 4–4, and A leads +1 "
            "against ±0 on plus-minus."
        )

    def test_talisman_ny2(self) -> None:
        lines = words(state(5, "ny2", *EXAMPLE_1), lang="en", names=AB)
        assert lines[2] == (
            "B needs a sprängjan: even a jan in the last game gives B only 12 points "
            "against A's 13."
        )
        lines = words(state(5, "ny2", *EXAMPLE_1), lang="sv", names=AB)
        assert lines[2] == (
            "B behöver en sprängjan: även jan i sista partiet ger B bara 12 poäng mot A:s 13."
        )

    def test_helmfrid_best_of_3_on_skiljepoang(self) -> None:
        s = state(3, "ww", "W hemspel", "W vackert trappspel", "B jan")
        assert words(s, lang="en", names=AB)[1] == (
            "Level at 2–2 on points after all 3 completed games; B leads 1–0 on "
            "skiljepoäng, so B wins the match."
        )
        assert words(s, lang="sv", names=AB)[1] == (
            "Lika, 2–2 i poäng, efter alla 3 slutförda partier; B leder med 1–0 på "
            "skiljepoäng, så B vinner matchen."
        )

    def test_won_on_points(self) -> None:
        s = state(1, "ny1", "B jan")
        assert words(s, lang="en")[1] == "Black wins the match 2+ to 0."
        assert words(s)[1] == "Svart vinner matchen med 2+ mot 0."

    def test_not_even_sprangjan(self) -> None:
        s = state(3, "ww", "W sprangjan", "W sprangjan")
        assert words(s, lang="en", names=AB)[2] == (
            "B cannot win any more, not even with sprängjan in the last game."
        )


class TestWhatEachNeeds:
    def test_ny2_after_three_games(self) -> None:
        s = state(5, "ny2", "W jan", "W hemspel", "W hemspel")
        assert words(s, lang="en", names=AB)[1:] == [
            "A leads by 13 points and wins if B outscores A by less than 13 over the "
            "remaining 2 games.",
            "A wins even if B wins both remaining games with hemspel.",
            "B is 13 points behind and must outscore A by at least 14 over the remaining 2 games.",
            "For example B wins by winning both remaining games (jan and jan).",
        ]

    def test_ww_tiebreak_clause(self) -> None:
        s = state(3, "ww", "W hemspel", "W hemspel")
        lines = words(s, lang="en", names=AB)
        assert lines[3] == (
            "B is 2 points behind and must outscore A by at least 3 over the last game, or "
            "by exactly 2, which is enough if B gains at least 1 more skiljepoäng than A."
        )
        assert lines[4] == "For example B wins by winning the last game (jan)."
        sv = words(s, names=AB)
        assert sv[3] == (
            "B ligger 2 poäng efter och måste ta minst 3 poäng mer än A i sista partiet, "
            "eller exakt 2 mer, vilket räcker om B tar minst 1 skiljepoäng mer än A."
        )

    def test_start_of_match(self) -> None:
        lines = words(match_state(length=3), lang="en")
        assert lines[0] == "Best of 3 completed games (W&W): no game played yet."
        assert lines[1].startswith("Level on points: White must outscore Black")

    def test_ww_tiebreak_clause_in_danish(self) -> None:
        s = state(3, "ww", "W hemspel", "W hemspel")
        assert words(s, lang="da", names=AB)[3] == (
            "B er 2 point bagud og skal score mindst 3 mere end A i det sidste parti, "
            "eller præcis 2 mere, hvilket er nok, hvis B får mindst 1 skiljepoäng mere end A."
        )

    def test_default_names(self) -> None:
        lines = words(state(3, "ww", "W hemspel"))
        assert any(line.startswith("Vit leder med 1 poäng") for line in lines)

    def test_unknown_language(self) -> None:
        with pytest.raises(ValueError, match="unknown language"):
            words(match_state(length=3), lang="de")


def test_every_position_of_short_matches_is_explained() -> None:
    """Each reachable position of best-of-3 matches (no resignations) gets sentences in
    every language; a decided one names the winner, an open one has a line per player."""
    kinds = [
        Outcome(side, kind, munk=munk)
        for side in (W, B)
        for kind, munk in (
            (OutcomeKind.HEMSPEL, False),
            (OutcomeKind.HEMSPEL, True),
            (OutcomeKind.JAN, False),
            (OutcomeKind.SPRANGJAN, False),
        )
    ]
    stack = [MatchState.start(length=3, scale=scale) for scale in ("ww", "ny1", "ny2")]
    names = {W: "Anna", B: "Bo"}
    checked = 0
    while stack:
        s = stack.pop()
        for lang, won in (
            ("sv", ("{} vinner matchen", "{} har vunnit")),
            ("en", ("{} wins", "{} has won")),
            ("da", ("{} vinder kampen", "{} har vundet")),
        ):
            lines = words(s, lang=lang, names=names)
            assert all(line and line[-1] == "." for line in lines)
            text = " ".join(lines)
            if s.winner is not None:
                assert any(form.format(names[s.winner]) in text for form in won)
                assert not any(form.format(names[s.winner.other]) in text for form in won)
            else:
                assert len(lines) >= 3
                assert (
                    sum(line.startswith(("Anna", "Lika", "Level", "Lige")) for line in lines) >= 1
                )
        checked += 1
        if not s.is_over:
            stack.extend(s.after(o) for o in kinds)
    assert checked > 100
