"""The web process freezes its long-lived objects after its first requests
(``core.heap_freeze``), and the WSGI entry point gunicorn runs does so."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from typing import Any

import pytest

from core import heap_freeze
from core.heap_freeze import FREEZE_AT, HeapFrozenAfterWarmup


class Recorded:
    """``gc``'s collect and freeze as the wrapper calls them, in order, with the request
    the application was on when each was called."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.served = 0

    def app(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        self.served += 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [f"request {self.served}".encode()]


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    seen = Recorded()

    def collect() -> int:
        seen.calls.append(("collect", seen.served))
        return 0

    def freeze() -> None:
        seen.calls.append(("freeze", seen.served))

    monkeypatch.setattr(heap_freeze.gc, "collect", collect)
    monkeypatch.setattr(heap_freeze.gc, "freeze", freeze)
    return seen


def test_it_collects_then_freezes_before_the_requests_it_names(recorded: Recorded) -> None:
    site = HeapFrozenAfterWarmup(recorded.app)
    bodies = [b"".join(site({}, lambda *_: None)) for _ in range(1200)]

    # before the 2nd, the 101st and the 1,001st request: after 1, 100 and 1,000 served
    assert sorted(FREEZE_AT) == [2, 101, 1001]
    assert recorded.calls == [
        ("collect", 1), ("freeze", 1),
        ("collect", 100), ("freeze", 100),
        ("collect", 1000), ("freeze", 1000),
    ]  # fmt: skip
    assert bodies[0] == b"request 1" and bodies[-1] == b"request 1200"


def test_the_answer_passes_through_unchanged(recorded: Recorded) -> None:
    started: list[tuple[str, list[tuple[str, str]]]] = []
    site = HeapFrozenAfterWarmup(recorded.app)

    body = site({"PATH_INFO": "/"}, lambda status, headers: started.append((status, headers)))

    assert list(body) == [b"request 1"]
    assert started == [("200 OK", [("Content-Type", "text/plain")])]


def test_gunicorns_application_is_wrapped() -> None:
    """``config.wsgi.application``, in a process of its own (the test settings: a real
    freeze would reach this test process's objects)."""
    code = (
        "import gc, os\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test'\n"
        "from config import wsgi\n"
        "from core.heap_freeze import HeapFrozenAfterWarmup\n"
        "from core.kept_responses import KeptResponses\n"
        "assert isinstance(wsgi.application, HeapFrozenAfterWarmup)\n"
        "assert isinstance(wsgi.application.app, KeptResponses)\n"
        "assert gc.get_freeze_count() == 0\n"
        "wsgi.application.app = lambda environ, start_response: [b'']  # no request made\n"
        "wsgi.application({}, None)\n"
        "assert gc.get_freeze_count() == 0\n"
        "wsgi.application({}, None)\n"
        "print(gc.get_freeze_count())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )

    assert result.returncode == 0, result.stderr
    assert int(result.stdout.split()[-1]) > 10_000  # Django's modules, frozen before the 2nd
