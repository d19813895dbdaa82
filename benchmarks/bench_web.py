"""Dashboard benchmark: how fast the graph view appears and the API answers at scale.

Run ``python benchmarks/bench_web.py [--sizes 1000,5000,20000] [--runs 7] [--no-browser]``.
Per size it seeds a store of linked topic clusters (the browser tests' generator, keyword-only,
consolidated), then times the server side (graph layout + columns, /api/graph cold and cached,
list, search, memory detail, health) through Starlette's TestClient, and, when Debian's chromium
is installed, the real page in headless Chromium: first graph frame after navigation, the draw of
that frame, and redraws while panning. Medians over ``--runs``; the JSON keeps every raw value.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import benchkit
from benchkit import load_average, log, render, rounded, summarize

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the seed generator lives with the tests

from kenning import Kenning  # noqa: E402
from kenning.web import create_app  # noqa: E402
from kenning.web.graphdata import build_graph  # noqa: E402
from tests.web_fixtures import LATER, PROJECT, running_server, seed  # noqa: E402

DEFAULT_OUT = HERE / "results" / "web.json"
GEN_VERSION = "web-clusters-v1"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def timed(fn: Callable[[], Any], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def server_side(path: Path, runs: int) -> dict[str, list[float] | float]:
    from starlette.testclient import TestClient

    with Kenning(path, project=PROJECT, embedder=None, clock=lambda: LATER) as k:
        client = TestClient(create_app(k), base_url="http://127.0.0.1:7077")
        mid = k.list(limit=1)[0].id

        def cold() -> None:
            fresh = TestClient(create_app(k), base_url="http://127.0.0.1:7077")
            assert fresh.get("/api/graph").status_code == 200

        size = len(client.get("/api/graph").content)
        return {
            "graph_build_ms": timed(lambda: build_graph(k), runs),
            "graph_api_cold_ms": timed(cold, runs),
            "graph_api_cached_ms": timed(lambda: client.get("/api/graph"), runs),
            "graph_json_kb": size / 1024,
            "list_ms": timed(lambda: client.get("/api/memories?limit=50"), runs),
            "search_ms": timed(lambda: client.get("/api/memories?q=WAL+mode&limit=50"), runs),
            "detail_ms": timed(lambda: client.get(f"/api/memories/{mid}"), runs),
            "health_ms": timed(lambda: client.get("/api/health"), runs),
        }


def browser_side(path: Path, runs: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    first, draw, redraw = [], [], []
    with running_server(path) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 1400, "height": 900})
                page = context.new_page()
                page.goto(f"{url}/#/graph")
                page.wait_for_selector("#graph-canvas[data-rendered-ms]", timeout=30_000)
                timing = page.evaluate("window.kenningGraph")
                first.append(timing["renderedAtMs"])
                draw.append(timing["firstDrawMs"])
                page.locator("#graph-canvas").focus()
                for key in ("ArrowLeft", "ArrowUp", "+", "ArrowRight", "-"):
                    page.keyboard.press(key)
                    page.wait_for_timeout(40)
                    redraw.append(page.evaluate("window.kenningGraphLastDrawMs"))
                context.close()
        finally:
            browser.close()
    return {"first_frame_ms": first, "first_draw_ms": draw, "pan_redraw_ms": redraw}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    browser = not args.no_browser and CHROMIUM.exists()
    if not browser:
        log("browser timings skipped (no /usr/bin/chromium or --no-browser)")
    results: dict[str, Any] = {}
    rows = []
    for n in sizes:
        path, info = benchkit.cached_store(
            "web", n, GEN_VERSION,
            lambda p, n=n: {k: v for k, v in seed(p, n).items() if k in ("n", "injected")}
            | {"rows": n}, args.rebuild)
        log(f"{n:,}: server side")
        raw: dict[str, Any] = server_side(path, args.runs)
        if browser:
            log(f"{n:,}: browser")
            raw.update(browser_side(path, args.runs))
        med = {k: summarize(v)["median"] if isinstance(v, list) else v for k, v in raw.items()}
        results[str(n)] = {"median": med, "raw": {k: rounded(v, 2) if isinstance(v, list) else v
                                                  for k, v in raw.items()}, "store": info}
        rows.append([f"{n:,}", med["graph_build_ms"], med["graph_api_cold_ms"],
                     med["graph_api_cached_ms"], med["graph_json_kb"], med["list_ms"],
                     med["search_ms"], med["detail_ms"], med["health_ms"],
                     med.get("first_frame_ms", float("nan")),
                     med.get("first_draw_ms", float("nan")),
                     med.get("pan_redraw_ms", float("nan"))])
    print(render(f"Dashboard timings (ms, medians of {args.runs}; load {load_average()})",
                 ["memories", "layout", "graph cold", "graph cached", "graph KB", "list",
                  "search", "detail", "health", "1st frame", "1st draw", "pan redraw"], rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"machine": benchkit.machine_info(generator=GEN_VERSION,
                                                                 browser=browser),
                               "runs": args.runs, "sizes": results}, indent=1))
    tmp.replace(args.out)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
