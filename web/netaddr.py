"""The address phones should open: config public_url, else this host's LAN IP."""

from __future__ import annotations

import ipaddress
import socket

from flask import request

from .context import setting


def lan_ip() -> str | None:
    """This machine's LAN address (a UDP connect sends no packet), or None when offline."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def public_url() -> str:
    """The dashboard's address for the QR code and the join page."""
    configured = setting("public_url")
    if configured:
        return str(configured).rstrip("/") + "/"
    hostname = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    if not _is_loopback(hostname):
        return request.host_url
    ip = lan_ip()
    if ip is None:
        return request.host_url
    port = request.host.rsplit(":", 1)[1] if ":" in request.host.split("]")[-1] else ""
    return f"http://{ip}{':' + port if port else ''}/"
