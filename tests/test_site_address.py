"""One public address for every link that leaves its page (``core/site_address.py``):
slips, QR codes, the organiser's list of links and mails use ``SITE_URL``, never the
address the organiser's own browser used; the embedded default derives it from ``ADDR``
(the machine's address on the club's network for ``0.0.0.0``) and warns when no phone can
open it."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from config import serve_address
from config.serve_address import public_url_for
from core.site_address import site_is_loopback, site_url
from tests.tournaments.helpers import drawn
from tournaments.models import PrivateLink
from tournaments.private_links import private_link_issue, private_link_token

ROOT = Path(__file__).resolve().parent.parent
CLUB = "http://192.168.1.20:8101"


@pytest.mark.parametrize(
    ("site", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.0.1.1:8000/", True),
        ("http://[::1]:8000", True),
        ("http://localhost:8000", True),
        ("http://LOCALHOST", True),
        (CLUB, False),
        ("https://brade.example.org", False),
        ("http://[fd00::5]:8000", False),
    ],
)
def test_loopback_is_told_apart(settings: Any, site: str, loopback: bool) -> None:
    settings.SITE_URL = site
    assert site_is_loopback() is loopback


def test_a_path_is_joined_to_the_site_without_a_double_slash(settings: Any) -> None:
    settings.SITE_URL = CLUB + "/"
    assert site_url("/p/abc/") == CLUB + "/p/abc/"
    with pytest.raises(ValueError):
        site_url("p/abc/")


@pytest.mark.parametrize(
    ("addr", "url"),
    [
        ("8000", "http://127.0.0.1:8000"),
        ("127.0.0.1:8101", "http://127.0.0.1:8101"),
        ("0.0.0.0:8101", "http://192.168.1.20:8101"),
        ("[::]:8000", "http://192.168.1.20:8000"),
        ("klubben.local:8000", "http://klubben.local:8000"),
    ],
)
def test_the_address_phones_use_follows_addr(addr: str, url: str) -> None:
    assert public_url_for(addr, lan="192.168.1.20") == url


def test_the_machines_network_address_is_found_without_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "klubbdatorn")
    monkeypatch.setattr(
        socket,
        "gethostbyname_ex",
        lambda name: (name, [], ["127.0.1.1", "169.254.3.3", "192.168.1.20"]),
    )
    assert serve_address.lan_address() == "192.168.1.20"
    # Only loopback by name: the interfaces' own addresses, as ``ip`` lists them.
    monkeypatch.setattr(socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.1.1"]))
    listed = "2: wlan0    inet 10.0.0.7/24 brd 10.0.0.255 scope global dynamic wlan0\n"
    monkeypatch.setattr(
        subprocess,
        "run",
        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=listed, stderr=""),
    )
    assert serve_address.lan_address() == "10.0.0.7"
    monkeypatch.setattr(
        subprocess,
        "run",
        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout="", stderr=""),
    )
    assert serve_address.lan_address() is None
    assert public_url_for("0.0.0.0:8000") == "http://127.0.0.1:8000"


def _demo_site_url(**env_vars: str) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "SITE_URL", "ADDR", "DJANGO_SETTINGS_MODULE")
    }
    env.update(env_vars, DJANGO_SETTINGS_MODULE="config.settings.demo", DJANGO_SECRET_KEY="x")
    code = (
        "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def test_the_demo_takes_its_address_from_addr_unless_site_url_is_set() -> None:
    assert _demo_site_url(ADDR="127.0.0.1:8101") == "http://127.0.0.1:8101"
    on_network = _demo_site_url(ADDR="0.0.0.0:8101")
    assert on_network.endswith(":8101") and not on_network.startswith("http://0.0.0.0")
    assert _demo_site_url(ADDR="0.0.0.0:8101", SITE_URL=CLUB) == CLUB


@pytest.mark.django_db
class TestLinksUseTheSiteAddress:
    def _issued(self) -> Any:
        s = drawn(4, results_by="players")
        player = s.players[0]
        private_link_issue(tournament=s.tournament, player=player, by=s.organiser)
        link = PrivateLink.objects.get(player=player, revoked_at__isnull=True)
        client = Client()
        client.force_login(s.organiser)
        return s, client, link

    def test_the_list_of_links_shows_the_public_address(self, settings: Any) -> None:
        settings.SITE_URL = CLUB
        s, client, link = self._issued()
        page = client.get(
            reverse("web:private_links", args=[s.tournament.pk]), HTTP_HOST="127.0.0.1"
        ).content.decode()
        token = private_link_token(link)
        assert f"{CLUB}/p/{token}/" in page
        assert f"http://127.0.0.1/p/{token}/" not in page
        assert 'id="loopback-warning"' not in page

    def test_a_loopback_address_is_warned_of_in_swedish(self, settings: Any) -> None:
        settings.SITE_URL = "http://127.0.0.1:8000"
        s, client, _link = self._issued()
        page = client.get(
            reverse("web:private_links", args=[s.tournament.pk]), HTTP_ACCEPT_LANGUAGE="sv"
        ).content.decode()
        assert 'id="loopback-warning"' in page
        assert "ingen telefon kan öppna dem" in page

    def test_the_slips_print_the_public_address(self, settings: Any) -> None:
        from pypdf import PdfReader

        settings.SITE_URL = CLUB
        s, client, link = self._issued()
        answer = client.get(reverse("clubs:tournament_link_slips", args=[s.tournament.pk]))
        text = "".join(
            page.extract_text() for page in PdfReader(io.BytesIO(answer.content)).pages
        ).replace("\n", "")
        assert f"192.168.1.20:8101/p/{private_link_token(link)}" in text
        assert "testserver" not in text


@pytest.mark.django_db
def test_seed_demo_prints_the_address_and_warns_of_loopback(settings: Any) -> None:
    from django.core.management import call_command

    settings.SITE_URL = "http://127.0.0.1:8000"
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    text = out.getvalue()
    assert "Phones and the links on the slips open: http://127.0.0.1:8000/" in text
    assert "no phone can open it" in text
    settings.SITE_URL = CLUB
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert f"open: {CLUB}/" in out.getvalue() and "no phone can open it" not in out.getvalue()
    assert not mail.outbox
