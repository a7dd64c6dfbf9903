"""Graphs at phone, tablet and desktop widths and on paper: readable labels, full names on focus, the keys, print."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.factories import make_editor
from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The rendered size of a 12-unit label of the picture shown, and whether the page itself scrolls sideways.
MEASURE = """(selector) => {
  const svg = Array.from(document.querySelectorAll(selector)).find(s => s.getBoundingClientRect().width > 0);
  const doc = document.scrollingElement;
  return {label: svg ? 12 * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0,
          overflow: doc.scrollWidth - doc.clientWidth};
}"""

CONTRAST = ("wiki:contrast", ["skillforge", "starharness"])


def _english(page: Any) -> None:
    page.set_extra_http_headers({"Accept-Language": "en"})


@pytest.mark.parametrize("width", [375, 768, 1280])
def test_graph_labels_read_at_11px_or_more_without_the_page_scrolling_sideways(page: Any, live_server: Any, width: int) -> None:
    _english(page)
    page.set_viewport_size({"width": width, "height": 900})
    for url, selector in (
        (reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"}), "svg.graph[id^=local-graph]"),
        (reverse("wiki:graph-map"), "svg.graph[id^=works-map]"),
        (reverse(CONTRAST[0], args=CONTRAST[1]), "svg.graph[id^=contrast-graph]"),
        (reverse("wiki:contrast-multi") + "?works=skillforge,starharness,recuris,facet,shepherd,agentic-esopt,astar,lbyl,cua,prime-rl",
         "svg.graph[id^=contrast-graph]"),
    ):
        page.goto(live_server.url + url)
        measured = page.evaluate(MEASURE, selector)
        assert measured["label"] >= 10.95, (url, width, measured)
        assert measured["overflow"] <= 0, (url, width, measured)
    # below 900px the narrow frame is shown
    shown = page.locator("svg.graph[id^=contrast-graph]").locator("visible=true").first.get_attribute("id")
    assert shown == ("contrast-graph" if width > 900 else "contrast-graph-narrow")


def test_a_focused_node_shows_its_full_name_under_the_picture(page: Any, live_server: Any) -> None:
    _english(page)
    page.goto(live_server.url + reverse(CONTRAST[0], args=CONTRAST[1]))
    status = page.locator("#contrast-graph").locator("xpath=ancestor::figure").locator("[data-graph-status]")
    assert status.is_visible()
    idle = status.text_content()
    shortened = page.locator("#contrast-graph a.node-link", has=page.locator("text.label", has_text="…")).first
    full = shortened.locator("title").text_content()
    assert full and "…" not in full
    shortened.focus()
    assert status.text_content() == full
    page.locator("#contrast-graph-caption").focus()
    assert status.text_content() == idle
    shortened.locator("circle, polygon").first.hover()
    assert status.text_content() == full


def test_keyboard_zoom_and_pan_keep_the_focused_node_in_view(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + reverse(CONTRAST[0], args=CONTRAST[1]))
    node = page.locator('#contrast-graph a.node-link[data-node="source:recuris"]')
    node.focus()
    for key in ("+", "+", "+", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
        inside = node.evaluate("""(a) => {
          const box = a.getBBox(), view = a.ownerSVGElement.viewBox.baseVal;
          return box.x >= view.x - 0.5 && box.y >= view.y - 0.5 &&
                 box.x + box.width <= view.x + view.width + 0.5 && box.y + box.height <= view.y + view.height + 0.5;
        }""")
        assert inside, key
    assert page.locator("#contrast-graph").evaluate("(svg) => svg.viewBox.baseVal.width") < float(
        page.locator("#contrast-graph").get_attribute("data-view-box").split()[2])


def test_lighting_a_node_dims_the_axes_of_the_lines_it_dims(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + reverse(CONTRAST[0], args=CONTRAST[1]))
    page.locator('#contrast-graph a.node-link[data-node="source:recuris"]').focus()
    axes = page.locator("#contrast-graph g.axis").evaluate_all(
        "(gs) => gs.map(g => ({ends: [g.dataset.from, g.dataset.to], dim: g.classList.contains('dim')}))")
    assert axes
    assert any(a["dim"] for a in axes)
    assert all(a["dim"] != ("source:recuris" in a["ends"]) for a in axes)


def test_a_dimmed_line_fades_its_stroke_not_its_group(page: Any, live_server: Any) -> None:
    # An opacity on the line's group drew each line through a layer of its own; where lines meet, those layers left
    # faint dark rectangles over the picture.
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + reverse(CONTRAST[0], args=CONTRAST[1]))
    page.locator('#contrast-graph a.node-link[data-node="source:recuris"]').focus()
    dimmed = page.locator("#contrast-graph g.edge.dim").evaluate_all(
        "(gs) => gs.map(g => [getComputedStyle(g).opacity, getComputedStyle(g.querySelector('path')).strokeOpacity])")
    assert dimmed
    assert all(group == "1" and float(stroke) < 0.5 for group, stroke in dimmed), dimmed


def test_printing_leaves_out_graph_controls_hints_and_the_contents(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"}))
    assert page.locator(".graph-zoom").first.is_visible()
    page.emulate_media(media="print")
    for selector in (".graph-zoom", ".graph-hint", ".graph-status", ".graph-options", ".graph-open", ".skip-graph",
                     ".toc-inline", ".legend-hover"):
        assert page.locator(selector).locator("visible=true").count() == 0, selector
    assert page.locator(".legend-print").locator("visible=true").count() >= 1
    measured = page.evaluate(MEASURE, "svg.graph[id^=local-graph]")
    assert measured["label"] >= 10.95


def test_the_claims_table_fits_a_phone_in_english(page: Any, live_server: Any) -> None:
    _english(page)
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(live_server.url + reverse("wiki:page-claims", kwargs={"slug": "agentic-rl"}))
    assert page.evaluate("() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth") <= 0
    sentence = page.locator("table.page-claims tbody tr").first.locator("td").nth(2)
    assert sentence.bounding_box()["width"] > 250


def test_markdown_table_columns_keep_their_alignment(page: Any, live_server: Any) -> None:
    page_save_revision(slug="aligned", title="Aligned", user=make_editor("aligner"),
                       body="| 方法 | 机制 | 严格 |\n| --- | :---: | ---: |\n| GRPO | policy gradient | 是 |\n")
    page.goto(live_server.url + reverse("wiki:page-detail", kwargs={"slug": "aligned"}))
    aligns = page.locator(".prose table tbody td").evaluate_all("(tds) => tds.map(td => getComputedStyle(td).textAlign)")
    assert aligns == ["left", "center", "right"]


# The picture on screen: its size and its frame's, how far its frame scrolls sideways, how large its labels are drawn,
# and the labels that stand out of the frame.
FITTED = """() => {
  const svg = [...document.querySelectorAll('svg[data-graph]')].find(s => s.getBoundingClientRect().width > 0);
  const frame = svg.closest('.graph-viewport'), box = frame.getBoundingClientRect();
  const cut = [...svg.querySelectorAll('a.node-link text.label')].map(t => t.getBoundingClientRect())
    .filter(r => r.left < box.left - 1 || r.right > box.right + 1).length;
  return {width: svg.getBoundingClientRect().width, frame: frame.clientWidth, scrolls: frame.scrollWidth - frame.clientWidth,
          units: svg.viewBox.baseVal.width, label: 12 * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width, cut};
}"""


def test_a_large_graph_fits_its_frame_and_a_node_found_at_its_edge_is_zoomed_into_view(page: Any, live_server: Any) -> None:
    from wiki.devtools.generate import wiki_generate

    wiki_generate(works=300, claims=60, pages=6, seed=3)
    url = live_server.url + reverse("wiki:graph-map") + "?mechanism=policy_gradient"
    widths = {}
    for width in (1920, 1280):
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto(url)
        fitted = page.evaluate(FITTED)
        widths[width] = fitted["frame"]
        # the whole drawing is in its frame, nothing to scroll to and no label cut at its edge
        assert fitted["scrolls"] <= 0 and fitted["cut"] == 0 and fitted["width"] <= fitted["frame"] + 1, (width, fitted)
    # a wide screen gives the picture its width (the column was 950px whatever the screen)
    assert widths[1920] > widths[1280] + 400, widths
    # at 1280px this drawing is shown smaller than its labels' 11px (the premise of what follows)
    assert fitted["label"] < 10.9, fitted

    # the node furthest right, found by its name, is zoomed in to where its label reads at 11px or more, in view
    node, name = page.evaluate("""() => {
      const svg = [...document.querySelectorAll('svg[data-graph]')].find(s => s.getBoundingClientRect().width > 0);
      const right = [...svg.querySelectorAll('a.node-link[data-node^="source:"]')]
        .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)[0];
      return [right.dataset.node, right.dataset.names.split("\\n")[0]];
    }""")
    page.locator("#works-map-find").fill(name)
    page.locator("#works-map-find").press("Enter")
    shown = page.evaluate("""() => {
      const a = document.activeElement, svg = a.ownerSVGElement, box = a.getBBox(), view = svg.viewBox.baseVal;
      const frame = svg.closest('.graph-viewport').getBoundingClientRect(), r = a.getBoundingClientRect();
      return {node: a.dataset.node, label: 12 * svg.getBoundingClientRect().width / view.width,
              inView: box.x >= view.x && box.x + box.width <= view.x + view.width && box.y >= view.y && box.y + box.height <= view.y + view.height,
              onScreen: r.left >= frame.left && r.right <= frame.right && r.top >= 0 && r.bottom <= innerHeight};
    }""")
    assert shown["node"] == node and shown["inView"] and shown["onScreen"], shown
    assert shown["label"] >= 10.95, shown


def test_clicking_a_nodes_name_opens_it_as_clicking_its_shape_does(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + reverse("wiki:graph-map"))
    x, y = page.evaluate("""() => {
      const svg = [...document.querySelectorAll('svg[data-graph]')].find(s => s.getBoundingClientRect().width > 0);
      const text = svg.querySelector('a.node-link[data-node="source:facet"] text.label').getBoundingClientRect();
      return [text.left + text.width / 2, text.top + text.height / 2];
    }""")

    with page.expect_navigation():
        page.mouse.click(x, y)

    assert page.url == live_server.url + reverse("wiki:source-detail", args=["facet"])


TWELVE = "skillforge,starharness,recuris,facet,agentic-esopt,astar,lbyl,cua,prime-rl,harbor,openenv,traceforge"


def test_a_comparison_of_twelve_works_keeps_its_names_and_properties_in_sight_as_it_scrolls(page: Any, live_server: Any) -> None:
    _english(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + reverse("wiki:compare") + "?works=" + TWELVE)
    table = page.locator("table.comparison")
    table.scroll_into_view_if_needed()
    table.evaluate("(table) => { const box = table.parentElement; box.scrollLeft = box.scrollWidth; box.scrollTop = box.scrollHeight; }")

    seen = page.evaluate("""() => {
      const box = document.querySelector('table.comparison').parentElement, edge = box.getBoundingClientRect();
      const property = document.querySelector('table.comparison tbody tr:last-child th').getBoundingClientRect();
      const work = document.querySelector('table.comparison thead th:last-child').getBoundingClientRect();
      const cells = [...document.querySelectorAll('table.comparison td')].map(td => td.getBoundingClientRect().width);
      return {scrolled: [box.scrollLeft, box.scrollTop], property: property.left - edge.left, work: work.top - edge.top,
              narrowest: Math.min(...cells)};
    }""")

    assert min(seen["scrolled"]) > 0, seen
    # the property's name at the box's left edge, the works' names at its top, however far it scrolled
    assert abs(seen["property"]) <= 1 and abs(seen["work"]) <= 1, seen
    # a work's column holds a line of words (the evidence no longer wraps a word a line)
    assert seen["narrowest"] >= 180, seen
