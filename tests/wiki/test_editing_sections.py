"""Editing one section of a page: the links beside its headings (editors only), the section's form, its preview, and
its save spliced into the page, merged with what was saved meanwhile."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import Settings

from tests.factories import make_editor, make_page, make_reader
from tests.queries import query_names
from wiki import markdown as wiki_markdown
from wiki.caching import versions
from wiki.markdown.section_links import section_ids
from wiki.models import Page
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

BODY = """Lead paragraph.

## Definition

A definition.

```text
## a line of code that looks like a heading
```

### Details

Some details.

## Key points

- first point

## End

The end.
"""


def _edit_url(page: Page, section: object | None = None) -> str:
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    return url if section is None else f"{url}?section={section}"


def _section_links(html: str) -> list[str]:
    return re.findall(r'<span class="section-edit"><a href="[^"]*\?section=(\d+)"', html)


def _field(html: str, name: str) -> str:
    textarea = re.search(rf'<textarea[^>]*name="{name}"[^>]*>\n?(.*?)</textarea>', html, re.S)
    if textarea:
        return textarea.group(1)
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else ""


def _post(**fields: object) -> dict[str, object]:
    """A section form as sent, from revision 1."""
    return {"body": "", "comment": "", "base_revision": 1, "save": "1", **fields}


def test_editors_see_an_edit_link_at_each_section_anonymous_readers_and_readers_none(client: Client) -> None:
    page = make_page(title="Sectioned", body=BODY)
    url = page.get_absolute_url()
    anonymous_before = client.get(url).content.decode()
    reader = Client()
    reader.force_login(make_reader())
    editor = Client()
    editor.force_login(make_editor())

    html = editor.get(url).content.decode()

    assert _section_links(html) == ["1", "2", "3", "4"]
    assert (f'<h3 id="details">Details<span class="section-edit"><a href="{_edit_url(page)}?section=2" '
            'aria-label="Edit section “Details”">Edit</a></span></h3>') in html
    assert "<code>## a line of code that looks like a heading\n</code>" in html
    # The page's cached copies are shared by readers with the same permissions, never across them.
    for other in (client, reader):
        shown = other.get(url).content.decode()
        assert "section-edit" not in shown and "?section=" not in shown
    assert "section-edit" not in anonymous_before
    assert _section_links(editor.get(url).content.decode()) == ["1", "2", "3", "4"]


def test_the_edit_links_read_in_chinese_for_a_chinese_reader(editor_client: Client) -> None:
    page = make_page(body="## 定义\n\n正文。\n")
    html = editor_client.get(page.get_absolute_url(), headers={"accept-language": "zh-CN,zh;q=0.9"}).content.decode()
    assert '<a href="' + _edit_url(page, 1) + '" aria-label="编辑章节“定义”">编辑</a>' in html


def test_the_page_view_runs_the_same_queries_for_an_editor_whatever_the_number_of_sections(editor_client: Client) -> None:
    one = make_page(body="## Only\n\ntext\n")
    many = make_page(body="".join(f"## Part {n}\n\ntext\n\n### Sub {n}\n\nmore\n\n" for n in range(60)))
    named = []
    for page in (one, many):
        editor_client.get(page.get_absolute_url())
        versions.bump()
        with CaptureQueriesContext(connection) as queries:
            html = editor_client.get(page.get_absolute_url()).content.decode()
        named.append(query_names(queries))
    assert len(_section_links(html)) == 120
    assert named[0] == named[1]


def test_the_section_form_holds_that_section_alone_with_a_wiki_summary(editor_client: Client) -> None:
    page = make_page(title="Sectioned", body=BODY)
    page_save_revision(slug=page.slug, title=page.title, body=BODY + "\nMore.\n", base_revision=1)

    response = editor_client.get(_edit_url(page, 3))

    assert response.status_code == 200
    html = response.content.decode()
    assert _field(html, "body") == "## Key points\n\n- first point\n\n"
    assert _field(html, "comment") == "/* Key points */ "
    assert _field(html, "section") == "3" and _field(html, "base_revision") == "2"
    assert 'name="title"' not in html and 'name="summary"' not in html
    assert "Edit “<span lang=\"en\">Sectioned</span>”, section 3" in html
    assert f'href="{_edit_url(page)}">Edit the whole page</a>' in html


def test_saving_a_section_splices_it_into_the_page_and_returns_to_it(editor_client: Client) -> None:
    page = make_page(title="Sectioned", summary="Kept summary", body=BODY)

    response = editor_client.post(_edit_url(page), _post(section=3, body="## Key points\n\n- first point\n- second point\n",
                                                         comment="/* Key points */ one more"))

    assert response.status_code == 302 and response["Location"] == page.get_absolute_url() + "#key-points"
    page.refresh_from_db()
    assert page.body == BODY.replace("- first point\n", "- first point\n- second point\n")
    assert (page.title, page.summary) == ("Sectioned", "Kept summary")
    latest = page.revisions.get(number=2)
    assert latest.comment == "/* Key points */ one more"
    assert [claim.text for claim in page.claims.current().order_by("position")] == ["first point", "second point"]


def test_a_section_after_a_fenced_heading_lookalike_is_the_right_one(editor_client: Client) -> None:
    page = make_page(body=BODY)
    html = editor_client.get(_edit_url(page, 2)).content.decode()
    assert _field(html, "body") == "### Details\n\nSome details.\n\n"
    editor_client.post(_edit_url(page), _post(section=1, body="## Definition\n\nChanged.\n\n"))
    page.refresh_from_db()
    assert page.body == BODY.replace(
        "A definition.\n\n```text\n## a line of code that looks like a heading\n```\n\n### Details\n\nSome details.\n\n",
        "Changed.\n\n")


@pytest.mark.parametrize(("value", "status", "message"), [
    ("abc", 400, "“section=abc” is not a section number."),
    ("-1", 400, "“section=-1” is not a section number."),
    ("", 400, "“section=” is not a section number."),
    ("9" * 5000, 400, f"“section={'9' * 40}” is not a section number."),
    ("２", 400, "“section=２” is not a section number."),
    ("0", 404, "This page has no section 0: it has 4 sections."),
    ("5", 404, "This page has no section 5: it has 4 sections."),
])
def test_a_section_the_page_does_not_have_is_an_error_page_never_the_whole_page(
    editor_client: Client, value: str, status: int, message: str
) -> None:
    page = make_page(body=BODY)
    response = editor_client.get(_edit_url(page, value))
    assert response.status_code == status
    html = response.content.decode()
    assert message in html
    assert "<textarea" not in html and f'href="{_edit_url(page)}"' in html


def test_the_section_error_reads_in_chinese(editor_client: Client) -> None:
    page = make_page(body="## 唯一\n\n正文。\n")
    html = editor_client.get(_edit_url(page, 2), headers={"accept-language": "zh-CN,zh;q=0.9"}).content.decode()
    assert "本页面没有第 2 个章节：它共有 1 个章节。" in html and "编辑整个页面" in html


def test_previewing_a_section_shows_it_and_what_the_whole_page_would_do_to_its_claims(editor_client: Client) -> None:
    page = make_page(body=BODY)
    typed = _post(section=4, body="## End\n\nThe end, reworded.\n")
    del typed["save"]

    response = editor_client.post(_edit_url(page), {**typed, "preview": "1"})

    assert response.status_code == 200
    assert response.context["preview"].html.startswith('<h2 id="end">End</h2>')
    assert "first point" not in response.context["preview"].html
    # The key point in another section stays a claim: nothing is orphaned by leaving it out of the section.
    report = response.context["claims"]
    assert report.changes == () and report.kept == 1
    assert _field(response.content.decode(), "section") == "4"
    assert page.revisions.count() == 1


def test_the_live_preview_of_a_section_reads_the_claims_of_the_whole_page(editor_client: Client) -> None:
    page = make_page(body=BODY)
    section = {"body": "## End\n\nThe end, reworded.\n", "slug": page.slug}
    alone = editor_client.post(reverse("wiki:page-preview"), section)
    spliced = editor_client.post(reverse("wiki:page-preview"), {**section, "section": "4", "base_revision": "1"})
    assert [change.outcome for change in alone.context["claims"].changes] == ["orphaned"]
    assert spliced.context["claims"].changes == () and spliced.context["claims"].kept == 1
    assert "data-outcome" not in spliced.content.decode()


def test_a_section_that_makes_the_page_too_long_is_refused_before_the_page_is_read_for_citations(
        editor_client: Client, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    page = make_page(body=BODY)
    settings.WIKI_MAX_BODY_CHARS = len(BODY) + 10
    longer = {"body": "## End\n\nThe end, now said at much greater length.\n", "section": "4", "base_revision": "1"}

    read = wiki_markdown.cited_titles

    def cited_titles(text: str) -> list[str]:
        assert len(text) <= settings.WIKI_MAX_BODY_CHARS, "a text over the limits had its citations read"
        return read(text)

    monkeypatch.setattr("wiki.markdown.cited_titles", cited_titles)
    preview = editor_client.post(_edit_url(page), {**longer, "comment": "", "preview": "1"})
    live = editor_client.post(reverse("wiki:page-preview"), {**longer, "slug": page.slug})
    saved = editor_client.post(_edit_url(page), _post(**longer))

    message = f"the limit is {len(BODY) + 10:,}"
    assert preview.status_code == 200 and message in preview.context["form"].errors["body"][0]
    assert live.status_code == 422 and message in live.content.decode()
    assert saved.status_code == 200 and message in saved.context["form"].errors["body"][0]
    assert page.revisions.count() == 1


def test_a_section_saved_from_an_older_revision_is_merged(editor_client: Client) -> None:
    page = make_page(body=BODY)
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("Lead paragraph.", "A new lead."),
                       base_revision=1)

    response = editor_client.post(_edit_url(page), _post(section=4, body="## End\n\nThe very end.\n"),
                                  follow=True)

    page.refresh_from_db()
    assert page.body == BODY.replace("Lead paragraph.", "A new lead.").replace("The end.", "The very end.")
    [message] = [str(m) for m in response.context["messages"]]
    assert "Revision 2 was saved while you were editing: your edit was merged with it." in message


def test_a_section_that_clashes_shows_the_conflict_screen_with_the_whole_text(editor_client: Client) -> None:
    page = make_page(body=BODY)
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("The end.", "Their end."), base_revision=1)

    response = editor_client.post(_edit_url(page), _post(section=4, body="## End\n\nMy end.\n", comment="/* End */ mine"))

    assert response.status_code == 409
    form = response.context["form"]
    assert "section" not in form.fields and form.initial["base_revision"] == 2
    assert form.initial["body"].startswith("Lead paragraph.\n") and "Their end." in form.initial["body"]
    assert "My end." in form.initial["body"] and "<<<<<<<" in form.initial["body"]
    assert form.initial["comment"] == "/* End */ mine" and form.initial["title"] == page.title
    assert response.context["mine"] == BODY.replace("The end.", "My end.")
    assert page.revisions.count() == 2


def test_a_section_of_a_page_deleted_meanwhile_comes_back_as_the_whole_text(editor_client: Client) -> None:
    from wiki.services.deletion import page_delete

    page = make_page(slug="doomed", title="Doomed", body=BODY)
    page_delete(page=page, user=make_editor("carol"), reason="Duplicate")

    response = editor_client.post(_edit_url(page), _post(section=4, body="## End\n\nKept.\n"))

    assert response.status_code == 410
    form = response.context["form"]
    assert form.initial["body"] == BODY.replace("The end.", "Kept.") and form.initial["title"] == "Doomed"


def test_a_section_sent_after_the_session_ended_comes_back_in_the_section_form(client: Client) -> None:
    page = make_page(body=BODY)
    response = client.post(_edit_url(page), _post(section=4, body="## End\n\nTyped IMPORTANT\n"))
    assert response.status_code == 403
    html = response.content.decode()
    assert _field(html, "body") == "## End\n\nTyped IMPORTANT\n" and _field(html, "section") == "4"
    assert page.revisions.count() == 1


def test_a_section_form_sent_with_a_section_the_revision_lacks_keeps_the_text(editor_client: Client) -> None:
    page = make_page(body=BODY)
    response = editor_client.post(_edit_url(page), _post(section=9, body="## Nine\n\nTyped.\n"))
    assert response.status_code == 200
    assert "Revision 1 of this page has no section 9." in response.content.decode()
    assert _field(response.content.decode(), "body") == "## Nine\n\nTyped.\n"
    assert page.revisions.count() == 1


def test_every_heading_of_the_seed_pages_gets_its_section(seed: None) -> None:
    for page in Page.objects.all():
        assert page.toc and section_ids(body=page.body, toc=page.toc) == [entry["id"] for entry in page.toc], page.slug
