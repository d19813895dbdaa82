"""The dashboard in a real browser: Debian's headless Chromium driven by Playwright against the
real server (uvicorn) over a 5k-memory store. Skips when /usr/bin/chromium is absent."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists() and os.environ.get("KENNING_REQUIRE_E2E"):
    raise RuntimeError("KENNING_REQUIRE_E2E is set but /usr/bin/chromium is missing "
                       "(apt-get install chromium)")
if not CHROMIUM.exists():
    pytest.skip("headless browser tests need Debian's chromium at /usr/bin/chromium "
                "(apt-get install chromium)", allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api")

from tests.web_fixtures import copy_store, running_server, seed  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PNG = b"\x89PNG\r\n\x1a\n"
VIEWS = {  # hash route -> a selector that shows the view has rendered its data
    "#/memories": "table.data tbody tr",
    "#/graph": "#graph-canvas[data-rendered-ms]",
    "#/timeline": "ul.chips a",
    "#/health": ".metrics .metric",
    "#/injected": "#view-title",
    "#/memory-md": "#view-title",
}


@pytest.fixture(scope="session")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """5,000 memories in linked topic clusters, consolidated (seeded once per session)."""
    return seed(tmp_path_factory.mktemp("web-5k") / "5k.db", 5000)


@pytest.fixture(scope="session")
def base_url(big_store: dict[str, Any]) -> Iterator[str]:
    with running_server(big_store["path"]) as url:
        yield url


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("KENNING_WEB_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Page:
    """A fresh browser page that records console errors, page errors and failed requests."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("response", lambda r: self.errors.append(f"HTTP {r.status} {r.url}")
                     if r.status >= 400 else None)

    def open(self, url: str, ready: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        self.page.wait_for_selector(ready, timeout=15_000)

    def shot(self, path: Path) -> bytes:
        data = self.page.screenshot(path=str(path))
        assert data.startswith(PNG) and len(data) > 10_000, f"{path} looks empty"
        return data


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    p = Page(browser)
    yield p
    p.context.close()


@pytest.mark.parametrize("view", list(VIEWS))
def test_each_view_loads_without_errors(page: Page, base_url: str, shots: Path, view: str
                                        ) -> None:
    page.open(f"{base_url}/{view}", VIEWS[view])
    page.page.wait_for_timeout(200)
    title = page.page.locator("#view-title").inner_text()
    assert title and "wrong" not in page.page.locator("main").inner_text()
    assert page.page.locator(f"nav a[href='{view}']").get_attribute("aria-current") == "page"
    page.shot(shots / f"{view[2:]}.png")
    assert page.errors == []


def test_search_then_open_a_memory(page: Page, base_url: str, shots: Path) -> None:
    page.open(f"{base_url}/#/memories", "table.data tbody tr")
    assert "5000 memories" in page.page.locator("table.data caption").inner_text()
    page.page.get_by_label("Search (hybrid recall)").fill("WAL mode")
    page.page.get_by_role("button", name="Search").click()
    page.page.wait_for_selector("table.data caption:has-text('best matches')")
    rows = page.page.locator("table.data tbody tr")
    assert rows.count() > 0
    first = rows.first.locator("td a").first
    summary = first.inner_text()
    assert "WAL mode" in summary
    first.click()
    page.page.wait_for_selector("section[aria-label^='Links'] table")
    assert page.page.locator("#view-title").inner_text() == summary
    assert page.page.locator("#view-title").evaluate("el => el === document.activeElement")
    content = page.page.locator("pre.content").inner_text()
    assert "WAL mode" in content
    buttons = page.page.locator("button.write")
    assert buttons.count() > 0
    assert all(buttons.nth(i).is_disabled() for i in range(buttons.count())), "read-only"
    page.shot(shots / "memory-detail.png")
    assert page.errors == []


def test_topic_timeline_shows_decisions_and_outcomes(page: Page, base_url: str, shots: Path,
                                                    big_store: dict[str, Any]) -> None:
    topic = big_store["topics"][3]
    page.open(f"{base_url}/#/timeline?topic={topic}", "ol.timeline > li")
    entries = page.page.locator("ol.timeline > li")
    assert entries.count() == len(big_store["decisions"][3])
    assert page.page.locator("ol.timeline .badge.outcome-failed").count() > 0
    assert "supersedes" in page.page.locator("ol.timeline").inner_text()
    page.shot(shots / "timeline-topic.png")
    assert page.errors == []


def test_graph_renders_and_focuses(page: Page, base_url: str, shots: Path) -> None:
    """The 5k graph draws and takes focus (its render time: benchmarks/bench_web.py)."""
    page.page.goto("about:blank")
    page.open(f"{base_url}/#/graph", VIEWS["#/graph"])
    timing = page.page.evaluate("window.kenningGraph")
    assert timing["nodes"] == 5000 and timing["edges"] > 5000
    assert timing["renderedAtMs"] > 0 and timing["firstDrawMs"] > 0
    canvas = page.page.locator("#graph-canvas")
    png = canvas.screenshot()
    assert png.startswith(PNG) and len(png) > 20_000, "the canvas has a drawing"
    page.shot(shots / "graph-5k.png")
    # Keyboard: into the canvas, zoom and pan, then select the most central memory (centred).
    canvas.focus()
    for key in ("+", "-", "ArrowLeft", "ArrowUp", "0"):
        page.page.keyboard.press(key)
    page.page.keyboard.press("n")
    info = page.page.locator("aside.graph-info")
    info.get_by_role("link", name="Open this memory").wait_for()
    assert "Neighbours" in info.inner_text()
    chosen = info.locator("h2").inner_text()
    page.page.keyboard.press("Escape")
    page.page.wait_for_selector("aside.graph-info >> text=No memory selected.")
    # Mouse: clicking the centred node focuses it again; the wheel zooms.
    box = canvas.bounding_box()
    page.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    info.get_by_role("link", name="Open this memory").wait_for()
    assert info.locator("h2").inner_text() == chosen
    page.page.mouse.wheel(0, -400)
    page.page.wait_for_timeout(100)
    page.shot(shots / "graph-focused.png")
    assert page.errors == []


def test_health_actions_work_when_writes_are_allowed(browser: Any, big_store: dict[str, Any],
                                                     tmp_path: Path, shots: Path) -> None:
    store = copy_store(big_store["path"], tmp_path / "writable.db")
    with running_server(store, allow_writes=True) as url:
        p = Page(browser)
        try:
            p.open(f"{url}/#/health", ".recs li")
            button = p.page.get_by_role("button", name="Merge “requires” into “depends_on”")
            assert button.is_enabled()
            button.click()
            p.page.wait_for_selector(".recs .ok")
            assert "merged" in p.page.locator(".recs .ok").inner_text()
            p.page.get_by_role("button", name="Review links said “sketched_beside”").click()
            down = p.page.get_by_role("button", name="Down-vote link sketched_beside")
            down.click()
            p.page.wait_for_timeout(300)
            assert p.errors == []
            p.shot(shots / "health-writable.png")
        finally:
            p.context.close()
