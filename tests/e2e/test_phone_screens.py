"""The wiki on a phone (390x844, a touch screen) and a tablet: graphs that zoom without trapping the page, taps that
name a node before following it, edit screens that open where the reader works, lists, contents, footnotes,
formulas and diffs that fit, the header at a tablet's width, and printing."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import log_in
from tests.factories import make_editor
from wiki.services.pages import page_save_revision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def _phone(page: Any, **options: Any) -> Any:
    """A tab in a phone's browser: touch screen, 390x844."""
    tab = page.context.browser.new_context(**PHONE, **options).new_page()
    tab.set_default_timeout(15_000)
    return tab


def _drag(tab: Any, x: float, y_from: float, y_to: float, fingers: int = 1) -> None:
    """Fingers put down side by side at (x, y_from), moved together to y_to and lifted, as a touch screen sends it."""
    cdp = tab.context.new_cdp_session(tab)

    def points(y: float) -> list[dict[str, float]]:
        return [{"x": x + 40 * n, "y": y, "id": n} for n in range(fingers)]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(y_from)})
    for step in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(y_from + (y_to - y_from) * step / 10)})
        tab.wait_for_timeout(20)
    tab.wait_for_timeout(150)  # held still before lifting: no fling
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    tab.wait_for_timeout(300)


def _scroll_to(tab: Any, locator: Any, offset: float) -> None:
    """Scrolls the page so that the top of ``locator`` is ``offset`` pixels below the top of the screen."""
    tab.evaluate("(y) => window.scrollTo(0, y)", tab.evaluate("scrollY") + locator.bounding_box()["y"] - offset)
    tab.wait_for_timeout(100)


def test_on_a_phone_one_finger_scrolls_past_a_zoomed_graph_two_move_it_and_its_buttons_stay_in_sight(
        page: Any, live_server: Any) -> None:
    tab = _phone(page)
    tab.goto(live_server.url + reverse("wiki:graph-map"))
    viewport = tab.locator(".graph-viewport:visible").first
    svg = viewport.locator("svg[data-graph]")
    viewport.locator(".graph-zoom button").first.tap()
    viewport.locator(".graph-zoom button").first.tap()

    # zoomed in, the picture is a window at most 70 % of the screen high
    assert svg.bounding_box()["height"] <= 0.7 * 844 + 1
    _scroll_to(tab, svg, 40)
    box, view, before = svg.bounding_box(), svg.get_attribute("viewBox"), tab.evaluate("scrollY")
    _drag(tab, 150, box["y"] + box["height"] - 40, box["y"] + 60)
    assert tab.evaluate("scrollY") > before + 100  # the page scrolled
    assert svg.get_attribute("viewBox") == view  # the picture did not move

    # the zoom buttons stay at the top of the screen while the picture is in sight
    _scroll_to(tab, svg, -200)
    reset = viewport.get_by_role("button", name="Reset zoom")
    shown = reset.bounding_box()
    assert 0 <= shown["y"] <= 844 - shown["height"]

    _scroll_to(tab, svg, 60)
    box, before = svg.bounding_box(), tab.evaluate("scrollY")
    _drag(tab, 120, box["y"] + box["height"] - 60, box["y"] + 100, fingers=2)
    assert tab.evaluate("scrollY") == before  # two fingers move the picture, not the page
    assert svg.get_attribute("viewBox") != view

    reset.tap()
    assert [float(v) for v in svg.get_attribute("viewBox").split()] == [float(v) for v in svg.get_attribute("data-view-box").split()]


def test_on_a_touch_screen_a_first_tap_names_a_node_and_a_second_opens_it(page: Any, live_server: Any) -> None:
    tab = _phone(page)
    url = live_server.url + reverse("wiki:contrast", args=["skillforge", "starharness"])
    tab.goto(url)
    svg = tab.locator("svg#contrast-graph-narrow")
    status = svg.locator("xpath=ancestor::figure").locator("[data-graph-status]")
    assert status.inner_text().startswith("Tap a node to read its full name here")
    shortened = svg.locator("a.node-link", has=tab.locator("text.label", has_text="…")).first
    full = shortened.locator("title").text_content()
    target = shortened.get_attribute("href")
    shortened.scroll_into_view_if_needed()

    shortened.locator("circle, polygon, rect").first.tap()
    tab.wait_for_timeout(300)
    assert tab.url == url
    assert status.inner_text() == full

    with tab.expect_navigation():
        shortened.locator("circle, polygon, rect").first.tap()
    assert tab.url.split("#")[0].endswith(target.split("#")[0])


def test_a_mouse_click_on_a_node_still_opens_it_at_once(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + reverse("wiki:contrast", args=["skillforge", "starharness"]))
    node = page.locator('#contrast-graph a.node-link[data-node="source:recuris"]')
    target = node.get_attribute("href")
    with page.expect_navigation():
        node.locator("circle, polygon, rect").first.click()
    assert page.url.endswith(target)


def test_printing_a_comparison_keeps_every_column_and_the_full_texts_and_leaves_out_the_form(
        page: Any, live_server: Any) -> None:
    # about the width of a sheet of A4
    page.set_viewport_size({"width": 720, "height": 1000})
    page.goto(live_server.url + reverse("wiki:compare") + "?works=skillforge,starharness,facet,shepherd,recuris")
    assert page.locator("details.full-text").count() > 0
    page.emulate_media(media="print")
    box = page.locator(".table-scroll")
    assert box.evaluate("(b) => getComputedStyle(b).overflowX") == "visible"
    last = page.locator("table.comparison thead th").last.bounding_box()
    assert last["x"] + last["width"] <= 720
    full = page.locator("details.full-text p")
    assert full.count() == full.locator("visible=true").count()
    assert page.locator("details.full-text summary").locator("visible=true").count() == 0
    assert not page.locator("form.pick-form").is_visible()
    assert not page.get_by_role("heading", name="Choose works").is_visible()


def test_printing_the_map_leaves_out_its_filter_and_keeps_the_picture_on_one_page(page: Any, live_server: Any) -> None:
    page.goto(live_server.url + reverse("wiki:graph-map"))
    page.emulate_media(media="print")
    assert not page.locator("form.graph-filter").is_visible()
    # 24cm, which leaves room on an A4 page for the title above it
    assert page.locator("svg.graph:visible").bounding_box()["height"] <= 24 / 2.54 * 96 + 1


def test_after_preview_on_a_phone_the_preview_has_the_focus_and_its_top_is_on_screen(
        page: Any, live_server: Any) -> None:
    make_editor("thumbs")
    tab = _phone(page)
    log_in(tab, live_server.url, "thumbs")
    tab.goto(live_server.url + reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}))
    with tab.expect_navigation():
        tab.locator(".form-actions button[name=preview]").tap()
    tab.wait_for_timeout(300)
    assert tab.evaluate("document.activeElement.id") == "live-preview"
    top = tab.locator("#live-preview").bounding_box()["y"]
    assert 0 <= top <= 40


def test_the_edit_conflict_screen_selects_the_first_clash_and_jumps_to_it(page: Any, live_server: Any) -> None:
    make_editor("first")
    make_editor("second")
    lines = "\n\n".join(f"Paragraph {n}, long enough to wrap on a phone's screen at least once or twice." for n in range(60))
    page_save_revision(slug="clashing", title="Clashing", body=f"{lines}\n\nThe last line.\n", user=make_editor("author"))
    edit_url = live_server.url + reverse("wiki:page-edit", kwargs={"slug": "clashing"})
    first, second = page, _phone(page)
    log_in(first, live_server.url, "first")
    log_in(second, live_server.url, "second")
    for tab, word in ((first, "FIRST"), (second, "SECOND")):
        tab.goto(edit_url)
        tab.fill("textarea[name=body]", f"{lines}\n\nThe last line, {word}.\n")
    first.click("button[name=save]")
    first.wait_for_load_state()
    with second.expect_navigation():
        second.click("button[name=save]")
    assert "Edit conflict" in second.title()

    body = second.locator("textarea[name=body]")
    marker = body.input_value().index("<<<<<<<")
    selected = body.evaluate("(t) => [t.selectionStart, t.value.slice(t.selectionStart, t.selectionEnd)]")
    assert selected[0] == marker and selected[1].startswith("<<<<<<<")
    assert body.evaluate("(t) => t.scrollTop") > 0  # the box shows the clash, far down its text
    assert second.evaluate("scrollY") == 0  # the page itself opens on the message

    second.get_by_role("link", name="Jump to the conflict").tap()
    assert second.evaluate("document.activeElement.name") == "body"
    assert -1 <= body.bounding_box()["y"] < 844


def test_a_footnote_number_is_a_24px_target_and_the_note_it_leads_to_is_lit(page: Any, live_server: Any) -> None:
    page_save_revision(slug="noted", title="Noted", user=make_editor("noter"),
                       body="A claim with a note.[^1]\n\n" + "Filler.\n\n" * 40 + "[^1]: The note.\n")
    tab = _phone(page)
    tab.goto(live_server.url + reverse("wiki:page-detail", kwargs={"slug": "noted"}))
    number = tab.locator("a.footnote-ref")
    box = number.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    note = tab.locator(".footnote li").first
    unlit = note.evaluate("(li) => getComputedStyle(li).backgroundColor")
    number.tap()
    tab.wait_for_timeout(200)
    assert note.evaluate("(li) => li.matches(':target')")
    assert note.evaluate("(li) => getComputedStyle(li).backgroundColor") != unlit


@pytest.mark.parametrize("list_name", ["wiki:source-list", "wiki:question-list"])
def test_on_a_phone_a_lists_filters_fold_unless_one_is_set(page: Any, live_server: Any, list_name: str) -> None:
    url = live_server.url + reverse(list_name)
    tab = _phone(page)
    tab.goto(url)
    panel = tab.locator("details.filter-panel")
    first_field = panel.locator("select, input").first
    assert not first_field.is_visible()
    assert tab.locator("table.list tbody tr").first.bounding_box()["y"] < 844  # the list starts on the first screen
    panel.locator("summary").tap()
    assert first_field.is_visible()

    tab.goto(url + "?sort=" + ("-year" if list_name == "wiki:source-list" else "oldest"))
    assert tab.locator("details.filter-panel").evaluate("(d) => d.open")

    # wider screens show the filters whatever is set, without the summary, and they take the focus from the keyboard
    page.goto(url)
    assert page.locator("details.filter-panel select").first.is_visible()
    assert not page.locator("details.filter-panel summary").is_visible()
    page.locator("details.filter-panel select").first.focus()
    assert page.evaluate("document.activeElement.tagName") == "SELECT"


@pytest.mark.parametrize("language", ["zh-CN", "en-GB"])
def test_on_a_phone_each_label_of_the_maps_filter_stays_on_the_line_of_its_list(
        page: Any, live_server: Any, seed: None, language: str) -> None:
    tab = _phone(page, locale=language)
    tab.goto(live_server.url + reverse("wiki:graph-map"))
    for field in ("map-mechanism", "map-verdict"):
        label = tab.locator(f"label[for={field}]").bounding_box()
        select = tab.locator(f"#{field}").bounding_box()
        middle = label["y"] + label["height"] / 2
        assert select["y"] <= middle <= select["y"] + select["height"], field
        assert label["x"] < select["x"]


def test_on_a_phone_a_long_page_leads_back_to_its_contents_from_far_down(page: Any, live_server: Any) -> None:
    tab = _phone(page)
    tab.goto(live_server.url + reverse("wiki:page-detail", kwargs={"slug": "agentic-rl-survey-notes"}))
    back = tab.locator("a.to-contents")
    assert not back.is_visible()  # at the top the contents are in sight
    tab.evaluate("window.scrollTo(0, 6000)")
    tab.wait_for_timeout(200)
    assert back.is_visible()
    box = back.bounding_box()
    assert box["y"] + box["height"] <= 844 and box["height"] >= 24
    back.focus()
    tab.keyboard.press("Enter")
    tab.wait_for_timeout(300)
    contents = tab.locator("details.toc-inline")
    assert contents.evaluate("(d) => d.open")
    first = contents.locator(".toc-list a").first
    assert 0 <= first.bounding_box()["y"] < 844
    # on a wide screen the contents stay beside the text
    page.goto(live_server.url + reverse("wiki:page-detail", kwargs={"slug": "agentic-rl-survey-notes"}))
    page.evaluate("window.scrollTo(0, 6000)")
    assert not page.locator("a.to-contents").is_visible()


WIDE_FORMULA = """$$
J(\\theta) = \\mathbb{E}_{\\tau \\sim \\pi_\\theta}\\left[\\sum_{t=0}^{T} \\gamma^t \\min\\left(
\\frac{\\pi_\\theta(a_t \\mid s_t)}{\\pi_{\\theta_{\\mathrm{old}}}(a_t \\mid s_t)} A_t,\\,
\\mathrm{clip}\\left(\\frac{\\pi_\\theta(a_t \\mid s_t)}{\\pi_{\\theta_{\\mathrm{old}}}(a_t \\mid s_t)},
1 - \\epsilon, 1 + \\epsilon\\right) A_t\\right) - \\beta\\, \\mathrm{KL}\\left(\\pi_\\theta \\,\\|\\, \\pi_{\\mathrm{ref}}\\right)\\right]
$$
"""


def test_a_formula_wider_than_a_phone_shows_a_shadow_where_it_scrolls(page: Any, live_server: Any) -> None:
    page_save_revision(slug="wide-formula", title="Wide formula", body=WIDE_FORMULA)
    tab = _phone(page)
    tab.goto(live_server.url + reverse("wiki:page-detail", kwargs={"slug": "wide-formula"}))
    tab.wait_for_function("document.fonts.status === 'loaded'")
    wide = tab.locator(".math-display").filter(has=tab.locator("math")).evaluate_all(
        "(ds) => ds.filter(d => d.scrollWidth > d.clientWidth).map(d => getComputedStyle(d).backgroundImage)")
    assert wide and all("radial-gradient" in background for background in wide)


def test_on_a_phone_a_diff_stacks_its_sides_and_an_added_line_takes_the_width(page: Any, live_server: Any) -> None:
    author = make_editor("differ")
    page_save_revision(slug="grown", title="Grown", user=author, body="One.\n\nTwo.\n")
    page_save_revision(slug="grown", title="Grown", user=author, body="One.\n\nAn added line, long enough to show its width.\n\nTwo.\n",
                       base_revision=1)
    tab = _phone(page)
    tab.goto(live_server.url + reverse("wiki:page-diff", kwargs={"slug": "grown"}) + "?from=1&to=2")
    added = tab.locator("table.diff tr.insert").first
    assert not added.locator("td.old").is_visible()
    assert added.locator("td.new").bounding_box()["width"] > 250
    assert tab.evaluate("document.scrollingElement.scrollWidth") <= 390


@pytest.mark.parametrize("width", [820, 1024])
def test_at_a_tablets_width_the_navigation_is_one_row(page: Any, live_server: Any, width: int) -> None:
    make_editor("tablet")
    tab = page.context.browser.new_context(viewport={"width": width, "height": 1180}, locale="zh-CN").new_page()
    tab.set_extra_http_headers({"Accept-Language": "zh-Hans"})
    for logged_in in (False, True):
        if logged_in:
            log_in(tab, live_server.url, "tablet")
        tab.goto(live_server.url + reverse("wiki:home"))
        tops = tab.locator(".site-nav a").evaluate_all("(links) => links.map(a => Math.round(a.getBoundingClientRect().top))")
        assert len(set(tops)) == 1, (width, logged_in, tops)



def test_on_a_phone_the_claim_being_edited_takes_the_width_of_the_form(page: Any, live_server: Any) -> None:
    from wiki.models import Claim

    make_editor("thumbs")
    claim = Claim.objects.current().first()
    assert claim is not None
    tab = _phone(page)
    log_in(tab, live_server.url, "thumbs")
    tab.goto(live_server.url + reverse("wiki:claim-edit", kwargs={"pk": claim.pk}))

    quote = tab.locator("main blockquote").first.bounding_box()
    field = tab.locator("main select[name=status]").bounding_box()
    # not indented 40 px on either side, as a browser sets a bare quotation
    assert quote["x"] <= field["x"] + 1 and quote["width"] >= field["width"] - 2


def test_on_a_phone_the_evidence_the_classifier_read_takes_the_width_of_its_card(page: Any, live_server: Any) -> None:
    make_editor("thumbs")
    tab = _phone(page)
    log_in(tab, live_server.url, "thumbs")
    tab.goto(live_server.url + reverse("wiki:classification-create", kwargs={"slug": "reward-description-training-study"}))

    quote = tab.locator("blockquote.evidence-text")
    box = quote.bounding_box()
    heading = quote.evaluate("(q) => { const r = q.previousElementSibling.getBoundingClientRect(); return [r.x, r.width]; }")
    # lined up with the card's heading above it, not indented 40 px on either side as a bare quotation is
    assert abs(box["x"] - heading[0]) <= 1 and box["width"] >= heading[1] - 2


@pytest.mark.parametrize("screen", ["page-revert", "page-move", "source-merge", "contrast-delete"])
def test_on_a_phone_the_editors_confirmation_screens_set_out_their_fields_as_the_edit_form_does(
        page: Any, live_server: Any, screen: str) -> None:
    """Revert, move, merge and a contrast's removal: each label above its field, the field as wide as the form and no
    wider than the screen (a revert's summary was 568 px wide, the page scrolled sideways), its button apart from
    Cancel."""
    from wiki.models import Contrast

    author = make_editor("thumbs")
    page_save_revision(slug="twice", title="Twice", user=author, body="One.\n")
    page_save_revision(slug="twice", title="Twice", user=author, body="One.\n\nTwo.\n", base_revision=1)
    contrast = Contrast.objects.order_by("pk").first()
    assert contrast is not None
    url = {"page-revert": reverse("wiki:page-revert", kwargs={"slug": "twice", "number": 1}),
           "page-move": reverse("wiki:page-move", kwargs={"slug": "twice"}),
           "source-merge": reverse("wiki:source-merge", kwargs={"slug": "agent-lightning"}),
           "contrast-delete": reverse("wiki:contrast-delete", kwargs={"pk": contrast.pk})}[screen]
    tab = _phone(page, locale="zh-CN")
    log_in(tab, live_server.url, "thumbs")
    tab.goto(live_server.url + url)

    assert tab.evaluate("document.scrollingElement.scrollWidth") <= 390
    form = tab.locator("main form.edit-form").last.bounding_box()
    for field in tab.locator("main form.edit-form input[type=text]").all():
        box = field.bounding_box()
        label = tab.locator(f"label[for='{field.get_attribute('id')}']").bounding_box()
        assert label["y"] + label["height"] <= box["y"] + 1  # above the field, not beside it
        assert box["x"] + box["width"] <= 390 and box["width"] >= form["width"] - 2
    button = tab.locator("main .form-actions button[type=submit]").last.bounding_box()
    cancel = tab.locator("main .form-actions a").last.bounding_box()
    assert cancel["x"] - (button["x"] + button["width"]) >= 8


def test_on_a_phone_a_boxed_groups_legend_of_two_lines_is_inside_its_box(page: Any, live_server: Any) -> None:
    """The rubric's legend takes two lines on a phone in Chinese: it is the box's first line, under the top border,
    which was drawn between its two lines."""
    make_editor("thumbs")
    tab = _phone(page, locale="zh-CN")
    log_in(tab, live_server.url, "thumbs")
    tab.goto(live_server.url + reverse("wiki:classification-create", kwargs={"slug": "agent-lightning"}))

    rubric = tab.locator("fieldset.rubric")
    legend = rubric.locator("> legend")
    assert "判定标准" in legend.inner_text() and legend.bounding_box()["height"] > 40  # two lines
    border = rubric.evaluate("(f) => f.getBoundingClientRect().top + parseFloat(getComputedStyle(f).borderTopWidth)")
    box = rubric.bounding_box()
    # a legend drawn in the border starts at the box's top edge, above the border's line; inside, it starts below it
    assert legend.bounding_box()["y"] > border
    assert legend.bounding_box()["x"] >= box["x"] and legend.bounding_box()["y"] < rubric.locator("fieldset").first.bounding_box()["y"]
