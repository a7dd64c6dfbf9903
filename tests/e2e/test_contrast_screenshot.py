"""The contrast view drawn by a real browser: the picture must not be blank."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator

import pytest
from django.urls import reverse

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

# Decodes the PNG in the page itself, so the test needs no imaging library.
COUNT_PIXELS = """async (dataUrl) => {
  const img = new Image();
  img.src = dataUrl;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  let inked = 0; const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (r < 235 || g < 235 || b < 235) inked++;
    colours.add((r >> 4) << 8 | (g >> 4) << 4 | (b >> 4));
  }
  return {width: img.width, height: img.height, inked: inked, colours: colours.size};
}"""


@pytest.fixture
def browser_page(transactional_db: None, seed: None) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls made by fixtures are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        try:
            yield page
        finally:
            browser.close()
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.mark.browser
def test_contrast_view_draws_a_non_empty_graph(live_server, browser_page) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto(live_server.url + reverse("wiki:contrast", args=["skillforge", "starharness"]))

    svg = page.locator("svg#contrast-graph")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200
    assert page.locator("svg#contrast-graph a.node-link").count() >= 4
    assert page.locator("svg#contrast-graph .edge-contrasts").count() >= 1
    png = svg.screenshot()
    with open("/tmp/contrast-graph-e2e.png", "wb") as out:
        out.write(png)
    stats = page.evaluate(COUNT_PIXELS, "data:image/png;base64," + base64.b64encode(png).decode())
    assert stats["width"] > 300
    assert stats["inked"] > 3000, stats
    assert stats["colours"] > 12, stats
