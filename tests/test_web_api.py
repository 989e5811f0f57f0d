"""The dashboard's HTTP API and pages through Flask's test client, on a FakeTable."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app
from web.fake import FakeTable

PIN = "2468"
ADMIN = {"X-Admin-Pin": PIN}


@pytest.fixture()
def table() -> FakeTable:
    return FakeTable(seed=3)


@pytest.fixture()
def app(table: FakeTable) -> Flask:
    return create_app(table, {"admin_pin": PIN, "sse_poll": 0.02, "sse_keepalive": 0.05,
                              "public_url": "http://referee.local:8080", "TESTING": True})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def error_of(response: Any) -> str:
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"]
    return str(body["error"])


# ----- pages ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/table", "/feed", "/history", "/history/1", "/join", "/admin"])
def test_pages_render_with_nav_and_local_assets_only(client: FlaskClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert 'name="viewport"' in html and "/static/style.css" in html and "/static/common.js" in html
    assert "http://" not in html.replace("http://www.w3.org", "") or path == "/join"  # no CDN
    assert "https://" not in html


def test_static_assets_served(client: FlaskClient) -> None:
    for name in ["style.css", "common.js", "scoreboard.js", "table.js", "feed.js", "setup.js",
                 "history.js", "match.js", "admin.js", "icon.svg"]:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert b"http://" not in r.data.replace(b"http://www.w3.org", b""), name


def test_setup_page_needs_admin_and_redirects_to_pin_form(client: FlaskClient) -> None:
    r = client.get("/setup")
    assert r.status_code == 302 and "/admin?next=/setup" in r.headers["Location"]


def test_unknown_match_page_is_404(client: FlaskClient) -> None:
    assert client.get("/history/999").status_code == 404


# ----- read API ------------------------------------------------------------------------------

def test_match_snapshot_shape(client: FlaskClient, table: FakeTable) -> None:
    table.simulate_step()
    r = client.get("/api/match")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    snap = r.get_json()
    assert set(snap) == {"match_id", "game", "state", "round", "turn", "direction", "seats",
                         "recent", "options", "winner", "clock", "t0"}
    assert snap["state"] == "running" and snap["game"] == "wackee-six"
    assert [s["seat"] for s in snap["seats"]] == [1, 2, 3, 4]
    for seat in snap["seats"]:
        assert set(seat) == {"seat", "name", "colour", "score", "round_score", "info"}
    v = snap["recent"][-1]
    assert set(v) == {"id", "t", "seat", "verdict", "text", "reason", "consequence", "event_id"}
    assert v["verdict"] in ("legal", "illegal", "late", "ignored", "info")


def test_games_lists_seats_and_options(client: FlaskClient) -> None:
    games = client.get("/api/games").get_json()["games"]
    names = [g["name"] for g in games]
    assert "wackee-six" in names and "spite-and-malice" in names
    for g in games:
        lo, hi = g["seats"]
        assert 2 <= lo <= hi
        for opt in g["options"].values():
            assert set(opt) >= {"default", "help"}


def test_feed_pages_by_since_and_limit(client: FlaskClient, table: FakeTable) -> None:
    for _ in range(5):
        table.simulate_step()
    first = client.get("/api/feed?limit=3").get_json()
    assert len(first["events"]) == 3 and first["last_id"] == first["events"][-1]["id"]
    rest = client.get(f"/api/feed?since={first['last_id']}&limit=1000").get_json()
    assert rest["events"] and all(e["id"] > first["last_id"] for e in rest["events"])
    for e in rest["events"]:
        assert {"id", "t", "kind", "seat"} <= set(e)


@pytest.mark.parametrize("query", ["since=x", "limit=0", "limit=5000", "since=-1"])
def test_feed_rejects_bad_query(client: FlaskClient, query: str) -> None:
    r = client.get(f"/api/feed?{query}")
    assert r.status_code == 400 and "since" in error_of(r)


def test_history_list_record_and_log(client: FlaskClient) -> None:
    matches = client.get("/api/history").get_json()["matches"]
    assert matches and {"id", "game", "seats", "started", "finished", "winner"} <= set(matches[0])
    mid = matches[0]["id"]
    rec = client.get(f"/api/history/{mid}").get_json()
    assert set(rec) >= {"header", "rounds", "standings", "verdicts"}
    assert rec["rounds"] and {"round", "scores"} <= set(rec["rounds"][0])
    log = client.get(f"/api/history/{mid}/log")
    assert log.status_code == 200
    assert f'match-{mid}.jsonl' in log.headers["Content-Disposition"]
    lines = [json.loads(line) for line in log.get_data(as_text=True).splitlines()]
    assert lines[0]["type"] == "header" and len(lines) > 1


def test_history_unknown_id_is_404_json(client: FlaskClient) -> None:
    for path in ["/api/history/999", "/api/history/999/log"]:
        r = client.get(path)
        assert r.status_code == 404 and "999" in error_of(r)


def test_qr_svg_encodes_public_url(client: FlaskClient) -> None:
    r = client.get("/api/qr.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.data.startswith(b"<svg") and b"<path" in r.data
    assert "http://referee.local:8080/" in client.get("/join").get_data(as_text=True)


def test_qr_falls_back_to_request_host(table: FakeTable) -> None:
    client = create_app(table, {"admin_pin": PIN}).test_client()
    page = client.get("/join", base_url="http://192.168.4.7:8080").get_data(as_text=True)
    assert "http://192.168.4.7:8080/" in page


def test_frame_jpeg_and_missing_picture(client: FlaskClient, table: FakeTable,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    r = client.get("/api/frame.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data[:2] == b"\xff\xd8"
    monkeypatch.setattr(table, "frame_jpeg", lambda: None)
    r = client.get("/api/frame.jpg")
    assert r.status_code == 503 and "camera" in error_of(r)


def test_mjpeg_stream_sends_multipart_jpeg(client: FlaskClient) -> None:
    r = client.get("/live.mjpg", buffered=False)
    assert r.status_code == 200 and r.mimetype == "multipart/x-mixed-replace"
    assert r.mimetype_params["boundary"] == "frame"
    first = next(iter(r.response))
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg\r\n") and b"\xff\xd8" in first
    r.close()


def test_mjpeg_viewer_limit(table: FakeTable) -> None:
    client = create_app(table, {"admin_pin": PIN, "max_mjpeg": 0}).test_client()
    assert client.get("/live.mjpg").status_code == 503


def test_sse_stream_through_test_client(client: FlaskClient, table: FakeTable) -> None:
    r = client.get("/api/events", buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"].startswith("no-cache")
    chunks = iter(r.response)
    first = next(chunks).decode()
    assert first.startswith("retry: 2000\nevent: state\ndata: {")
    table.simulate_step()
    text = ""
    while "event: verdict" not in text:
        text += next(chunks).decode()
    assert "id: " in text and "event: event" in text
    r.close()


def test_sse_sends_keepalive_comments_when_idle(client: FlaskClient) -> None:
    r = client.get("/api/events", buffered=False)
    chunks = iter(r.response)
    next(chunks)
    assert next(chunks) == b": keep-alive\n\n"
    r.close()


def test_sse_limit_answers_503(table: FakeTable) -> None:
    client = create_app(table, {"admin_pin": PIN, "max_streams": 0}).test_client()
    r = client.get("/api/events")
    assert r.status_code == 503 and r.headers["Retry-After"] and "viewers" in error_of(r)


def test_sse_closing_frees_subscription(client: FlaskClient, table: FakeTable) -> None:
    r = client.get("/api/events", buffered=False)
    next(iter(r.response))
    assert table.hub.subscriber_count == 1
    r.close()
    assert table.hub.subscriber_count == 0


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    r = client.get("/api/nope")
    assert r.status_code == 404 and error_of(r)


# ----- admin ---------------------------------------------------------------------------------

def test_admin_calls_need_the_pin(client: FlaskClient) -> None:
    r = client.post("/api/command", json={"action": "pause"})
    assert r.status_code == 401 and "PIN" in error_of(r)
    r = client.post("/api/setup", json={"game": "wonky", "seats": []})
    assert r.status_code == 401
    r = client.post("/api/command", json={"action": "pause"}, headers={"X-Admin-Pin": "0000"})
    assert r.status_code == 401


def test_command_with_header_pin(client: FlaskClient, table: FakeTable) -> None:
    r = client.post("/api/command", json={"action": "pause"}, headers=ADMIN)
    assert r.status_code == 200 and r.get_json() == {"ok": True, "result": {"state": "paused"}}
    assert table.snapshot()["state"] == "paused"
    r = client.post("/api/command", json={"action": "pause"}, headers=ADMIN)
    assert r.status_code == 400 and "paused" in error_of(r)
    assert client.post("/api/command", json={"action": "resume"}, headers=ADMIN).status_code == 200
    assert client.post("/api/command", json={"action": "stop"}, headers=ADMIN).status_code == 200
    assert table.snapshot()["state"] == "stopped"


def test_login_sets_session_cookie_then_commands_work(client: FlaskClient) -> None:
    bad = client.post("/admin/login", data={"pin": "1111"})
    assert bad.status_code == 401 and "wrong PIN" in bad.get_data(as_text=True)
    ok = client.post("/admin/login", data={"pin": PIN, "next": "/setup"})
    assert ok.status_code == 302 and ok.headers["Location"].endswith("/setup")
    assert "SameSite=Strict" in ok.headers["Set-Cookie"] and "HttpOnly" in ok.headers["Set-Cookie"]
    assert client.get("/setup").status_code == 200
    assert client.post("/api/command", json={"action": "pause"}).status_code == 200
    client.post("/admin/logout")
    assert client.post("/api/command", json={"action": "resume"}).status_code == 401


def test_login_next_is_not_an_open_redirect(client: FlaskClient) -> None:
    r = client.post("/admin/login", data={"pin": PIN, "next": "//evil.example/x"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/admin")


def test_repeated_wrong_pins_lock_out(table: FakeTable) -> None:
    client = create_app(table, {"admin_pin": PIN, "pin_max_attempts": 2}).test_client()
    env = {"REMOTE_ADDR": "10.9.9.9"}
    for _ in range(2):
        client.post("/admin/login", data={"pin": "0"}, environ_base=env)
    r = client.post("/admin/login", data={"pin": PIN}, environ_base=env)
    assert r.status_code == 401 and "too many" in r.get_data(as_text=True)


def test_admin_disabled_without_pin(table: FakeTable) -> None:
    client = create_app(table).test_client()
    r = client.post("/api/command", json={"action": "pause"}, headers={"X-Admin-Pin": ""})
    assert r.status_code == 403 and "admin_pin" in error_of(r)
    assert "turned off" in client.get("/admin").get_data(as_text=True)


@pytest.mark.parametrize("body, words", [
    ({"action": "fly"}, "unknown action"),
    ({"action": "pause", "seat": 1}, "does not take seat"),
    ({}, "send JSON"),
    ({"action": "correct", "verdict_id": 99999, "ruling": "legal"}, "no verdict 99999"),
    ({"action": "correct", "verdict_id": 1, "ruling": "maybe"}, "ruling"),
    ({"action": "manual", "seat": 9, "what": "hand_count", "value": 2}, "seat"),
])
def test_bad_commands_are_400_with_clear_message(client: FlaskClient, body: dict[str, Any],
                                                 words: str) -> None:
    r = client.post("/api/command", json=body, headers=ADMIN)
    assert r.status_code == 400 and words in error_of(r)


def test_correct_a_verdict_and_manual_entry(client: FlaskClient, table: FakeTable) -> None:
    table.simulate_step()
    vid = table.snapshot()["recent"][-1]["id"]
    r = client.post("/api/command", json={"action": "correct", "verdict_id": vid,
                                          "ruling": "illegal", "note": "card slid"}, headers=ADMIN)
    assert r.status_code == 200 and r.get_json()["result"]["corrected"] == vid
    recent = table.snapshot()["recent"]
    assert next(v for v in recent if v["id"] == vid)["verdict"] == "illegal"
    assert "corrected" in recent[-1]["text"]
    r = client.post("/api/command", json={"action": "manual", "seat": 2, "what": "hand_count",
                                          "value": 4}, headers=ADMIN)
    assert r.status_code == 200
    assert table.snapshot()["seats"][1]["info"]["hand"] == 4


def test_add_what_the_camera_missed(client: FlaskClient, table: FakeTable) -> None:
    r = client.post("/api/command", json={"action": "add", "event": {
        "kind": "block", "seat": 1, "colour": "green", "size": "small"}}, headers=ADMIN)
    assert r.status_code == 200 and r.get_json()["result"]["added"] == "block"
    r = client.post("/api/command", json={"action": "add", "event": {"kind": "deal"}},
                    headers=ADMIN)
    assert r.status_code == 400 and "camera, a pad or the tilt sensor missed" in error_of(r)


# ----- setup ---------------------------------------------------------------------------------

def _stop(client: FlaskClient) -> None:
    client.post("/api/command", json={"action": "stop"}, headers=ADMIN)


def test_setup_then_start(client: FlaskClient, table: FakeTable) -> None:
    _stop(client)
    body = {"game": "spite-and-malice", "seats": [{"name": "Zoe", "colour": "purple"},
                                                  {"name": "Yan", "colour": "white"}],
            "options": {"pay_off_size": 10}}
    r = client.post("/api/setup", json=body, headers=ADMIN)
    assert r.status_code == 200 and r.get_json()["match"]["state"] == "setup"
    snap = table.snapshot()
    assert snap["game"] == "spite-and-malice" and snap["options"]["pay_off_size"] == 10
    assert [s["name"] for s in snap["seats"]] == ["Zoe", "Yan"]
    assert client.post("/api/command", json={"action": "start"}, headers=ADMIN).status_code == 200
    assert table.snapshot()["state"] == "running"


@pytest.mark.parametrize("body, words", [
    ("not json", "send JSON"),
    ({"seats": []}, "game is required"),
    ({"game": "wonky", "seats": "Ann"}, "seats must be a list"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}], "options": []}, "options must be"),
    ({"game": "poker", "seats": []}, "unknown game 'poker'"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}]}, "needs 2 to 4 seats, got 1"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}, {"name": "B", "colour": "blue"}]},
     "already taken"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}, {"name": "B", "colour": "mauve"}]},
     "unknown deck colour 'mauve'"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}, {"name": "", "colour": "red"}]},
     "needs a name"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}, {"name": "B", "colour": "red"}],
      "options": {"speed": 3}}, "unknown option 'speed'"),
    ({"game": "wonky", "seats": [{"name": "A", "colour": "blue"}, {"name": "B", "colour": "red"}],
      "options": {"tilt_sensitivity": "high"}}, "must be float"),
])
def test_bad_setup_is_400_with_clear_message(client: FlaskClient, body: Any, words: str) -> None:
    _stop(client)
    if isinstance(body, str):
        r = client.post("/api/setup", data=body, headers={**ADMIN, "Content-Type": "text/plain"})
    else:
        r = client.post("/api/setup", json=body, headers=ADMIN)
    assert r.status_code == 400
    assert words in error_of(r)


def test_setup_during_a_running_match_is_refused(client: FlaskClient) -> None:
    body = {"game": "wonky", "seats": [{"name": "A", "colour": "blue"}, {"name": "B", "colour": "red"}]}
    r = client.post("/api/setup", json=body, headers=ADMIN)
    assert r.status_code == 400 and "in progress" in error_of(r)


# ----- config --------------------------------------------------------------------------------

def test_unknown_config_key_is_a_clear_error(table: FakeTable) -> None:
    with pytest.raises(ValueError, match="unknown web config key.*admin_pni"):
        create_app(table, {"admin_pni": "1"})


def test_blank_pin_is_rejected(table: FakeTable) -> None:
    with pytest.raises(ValueError, match="admin_pin"):
        create_app(table, {"admin_pin": "  "})
