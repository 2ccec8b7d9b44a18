"""Throttling of failed lookups (guessing tokens or table codes), per device and per address.

A failed lookup (a wrong token or table code, over HTTP or websocket) counts three ways for a
minute:

- for the device that made it: its `sgs_device` cookie, which every page hands out (a request
  without one is given one, and counts under it from then on); `BAD_TOKEN_LIMIT_PER_MINUTE`;
- for requests that came without that cookie, together, per client address (a guesser who
  drops cookies shares one pool, the same limit);
- for the client address as a whole, with a much higher limit
  (`BAD_LOOKUP_LIMIT_PER_ADDRESS_PER_MINUTE`), so that minting cookies gains little.

So one phone's wrong guesses block that phone, not the others behind the same Wi-Fi or proxy.
The client address is the connecting peer's, or, only when that peer is one of
`TRUSTED_PROXIES`, the last address X-Forwarded-For names that is not a trusted proxy itself.
Requests browsers make on their own (icons, manifests, robots.txt) never count.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.http.cookie import parse_cookie

WINDOW_SECONDS = 60
DEVICE_COOKIE = "sgs_device"  # the same cookie views.py uses for "one seat per device"
DEVICE_RE = re.compile(r"[A-Za-z0-9_-]{32}")
# What a browser asks for by itself: answered 404 (or served) without counting as a guess.
AUTOMATIC_PATH_RE = re.compile(
    r"^/(?:favicon\.ico|apple-touch-icon[A-Za-z0-9_.-]*\.png|android-chrome[A-Za-z0-9_.-]*\.png"
    r"|manifest\.json|(?:site|manifest)\.webmanifest|browserconfig\.xml|robots\.txt"
    r"|\.well-known/.*)$"
)


@dataclass(frozen=True)
class Client:
    """Who made a lookup: a device id (empty when unknown) and the client address."""

    device: str
    address: str
    anonymous: bool

    def keys(self) -> dict[str, int]:
        """Each counter this client's failures go to, with its limit."""
        per_device = settings.BAD_TOKEN_LIMIT_PER_MINUTE
        keys = {f"badlookup:ip:{self.address}": settings.BAD_LOOKUP_LIMIT_PER_ADDRESS_PER_MINUTE}
        if self.device:
            keys[f"badlookup:dev:{self.device}"] = per_device
        if self.anonymous:
            keys[f"badlookup:anon:{self.address}"] = per_device
        return keys


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _trusted_networks())


_NETWORKS: dict[tuple[str, ...], list[Any]] = {}


def _trusted_networks() -> list[Any]:
    configured = tuple(settings.TRUSTED_PROXIES)
    if configured not in _NETWORKS:
        _NETWORKS[configured] = [ipaddress.ip_network(n, strict=False) for n in configured]
    return _NETWORKS[configured]


def client_address(peer: str, forwarded_for: str) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy (TRUSTED_PROXIES);
    then the right-most X-Forwarded-For hop that is not itself a trusted proxy."""
    if not forwarded_for or not _trusted(peer):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop):
            return hop[:64]
    return hops[0][:64] if hops else peer


def device_of(request: HttpRequest) -> tuple[str, bool]:
    """This request's device id and whether it was just given one (it came without a cookie).
    The middleware sets the cookie of a new id on the response."""
    cached = getattr(request, "_sgs_device", None)
    if cached is None:
        value = request.COOKIES.get(DEVICE_COOKIE, "")
        cached = (value, False) if DEVICE_RE.fullmatch(value) else (secrets.token_urlsafe(24), True)
        request._sgs_device = cached  # type: ignore[attr-defined]
    return cached


def of_request(request: HttpRequest) -> Client:
    """The client of an HTTP request."""
    device, new = device_of(request)
    peer = request.META.get("REMOTE_ADDR") or "?"
    address = client_address(peer, request.META.get("HTTP_X_FORWARDED_FOR", ""))
    return Client(device=device, address=address, anonymous=new)


def of_scope(scope: dict[str, Any]) -> Client:
    """The client of a websocket (a phone's socket carries the cookie its page was given)."""
    headers = dict(scope.get("headers") or [])
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin1"))
    value = cookies.get(DEVICE_COOKIE, "")
    device = value if DEVICE_RE.fullmatch(value) else ""
    client = scope.get("client") or ("?", 0)
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin1")
    address = client_address(str(client[0]), forwarded)
    return Client(device=device, address=address, anonymous=not device)


def _client(who: HttpRequest | Client) -> Client:
    return who if isinstance(who, Client) else of_request(who)


def blocked(who: HttpRequest | Client) -> bool:
    """Whether this client has failed too many lookups in the last minute."""
    keys = _client(who).keys()
    counts = cache.get_many(list(keys))
    return any(int(counts.get(key, 0)) >= limit for key, limit in keys.items())


def failed(who: HttpRequest | Client) -> None:
    """Count one failed lookup (a browser's own request for an icon or a manifest does not)."""
    if isinstance(who, HttpRequest) and AUTOMATIC_PATH_RE.match(who.path):
        return
    for key in _client(who).keys():
        if cache.add(key, 1, WINDOW_SECONDS):
            continue
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, WINDOW_SECONDS)
