"""The SSRF guard against an IPv4 address carried inside an IPv6 one (compatible, mapped,
translated, NAT64, 6to4, Teredo), the local-use NAT64 prefix, site-local and the other
blocks ``ipaddress`` calls global, and the spellings of a loopback address a hostile
organiser might write: refused at creation (the API's 400, the service's ``bad_url``) and
at send time (a host name resolving to one: nothing is sent). The addresses are built
here from each RFC's layout, not with ``webhooks.addresses``."""

from __future__ import annotations

import socket
from collections.abc import Callable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, ip_address
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ValidationError
from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, TournamentFactory
from webhooks import sending
from webhooks.addresses import refusal
from webhooks.models import DeliveryState, Webhook, WebhookDelivery
from webhooks.services import hook_create, hook_test_send

MASK32 = 0xFFFFFFFF
PUBLIC = IPv4Address("93.184.216.34")
# Addresses no delivery may go to (RFC 6890's IPv4 registry, not globally reachable).
PRIVATE_V4 = [
    IPv4Network(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/29",
        "192.0.2.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
    )
]


# Each form: the IPv6 address carrying ``v4``, with ``filler`` in the bits the RFC leaves
# free (none for most).
def compatible(v4: IPv4Address, filler: int) -> IPv6Address:  # RFC 4291 §2.5.5.1
    return IPv6Address(int(v4))


def mapped(v4: IPv4Address, filler: int) -> IPv6Address:  # RFC 4291 §2.5.5.2
    return IPv6Address((0xFFFF << 32) | int(v4))


def translated(v4: IPv4Address, filler: int) -> IPv6Address:  # RFC 2765 §2.1
    return IPv6Address((0xFFFF << 48) | int(v4))


def nat64(v4: IPv4Address, filler: int) -> IPv6Address:  # RFC 6052 §2.1: 64:ff9b::/96
    return IPv6Address((0x0064FF9B << 96) | int(v4))


def six_to_four(v4: IPv4Address, filler: int) -> IPv6Address:  # RFC 3056 §2: bits 16-48
    return IPv6Address((0x2002 << 112) | (int(v4) << 80) | (filler & ((1 << 80) - 1)))


def teredo(server: IPv4Address, client: IPv4Address, filler: int) -> IPv6Address:
    """RFC 4380 §4: 2001:0::/32, server IPv4, flags and port, client IPv4 XOR all ones."""
    flags_port = filler & MASK32
    return IPv6Address(
        (0x20010000 << 96) | (int(server) << 64) | (flags_port << 32) | (int(client) ^ MASK32)
    )


def teredo_client(v4: IPv4Address, filler: int) -> IPv6Address:
    return teredo(PUBLIC, v4, filler)


def teredo_server(v4: IPv4Address, filler: int) -> IPv6Address:
    return teredo(v4, PUBLIC, filler)


FORMS: dict[str, Callable[[IPv4Address, int], IPv6Address]] = {
    "compatible": compatible,
    "mapped": mapped,
    "translated": translated,
    "nat64": nat64,
    "6to4": six_to_four,
    "teredo client": teredo_client,
    "teredo server": teredo_server,
}

private_v4 = st.sampled_from(PRIVATE_V4).flatmap(
    lambda net: st.integers(int(net.network_address), int(net.broadcast_address)).map(IPv4Address)
)
any_v4 = st.integers(0, MASK32).map(IPv4Address)
filler = st.integers(0, (1 << 80) - 1)


# --- the judgement (pure) ---------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
@given(v4=private_v4, free=filler)
def test_every_private_ipv4_in_every_form_is_refused(form: str, v4: IPv4Address, free: int) -> None:
    wrapped = FORMS[form](v4, free)
    why = refusal(wrapped)
    assert why is not None, (form, wrapped)
    # ::0.0.0.0 and ::0.0.0.1 are :: and ::1, not IPv4-compatible (RFC 4291 §2.5.5.1):
    # refused for what they are, with no IPv4 inside to name.
    if str(wrapped) not in ("::", "::1"):
        assert str(v4) in why, why


@pytest.mark.parametrize("form", FORMS)
@given(v4=any_v4, free=filler)
def test_an_ipv4_in_every_form_is_judged_as_that_ipv4(
    form: str, v4: IPv4Address, free: int
) -> None:
    assert (refusal(FORMS[form](v4, free)) is None) == (refusal(v4) is None), (form, v4)


@pytest.mark.parametrize("form", FORMS)
def test_a_public_ipv4_in_every_form_is_allowed(form: str) -> None:
    assert refusal(PUBLIC) is None
    assert refusal(FORMS[form](PUBLIC, 0)) is None


@given(server=any_v4, client=any_v4, free=filler)
def test_teredo_is_allowed_only_when_server_and_client_are(
    server: IPv4Address, client: IPv4Address, free: int
) -> None:
    both = refusal(server) is None and refusal(client) is None
    assert (refusal(teredo(server, client, free)) is None) == both


def test_the_rfc_4380_teredo_example_is_read_as_the_rfc_says() -> None:
    # RFC 4380 §4's example: server 65.54.227.120, client 192.0.2.45 (documentation).
    why = refusal(IPv6Address("2001:0000:4136:e378:8000:63bf:3fff:fdd2"))
    assert why is not None and "192.0.2.45" in why


@given(v4=any_v4, low=st.integers(0, (1 << 80) - 1))
def test_the_local_use_nat64_prefix_is_refused_whatever_it_holds(v4: IPv4Address, low: int) -> None:
    # 64:ff9b:1::/48 (RFC 8215): the IPv4's place depends on the operator's prefix length.
    prefix = 0x0064FF9B0001 << 80
    for address in (prefix | int(v4), prefix | (int(v4) << 40), prefix | low):
        why = refusal(IPv6Address(address))
        assert why is not None and "64:ff9b:1::/48" in why


@given(low=st.integers(0, (1 << 118) - 1))
def test_site_local_is_refused(low: int) -> None:
    address = IPv6Address((0b1111111011 << 118) | low)  # fec0::/10
    why = refusal(address)
    assert why is not None and "RFC 3879" in why


@pytest.mark.parametrize(
    "address",
    [
        "::",
        "::1",
        "100::1",  # discard (RFC 6666)
        "5f00::1",  # SRv6 SIDs (RFC 9602)
        "2001:db8::1",  # documentation (RFC 3849)
        "3fff::1",  # documentation (RFC 9637)
        "2001:10::1",  # ORCHID
        "fc00::1",
        "fe80::1",
        "fe80::1%eth0",
        "ff02::1",
        "ff0e::1",  # global-scope multicast: is_global says True
    ],
)
def test_other_special_ipv6_addresses_are_refused(address: str) -> None:
    assert not sending.address_allowed(address)


def test_global_ipv6_addresses_are_allowed() -> None:
    for address in ("2606:2800:220:1:248:1893:25c8:1946", "2a00:1450:4001:82b::200e"):
        assert refusal(ip_address(address)) is None, address


# --- at creation ------------------------------------------------------------------------

# The four, and one per further form or spelling (URL validators take these).
BRACKETED = [
    "http://[::7f00:1]/hook",  # IPv4-compatible 127.0.0.1
    "http://[::127.0.0.1]/hook",
    "http://[64:ff9b::a00:1]/hook",  # NAT64 10.0.0.1
    "http://[64:ff9b::10.0.0.1]/hook",
    "http://[64:ff9b:1::5db8:d822]/hook",  # local-use NAT64, refused whatever it holds
    "http://[2002:a00:1::]/hook",  # 6to4 10.0.0.1
    "http://[2002:a9fe:a9fe::1]/hook",  # 6to4 169.254.169.254 (metadata)
    "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook",  # Teredo client 10.0.0.1
    "http://[2001:0:a00:1:8000:63bf:a247:2bdd]/hook",  # Teredo server 10.0.0.1
    "http://[::ffff:0:a00:1]/hook",  # IPv4-translated 10.0.0.1
    "http://[::ffff:7f00:1]/hook",  # mapped, hex spelling
    "http://[::FFFF:7F00:1]/hook",  # upper case
    "http://[fec0::1]/hook",  # site-local
    "http://[FEC0::1]/hook",
    "http://[3fff::1]/hook",
    "http://[5f00::1]/hook",
    "http://[ff0e::1]/hook",
]
# Spellings Django's URL validators already refuse (the API's and the page's 400), which
# the service must refuse too: the host as the C library will read it at send time.
SPELLED = [
    "http://2130706433/hook",  # 127.0.0.1 as one integer
    "http://0x7f.1/hook",
    "http://0x7f000001/hook",
    "http://0177.0.0.1/hook",  # octal
    "http://127.1/hook",
    "http://127.0.0.1./hook",  # fully qualified
    "http://localhost./hook",
    "http://１２７.0.0.1/hook",  # fullwidth digits: IDNA maps them to 127
    "http://[fe80::1%25eth0]/hook",  # a zone id
    "http://[::ffff:127.0.0.1%25eth0]/hook",
]


# What the refusal names for each of them: the address judged (the IPv4 inside an
# embedding, the host as the resolver reads a written-out one) and why.
NAMED = {
    "http://[::7f00:1]/hook": "127.0.0.1 is not a global address, inside the IPv4-compatible",
    "http://[::127.0.0.1]/hook": "127.0.0.1 is not a global address, inside the IPv4-compatible",
    "http://[64:ff9b::a00:1]/hook": "10.0.0.1 is not a global address, inside the NAT64",
    "http://[64:ff9b::10.0.0.1]/hook": "10.0.0.1 is not a global address, inside the NAT64",
    "http://[64:ff9b:1::5db8:d822]/hook": "in the local-use NAT64 prefix 64:ff9b:1::/48",
    "http://[2002:a00:1::]/hook": "10.0.0.1 is not a global address, inside the 6to4",
    "http://[2002:a9fe:a9fe::1]/hook": "169.254.169.254 is not a global address, inside the 6to4",
    "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook": "10.0.0.1 is not a global address, "
    "inside the Teredo",
    "http://[2001:0:a00:1:8000:63bf:a247:2bdd]/hook": "10.0.0.1 is not a global address, "
    "inside the Teredo",
    "http://[::ffff:0:a00:1]/hook": "10.0.0.1 is not a global address, inside the IPv4-translated",
    "http://[::ffff:7f00:1]/hook": "127.0.0.1 is not a global address, inside the IPv4-mapped",
    "http://[::FFFF:7F00:1]/hook": "127.0.0.1 is not a global address, inside the IPv4-mapped",
    "http://[fec0::1]/hook": "fec0::1 is site-local",
    "http://[FEC0::1]/hook": "fec0::1 is site-local",
    "http://[3fff::1]/hook": "3fff::1 is not a global address",
    "http://[5f00::1]/hook": "5f00::1 is outside the global unicast block",
    "http://[ff0e::1]/hook": "ff0e::1 is a multicast address",
    "http://2130706433/hook": "(127.0.0.1 is not a global address)",
    "http://0x7f.1/hook": "(127.0.0.1 is not a global address)",
    "http://0x7f000001/hook": "(127.0.0.1 is not a global address)",
    "http://0177.0.0.1/hook": "(127.0.0.1 is not a global address)",
    "http://127.1/hook": "(127.0.0.1 is not a global address)",
    "http://127.0.0.1./hook": "(127.0.0.1 is not a global address)",
    "http://localhost./hook": "a loopback address",
    "http://１２７.0.0.1/hook": "(127.0.0.1 is not a global address)",
    "http://[fe80::1%25eth0]/hook": "fe80::1 is outside the global unicast block",
    "http://[::ffff:127.0.0.1%25eth0]/hook": "127.0.0.1 is not a global address, inside the "
    "IPv4-mapped",
}


def organised() -> Any:
    return TournamentFactory.create(organisers=[OrganiserFactory.create()])


@pytest.mark.django_db
@pytest.mark.parametrize("url", BRACKETED)
def test_the_api_refuses_an_ipv6_form_of_a_private_address(url: str, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    tournament = organised()
    answer = client_for(tournament.organisers.get()).post(
        f"/api/tournaments/{tournament.pk}/webhooks/", {"url": url}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "bad_url"
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("url", BRACKETED + SPELLED)
def test_the_service_refuses_every_spelling_of_a_private_address(url: str, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    tournament = organised()
    with pytest.raises(ValidationError) as refused:
        hook_create(tournament=tournament, url=url, events=None, by=tournament.organisers.get())
    assert refused.value.code == "bad_url"
    assert NAMED[url] in refused.value.message, refused.value.message
    assert not Webhook.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "http://[::5db8:d822]/hook",  # compatible 93.184.216.34
        "http://[64:ff9b::5db8:d822]/hook",
        "http://[2002:5db8:d822::1]/hook",
        "http://[2606:2800:220:1:248:1893:25c8:1946]/hook",
        "http://93.184.216.34/hook",
        "https://0x7f.example.org/hook",  # a host name: judged when sent
    ],
)
def test_public_addresses_in_those_forms_are_accepted(url: str, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    tournament = organised()
    hook = hook_create(tournament=tournament, url=url, events=None, by=tournament.organisers.get())
    assert hook.pk is not None


# --- at send time -----------------------------------------------------------------------


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every connection the sending opens, none of them made."""
    opened: list[Any] = []

    def connect(address: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(address)
        raise ConnectionRefusedError("tests make no connection")

    monkeypatch.setattr(socket, "create_connection", connect)
    return opened


def sent(url: str, capture: Any) -> WebhookDelivery:
    tournament = organised()
    by = tournament.organisers.get()
    hook = hook_create(tournament=tournament, url=url, events=None, by=by)
    with capture(execute=True):
        event = hook_test_send(hook=hook, by=by)
    return WebhookDelivery.objects.get(event=event, hook=hook)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("address", "inside"),
    [
        ("::7f00:1", "127.0.0.1"),
        ("64:ff9b::a00:1", "10.0.0.1"),
        ("64:ff9b:1::a00:1", "64:ff9b:1::/48"),
        ("2002:a00:1::", "10.0.0.1"),
        ("2002:a9fe:a9fe::", "169.254.169.254"),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "10.0.0.1"),
        ("::ffff:0:a00:1", "10.0.0.1"),
        ("::ffff:7f00:1", "127.0.0.1"),
        ("fec0::1", "RFC 3879"),
        ("3fff::1", "3fff::1"),
    ],
)
def test_a_name_resolving_to_an_ipv6_form_of_a_private_address_is_not_sent_to(
    address: str,
    inside: str,
    connections: list[Any],
    django_capture_on_commit_callbacks: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(sending, "resolve", lambda host, port: [address])
    delivery = sent("https://scores.example.org/hook", django_capture_on_commit_callbacks)
    assert connections == []
    assert (delivery.state, delivery.attempts, delivery.last_status) == (
        DeliveryState.FAILED,
        1,
        None,
    )
    assert "resolves to a private" in delivery.last_error and inside in delivery.last_error


@pytest.mark.django_db
@pytest.mark.parametrize("url", SPELLED)
def test_every_spelling_of_a_loopback_host_is_not_sent_to(
    url: str,
    connections: list[Any],
    django_capture_on_commit_callbacks: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Registered while private addresses were allowed, sent after they no longer are; the
    # host read by the C library as at send time, with no lookup (AI_NUMERICHOST).
    def numeric(host: str, port: int) -> list[str]:
        infos = socket.getaddrinfo(host, port, flags=socket.AI_NUMERICHOST)
        return [str(info[4][0]) for info in infos]

    settings.WEBHOOKS_ALLOW_PRIVATE = True
    tournament = organised()
    by = tournament.organisers.get()
    hook = hook_create(tournament=tournament, url=url, events=None, by=by)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(sending, "resolve", numeric)
    with django_capture_on_commit_callbacks(execute=True):
        event = hook_test_send(hook=hook, by=by)
    delivery = WebhookDelivery.objects.get(event=event, hook=hook)
    assert connections == []
    assert delivery.state == DeliveryState.FAILED and delivery.attempts == 1
