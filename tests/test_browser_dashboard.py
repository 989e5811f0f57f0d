"""The dashboard in headless Chromium on a phone-sized page, following a live (fake) match.

Screenshots go to artifacts/screenshots/. Point the scoreboard test at a running referee with
REFEREE_DASHBOARD_URL=http://host:port (the fake table is then not used and the test waits
for the real match to change; REFEREE_ADMIN_PIN enables the admin pages there).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web import create_app
from web.fake import FakeTable
from web.server import ServerHandle, serve

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PIN = "2468"
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
REAL_URL = os.environ.get("REFEREE_DASHBOARD_URL")
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is missing: apt-get install -y chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def table() -> FakeTable:
    return FakeTable(seed=7, rounds_to_win=3, steps_per_round=6)


@pytest.fixture()
def server(table: FakeTable) -> Iterator[ServerHandle]:
    handle = serve(create_app(table, {"admin_pin": PIN, "sse_poll": 0.1}), "127.0.0.1", 0)
    yield handle
    handle.stop()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, reduced_motion="reduce")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def shot(page: Any, name: str, full: bool = True) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    assert path.stat().st_size > 5000
    return path


def seat_scores(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#seats .score").all_inner_texts()]


def login(page: Any, base: str, pin: str = PIN) -> None:
    page.goto(base + "/admin")
    page.fill("#pin", pin)
    page.click("button[type=submit]")
    page.wait_for_selector("[data-action=start]")


def test_phone_follows_a_live_match(page: Any, table: FakeTable, server: ServerHandle) -> None:
    base = REAL_URL or server.url
    page.goto(base + "/")
    page.wait_for_selector("#seats li")
    page.wait_for_selector("#live-status.on")
    before = seat_scores(page)
    first_verdict = page.evaluate("document.querySelector('#verdicts .verdict')?.dataset.id ?? null")
    shot(page, "scoreboard-start")
    if REAL_URL:
        page.wait_for_function(
            "([s, v]) => [...document.querySelectorAll('#seats .score')].map(e => e.textContent).join() !== s"
            " || document.querySelector('#verdicts .verdict')?.dataset.id !== v",
            arg=[",".join(before), first_verdict], timeout=120_000)
        shot(page, "scoreboard-live")
        return
    for _ in range(4):
        table.simulate_step()
    snap = table.snapshot()
    want = [str(s["score"]) for s in snap["seats"]]
    newest = snap["recent"][-1]
    page.wait_for_function(
        "([want, id]) => [...document.querySelectorAll('#seats .score')].map(e => e.textContent).join() === want"
        " && document.querySelector('#verdicts .verdict')?.dataset.id === String(id)",
        arg=[",".join(want), newest["id"]], timeout=10_000)
    assert seat_scores(page) == want and want != before
    assert page.locator("#verdicts .verdict .text").first.inner_text() == newest["text"]
    # Whose turn: named in words, and the seat is tagged TURN, not only coloured.
    turn = snap["seats"][snap["turn"] - 1]
    assert f"{turn['name']} ({turn['colour']}) to play" in page.inner_text("#turn")
    assert page.locator(f"#seats li[data-seat='{turn['seat']}'] .tag").inner_text() == "TURN"
    for s in snap["seats"]:
        assert f"{s['colour']} deck" in page.inner_text(f"#seats li[data-seat='{s['seat']}']")
    assert page.inner_text("#round") == f"Round {snap['round']}"
    shot(page, "scoreboard-live")
    # Play on to the end of the match: the winner is announced.
    while table.snapshot()["state"] == "running":
        table.simulate_step()
    winner = table.snapshot()["winner"]
    page.wait_for_selector("#winner:not([hidden])", timeout=10_000)
    assert table.snapshot()["seats"][winner - 1]["name"] in page.inner_text("#winner")
    shot(page, "scoreboard-finished")


def test_layout_fits_a_phone(page: Any, server: ServerHandle) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#seats li")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the scoreboard scrolls sideways on a phone"
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#seats .score')).fontSize)")
    assert size >= 40, "scores must be readable across the table"


def test_live_table_feed_history_and_join_pages(page: Any, table: FakeTable,
                                                 server: ServerHandle) -> None:
    page.goto(server.url + "/table")
    page.wait_for_function("document.getElementById('live-img').naturalWidth > 0", timeout=10_000)
    table.simulate_step()
    page.wait_for_selector("#verdicts .verdict")
    shot(page, "table")
    page.goto(server.url + "/feed")
    page.wait_for_selector("#feed li")
    n = page.locator("#feed li").count()
    table.simulate_step()
    page.wait_for_function(f"document.querySelectorAll('#feed li').length > {n}", timeout=10_000)
    shot(page, "feed", full=False)
    page.goto(server.url + "/history")
    page.click(".matches a >> nth=0")
    page.wait_for_selector("#chart svg polyline")
    rec = table.match_record(table.history()[0]["id"])
    assert page.locator("#chart svg polyline").count() == len(rec["header"]["seats"])
    assert page.locator("#rounds tbody tr").count() == len(rec["rounds"])
    shot(page, "history-match")
    page.goto(server.url + "/join")
    assert page.locator("img.qr").evaluate("img => img.complete && img.naturalWidth > 0")
    shot(page, "join", full=False)


def test_admin_setup_and_controls(page: Any, table: FakeTable, server: ServerHandle) -> None:
    page.goto(server.url + "/setup")
    assert "/admin" in page.url  # the setup form is behind the PIN
    page.fill("#pin", "0000")
    page.click("button[type=submit]")
    assert "wrong PIN" in page.inner_text("main")
    login(page, server.url)
    page.click("[data-action=stop]")
    page.wait_for_function("document.getElementById('state').textContent === 'stopped'")
    page.goto(server.url + "/setup")
    page.select_option("#game", "wig-out")
    page.select_option("#colour-2", "blue")  # same colour as player 1: refused with a reason
    page.click("button[type=submit]")
    page.wait_for_selector("#setup-error:not([hidden])")
    assert "already taken" in page.inner_text("#setup-error")
    shot(page, "setup-error")
    page.select_option("#colour-2", "orange")
    page.fill("#name-1", "Mia")
    page.fill("#opt-rounds", "2")
    page.click("#setup-start")
    page.wait_for_url(re.compile(r"/$"), timeout=10_000)
    snap = table.snapshot()
    assert snap["game"] == "wig-out" and snap["state"] == "running"
    assert snap["seats"][0]["name"] == "Mia" and snap["options"]["rounds"] == 2
    page.wait_for_function("document.getElementById('game-title').textContent === 'Wig Out'")
    table.simulate_step()
    page.goto(server.url + "/admin")
    page.wait_for_selector("#verdicts .correct-row")
    shot(page, "admin")
    page.click("[data-action=pause]")
    page.wait_for_function("document.getElementById('state').textContent === 'paused'")
    assert table.snapshot()["state"] == "paused"
    vid = int(page.locator("#verdicts .verdict").first.get_attribute("data-id"))
    page.locator("#verdicts .verdict").first.locator("button", has_text="Make illegal").click()
    page.wait_for_selector("#admin-msg:not([hidden])")
    assert next(v for v in table.snapshot()["recent"] if v["id"] == vid)["verdict"] == "illegal"


def test_admin_adds_what_the_camera_missed(page: Any, table: FakeTable, server: ServerHandle) -> None:
    page.goto(server.url + "/admin")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#add-form")
    page.select_option("#a-kind", "card")
    page.fill("#a-card", "r6")
    page.fill("#a-place", "pile:2")
    page.click("#add-form button[type=submit]")
    page.wait_for_function("document.getElementById('admin-msg').textContent === 'Done: add'")
    assert any(e["kind"] == "card" for e in table._events)
    page.select_option("#a-kind", "take_back")
    page.fill("#a-place", "")
    page.click("#add-form button[type=submit]")
    page.wait_for_selector("#admin-err:not([hidden])")
    assert "'at'" in (page.text_content("#admin-err") or "")  # names the missing place
