"""The Monrad keeps the rounds after the one it pairs pairable, through the services: 6
players and 5 rounds of bräde, every match played (no forfeit, no withdrawal, no
half-point bye), play every one of the 15 pairs once, with no rematch and no bye
(``formats.monrad``, Completion), where the top-down pairing alone played a rematch in
round 4 and another in round 5: its first three rounds left the pairs not yet met as two
triangles, which no round pairs."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches import swiss_text
from matches.models import EventKind, Match, MatchEvent
from matches.swiss_progression import swiss_round_pair
from tests.tournaments.test_monrad import monrad
from tests.tournaments.test_swiss_completion import play

pytestmark = pytest.mark.django_db

# Which player of each match wins, in slot order, rounds 1–4: True for the first-named
# (the higher-placed). With these results the top-down pairing alone pairs rounds 1–3 so
# that round 4 has no pairing without a rematch.
RESULTS = ((True, True, True), (False, True, False), (False, True, False), (False, True, True))
AHEAD = {"monrad.equal_ahead", "monrad.float_ahead"}


def test_six_players_five_rounds_meet_everyone_once() -> None:
    t, organiser, _players = monrad(6, swiss_rounds=5, seed=7)
    for number, first_wins in enumerate(RESULTS, start=1):
        play(t, organiser, number, first_wins)
    swiss_round_pair(tournament=t, by=organiser)
    matches = list(Match.objects.filter(tournament=t))
    assert all(m.player2_id is not None for m in matches)  # an even field: no bye
    met = [frozenset((m.player1_id, m.player2_id)) for m in matches]
    assert len(met) == 15 and len(set(met)) == 15
    # The pairs the look-ahead changed say so, in English and in Swedish.
    reasons = [
        swiss_text.msg_from_dict(e.data["reason"])
        for e in MatchEvent.objects.filter(match__tournament=t, kind=EventKind.SWISS_PAIRED)
    ]
    changed = [r for r in reasons if r.code in AHEAD]
    assert changed
    for reason in changed:
        places = f"places {reason.params['a']} and {reason.params['b']} in the standings"
        text = swiss_text.render(reason)
        assert text.startswith(places) and "without a rematch or a second bye" in text
        with translation.override("sv"):
            assert swiss_text.render(reason).startswith(
                f"plats {reason.params['a']} och {reason.params['b']} i tabellen"
            )
