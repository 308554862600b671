"""Browser tests: Playwright drives Debian's Chromium (``/usr/bin/chromium``) against the
site served by pytest-django's ``live_server``; no browser is ever downloaded.

Screenshots of the main pages go to ``test-output/screenshots/`` (git-ignored).

Playwright's sync API runs an event loop in the test's thread, and Django refuses ORM
calls from a thread with a running loop; the tests only set up data and read results
with the ORM between browser steps, never concurrently, so that check is switched off
here (``DJANGO_ALLOW_ASYNC_UNSAFE``), for these tests only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent.parent.parent / "test-output" / "screenshots"
# Chromium's own network chatter is refused on these machines; keep it quiet.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module. The async-safety switch of the module doc is set
    here, before Playwright starts its event loop, and undone when the module's tests are
    done: set for the whole session, it leaked into every later test of the same worker
    (``manage.py check --deploy`` in tests/test_settings.py then failed on it)."""
    if not CHROMIUM.exists():
        pytest.fail(
            "Debian's Chromium is missing at /usr/bin/chromium: run "
            "scripts/ensure_system_packages.sh (apt-get install chromium). Browser tests never "
            "download a browser."
        )
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as env, sync_playwright() as pw:
        env.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A factory of fresh pages (each its own context: cookies, language) at a given size.

    A page answers yes to the site's questions (``data-confirm``: the draw, publishing a
    round), as the person at the keyboard would; the questions asked are kept in the
    page's ``asked`` list for a test to read."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.asked = []

        def answer(dialog: Any) -> None:
            page.asked.append(dialog.message)
            dialog.accept()

        page.on("dialog", answer)
        return page

    yield make
    for context in contexts:
        context.close()


def shoot(page: Any, name: str) -> Path:
    """Save a full-page screenshot of ``page`` as test-output/screenshots/NAME.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def login(page: Any, base: str, username: str, password: str = "pw") -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit].primary")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def create_on_the_form(
    page: Any,
    base: str,
    name: str,
    fmt: str,
    *,
    fill: dict[str, str] | None = None,
    select: dict[str, str] | None = None,
) -> Any:
    """Create a tournament on the organiser's new-tournament page (signed in already):
    its name, a date, the format, then ``fill`` (field id → text) and ``select`` (field id
    → option); wait for its manage page and return the ``Tournament``."""
    import re

    from tournaments.models import Tournament

    page.goto(f"{base}/tournaments/new/")
    page.fill("#id_name", name)
    page.fill("#id_start_date", "2027-03-06")
    page.check(f"input[name=format][value={fmt}]")
    for field, text in (fill or {}).items():
        page.fill(f"#id_{field}", text)
    for field, option in (select or {}).items():
        page.select_option(f"#id_{field}", option)
    page.check("input[name=resignation_policy][value=capped]")
    page.locator("main form.form button[type=submit].primary").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/manage/"))
    return Tournament.objects.get(name=name)


def decide_for_player1(match: Any, referee: Any) -> None:
    """A best-of-3 bräde match won by its first player in two games (hemspel, jan)."""
    from tests.tournaments.test_swiss import win_in_games

    win_in_games(match, match.player1_id, referee)
