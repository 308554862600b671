"""Services take keyword-only arguments (docs/architecture.md, "How data flows"): a call
names what it passes, so a reordered signature cannot swap a winner for a referee. Every
``<entity>_<action>`` service of the services modules, and the steps the services share
(advancing the winner, applying a walkover, a draw's match lengths)."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from matches import progression
from tournaments.round_lengths import round_lengths

SERVICE_MODULES = (
    "tournaments.players",
    "tournaments.tournament_setup",
    "tournaments.entries",
    "tournaments.round_lengths",
    "tournaments.page_versions",
    "tournaments.stage_draws",
    "tournaments.knockout_draw",
    "tournaments.round_robin_draw",
    "matches.walkovers",
    "clubs.rating_services",
    "clubs.season_services",
    "teams.team_services",
    "teams.rosters",
    "webhooks.services",
)
# What those modules hold beside the services: a check's message, values a service reads,
# a predicate, a delivery's parts.
HELPERS = {
    "player_shared_error",
    "format_values",
    "can_keep_seasons",
    "require_keeper",
    "retry_delay",
    "body_bytes",
    "delivery_headers",
    "draw_lengths",
    "stage_draw",
}
SHARED_STEPS: tuple[Callable[..., Any], ...] = (
    progression.advance,
    progression.unadvance,
    progression.walkover_apply,
    round_lengths,
)


def _positional(func: Callable[..., Any]) -> list[str]:
    return [
        name
        for name, parameter in inspect.signature(func).parameters.items()
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    ]


@pytest.mark.parametrize("func", SHARED_STEPS, ids=lambda f: f.__name__)
def test_the_shared_steps_take_keywords_only(func: Callable[..., Any]) -> None:
    assert _positional(func) == []


@pytest.mark.parametrize("name", SERVICE_MODULES)
def test_every_service_takes_keywords_only(name: str) -> None:
    module = importlib.import_module(name)
    services = {
        attr: func
        for attr, func in vars(module).items()
        if inspect.isfunction(func)
        and func.__module__ == name
        and not attr.startswith("_")
        and attr not in HELPERS
    }
    assert services
    assert {attr: _positional(func) for attr, func in services.items() if _positional(func)} == {}
