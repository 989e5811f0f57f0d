"""The dashboard behind the real waitress server on 127.0.0.1: SSE, MJPEG, stop()."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.request
from collections.abc import Iterator

import pytest

from web import create_app
from web.fake import FakeTable
from web.server import ServerHandle, serve


@pytest.fixture()
def table() -> FakeTable:
    return FakeTable(seed=5)


@pytest.fixture()
def server(table: FakeTable) -> Iterator[ServerHandle]:
    app = create_app(table, {"admin_pin": "1357", "sse_poll": 0.05, "max_streams": 20,
                             "max_mjpeg": 2})
    handle = serve(app, "127.0.0.1", 0)
    yield handle
    handle.stop()


def read_sse(resp: http.client.HTTPResponse, count: int) -> list[dict[str, str]]:
    """Parse `count` SSE blocks (comments skipped) from a live response."""
    blocks: list[dict[str, str]] = []
    current: dict[str, str] = {}
    while len(blocks) < count:
        line = resp.readline().decode().rstrip("\n")
        if line == "":
            if current:
                blocks.append(current)
            current = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(": ")
            current[key] = value
    return blocks


def test_sse_through_real_server(server: ServerHandle, table: FakeTable) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/events")
    resp = conn.getresponse()
    assert resp.status == 200
    assert resp.getheader("Content-Type", "").startswith("text/event-stream")
    first = read_sse(resp, 1)[0]
    assert first["event"] == "state" and json.loads(first["data"])["state"] == "running"
    done = threading.Event()
    publisher = threading.Thread(target=lambda: (table.simulate_step(), done.set()))
    publisher.start()
    blocks = read_sse(resp, 3)
    publisher.join()
    assert [b["event"] for b in blocks] == ["event", "verdict", "state"]
    ids = [int(b["id"]) for b in blocks]
    assert ids == sorted(ids) and len(set(ids)) == 3
    verdict = json.loads(blocks[1]["data"])
    assert verdict["verdict"] in ("legal", "illegal", "late") and verdict["text"]
    conn.close()


def test_many_sse_clients_each_get_every_message(server: ServerHandle, table: FakeTable) -> None:
    conns = []
    for _ in range(10):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        read_sse(resp, 1)
        conns.append((conn, resp))
    for _ in range(3):
        table.simulate_step()
    for conn, resp in conns:
        blocks = read_sse(resp, 9)
        assert [b["event"] for b in blocks].count("verdict") == 3
        conn.close()


def test_pages_and_api_answer_while_streams_are_open(server: ServerHandle) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/events")
    read_sse(conn.getresponse(), 1)
    with urllib.request.urlopen(server.url + "/api/match", timeout=5) as r:
        assert json.load(r)["game"] == "wackee-six"
    with urllib.request.urlopen(server.url + "/", timeout=5) as r:
        assert b"scoreboard.js" in r.read()
    conn.close()


def test_mjpeg_through_real_server(server: ServerHandle) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/live.mjpg")
    resp = conn.getresponse()
    assert resp.status == 200
    assert resp.getheader("Content-Type") == "multipart/x-mixed-replace; boundary=frame"
    assert resp.readline() == b"--frame\r\n"
    headers = {}
    while (line := resp.readline()) != b"\r\n":
        key, _, value = line.decode().partition(": ")
        headers[key] = value.strip()
    body = resp.read(int(headers["Content-Length"]))
    assert headers["Content-Type"] == "image/jpeg" and body[:2] == b"\xff\xd8"
    conn.close()


def test_stop_ends_open_streams_and_frees_the_port(table: FakeTable) -> None:
    app = create_app(table, {"sse_poll": 0.05})
    handle = serve(app, "127.0.0.1", 0)
    conn = http.client.HTTPConnection("127.0.0.1", handle.port, timeout=10)
    conn.request("GET", "/api/events")
    resp = conn.getresponse()
    read_sse(resp, 1)
    handle.stop()
    assert not handle._thread.is_alive()
    assert table.hub.subscriber_count == 0
    with pytest.raises(OSError):
        urllib.request.urlopen(handle.url + "/api/match", timeout=2)
    conn.close()


def test_serve_refuses_too_few_threads(table: FakeTable) -> None:
    app = create_app(table, {"max_streams": 100})
    with pytest.raises(ValueError, match="too few for max_streams"):
        serve(app, "127.0.0.1", 0, threads=50)
