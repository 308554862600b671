"""Settings from the environment (config/settings/*.py) and the Celery app's configuration.

Settings modules are read once per process, so each environment is tried in a fresh
``python`` subprocess with a controlled environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
PROJECT_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_DEBUG",
    "DJANGO_SETTINGS_MODULE",
)
# 50 characters, many distinct: what check --deploy accepts as a strong key.
STRONG_KEY = "k7#Qz!p2Lr9@xV4m&Tn8$Yw3^Hb6*Jd1(Fs5)Gc0-Ue+Ai_Oy=Zq"

DUMP = """
import json, django
from django.conf import settings as s
django.setup()
db = s.DATABASES["default"]
print(json.dumps({
    "db_engine": db["ENGINE"], "db_name": str(db["NAME"]), "db_host": db.get("HOST"),
    "db_user": db.get("USER"), "db_port": db.get("PORT"),
    "redis_url": s.REDIS_URL, "broker": s.CELERY_BROKER_URL,
    "backend": s.CELERY_RESULT_BACKEND, "eager": s.CELERY_TASK_ALWAYS_EAGER,
    "debug": s.DEBUG, "hosts": s.ALLOWED_HOSTS,
}))
"""


def run(module: str, args: list[str], **env_vars: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in PROJECT_VARS}
    env.update(env_vars, DJANGO_SETTINGS_MODULE=module)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def run_unset(args: list[str], **env_vars: str) -> subprocess.CompletedProcess[str]:
    """``args`` with no ``DJANGO_SETTINGS_MODULE`` at all: the entry point's own default."""
    env = {k: v for k, v in os.environ.items() if k not in PROJECT_VARS}
    env.update(env_vars)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def dump(module: str, **env_vars: str) -> dict[str, Any]:
    result = run(module, ["-c", DUMP], **env_vars)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


class TestBase:
    def test_embedded_default_is_sqlite_in_the_project_and_eager_celery(self) -> None:
        s = dump("config.settings.base")

        assert s["db_engine"] == "django.db.backends.sqlite3"
        assert s["db_name"] == str(ROOT / "db.sqlite3")
        assert s["redis_url"] is None
        assert s["broker"] == "memory://"
        assert s["backend"] is None
        assert s["eager"] is True
        assert s["debug"] is True
        assert s["hosts"] == ["127.0.0.1", "localhost"]

    def test_database_url_selects_postgresql(self) -> None:
        s = dump("config.settings.base", DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")

        assert s["db_engine"] == "django.db.backends.postgresql"
        assert (s["db_name"], s["db_host"], s["db_user"], s["db_port"]) == (
            "test",
            "127.0.0.1",
            "postgres",
            5432,
        )

    def test_redis_url_makes_redis_broker_and_backend_and_tasks_go_to_workers(self) -> None:
        s = dump("config.settings.base", REDIS_URL="redis://127.0.0.1:6379/0")

        assert s["redis_url"] == "redis://127.0.0.1:6379/0"
        assert s["broker"] == s["backend"] == "redis://127.0.0.1:6379/0"
        assert s["eager"] is False

    def test_empty_redis_url_counts_as_unset(self) -> None:
        s = dump("config.settings.base", REDIS_URL="")

        assert s["redis_url"] is None
        assert s["eager"] is True

    def test_debug_and_hosts_from_the_environment(self) -> None:
        s = dump("config.settings.base", DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="a.se,b.se")

        assert s["debug"] is False
        assert s["hosts"] == ["a.se", "b.se"]

    def test_manage_py_check_is_clean(self) -> None:
        result = run("config.settings.base", ["manage.py", "check", "--fail-level", "WARNING"])

        assert result.returncode == 0, result.stdout + result.stderr


class TestTestSettings:
    def test_celery_is_eager_even_with_redis_but_redis_url_stays_visible(self) -> None:
        s = dump("config.settings.test", REDIS_URL="redis://127.0.0.1:6379/0")

        assert s["eager"] is True
        assert s["redis_url"] == "redis://127.0.0.1:6379/0"
        assert s["broker"] == "redis://127.0.0.1:6379/0"


class TestProduction:
    def test_refuses_to_start_without_a_secret_key(self) -> None:
        result = run(
            "config.settings.production",
            ["manage.py", "check"],
            DJANGO_ALLOWED_HOSTS="brade.example.org",
        )

        assert result.returncode != 0
        assert "DJANGO_SECRET_KEY" in result.stderr

    def test_refuses_the_development_key(self) -> None:
        result = run(
            "config.settings.production",
            ["manage.py", "check"],
            DJANGO_SECRET_KEY="dev-only-insecure-key-change-me",
            DJANGO_ALLOWED_HOSTS="brade.example.org",
        )

        assert result.returncode != 0
        assert "DJANGO_SECRET_KEY" in result.stderr

    def test_refuses_to_start_without_allowed_hosts(self) -> None:
        result = run(
            "config.settings.production", ["manage.py", "check"], DJANGO_SECRET_KEY=STRONG_KEY
        )

        assert result.returncode != 0
        assert "DJANGO_ALLOWED_HOSTS" in result.stderr

    def test_passes_the_deployment_check_given_key_and_hosts(self) -> None:
        result = run(
            "config.settings.production",
            ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            DJANGO_SECRET_KEY=STRONG_KEY,
            DJANGO_ALLOWED_HOSTS="brade.example.org",
        )

        assert result.returncode == 0, result.stdout + result.stderr

    def test_refuses_debug(self) -> None:
        result = run(
            "config.settings.production",
            ["manage.py", "check"],
            DJANGO_SECRET_KEY=STRONG_KEY,
            DJANGO_ALLOWED_HOSTS="brade.example.org",
            DJANGO_DEBUG="true",
        )

        assert result.returncode != 0
        assert "DJANGO_DEBUG" in result.stderr

    @pytest.mark.parametrize(
        ("env_vars", "expected"),
        [
            ({}, (60, False, False)),
            ({"DJANGO_SECURE_HSTS_SECONDS": "31536000"}, (31536000, True, True)),
            (
                {"DJANGO_SECURE_HSTS_SECONDS": "31536000", "DJANGO_SECURE_HSTS_PRELOAD": "false"},
                (31536000, True, False),
            ),
            ({"DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "true"}, (60, True, False)),
        ],
    )
    def test_hsts_subdomains_and_preload_follow_a_years_max_age(
        self, env_vars: dict[str, str], expected: tuple[int, bool, bool]
    ) -> None:
        code = (
            "import django; from django.conf import settings as s; django.setup(); "
            "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
        )
        result = run(
            "config.settings.production",
            ["-c", code],
            DJANGO_SECRET_KEY=STRONG_KEY,
            DJANGO_ALLOWED_HOSTS="brade.example.org",
            **env_vars,
        )

        assert result.returncode == 0, result.stderr
        seconds, subdomains, preload = expected
        assert result.stdout.split() == [str(seconds), str(subdomains), str(preload)]

    @pytest.mark.parametrize(
        "env_vars",
        [
            {"DJANGO_SECURE_HSTS_PRELOAD": "true"},
            {
                "DJANGO_SECURE_HSTS_SECONDS": "31536000",
                "DJANGO_SECURE_HSTS_PRELOAD": "true",
                "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "false",
            },
        ],
    )
    def test_refuses_preload_the_list_would_reject(self, env_vars: dict[str, str]) -> None:
        result = run(
            "config.settings.production",
            ["manage.py", "check"],
            DJANGO_SECRET_KEY=STRONG_KEY,
            DJANGO_ALLOWED_HOSTS="brade.example.org",
            **env_vars,
        )

        assert result.returncode != 0
        assert "DJANGO_SECURE_HSTS_PRELOAD" in result.stderr

    def test_a_years_hsts_passes_the_deployment_check(self) -> None:
        result = run(
            "config.settings.production",
            ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            DJANGO_SECRET_KEY=STRONG_KEY,
            DJANGO_ALLOWED_HOSTS="brade.example.org",
            DJANGO_SECURE_HSTS_SECONDS="31536000",
        )

        assert result.returncode == 0, result.stdout + result.stderr

    def test_debug_is_off_unless_asked_for(self) -> None:
        s = dump(
            "config.settings.production",
            DJANGO_SECRET_KEY=STRONG_KEY,
            DJANGO_ALLOWED_HOSTS="brade.example.org",
        )

        assert s["debug"] is False
        assert s["hosts"] == ["brade.example.org"]


ENTRY_POINT = """
import importlib, json, os
importlib.import_module({module!r})
from django.conf import settings as s
print(json.dumps({{"module": os.environ["DJANGO_SETTINGS_MODULE"], "debug": s.DEBUG,
                  "key": s.SECRET_KEY == {key!r}}}))
"""


class TestServerEntryPointsDefaultToProduction:
    """gunicorn (``config.wsgi``), an ASGI server (``config.asgi``) and Celery
    (``config.celery``) started without ``DJANGO_SETTINGS_MODULE`` run production
    settings: no debug pages, no development key."""

    @pytest.mark.parametrize("module", ["config.wsgi", "config.asgi", "config.celery"])
    def test_refuses_to_start_without_a_secret_key(self, module: str) -> None:
        code = ENTRY_POINT.format(module=module, key=STRONG_KEY)
        result = run_unset(["-c", code], DJANGO_ALLOWED_HOSTS="brade.example.org")

        assert result.returncode != 0
        assert "ImproperlyConfigured" in result.stderr and "DJANGO_SECRET_KEY" in result.stderr

    @pytest.mark.parametrize("module", ["config.wsgi", "config.asgi", "config.celery"])
    def test_runs_production_settings_given_key_and_hosts(self, module: str) -> None:
        code = ENTRY_POINT.format(module=module, key=STRONG_KEY)
        result = run_unset(
            ["-c", code], DJANGO_SECRET_KEY=STRONG_KEY, DJANGO_ALLOWED_HOSTS="brade.example.org"
        )

        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == {
            "module": "config.settings.production",
            "debug": False,
            "key": True,
        }

    def test_manage_py_stays_on_the_development_settings(self) -> None:
        code = "import runpy, sys; sys.argv = ['manage.py', 'diffsettings', '--all']\n"
        code += "runpy.run_path('manage.py', run_name='__main__')"
        result = run_unset(["-c", code])

        assert result.returncode == 0, result.stderr
        assert "SETTINGS_MODULE = 'config.settings.base'" in result.stdout

    @pytest.mark.parametrize("path", ["scripts/run.sh", "scripts/test.sh", ".ci/run", "Makefile"])
    def test_scripts_name_their_settings(self, path: str) -> None:
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "DJANGO_SETTINGS_MODULE=config.settings." in text


class TestCeleryApp:
    """The app as the worker sees it (``celery -A config worker``), on test settings."""

    @pytest.fixture
    def conf(self) -> Any:
        from config import celery_app

        return celery_app.conf

    def test_is_the_app_that_celery_dash_a_config_finds(self) -> None:
        from celery.app.utils import find_app

        import config

        assert find_app("config") is config.celery_app

    def test_json_only(self, conf: Any) -> None:
        assert conf.task_serializer == "json"
        assert conf.result_serializer == "json"
        assert conf.accept_content == ["json"]

    def test_late_ack_and_redelivery_when_a_worker_dies(self, conf: Any) -> None:
        assert conf.task_acks_late is True
        assert conf.task_reject_on_worker_lost is True
        assert conf.worker_prefetch_multiplier == 1

    def test_time_limits_soft_before_hard_before_redelivery(self, conf: Any) -> None:
        assert 0 < conf.task_soft_time_limit < conf.task_time_limit
        assert conf.task_time_limit < conf.broker_transport_options["visibility_timeout"]

    def test_eager_in_tests(self, conf: Any) -> None:
        assert conf.task_always_eager is True
        assert conf.task_eager_propagates is True
        assert settings.CELERY_TASK_ALWAYS_EAGER is True
