"""The host names a server may answer to, from the address it listens on (``ADDR``).

With ``DEBUG`` off Django answers 400 to a request whose ``Host`` is not in
``ALLOWED_HOSTS``, so the demo (``config.settings.demo``) derives them from the address
``scripts/run.sh`` gives the server, in ``runserver``'s forms: ``port``, ``host:port``,
``[ipv6]:port``.

- A loopback address (``127.0.0.1``, ``::1``, ``localhost``): that address and the
  names of this machine's loopback, ``localhost``, ``127.0.0.1`` and ``[::1]``.
- Every address (``0.0.0.0``, ``::``): any name (``*``). Listening on every interface is
  how a club lets the other tables' phones in, by the machine's address or name on the
  club's network, which the demo cannot know; ``DJANGO_ALLOWED_HOSTS`` narrows it.
- Any other address or name: that one alone.
"""

from __future__ import annotations

__all__ = ["allowed_hosts_for", "bind_address_for", "lan_address", "public_url_for"]

LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
EVERY_ADDRESS = ("0.0.0.0", "[::]")


def allowed_hosts_for(addr: str) -> list[str]:
    """``ALLOWED_HOSTS`` for a server listening on ``addr`` (see the module text)."""
    addr = addr.strip()
    if addr.isdigit():  # a port alone: runserver listens on 127.0.0.1
        return list(LOOPBACK)
    host = addr.rsplit(":", 1)[0] if ":" in addr and not addr.endswith("]") else addr
    if host in EVERY_ADDRESS:
        return ["*"]
    if host in LOOPBACK or host.startswith("127."):
        return [host, *(name for name in LOOPBACK if name != host)]
    return [host]


def bind_address_for(addr: str) -> str:
    """What gunicorn binds for ``addr`` in ``runserver``'s forms: a port alone listens on
    ``127.0.0.1`` (as ``runserver`` does); ``host:port`` and ``[ipv6]:port`` stay as given."""
    addr = addr.strip()
    if addr.isdigit():
        return f"127.0.0.1:{addr}"
    return addr


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (not loopback), as its host name
    resolves; else the first global or private address ``ip`` lists; else None.

    Found without sending anything: the name's addresses, then the interfaces' own.
    """
    import ipaddress
    import socket
    import subprocess

    def usable(text: str) -> bool:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return False
        return address.version == 4 and not (
            address.is_loopback or address.is_link_local or address.is_unspecified
        )

    try:
        _name, _aliases, found = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        found = []
    for address in found:
        if usable(address):
            return address
    try:
        listed = subprocess.run(
            ["ip", "-4", "-o", "addr", "show", "scope", "global"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in listed.splitlines():
        words = line.split()
        if "inet" in words:
            address = words[words.index("inet") + 1].split("/")[0]
            if usable(address):
                return address
    return None


def public_url_for(addr: str, *, lan: str | None = None) -> str:
    """The address phones use for a server listening on ``addr`` (``runserver``'s forms):
    ``http://host:port``; for every address (``0.0.0.0``, ``::``) the machine's address
    on its network (``lan``, else found by ``lan_address``; loopback when it has none)."""
    bind = bind_address_for(addr)
    host, _, port = bind.rpartition(":")
    if host in EVERY_ADDRESS:
        host = lan or lan_address() or "127.0.0.1"
    return f"http://{host}:{port}"
