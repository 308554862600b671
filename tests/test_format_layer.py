"""The formats' seam holds: outside ``formats/`` and the models, no module asks which
format a tournament has.

A question about a format goes to the registry (``formats.format_for(t.format)``) and
reads what the format gives (its stage, its options, its pairing); comparing a
tournament's format with a key (``t.format == "swiss"``, ``t.format in (…)``,
``TournamentFormat.SWISS``, ``filter(tournament__format="swiss")``) would make adding a
format a change all over the site again. The scan reads every Python module of the
project (tests and migrations aside) and every template.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable
from pathlib import Path

from formats import Stage, formats
from matches.stage_handlers import HANDLERS
from tournaments.stage_draws import STAGE_DRAWS
from web.stage_pages import STAGE_PAGES

ROOT = Path(__file__).resolve().parent.parent
# Every top-level package of the project (and the scripts and benches), tests aside: a
# new package is scanned without being listed.
PACKAGES = tuple(
    sorted(
        top.name
        for top in ROOT.iterdir()
        if top.is_dir()
        and not top.name.startswith(".")
        and top.name not in ("tests", "node_modules")
        and any(top.glob("*.py"))
    )
)
# Where a format may be named: the seam itself and the stored choices.
ALLOWED = ("formats/", "tournaments/models.py")
KEYS = frozenset(f.key for f in formats())
QUERIES = frozenset({"filter", "exclude", "get", "get_or_create", "update_or_create"})
TEMPLATE_COMPARE = re.compile(r"\.format\s*(==|!=|\bin\b)|\bin\s+[\w.]*\.format\b")


def _str_constants(node: ast.AST) -> set[str]:
    """The string constants of a constant or of a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return {v for elt in node.elts for v in _str_constants(elt)}
    return set()


def _is_format(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "format") or (
        isinstance(node, ast.Name) and node.id == "format"
    )


def format_questions(source: str) -> list[str]:
    """Each place in ``source`` that asks which format something has: ``line: what``."""
    found: list[str] = []
    with warnings.catch_warnings():  # a module's own odd escapes are not this test's
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "TournamentFormat":
            found.append(f"{node.lineno}: names TournamentFormat")
        elif isinstance(node, ast.ImportFrom) and any(
            a.name == "TournamentFormat" for a in node.names
        ):
            found.append(f"{node.lineno}: imports TournamentFormat")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if not any(_is_format(o) for o in operands):
                continue
            keys = {v for o in operands for v in _str_constants(o)} & KEYS
            if keys:
                found.append(f"{node.lineno}: compares a format with {', '.join(sorted(keys))}")
            elif not all(_is_format(o) or _str_constants(o) for o in operands):
                found.append(f"{node.lineno}: compares a format with a value it is given")
        elif isinstance(node, ast.Call):
            query = isinstance(node.func, ast.Attribute) and node.func.attr in QUERIES
            for kw in node.keywords:
                lookup = kw.arg or ""
                by_format = lookup.endswith(("__format", "__format__in")) or (
                    query and lookup in ("format", "format__in")
                )
                if by_format and _str_constants(kw.value):
                    found.append(f"{node.lineno}: filters by format {lookup}")
    return sorted(found, key=lambda place: int(place.split(":")[0]))


def _modules() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and not str(path.relative_to(ROOT)).startswith(ALLOWED)
    ]


def test_the_scanner_finds_each_way_of_asking() -> None:
    source = (
        "from tournaments.models import TournamentFormat\n"
        "a = t.format == TournamentFormat.SWISS\n"
        "b = t.format in ('swiss', 'monrad')\n"
        "c = 'knockout' != t.format\n"
        "d = Tournament.objects.filter(tournament__format='swiss')\n"
        "e = t.format in PAIRED_KEYS\n"
        "f = Tournament.objects.exclude(format__in=['knockout'])\n"
    )
    assert [line.split(":")[0] for line in format_questions(source)] == [
        "1",
        "2",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
    ]


def test_the_scanner_lets_the_seam_be_asked() -> None:
    source = (
        "from formats import Stage, format_for, keys\n"
        "a = format_for(t.format).stage == Stage.PAIRED\n"
        "b = shape.format == 'double'\n"  # a stages.elimination bracket's own shape
        "c = Match.objects.filter(tournament__format__in=keys(stage=Stage.PAIRED))\n"
        "d = tournament_create(format='swiss')\n"  # making a tournament asks nothing
    )
    assert format_questions(source) == []


def test_no_module_outside_the_seam_asks_which_format() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{place}"
        for path in _modules()
        for place in format_questions(path.read_text(encoding="utf-8"))
    ]
    assert offending == []


def test_no_template_asks_which_format() -> None:
    templates = [*(ROOT / "templates").rglob("*.html"), *ROOT.glob("*/templates/**/*.html")]
    assert templates
    offending = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in templates
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TEMPLATE_COMPARE.search(line)
    ]
    assert offending == []


def _imports(module: str) -> set[str]:
    """The project modules ``module`` imports, anywhere in it (a function's body too)."""
    source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_formats_modules_import_no_circle() -> None:
    # The round names of the elimination brackets live with the models, and the standings
    # rows and data with neither API module: the models import no draw, and neither API
    # module imports the other.
    assert "tournaments.elimination_draw" not in _imports("tournaments.models")
    assert "matches.api_rounds" not in _imports("matches.api_swiss")
    assert "matches.api_swiss" not in _imports("matches.api_rounds")


def test_the_seam_itself_is_pure() -> None:
    # formats/ is imported by the models and by every app: it imports no Django and no
    # app, only the pure algorithms of stages/ and the site's one registry mechanism
    # (core.registry, pure Python).
    forbidden = ("django", "rest_framework", *(p for p in PACKAGES if p != "formats"))
    offending = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / "formats").rglob("*.py"))
        for module in sorted(_imports(str(path.relative_to(ROOT))[:-3].replace("/", ".")))
        if module.split(".")[0] in forbidden
        and module.split(".")[0] != "stages"
        and not module.startswith("core.registry")
    ]
    assert offending == []


# Where a stage may be told apart: the seam, and one table per layer (``tournaments``'
# draws, ``matches`` and ``web``), so a new kind of stage is one row per table and a new
# format of a stage nothing outside ``formats/``.
STAGE_TABLES = (
    "formats/",
    "tournaments/stage_draws.py",
    "matches/stage_handlers.py",
    "web/stage_pages.py",
)


def _is_stage(node: ast.AST) -> bool:
    """``Stage.X``, or a tuple, list or set holding one."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id == "Stage"
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_stage(elt) for elt in node.elts)
    return False


def _asks_stage(node: ast.AST) -> bool:
    """``….stage`` (a format's or a view's stage)."""
    return isinstance(node, ast.Attribute) and node.attr == "stage"


def _comparisons(source: str, asks: Callable[[ast.AST], bool], what: str) -> list[str]:
    """Each comparison in ``source`` with an operand ``asks`` flags: ``line: what``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    return [
        f"{node.lineno}: {what}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare) and any(asks(o) for o in (node.left, *node.comparators))
    ]


def stage_questions(source: str) -> list[str]:
    """Each place in ``source`` that compares a stage: ``line: what``."""
    return _comparisons(source, lambda o: _is_stage(o) or _asks_stage(o), "compares a stage")


def test_the_stage_scanner_finds_each_way_of_comparing() -> None:
    source = (
        "a = format_for(t.format).stage == Stage.PAIRED\n"
        "b = stage != Stage.GROUPS\n"
        "c = stage in (Stage.KNOCKOUT, Stage.ELIMINATION)\n"
        "d = fmt.stage not in BRACKET_STAGES\n"
        "e = Stage.KNOCKOUT == s\n"
        "f = handler_for(t).pairs_rounds\n"
        "g = HANDLERS[format_for(t.format).stage]\n"
        "h = keys(stage=Stage.PAIRED)\n"
    )
    assert [line.split(":")[0] for line in stage_questions(source)] == ["1", "2", "3", "4", "5"]


def test_stages_are_told_apart_only_in_their_tables() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{place}"
        for path in _modules()
        if not str(path.relative_to(ROOT)).startswith(STAGE_TABLES)
        for place in stage_questions(path.read_text(encoding="utf-8"))
    ]
    assert offending == []


def test_each_stage_has_a_row_in_each_table() -> None:
    assert set(HANDLERS) == set(Stage) == set(STAGE_PAGES) == set(STAGE_DRAWS)


def test_the_scan_covers_every_package() -> None:
    """The scan reads the packages a session might forget (the scoresheets', the
    notifications', the games'), found from the tree rather than listed."""
    assert {"scoresheets", "notifications", "games", "matches", "web"} <= set(PACKAGES)


# Where a round's kind may be compared: the kinds' own table, and the modules of the stage
# whose brackets they are (an elimination names its brackets' rounds and places their
# players by them; the models name those rounds). Anything else asks the kind's row
# (``round_kind(r.kind).table``), so a new kind of stage is a new row, not a search.
KIND_PLACES = (
    "tournaments/round_kinds.py",
    "tournaments/models.py",
    "tournaments/elimination_draw.py",
    "matches/elimination_brackets.py",
    "matches/elimination_placings.py",
)


def _is_kind(node: ast.AST) -> bool:
    """``RoundKind.X``, or a tuple, list or set holding one."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id == "RoundKind"
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_kind(elt) for elt in node.elts)
    return False


def kind_questions(source: str) -> list[str]:
    """Each place in ``source`` that compares a round's kind: ``line: what``."""
    return _comparisons(source, _is_kind, "compares a round kind")


def test_the_kind_scanner_finds_each_way_of_comparing() -> None:
    source = (
        "a = r.kind == RoundKind.KNOCKOUT\n"
        "b = r.kind not in (RoundKind.ROUND_ROBIN, RoundKind.PAIRED)\n"
        "c = RoundKind.PAIRED != kind\n"
        "d = round_kind(r.kind).table\n"
        "e = Round.objects.filter(kind=RoundKind.PAIRED)\n"
    )
    assert [line.split(":")[0] for line in kind_questions(source)] == ["1", "2", "3"]


def test_round_kinds_are_told_apart_only_in_their_table() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{place}"
        for path in _modules()
        if not str(path.relative_to(ROOT)).startswith(KIND_PLACES)
        for place in kind_questions(path.read_text(encoding="utf-8"))
    ]
    assert offending == []
