"""QR codes: SVG for pages, text for the terminal."""

from __future__ import annotations

import io
from functools import lru_cache

import qrcode
import qrcode.image.svg
from django.utils.safestring import SafeString, mark_safe


def qr_svg(data: str) -> SafeString:
    """An inline SVG QR code scaled to its container."""
    image = qrcode.make(
        data,
        image_factory=qrcode.image.svg.SvgPathImage,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        border=2,
    )
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode()
    svg = svg[svg.index("<svg") :]
    svg = svg.replace('width="', 'data-w="', 1).replace('height="', 'data-h="', 1)
    svg = svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR" ', 1)
    # Built only from our own URL by qrcode: no user input reaches this markup.
    return mark_safe(svg)  # noqa: S308


def qr_text(data: str) -> str:
    """A QR code drawn with block characters, for the terminal."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


@lru_cache(maxsize=1024)
def join_qr_svg(join_url: str) -> SafeString:
    """`qr_svg` of a table's join address, drawn once per address: every screen of the table
    shows it on every load, and drawing it is a third of a screen's time. (Only addresses that
    are no secret are kept: not the one-time handover links.)"""
    return qr_svg(join_url)
