"""Words a person or a client program is refused with go through gettext.

A refusal the API, a page, a form or the admin sends (a ``DomainError`` of
``core.errors`` or any subclass, Django's and DRF's ``ValidationError``,
``PermissionDenied``, ``Http404``, DRF's ``APIException`` family) is read in Swedish or
English: its message is a gettext call (``_("No club #%(id)s.") % {"id": pk}``) or a
message made elsewhere (a variable, a coded message worded at the edge), never a bare
literal or an f-string, which would reach a Swedish reader in English. Likewise the
words a view hands to ``messages.*``, ``form.add_error`` or the admin's
``message_user``. Inside gettext the text is a literal with ``%(name)s`` parameters,
never an f-string (it would never match its translation).

Programming errors (``ValueError``, ``TypeError``, ``KeyError``, ``AssertionError``) stay
English, as do management commands (``CommandError`` is for the command line, and
``management/`` is not scanned) and ``web.demo``'s ``DemoError`` (a plain ``Exception``
that only ``manage.py seed_demo`` prints). No module is exempt: a refusal that had to stay
English would be listed here with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_SITE = frozenset({"tests", "bench", "scripts", "docs", "locale", "node_modules"})
PACKAGES = sorted(
    path
    for path in ROOT.iterdir()
    if path.is_dir() and (path / "__init__.py").exists() and path.name not in NOT_SITE
)

# Refusals people see, by class name; every class of the site derived from one of them
# (found in the scanned source) joins them.
REFUSALS = frozenset(
    {
        # core.errors
        "DomainError",
        "ValidationError",
        "PermissionDeniedError",
        "NotFoundError",
        "ConflictError",
        "PreconditionRequiredError",
        # Django
        "PermissionDenied",
        "Http404",
        "SuspiciousOperation",
        "BadRequest",
        # Django REST framework
        "APIException",
        "ParseError",
        "AuthenticationFailed",
        "NotAuthenticated",
        "NotFound",
        "MethodNotAllowed",
        "NotAcceptable",
        "UnsupportedMediaType",
        "Throttled",
    }
)

# Calls that hand words to a person: ``messages.error(request, text)``,
# ``form.add_error(field, text)``, ``self.message_user(request, text)``.
MESSAGE_CALLS = frozenset({"debug", "info", "success", "warning", "error"})
WORD_ARGUMENT = {"add_error": 1, "message_user": 1}

GETTEXT = frozenset(
    {
        "_",
        "gettext",
        "gettext_lazy",
        "ngettext",
        "ngettext_lazy",
        "pgettext",
        "pgettext_lazy",
        "npgettext",
        "npgettext_lazy",
    }
)


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _has_words(text: str) -> bool:
    return any(char.isalpha() for char in text)


def plain_words(node: ast.expr) -> bool:
    """Whether ``node`` is text with words in it that no gettext call made: a string
    literal, an f-string, or either formatted (``"…" % x``, ``"…".format(x)``), also
    inside a dict or list (a serializer's per-field errors). ``f"{match}: {message}"``
    (no words of its own) is not."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and _has_words(node.value)
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(part, ast.Constant) and _has_words(str(part.value)) for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return plain_words(node.left) or plain_words(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        # The text is the left side; the right holds its parameters (names, numbers).
        return plain_words(node.left)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join", "strip", "capitalize")
    ):
        return plain_words(node.func.value)
    if isinstance(node, ast.Dict):
        return any(plain_words(value) for value in node.values)
    if isinstance(node, ast.List | ast.Tuple):
        return any(plain_words(element) for element in node.elts)
    if isinstance(node, ast.IfExp):
        return plain_words(node.body) or plain_words(node.orelse)
    return False


def _refusal_classes(trees: list[ast.Module]) -> frozenset[str]:
    names = set(REFUSALS)
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ClassDef)
                    and node.name not in names
                    and any(_name(base) in names for base in node.bases)
                ):
                    names.add(node.name)
                    grew = True
    return frozenset(names)


def _words_of(node: ast.Call, refusals: frozenset[str]) -> list[ast.expr]:
    """The arguments of ``node`` that are words for a person."""
    called = _name(node.func)
    keywords = {keyword.arg: keyword.value for keyword in node.keywords}
    if called in refusals:
        spoken = [keywords[k] for k in ("message", "detail") if k in keywords]
        return node.args[:1] + spoken
    if called in WORD_ARGUMENT:
        position = WORD_ARGUMENT[called]
        spoken = [keywords[k] for k in ("error", "message") if k in keywords]
        return node.args[position : position + 1] + spoken
    if (
        called in MESSAGE_CALLS
        and isinstance(node.func, ast.Attribute)
        and _name(node.func.value) == "messages"
    ):
        spoken = [keywords["message"]] if "message" in keywords else []
        return [*node.args[1:2], *spoken]
    return []


def refusal_problems(source: str, refusals: frozenset[str] = REFUSALS) -> list[str]:
    """``line: what`` for each plain-English refusal and each f-string inside gettext."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        if _name(node.func) in GETTEXT:
            if any(isinstance(arg, ast.JoinedStr) for arg in node.args):
                problems.append(f"{node.lineno}: an f-string inside {_name(node.func)}()")
            continue
        for words in _words_of(node, refusals):
            if plain_words(words):
                problems.append(f"{node.lineno}: {ast.unparse(node)[:100]}")
    return problems


def _site_modules() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted(package.rglob("*.py"))
        if not {"management", "migrations"} & set(path.relative_to(ROOT).parts)
    ]


def test_refusals_people_read_go_through_gettext() -> None:
    modules = _site_modules()
    sources = {path.relative_to(ROOT).as_posix(): path.read_text() for path in modules}
    refusals = _refusal_classes([ast.parse(source) for source in sources.values()])
    found = [
        f"{name}:{problem}"
        for name, source in sources.items()
        for problem in refusal_problems(source, refusals)
    ]
    assert found == [], "words for people without gettext:\n" + "\n".join(found)


def test_the_scan_sees_plain_refusals_and_passes_translated_ones() -> None:
    plain = [
        'raise ValidationError("lang must be sv or en.")',
        'raise NotFoundError(f"No club #{pk}.")',
        'raise NotFoundError("No club #%s." % pk)',
        'raise serializers.ValidationError({"club": ["Give a club id."]})',
        'raise exceptions.NotFound(detail="Not here.")',
        'raise Http404("no such club")',
        'messages.error(request, "Not yours.")',
        'form.add_error(None, f"Round {n} is closed.")',
        'self.message_user(request, "Bracket drawn.", messages.SUCCESS)',
        'raise ValidationError(_(f"No club #{pk}."))',
        'class ImportError_(DomainError): pass\nraise ImportError_("Bad file.")',
    ]
    for source in plain:
        tree = ast.parse(source)
        assert refusal_problems(source, _refusal_classes([tree])), source
    translated = [
        'raise ValidationError(_("lang must be sv or en."), code="unknown_language")',
        'raise NotFoundError(_("No club #%(id)s.") % {"id": pk})',
        'raise serializers.ValidationError({"club": [_("Give a club id.")]})',
        "raise PermissionDeniedError(err.message)",
        'self.message_user(request, f"{match}: {err.message}", messages.ERROR)',
        'raise ValueError(f"round {number} of {rounds} does not exist")',
        'raise CommandError("no such file")',
        'messages.error(request, ngettext("%(n)s game", "%(n)s games", n) % {"n": n})',
    ]
    for source in translated:
        assert refusal_problems(source) == [], source
