"""A phone follows a real demo match: the table service refereeing simulated players (pads through
gpiozero mock pins), served by the production server, watched in headless Chromium. Scores and
verdicts must change live; screenshots are kept under artifacts/screenshots/."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.buzzer import RecordingBuzzer
from referee.demo import Demo, DemoClock
from referee.table import Table
from web import create_app
from web.server import serve

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is missing: apt-get install -y chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture()
def demo_url(tmp_path: Path) -> Iterator[tuple[str, Table]]:
    from referee.store import MatchStore

    clock = DemoClock(speed=4.0)
    table = Table(store=MatchStore(tmp_path / "demo.sqlite3"), buzzer=RecordingBuzzer(clock=clock),
                  clock=clock)
    table.start_ticker()
    demo = Demo(table, "wackee-six", 4, seed=3, speed=4.0, vision=False, clock=clock)
    handle = serve(create_app(table, {"admin_pin": "1234"}), "127.0.0.1", 0)
    runner = threading.Thread(target=demo.run, kwargs={"duration": 600}, daemon=True)
    runner.start()
    yield handle.url, table
    demo.close()
    runner.join(5)
    table.close()
    handle.stop()


def test_a_phone_follows_a_demo_match_live(demo_url: tuple[str, Table]) -> None:
    url, table = demo_url
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      device_scale_factor=2, is_mobile=True, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        # The match appears, with the four demo players.
        page.wait_for_function("document.querySelectorAll('#seats .score').length === 4",
                               timeout=20_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "demo-start.png"), full_page=True)
        first_verdicts = page.locator("li.verdict .text").all_inner_texts()
        # Verdicts change live, without reloading: a new call appears at the top.
        page.wait_for_function(
            "([before]) => { const t = [...document.querySelectorAll('li.verdict .text')]"
            ".map(e => e.textContent); return t.length > 0 && t[0] !== before; }",
            arg=[first_verdicts[0] if first_verdicts else ""], timeout=30_000)
        # An illegal play is called out in plain words naming the seat.
        page.wait_for_selector("li.verdict.illegal", timeout=60_000)
        text = page.locator("li.verdict.illegal .text").first.inner_text()
        names = {s["name"] for s in table.snapshot()["seats"]}
        assert any(text.startswith(f"{n}:") for n in names), text
        # Scores change live once a round ends, and match what the referee holds.
        page.wait_for_function(
            "[...document.querySelectorAll('#seats .score')].some(e => e.textContent.trim() !== '0')",
            timeout=120_000)
        page.screenshot(path=str(SHOTS / "demo-scores.png"), full_page=True)
        held = [str(s["score"]) for s in table.snapshot()["seats"]]
        page.wait_for_function(  # the page shows exactly the referee's scores, seat by seat
            "([held]) => JSON.stringify([...document.querySelectorAll('#seats .score')]"
            ".map(e => e.textContent.trim())) === JSON.stringify(held)", arg=[held],
            timeout=10_000)
        context.close()
        browser.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"
