"""Who a client is, for the limits per client: its address.

The peer address of the connection, unless that peer is one of ``UNO_TRUSTED_PROXIES`` (a
reverse proxy of ours): then the right-most address in ``X-Forwarded-For`` that is not itself a
trusted proxy. Anyone can send that header, so it is read only from a trusted peer.
(``python -m app`` turns uvicorn's own proxy-header handling off for the same reason.)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.requests import HTTPConnection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(setting: str) -> tuple[Network, ...]:
    """``UNO_TRUSTED_PROXIES``: addresses or networks, separated by commas."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False)
                 for part in setting.split(",") if part.strip())


def _trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(connection: HTTPConnection, trusted: tuple[Network, ...]) -> str:
    peer = connection.client.host if connection.client is not None else "unknown"
    if not trusted or not _trusted(peer, trusted):
        return peer
    forwarded = connection.headers.get("x-forwarded-for", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, trusted):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # a proxy of ours passed on garbage: count it as the proxy
    return peer
