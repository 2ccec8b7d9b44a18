"""This machine's own network addresses, for ALLOWED_HOSTS and for the join QR code."""

from __future__ import annotations

import socket
from functools import cache


@cache
def local_addresses() -> list[str]:
    """IPv4 addresses phones on the same network may reach this machine at (no traffic sent)."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    # Connecting a UDP socket sends nothing; it only asks the kernel which local address
    # would route towards a private-range address.
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 1))
                found.append(sock.getsockname()[0])
        except OSError:
            continue
    unique = []
    for address in found:
        if address not in unique and not address.startswith("127.") and address != "0.0.0.0":  # noqa: S104
            unique.append(address)
    hostname = socket.gethostname()
    if hostname and "." not in hostname:
        unique.append(f"{hostname}.local")
    return unique
