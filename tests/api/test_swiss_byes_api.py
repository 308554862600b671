"""The API of a Swiss's half-point byes (rules set by organisers, asked for by the player or
an organiser, cancelled before the round is paired, shown in the rounds) and of taking a
paired round back (un-pair) or pairing it again (re-pair) before it is published; and the
examples in the schema for these operations match their schemas."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator

from matches.api_swiss_examples import HALF_BYE_EXAMPLES, HALF_BYE_RULES_EXAMPLES
from matches.models import RoundEvent
from tests.api.conftest import client_for
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def _started(n: int = 5) -> tuple[Tournament, Any, list[Any]]:
    organiser = OrganiserFactory.create()
    api = client_for(organiser)
    created = api.post(
        "/api/tournaments/",
        {"name": "Halvpoängaren", "start_date": "2026-12-01", "format": "swiss", "swiss_rounds": 3},
        format="json",
    ).json()
    t = Tournament.objects.get(pk=created["id"])
    players = [PlayerFactory.create(name=f"H{i}", rating=1900 - i) for i in range(n)]
    for p in players:
        EntryFactory.create(tournament=t, player=p)
    drawn = api.post(f"/api/tournaments/{t.pk}/draw/", {"draw_seed": 5}, format="json")
    assert drawn.status_code == 201, drawn.content
    return t, organiser, players


def test_half_point_byes_through_the_api() -> None:
    t, organiser, players = _started()
    api = client_for(organiser)
    user = UserFactory.create()
    players[1].user = user
    players[1].save()
    own = client_for(user)
    stranger = client_for(UserFactory.create())
    base = f"/api/tournaments/{t.pk}/swiss/half-byes/"
    entry = Entry.objects.get(tournament=t, player=players[1])

    refused = own.post(base, {"entry": entry.pk, "round": 1}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "no_half_byes"
    assert own.put(f"{base}rules/", {"allowed": 1, "until": 2}, format="json").status_code == 403
    rules = api.put(f"{base}rules/", {"allowed": 1, "until": 2}, format="json")
    assert rules.status_code == 200, rules.content
    assert rules.json() == {"allowed": 1, "until": 2, "asked": []}

    assert stranger.post(base, {"entry": entry.pk, "round": 1}, format="json").status_code == 403
    late = own.post(base, {"entry": entry.pk, "round": 3}, format="json")
    assert late.status_code == 400 and late.json()["error"]["code"] == "too_late_round"
    asked = own.post(base, {"entry": entry.pk, "round": 1}, format="json")
    assert asked.status_code == 201, asked.content
    bye = asked.json()
    assert bye["round"] == 1 and bye["player"] == {"id": players[1].pk, "name": "H1"}
    used = own.post(base, {"entry": entry.pk, "round": 2}, format="json")
    assert used.status_code == 409 and used.json()["error"]["code"] == "half_byes_used"

    swiss = client_for(None).get(f"/api/tournaments/{t.pk}/swiss/").json()
    assert swiss["half_point_byes"]["asked"] == [bye]
    paired = api.post(f"/api/tournaments/{t.pk}/swiss/pair/").json()
    first = paired["round_list"][0]
    assert first["half_byes"] == [{"id": players[1].pk, "name": "H1", "score": "0"}]
    ids = {p[k]["id"] for p in first["pairings"] for k in ("player1", "player2") if p[k]}
    assert players[1].pk not in ids and len(ids) == 4
    late_cancel = own.delete(f"{base}{bye['id']}/")
    assert late_cancel.status_code == 409 and late_cancel.json()["error"]["code"] == "round_paired"

    # Taken back: the bye may be cancelled again, and the round paired with H1 in it.
    assert api.post(f"/api/tournaments/{t.pk}/swiss/rounds/1/unpair/").status_code == 200
    assert stranger.delete(f"{base}{bye['id']}/").status_code == 403
    assert own.delete(f"{base}{bye['id']}/").status_code == 204
    assert own.delete(f"{base}{bye['id']}/").status_code == 404
    again = api.post(f"/api/tournaments/{t.pk}/swiss/pair/").json()["round_list"][0]
    assert again["half_byes"] == [] and len(again["pairings"]) == 3


def test_unpair_and_repair_through_the_api() -> None:
    t, organiser, _players = _started(6)
    api = client_for(organiser)
    outsider = client_for(UserFactory.create())
    url = f"/api/tournaments/{t.pk}/swiss/rounds/1/"
    assert api.post(f"{url}unpair/").status_code == 409  # nothing paired yet
    paired = api.post(f"/api/tournaments/{t.pk}/swiss/pair/").json()["round_list"][0]
    assert outsider.post(f"{url}repair/").status_code == 403
    assert outsider.post(f"{url}unpair/").status_code == 403
    repaired = api.post(f"{url}repair/")
    assert repaired.status_code == 200, repaired.content
    again = repaired.json()["round_list"][0]

    def pairs(view: dict[str, Any]) -> set[tuple[int, int | None]]:
        return {
            (p["player1"]["id"], p["player2"]["id"] if p["player2"] else None)
            for p in view["pairings"]
        }

    assert pairs(again) == pairs(paired) and again["paired"] and not again["published"]
    unpaired = api.post(f"{url}unpair/").json()["round_list"][0]
    assert not unpaired["paired"] and unpaired["pairings"] == []
    assert list(RoundEvent.objects.values_list("kind", flat=True)) == ["repaired", "unpaired"]
    api.post(f"/api/tournaments/{t.pk}/swiss/pair/")
    assert api.post(f"{url}publish/").status_code == 200
    published = api.post(f"{url}unpair/")
    assert published.status_code == 409 and published.json()["error"]["code"] == "published"


def test_the_examples_match_their_schemas() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    components = schema["components"]["schemas"]

    def resolved(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return resolved(components[node["$ref"].rsplit("/", 1)[1]])
            return {k: resolved(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolved(v) for v in node]
        return node

    cases = [
        ("/api/tournaments/{id}/swiss/half-byes/", "post", "201", HALF_BYE_EXAMPLES),
        ("/api/tournaments/{id}/swiss/half-byes/rules/", "put", "200", HALF_BYE_RULES_EXAMPLES),
    ]
    for path, method, code, examples in cases:
        operation = paths[path][method]
        request = resolved(operation["requestBody"]["content"]["application/json"]["schema"])
        response = resolved(operation["responses"][code]["content"]["application/json"]["schema"])
        documented = operation["requestBody"]["content"]["application/json"].get("examples", {})
        assert documented, f"{method.upper()} {path} shows no example"
        for example in examples:
            target = request if example.request_only else response
            errors = list(Draft202012Validator(target).iter_errors(example.value))
            assert not errors, f"{example.name}: {errors[0].message}"
