"""The stored round kind of a paired round names no format: the migration turns the rounds
stored as ``swiss`` into ``paired`` and back, and leaves every other kind alone."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests.factories import TournamentFactory
from tournaments.models import Round, RoundKind

migration = importlib.import_module("tournaments.migrations.0015_paired_round_kind")


@pytest.mark.django_db
def test_stored_swiss_rounds_become_paired_and_back() -> None:
    tournament = TournamentFactory.create()
    paired = Round.objects.create(tournament=tournament, number=1, kind=RoundKind.PAIRED)
    knockout = Round.objects.create(tournament=tournament, number=2, kind=RoundKind.KNOCKOUT)
    Round.objects.filter(pk=paired.pk).update(kind="swiss")  # as stored before

    migration.swiss_to_paired(apps, None)
    assert Round.objects.get(pk=paired.pk).kind == RoundKind.PAIRED == "paired"
    assert Round.objects.get(pk=knockout.pk).kind == RoundKind.KNOCKOUT

    migration.paired_to_swiss(apps, None)
    assert Round.objects.get(pk=paired.pk).kind == "swiss"
    assert Round.objects.get(pk=knockout.pk).kind == RoundKind.KNOCKOUT


def test_the_kind_names_no_format() -> None:
    assert RoundKind.PAIRED.label == "paired round"
    assert "swiss" not in RoundKind.values
