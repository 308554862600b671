"""The migration that turns the site's stored words into codes
(``0013_site_notes_and_reason_codes``): the notes ``recorded move by move`` (English and
Swedish) and ``from game record #N``, and the audit rows' English reasons, become codes;
a person's words stay as they were; backwards, the codes are English words again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.matches.test_results import enter
from tests.tournaments.helpers import drawn, match_of, players_of

BEFORE = [("matches", "0012_report_record_evidence")]
AFTER = [("matches", "0013_site_notes_and_reason_codes")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.fixture
def latest_again() -> Iterator[None]:
    yield
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_sites_words_become_codes_and_a_persons_stay(latest_again: None) -> None:
    s = drawn(4, lengths=[7, 3])
    match, other = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)
    for number in range(1, 5):
        enter(match, number, "W hemspel", s.referee, starter="W" if number == 1 else None)
    one, two = players_of(match)

    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    results = old.get_model("matches", "GameResult").objects
    record = old.get_model("matches", "GameRecordSubmission").objects.create(
        match_id=match.pk, text="…"
    )
    notes = {
        1: "recorded move by move",
        2: "protokollfört drag för drag",
        3: f"from game record #{record.pk}",
        4: "the players agreed on it",
    }
    for number, note in notes.items():
        results.filter(game__match_id=match.pk, game__number=number).update(
            note=note, submission_id=record.pk
        )
    report = old.get_model("matches", "GameReport").objects.create(
        match_id=other.pk,
        number=1,
        winner="W",
        outcome="hemspel",
        reporter_id=other.player1_id,
        reporter_side="W",
        note="protokollfört drag för drag",
    )
    events = old.get_model("matches", "MatchEvent").objects
    reasons = [
        ("walkover", match, f"{two.name} withdrew"),  # two is not the winner: the loser
        ("walkover", match, f"{one.name} withdrew"),  # the winner's name: a person's words
        ("walkover", other, "the opponent withdrew"),
        ("walkover", other, "given in admin"),
        ("withdrawal", other, "withdrawn in admin"),
        ("reset", other, "reset in admin by anna"),
        ("reset", other, "played with the wrong starter"),
    ]
    for kind, on, reason in reasons:
        events.create(match_id=on.pk, kind=kind, data={"winner": one.pk, "reason": reason})

    new = _migrate(AFTER).loader.project_state(AFTER).apps
    stored = new.get_model("matches", "GameResult").objects.filter(game__match_id=match.pk)
    assert list(stored.order_by("game__number").values_list("site_note", "note")) == [
        ("recorded_live", ""),
        ("recorded_live", ""),
        ("from_record", ""),
        ("", "the players agreed on it"),
    ]
    reports = new.get_model("matches", "GameReport").objects
    assert (reports.get(pk=report.pk).site_note, reports.get(pk=report.pk).note) == (
        "recorded_live",
        "",
    )
    audit = new.get_model("matches", "MatchEvent").objects.filter(
        kind__in=["walkover", "reset", "withdrawal"]
    )
    assert [(e.data.get("reason_code"), e.data.get("reason")) for e in audit.order_by("pk")] == [
        ("opponent_withdrew", None),
        (None, f"{one.name} withdrew"),
        ("opponent_withdrew", None),
        ("admin", None),
        ("admin", None),
        ("admin", None),
        (None, "played with the wrong starter"),
    ]

    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    stored = back.get_model("matches", "GameResult").objects.filter(game__match_id=match.pk)
    assert list(stored.order_by("game__number").values_list("note", flat=True)) == [
        "recorded move by move",
        "recorded move by move",
        f"from game record #{record.pk}",
        "the players agreed on it",
    ]
