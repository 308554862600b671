"""The games seam holds: outside ``games/``, the games' own pure packages and the models,
no module or template asks which game a tournament has.

Everything a page, service or form needs to know about a game is its family's to say
(``length_unit``, ``options``, ``tiebreak_scales``, ``result_fields``, ``records``,
``board`` …, docs/architecture.md); a comparison with a game's key (``game ==
"backgammon"``, ``game in ("brade", …)``, ``RatedGame.BRADE == game``, a ``case
"brade":``) is a branch the next game would have to find by hand. Naming a key is fine
(a default, a fixture, a list of rated games); comparing with one is not.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

from engine.types import OutcomeKind
from games.registry import families

ROOT = Path(__file__).resolve().parent.parent
KEYS = frozenset(family.key for family in families())
# The seam itself and the games' pure packages (each speaks only of its own game).
INSIDE = frozenset({"games", "engine", "backgammon", "scoring"})
# Not the site's code: tests (fixtures name games), the virtualenv, dot folders.
NOT_CODE = frozenset({"tests", "docs", "locale", "node_modules"})


def _strings(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            yield from _strings(element)


def _is_key_member(node: ast.AST) -> bool:
    """``Game.BACKGAMMON``, ``RatedGame.BRADE``: a game's key as a choices member."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr.lower() in KEYS
        and "game" in ast.unparse(node.value).lower()
    )


def key_comparisons(source: str) -> list[str]:
    """Every comparison of a value with a game's key in a Python source, as
    ``line: code``."""
    found = []
    with warnings.catch_warnings():  # another module's escape warnings are not ours
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    for node in ast.walk(tree):
        operands: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        if any(text in KEYS for operand in operands for text in _strings(operand)) or any(
            _is_key_member(operand) for operand in operands
        ):
            found.append(f"{getattr(node, 'lineno', '?')}: {ast.unparse(node)}")
    return found


_TEMPLATE_RE = re.compile(
    r"""(?:==|!=|\bin)\s*["'](?P<a>[a-z_]+)["']|["'](?P<b>[a-z_]+)["']\s*(?:==|!=|\bin\b)"""
)


def template_key_comparisons(text: str) -> list[str]:
    """Every ``{% if game == "backgammon" %}``-like comparison with a key in a template."""
    return [
        match.group(0)
        for match in _TEMPLATE_RE.finditer(text)
        if (match.group("a") or match.group("b")) in KEYS
    ]


def _site_files(suffix: str) -> Iterator[Path]:
    for top in sorted(ROOT.iterdir()):
        if not top.is_dir() or top.name.startswith(".") or top.name in INSIDE | NOT_CODE:
            continue
        for path in sorted(top.rglob(f"*{suffix}")):
            parts = path.relative_to(ROOT).parts
            if "migrations" in parts or path.name == "models.py":
                continue  # the models hold the choices the seam's registry fills
            yield path


def test_the_scanner_sees_every_kind_of_comparison() -> None:
    source = """
def f(game, tournament):
    if game == "backgammon":
        pass
    if tournament.game != 'brade' or game in ("kungabrade", "x"):
        pass
    if RatedGame.BRADE == game:
        pass
    match game:
        case "brade":
            pass
    default = "brade"  # naming a key is no comparison
    conceded = game == "single"
"""
    lines = sorted({int(line.split(":")[0]) for line in key_comparisons(source)})
    assert lines == [3, 5, 7, 10]
    assert len(key_comparisons(source)) == 5  # line 5 compares twice
    assert template_key_comparisons('{% if game == "backgammon" %}x{% endif %}') == [
        '== "backgammon"'
    ]
    assert template_key_comparisons("{% if 'brade' in games %}") == ["'brade' in"]
    assert template_key_comparisons('{% if unit == "points" %}') == []


def test_no_module_outside_the_seam_compares_a_game_key() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in _site_files(".py")
        for where in key_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert offending == [], "ask the game's family instead:\n" + "\n".join(offending)


def test_no_template_compares_a_game_key() -> None:
    offending = [
        f"{path.relative_to(ROOT)}: {found}"
        for path in _site_files(".html")
        for found in template_key_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert offending == [], "ask the game's family instead:\n" + "\n".join(offending)


def test_bräde_outcome_words_have_one_source() -> None:
    """The engine's words are the family's vocabulary; no other module spells them out
    (a copy in a template tag or a model's choices drifts)."""
    brade = next(family for family in families() if family.key == "brade")
    assert [term.name for term in brade.vocabulary.outcomes] == [k.word for k in OutcomeKind]
    spelled = re.compile(r"""["']sprängjan["']""")
    copies = [
        str(path.relative_to(ROOT))
        for path in _site_files(".py")
        if spelled.search(path.read_text(encoding="utf-8"))
    ]
    assert copies == []
