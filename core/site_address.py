"""The site's one public address, for every link that leaves the page it was made on.

A private link on a slip, a QR code, a mail: each is opened on another device (a phone at
the club), so it cannot use the address the organiser's own browser happened to use (on
the club's laptop, ``127.0.0.1``, which no phone can open). All of them are built here
from ``settings.SITE_URL``: set by the server's operator, or, on the embedded default,
derived from the address ``run.sh`` serves on (``config/serve_address.py``:
``public_url_for``, the machine's address on the club's network for ``0.0.0.0``).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings

__all__ = ["site_is_loopback", "site_root", "site_url"]


def site_root() -> str:
    """``SITE_URL`` without its final slash: ``http://192.168.1.20:8000``."""
    return str(settings.SITE_URL).rstrip("/")


def site_url(path: str) -> str:
    """The public address of ``path`` (an absolute path, as ``reverse`` gives)."""
    if not path.startswith("/"):
        raise ValueError(f"site_url takes an absolute path, not {path!r}")
    return site_root() + path


def site_is_loopback() -> bool:
    """Whether the links point at this machine's loopback (``127.x``, ``::1``,
    ``localhost``): no other device can open them."""
    host = (urlsplit(site_root()).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
