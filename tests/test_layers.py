"""The apps' layers: ``core`` below everything, ``tournaments`` below ``matches`` below
``clubs`` and ``webhooks``, ``clubs`` below ``teams``.

``matches`` imports ``tournaments`` (a match belongs to a tournament's round); the other
way round goes through ``tournaments.match_play_port``, the port ``matches`` registers at
start-up. ``clubs`` (ratings) reads matches; ``matches`` tells it of a changing match
through ``matches.match_changes``, the port ``clubs`` registers at start-up. ``core``
(errors, roles) imports no app of the project. Every import counts, also one inside a
function or under ``TYPE_CHECKING``, and so does a URL module named to ``include()``: the
apps' API routes are gathered in ``config/api_urls.py``, above every app.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "tournaments",
    "matches",
    "web",
    "clubs",
    "teams",
    "accounts",
    "webhooks",
    "notifications",
    "games",
    "engine",
    "backgammon",
    "scoring",
)


def imported_modules(source: str) -> set[str]:
    """Every module a Python source imports, wherever the import statement is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def included_modules(source: str) -> set[str]:
    """Every module a Python source names to Django's ``include()`` by string (a module
    reached that way is not imported, so ``imported_modules`` misses it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name != "include":
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Tuple) and arg.elts:  # include(("app.urls", "ns"))
            arg = arg.elts[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.add(arg.value)
    return found


def _imports_of(package: str) -> dict[str, set[str]]:
    return {
        str(path.relative_to(ROOT)): imported_modules(text) | included_modules(text)
        for path in sorted((ROOT / package).rglob("*.py"))
        for text in (path.read_text(encoding="utf-8"),)
    }


def _offending(
    package: str, forbidden: tuple[str, ...], imports: dict[str, set[str]] | None = None
) -> list[str]:
    """Every import of a ``forbidden`` package by a module of ``package`` (``imports``:
    the modules' imports by path, read from the tree when not given)."""
    return [
        f"{path} imports {module}"
        for path, modules in (_imports_of(package) if imports is None else imports).items()
        for module in sorted(modules)
        if module.split(".")[0] in forbidden
    ]


def test_the_scanner_sees_imports_anywhere_in_a_module() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from matches.models import Match\n"
        "def f():\n    import matches.services\n    from matches import errors\n"
    )
    assert {"matches.models", "matches.services", "matches", "matches.errors"} <= (
        imported_modules(source)
    )


def test_the_scanner_sees_url_modules_named_to_include() -> None:
    source = (
        "from django.urls import include, path\n"
        "from django import urls\n"
        "urlpatterns = [path('', include('matches.urls')),\n"
        "    path('c/', urls.include(('clubs.api_urls', 'clubs')))]\n"
    )
    assert included_modules(source) == {"matches.urls", "clubs.api_urls"}


def test_tournaments_imports_nothing_from_matches_or_above() -> None:
    # clubs hears of a tournament's visibility through tournaments.tournament_changes
    assert _offending("tournaments", ("matches", "web", "clubs", "webhooks")) == []


def test_tournaments_names_no_url_module_of_matches_or_clubs() -> None:
    # the API's URL modules are gathered in config/api_urls.py
    names = {m for modules in _imports_of("tournaments").values() for m in modules}
    url_modules = {m for m in names if m.split(".")[-1].endswith("urls")}
    assert {m for m in url_modules if m.split(".")[0] in ("matches", "clubs")} == set()


@pytest.mark.parametrize("package", APPS)
def test_no_app_includes_another_apps_url_module(package: str) -> None:
    offending = [
        f"{path} includes {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for module in sorted(included_modules(path.read_text(encoding="utf-8")))
        if module.split(".")[0] != package
    ]
    assert offending == []


def test_config_gathers_every_apps_api_routes() -> None:
    included = included_modules((ROOT / "config" / "api_urls.py").read_text(encoding="utf-8"))
    assert {"tournaments.urls", "matches.urls", "clubs.api_urls", "webhooks.api_urls"} <= included


def test_matches_imports_nothing_from_clubs_or_web() -> None:
    # ratings follow a match through the port matches.match_changes
    assert _offending("matches", ("clubs", "web")) == []


def test_matches_and_tournaments_import_nothing_from_notifications() -> None:
    """``notifications`` hears of changes through ``matches.match_changes``, as webhooks do."""
    assert _offending("matches", ("notifications", "web")) == []
    assert _offending("tournaments", ("notifications",)) == []
    assert _offending("notifications", ("web", "clubs")) == []


def test_matches_and_tournaments_import_nothing_from_webhooks() -> None:
    # Webhooks sit above both: they hear of changes through matches.match_changes.
    assert _offending("matches", ("webhooks",)) == []
    assert _offending("tournaments", ("webhooks",)) == []


def test_webhooks_and_clubs_import_nothing_from_web() -> None:
    """One arrow up: the pages (web) show the clubs' and the webhooks' sections, never the
    other way round; what both use (``core.http``, ``tournaments.game_words``) lies below
    both."""
    assert _offending("webhooks", ("web",)) == []
    assert _offending("clubs", ("web",)) == []


# ``teams`` sits above ``clubs`` (a team belongs to a season; its boards follow the club's
# ratings) and ``tournaments`` (its players). What lies below it imports nothing of it: a
# league of team matches will reach the rosters through a port, as clubs hears of matches.
BELOW_TEAMS = ("tournaments", "matches", "clubs", "webhooks", "notifications", "scoresheets")


@pytest.mark.parametrize("package", BELOW_TEAMS)
def test_nothing_below_teams_imports_it(package: str) -> None:
    assert _offending(package, ("teams",)) == []


def test_teams_imports_nothing_from_web() -> None:
    """Its pages are its own (as clubs' are); what they share lies below (``core.http``)."""
    assert _offending("teams", ("web",)) == []


def test_the_teams_scanner_sees_an_import_of_teams() -> None:
    source = "def f():\n    from teams.rosters import roster_player_add\n"
    found = _offending("clubs", ("teams",), {"clubs/x.py": imported_modules(source)})
    assert found == [
        "clubs/x.py imports teams.rosters",
        "clubs/x.py imports teams.rosters.roster_player_add",
    ]


# The games' own pure packages: the site reaches them through the seam (games/: the
# families, their services and the types they give), never directly.
GAME_PACKAGES = ("engine", "backgammon")


def test_web_imports_no_games_own_package() -> None:
    assert _offending("web", GAME_PACKAGES) == [], "ask the game's family (games/) instead"


def test_the_web_scanner_sees_a_games_own_package_imported() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import games.seats\n"
        "if TYPE_CHECKING:\n    from engine.types import Side\n"
        "def f():\n    import backgammon.mat\n"
    )
    found = _offending("web", GAME_PACKAGES, {"web/x.py": imported_modules(source)})
    assert found == [
        "web/x.py imports backgammon.mat",
        "web/x.py imports engine.types",
        "web/x.py imports engine.types.Side",
    ]


@pytest.mark.parametrize("package", ["core"])
def test_core_imports_no_app(package: str) -> None:
    assert _offending(package, APPS) == []


# The pure packages (house style: the engines, the formats' algorithms and the ratings'
# formulas import nothing from Django) and the project packages each may use beneath it.
PURE_MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "engine": (),
    "backgammon": ("engine",),
    "scoring": ("engine",),
    "games": ("engine", "backgammon", "scoring"),
    "stages": ("engine",),  # engine.messages: one Msg type for every package
    "formats": ("engine", "stages"),  # the formats' seam over their algorithms
    # the registry's length unit (games or points): a match's weight by the game's family
    "ratings": ("games", "engine", "backgammon", "scoring"),
}
PROJECT = (*APPS, "core", "config", "stages", "formats", "ratings", "bench", "scripts", "tests")
FRAMEWORKS = ("django", "rest_framework", "celery", "kombu", "redis", "psycopg")


@pytest.mark.parametrize("package", sorted(PURE_MAY_IMPORT))
def test_the_pure_packages_import_no_framework(package: str) -> None:
    assert _offending(package, FRAMEWORKS) == []


@pytest.mark.parametrize("package", sorted(PURE_MAY_IMPORT))
def test_the_pure_packages_import_only_what_lies_beneath(package: str) -> None:
    allowed = (package, *PURE_MAY_IMPORT[package])
    forbidden = tuple(p for p in PROJECT if p not in allowed)
    # The site's one registry mechanism is pure Python, for the pure packages too.
    assert [
        line
        for line in _offending(package, forbidden)
        if line.split(" imports ")[1].rsplit(".", 1)[0] != "core.registry"
        and line.split(" imports ")[1] != "core.registry"
    ] == []


def test_the_registry_mechanism_is_pure() -> None:
    """``core.registry`` serves the pure packages: it imports nothing but the standard
    library (``core``'s package module neither)."""
    source = (ROOT / "core" / "registry.py").read_text(encoding="utf-8")
    assert {m.split(".")[0] for m in imported_modules(source)} <= {
        "__future__",
        "collections",
        "importlib",
        "re",
        "typing",
    }
    assert imported_modules((ROOT / "core" / "__init__.py").read_text(encoding="utf-8")) == set()


def test_stages_take_only_the_message_type_from_the_engine() -> None:
    used = {m for modules in _imports_of("stages").values() for m in modules}
    assert {m for m in used if m.split(".")[0] == "engine"} <= {
        "engine.messages",
        *(f"engine.messages.{name}" for name in ("Msg", "Param", "Plural")),
        *(f"engine.messages.{name}" for name in ("param_names", "register_apart", "template")),
    }


def test_the_pure_layer_test_sees_a_django_import() -> None:
    assert "django.db.models" in imported_modules("def f():\n    from django.db import models\n")
