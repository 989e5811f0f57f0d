"""Joining: a page with a big QR code of the dashboard's address, and GET /api/qr.svg."""

from __future__ import annotations

from typing import Any

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, render_template

from ..netaddr import public_url

bp = Blueprint("join", __name__)


def qr_svg(data: str) -> str:
    """`data` as an SVG QR code (pure Python, no Pillow), black on white, quiet zone 4."""
    qr = qrcode.QRCode(border=4, error_correction=qrcode.constants.ERROR_CORRECT_M,
                       image_factory=qrcode.image.svg.SvgPathFillImage)
    qr.add_data(data)
    qr.make(fit=True)
    img = qr.make_image()
    return str(img.to_string(encoding="unicode"))


@bp.get("/join")
def page() -> str:
    return render_template("join.html", area="join", url=public_url())


@bp.get("/api/qr.svg")
def qr() -> Any:
    return Response(qr_svg(public_url()), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
