"""A self-signed certificate for `play --https`: phones get a secure context (and with it the
Screen Wake Lock) from the laptop's LAN address, once each phone has accepted the certificate.

Made with the `openssl` command (on every laptop that runs the bash scripts), kept under
DATA_DIR/tls/ and made again only when this machine has an address the certificate does not
name (a new network): every phone must then accept the new one.
"""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
from pathlib import Path

# Phones refuse certificates valid for longer than this (iOS: 825 days), even once accepted.
VALID_DAYS = 825


def _alt_name(host: str) -> str:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return f"DNS:{host}"
    return f"IP:{host.strip('[]')}"


def certificate(folder: Path, hosts: list[str]) -> tuple[Path, Path]:
    """The certificate and key files naming `hosts` (made now if missing or not naming all)."""
    cert, key, named = folder / "cert.pem", folder / "key.pem", folder / "names.txt"
    wanted = sorted({"localhost", "127.0.0.1", *hosts})
    if cert.exists() and key.exists() and named.exists():
        if set(wanted) <= set(named.read_text().split()):
            return cert, key
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RuntimeError("--https needs the openssl command to make its certificate")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(  # noqa: S603 - fixed arguments, our own host names
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            str(VALID_DAYS),
            "-subj",
            "/CN=Sanguosha table companion",
            "-addext",
            "subjectAltName=" + ",".join(_alt_name(h) for h in wanted),
            "-addext",
            "extendedKeyUsage=serverAuth",
        ],
        check=True,
        capture_output=True,
    )
    key.chmod(0o600)
    named.write_text("\n".join(wanted) + "\n")
    return cert, key
