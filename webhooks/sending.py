"""One HTTP POST of a delivery, refusing private addresses (SSRF).

A hook's URL is the organiser's, but the server sends from inside the club's network: a
URL naming ``127.0.0.1``, ``10.0.0.5``, ``169.254.169.254`` (a cloud's metadata service),
``::1`` or a host name that resolves to one of them would let anyone who organises a
tournament reach what only the server can. So at every attempt the host is resolved, and
the delivery is refused unless **every** address it resolves to is a global one
(``webhooks.addresses``: an IPv6 address carrying an IPv4 one is judged by that IPv4); the
connection then goes to the address that was checked (no second lookup a DNS answer could
change in between). ``WEBHOOKS_ALLOW_PRIVATE = True`` (environment
``WEBHOOKS_ALLOW_PRIVATE=true``) lifts the check, for a receiver on the same machine or
network, and for tests.

Redirects: decision — a webhook is a POST, and only 307 and 308 keep the method and body,
so only those are followed (at most ``MAX_REDIRECTS``), each new URL checked the same way
(a redirect to a private address is refused); 301/302/303 answers are a failed attempt
("redirect not followed"). Timeouts are short (``WEBHOOKS_TIMEOUT`` seconds, default 5,
for the connection and each read) and at most ``WEBHOOKS_LOG_BODY_CHARS`` of the answer
are read and kept.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from django.conf import settings

from webhooks import addresses

MAX_REDIRECTS = 3


class AddressRefused(Exception):
    """The URL's host is (or resolves to) an address deliveries may not go to."""


@dataclass(frozen=True)
class Answer:
    """What one attempt got: an HTTP status (None: no answer), an error for people, the
    start of the body, and how long it took."""

    status: int | None
    error: str
    body: str
    duration_ms: int
    refused: bool = False  # not sent at all (SSRF): trying again cannot help


def allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False))


def timeout() -> float:
    return float(getattr(settings, "WEBHOOKS_TIMEOUT", 5.0))


def body_chars() -> int:
    return int(getattr(settings, "WEBHOOKS_LOG_BODY_CHARS", 500))


def address_refusal(address: str) -> str | None:
    """Why a delivery may not go to ``address`` (as ``getaddrinfo`` writes it, an IPv6
    one possibly with a zone id), or None: ``webhooks.addresses.refusal`` judges it."""
    ip = addresses.parsed(address)
    return "not an IP address" if ip is None else addresses.refusal(ip)


def address_allowed(address: str) -> bool:
    """A global unicast address, whatever IPv4 it carries (``webhooks.addresses``)."""
    return address_refusal(address) is None


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (tests replace this to play DNS)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def url_problem(url: str) -> str | None:
    """Why ``url`` can never be a hook's URL (scheme, host), or None. The address check
    proper happens at send time (``checked_address``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return "only http and https URLs"
    if not parts.hostname:
        return "no host"
    if parts.username or parts.password:
        return "no user name or password in the URL (the signature authenticates)"
    return None


def literal_problem(url: str) -> str | None:
    """At creation, without resolving anything: a URL whose host is a private address
    written out (or ``localhost``) is refused at once unless private addresses are
    allowed, so the organiser hears of it then, not from the delivery log. Host names are
    checked when each delivery is sent (DNS answers change).

    "Written out" is read as the C library will read the host at send time (``literal``):
    also ``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``127.1``, digits of other scripts
    (IDNA maps ``１２７`` to ``127``) and a final dot (``127.0.0.1.``, ``localhost.``)."""
    if allow_private():
        return None
    host = literal_host(urlsplit(url).hostname or "")
    if host == "localhost" or host.endswith(".localhost"):
        return "a loopback address"
    for address in literal(host):
        why = address_refusal(address)
        if why:
            return f"a private, loopback or link-local address ({why})"
    return None  # a host name: checked at send time


def literal_host(host: str) -> str:
    """``host`` as the resolver gets it (IDNA-encoded, as ``socket`` does with a str),
    lower case and without the final dot of a fully qualified name."""
    with contextlib.suppress(UnicodeError):  # else no name: nothing written out to judge
        host = host.encode("idna").decode("ascii")
    host = host.lower()
    return host[:-1] if host.endswith(".") else host


def literal(host: str) -> list[str]:
    """The addresses ``host`` is written as, or [] for a host name: read without any
    lookup (``AI_NUMERICHOST``) by the resolver the sending uses, so every spelling it
    takes for an address counts (``inet_aton``'s decimal, octal, hex and short forms)."""
    if addresses.parsed(host) is not None:
        return [host]
    try:
        infos = socket.getaddrinfo(host, None, flags=socket.AI_NUMERICHOST)
    except (OSError, UnicodeError, ValueError):
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def checked_address(host: str, port: int) -> str:
    """The address to connect to for ``host``: the first it resolves to, once every one
    is allowed. Raises ``AddressRefused``."""
    try:
        resolved = resolve(host, port)
    except OSError as err:
        raise AddressRefused(f"cannot resolve {host}: {err}") from None
    if not resolved:
        raise AddressRefused(f"{host} resolves to no address")
    if not allow_private():
        bad = [a for a in resolved if not address_allowed(a)]
        if bad:
            why = address_refusal(bad[0]) or bad[0]
            raise AddressRefused(
                f"{host} resolves to a private, loopback or link-local address ({why});"
                " set WEBHOOKS_ALLOW_PRIVATE to allow it"
            )
    return resolved[0]


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address, whatever the host name resolves to now."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self._tls)
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url`` (following 307/308 to allowed addresses only)."""
    started = time.monotonic()

    def answer(status: int | None, error: str, text: str = "", refused: bool = False) -> Answer:
        ms = int((time.monotonic() - started) * 1000)
        return Answer(status, error[:300], text, ms, refused)

    for _hop in range(MAX_REDIRECTS + 1):
        problem = url_problem(url)
        if problem:
            return answer(None, f"URL refused: {problem}", refused=True)
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            address = checked_address(host, port)
        except AddressRefused as err:
            return answer(None, str(err), refused=True)
        kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
        conn = kind(host, port, address, timeout())
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            raw = response.read(body_chars())
            status = response.status
            location = response.getheader("Location")
        except TimeoutError:
            return answer(None, f"timed out after {timeout():g} s")
        except (OSError, http.client.HTTPException) as err:
            return answer(None, f"{type(err).__name__}: {err}")
        finally:
            conn.close()
        text = raw.decode("utf-8", errors="replace")[: body_chars()]
        if status in (307, 308) and location:
            url = urljoin(url, location)
            continue
        if 300 <= status < 400:
            return answer(status, "redirect not followed (only 307 and 308 are)", text)
        if 200 <= status < 300:
            return answer(status, "", text)
        return answer(status, f"HTTP {status}", text)
    return answer(None, f"more than {MAX_REDIRECTS} redirects")
