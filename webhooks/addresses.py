"""Which IP addresses a webhook may be sent to: one pure judgement, ``refusal``.

A delivery may go only to a **global unicast** address. ``ipaddress``'s ``is_global``
alone is not that: it calls global every IPv6 address that merely *carries* an IPv4 one
(``::7f00:1``, ``64:ff9b::a00:1``, ``2002:a00:1::``), the deprecated site-local
``fec0::/10`` and the reserved blocks outside ``2000::/3``, and its table changes between
Python releases. So the rules, in the order they are applied:

IPv4
    Refused unless ``is_global`` and not multicast (private, loopback, link-local,
    shared ``100.64.0.0/10``, documentation, benchmarking, reserved, broadcast ...).

IPv6 carrying an IPv4 address — the IPv4 inside is judged, and the address is allowed
exactly when that IPv4 would be (a private IPv4 is as reachable through its IPv6 form):
    * IPv4-compatible ``::a.b.c.d`` (``::/96`` but ``::`` and ``::1``; RFC 4291
      §2.5.5.1, deprecated; Linux's ``sit0`` still tunnels it to the IPv4): last 32 bits.
    * IPv4-mapped ``::ffff:a.b.c.d`` (RFC 4291 §2.5.5.2; a dual-stack socket connects to
      the IPv4): last 32 bits.
    * IPv4-translated ``::ffff:0:a.b.c.d`` (RFC 2765 §2.1, SIIT): last 32 bits.
    * NAT64 well-known prefix ``64:ff9b::/96`` (RFC 6052 §2.1; a NAT64 gateway on the
      path connects to the IPv4): last 32 bits.
    * 6to4 ``2002::/16`` (RFC 3056 §2): the IPv4 is bits 16–48.
    * Teredo ``2001::/32`` (RFC 4380 §4): the server's IPv4 is bits 32–64, the client's
      is the last 32 bits XOR ``0xffffffff``; **both** are judged, and both must be
      allowed. Decision: with both public it is allowed (the packets reach a public
      client through the public IPv4 Internet), though ``is_global`` calls all of
      ``2001::/23`` not global.

The NAT64 local-use prefix ``64:ff9b:1::/48`` (RFC 8215) — decision: refused whatever
it holds. It is for a network's own translators (IANA: not globally reachable), and the
operator chooses the prefix length inside it (RFC 6052 §2.2: /48, /56, /64 or /96, each
putting the IPv4 at other bits), so the IPv4 inside cannot be read from the address.

Other IPv6
    Refused: site-local ``fec0::/10`` (deprecated by RFC 3879: its scope is a site, never
    the Internet); multicast ``ff00::/8``; anything outside ``2000::/3``, the only block
    IANA assigns global unicast addresses from (RFC 3587; this covers ``::``, ``::1``,
    the discard prefix ``100::/64``, SRv6's ``5f00::/16``, ``fc00::/7``, ``fe80::/10``);
    inside it, what ``is_global`` calls not global (``2001::/23`` but its listed
    exceptions, ``2001:10::/28`` ...) and the documentation prefixes ``2001:db8::/32``
    (RFC 3849) and ``3fff::/20`` (RFC 9637), named here as older Pythons do not know the
    second.
"""

from __future__ import annotations

import ipaddress
from ipaddress import IPv4Address, IPv6Address, IPv6Network

IPAddress = IPv4Address | IPv6Address

_MASK32 = 0xFFFFFFFF

_COMPATIBLE = IPv6Network("::/96")
_MAPPED = IPv6Network("::ffff:0:0/96")
_TRANSLATED = IPv6Network("::ffff:0:0:0/96")
_NAT64 = IPv6Network("64:ff9b::/96")
_NAT64_LOCAL_USE = IPv6Network("64:ff9b:1::/48")
_SIX_TO_FOUR = IPv6Network("2002::/16")
_TEREDO = IPv6Network("2001::/32")
_SITE_LOCAL = IPv6Network("fec0::/10")
_GLOBAL_UNICAST = IPv6Network("2000::/3")
_DOCUMENTATION = (IPv6Network("2001:db8::/32"), IPv6Network("3fff::/20"))
_NOT_COMPATIBLE = (IPv6Address("::"), IPv6Address("::1"))


def embedded_ipv4(ip: IPv6Address) -> tuple[str, tuple[IPv4Address, ...]] | None:
    """The IPv4 address(es) ``ip`` carries and the name of its form, or None (the
    positions are the module docstring's)."""
    value = int(ip)
    last32 = (IPv4Address(value & _MASK32),)
    if ip in _MAPPED:
        return "IPv4-mapped (RFC 4291)", last32
    if ip in _TRANSLATED:
        return "IPv4-translated (RFC 2765)", last32
    if ip in _COMPATIBLE and ip not in _NOT_COMPATIBLE:
        return "IPv4-compatible (RFC 4291)", last32
    if ip in _NAT64:
        return "NAT64 (RFC 6052)", last32
    if ip in _SIX_TO_FOUR:
        return "6to4 (RFC 3056)", (IPv4Address((value >> 80) & _MASK32),)
    if ip in _TEREDO:
        server = IPv4Address((value >> 64) & _MASK32)
        client = IPv4Address(~value & _MASK32)
        return "Teredo (RFC 4380)", (server, client)
    return None


def _ipv4_refusal(ip: IPv4Address) -> str | None:
    if ip.is_multicast:
        return f"{ip} is a multicast address"
    if not ip.is_global:
        return f"{ip} is not a global address"
    return None


def refusal(ip: IPAddress) -> str | None:
    """Why a delivery may not go to ``ip`` (for people), or None when it may. Pure: the
    rules are the module docstring's. A scoped IPv6 address is judged without its zone."""
    if isinstance(ip, IPv4Address):
        return _ipv4_refusal(ip)
    ip = IPv6Address(int(ip))  # drop a zone id ("fe80::1%eth0")
    if ip in _NAT64_LOCAL_USE:
        return f"{ip} is in the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215)"
    carried = embedded_ipv4(ip)
    if carried is not None:
        form, inner = carried
        for v4 in inner:
            why = _ipv4_refusal(v4)
            if why:
                return f"{why}, inside the {form} address {ip}"
        return None
    if ip in _SITE_LOCAL:
        return f"{ip} is site-local (fec0::/10, deprecated by RFC 3879)"
    if ip.is_multicast:
        return f"{ip} is a multicast address"
    if ip not in _GLOBAL_UNICAST:
        return f"{ip} is outside the global unicast block 2000::/3"
    if any(ip in net for net in _DOCUMENTATION) or not ip.is_global:
        return f"{ip} is not a global address"
    return None


def parsed(text: str) -> IPAddress | None:
    """``text`` as an IP address written out the usual way (an IPv6 one possibly with a
    zone id), or None."""
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
