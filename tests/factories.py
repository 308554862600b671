"""factory_boy factories for the tournament and match models."""

from __future__ import annotations

import datetime
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments.models import Club, Entry, Player, Tournament


class UserFactory(factory.django.DjangoModelFactory[Any]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class OrganiserFactory(UserFactory):
    """A user allowed to create tournaments (``tournaments.add_tournament``)."""

    @factory.post_generation
    def grant(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            obj.user_permissions.add(Permission.objects.get(codename="add_tournament"))


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    club = None
    rating = None


class TournamentFactory(factory.django.DjangoModelFactory[Tournament]):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Cup {n}")
    start_date = datetime.date(2026, 11, 21)
    end_date = datetime.date(2026, 11, 22)
    rules = "talisman"
    scale = "ww"
    resignation_policy = "capped"
    is_public = True

    @factory.post_generation
    def organisers(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create and extracted:
            self.organisers.add(*extracted)

    @factory.post_generation
    def referees(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create and extracted:
            self.referees.add(*extracted)


class EntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    seed = None
