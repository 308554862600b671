"""The client's address as the proxy settings say (``DJANGO_TRUSTED_PROXIES``).

``X-Forwarded-For`` is written by whoever sends the request, so it is believed only as far
as it was added by a proxy we trust: by default no proxy is trusted and the address is
the connection's own (``REMOTE_ADDR``), whatever the header says. Behind a reverse proxy
or load balancer, ``DJANGO_TRUSTED_PROXIES`` lists the proxies' addresses or networks
(``127.0.0.1,10.0.0.0/8``). When the connection comes from one of them, the header is
read from the right (each proxy appends the address it received the request from): the
first address that is not a trusted proxy is the client. A value that is no address ends
the walk at the last trusted hop, so a forged or garbled header never picks the address.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address, or ``None`` when the request has none."""
    remote = _address(request.META.get("REMOTE_ADDR") or "")
    if remote is None:
        return None
    trusted = _networks(tuple(settings.TRUSTED_PROXIES))

    def is_proxy(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return any(ip in net for net in trusted)

    client = remote
    if not is_proxy(client):
        return str(client)
    hops = (request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",")
    for hop in reversed(hops):
        ip = _address(hop)
        if ip is None:
            break
        client = ip
        if not is_proxy(ip):
            break
    return str(client)
