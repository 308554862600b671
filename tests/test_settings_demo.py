"""The demo's settings (``config.settings.demo``), the ones ``scripts/run.sh`` serves with.

Settings are read once per process, so the demo's are tried in a fresh ``python``
subprocess: debug off with the site's own error pages, static files by WhiteNoise, a
secret key kept in a file, host names from ``ADDR``.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from config.secret_key_file import secret_key_from_file
from config.serve_address import allowed_hosts_for

ROOT = Path(__file__).resolve().parent.parent
PROJECT_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SECRET_KEY",
    "DJANGO_SECRET_KEY_FILE",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "ADDR",
)

SETTINGS = """
import json, django
from django.conf import settings as s
django.setup()
print(json.dumps({"debug": s.DEBUG, "key": s.SECRET_KEY, "hosts": s.ALLOWED_HOSTS}))
"""

# Migrates a fresh SQLite file, then asks the demo for what a visitor may meet.
PAGES = """
import json, django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)
host = {"HTTP_HOST": "127.0.0.1:8118"}
client = Client()
missing = client.get("/no-such-page/", **host)
css = client.get("/static/web/site.css", **host)
other_host = client.get("/", HTTP_HOST="evil.example.org")
user = get_user_model().objects.create_user("kim", password="x")
client.force_login(user)
refused = client.get("/tournaments/new/", **host)
from django.test import RequestFactory
from django.views.defaults import server_error
broken = server_error(RequestFactory().get("/", **host))
print(json.dumps({
    "missing": [missing.status_code, missing.content.decode()],
    "refused": [refused.status_code, refused.content.decode()],
    "broken": [broken.status_code, broken.content.decode()],
    "css": [css.status_code, b"".join(css.streaming_content).decode()[:200]],
    "other_host": other_host.status_code,
}))
"""


def run(code: str, **env_vars: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in PROJECT_VARS}
    env.update(env_vars, DJANGO_SETTINGS_MODULE="config.settings.demo")
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.fixture
def demo_env(tmp_path: Path) -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY_FILE": str(tmp_path / "secret-key"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "ADDR": "127.0.0.1:8118",
    }


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("demo")
    return run(
        PAGES,
        DJANGO_SECRET_KEY_FILE=str(folder / "secret-key"),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        ADDR="127.0.0.1:8118",
    )


class TestPages:
    def test_a_missing_page_is_the_sites_own_404(self, pages: dict[str, Any]) -> None:
        status, body = pages["missing"]
        assert status == 404
        assert "<h1>Hittades inte</h1>" in body  # templates/404.html, in Swedish
        assert 'href="/static/web/site.css"' in body  # the site's layout (base.html)
        assert "Using the URLconf" not in body  # not Django's technical 404

    def test_a_refused_page_is_the_sites_own_403(self, pages: dict[str, Any]) -> None:
        status, body = pages["refused"]
        assert status == 403
        assert "<h1>Inte tillåtet</h1>" in body  # templates/403.html
        assert 'href="/static/web/site.css"' in body
        assert "Traceback" not in body

    def test_a_server_error_is_the_sites_own_500(self, pages: dict[str, Any]) -> None:
        status, body = pages["broken"]
        assert status == 500
        assert "<h1>Något gick fel</h1>" in body and "Something went wrong" in body
        assert '<h2 lang="da">Noget gik galt</h2>' in body  # the page stands alone: all three
        assert 'href="/static/web/site.css"' in body

    def test_static_files_are_served_by_whitenoise(self, pages: dict[str, Any]) -> None:
        status, text = pages["css"]
        assert status == 200 and text.strip()

    def test_a_host_that_does_not_fit_addr_is_refused(self, pages: dict[str, Any]) -> None:
        assert pages["other_host"] == 400


class TestSettings:
    def test_debug_is_off_even_when_asked_for(self, demo_env: dict[str, str]) -> None:
        assert run(SETTINGS, **demo_env, DJANGO_DEBUG="true")["debug"] is False

    def test_the_secret_key_is_made_once_and_reused(
        self, demo_env: dict[str, str], tmp_path: Path
    ) -> None:
        first = run(SETTINGS, **demo_env)["key"]
        key_file = tmp_path / "secret-key"
        assert key_file.read_text(encoding="utf-8").strip() == first
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert len(first) >= 50 and first != "dev-only-insecure-key-change-me"
        assert run(SETTINGS, **demo_env)["key"] == first

    def test_a_key_in_the_environment_wins_and_no_file_is_made(
        self, demo_env: dict[str, str], tmp_path: Path
    ) -> None:
        assert run(SETTINGS, **demo_env, DJANGO_SECRET_KEY="from-the-env")["key"] == "from-the-env"
        assert not (tmp_path / "secret-key").exists()

    def test_hosts_fit_addr_unless_given(self, demo_env: dict[str, str]) -> None:
        assert run(SETTINGS, **demo_env)["hosts"] == ["127.0.0.1", "localhost", "[::1]"]
        everywhere = {**demo_env, "ADDR": "0.0.0.0:8000"}
        assert run(SETTINGS, **everywhere)["hosts"] == ["*"]
        given = {**demo_env, "DJANGO_ALLOWED_HOSTS": "klubben.local"}
        assert run(SETTINGS, **given)["hosts"] == ["klubben.local"]

    def test_the_default_key_file_is_git_ignored(self) -> None:
        ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
        assert "/.secret-key" in ignored

    def test_run_sh_serves_the_demo_settings(self) -> None:
        text = (ROOT / "scripts/run.sh").read_text(encoding="utf-8")
        assert "DJANGO_SETTINGS_MODULE=config.settings.demo" in text


class TestSecretKeyFile:
    def test_made_once_with_mode_600_then_read(self, tmp_path: Path) -> None:
        path = tmp_path / "key"
        key = secret_key_from_file(path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert secret_key_from_file(path) == key
        assert secret_key_from_file(tmp_path / "other") != key

    def test_an_empty_file_is_refused_not_replaced(self, tmp_path: Path) -> None:
        path = tmp_path / "key"
        path.write_text("", encoding="utf-8")
        with pytest.raises(ValueError, match="empty"):
            secret_key_from_file(path)
        assert path.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize(
    ("addr", "hosts"),
    [
        ("8000", ["localhost", "127.0.0.1", "[::1]"]),
        ("127.0.0.1:8118", ["127.0.0.1", "localhost", "[::1]"]),
        ("localhost:8000", ["localhost", "127.0.0.1", "[::1]"]),
        ("[::1]:8000", ["[::1]", "localhost", "127.0.0.1"]),
        ("0.0.0.0:8000", ["*"]),
        ("[::]:8000", ["*"]),
        ("192.168.1.5:8000", ["192.168.1.5"]),
        ("klubben.local:80", ["klubben.local"]),
    ],
)
def test_allowed_hosts_for_addr(addr: str, hosts: list[str]) -> None:
    assert allowed_hosts_for(addr) == hosts
