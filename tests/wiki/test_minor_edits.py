"""Minor edits: the page form's box, kept on the revision and its entry in recent changes; the bold "m" (小) in
history, recent changes, the watchlist and the home page; lists that hide them; the feeds; a page's creation never
minor."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_page, make_reader
from wiki.models import ChangeEvent, Page, Revision
from wiki.roles import Account
from wiki.services.page_edits import page_save_merging
from wiki.services.pages import page_save, page_save_revision
from wiki.services.watches import watch_add, watchlist_feed_token

pytestmark = pytest.mark.django_db

MARK_EN = '<abbr class="minor-edit" title="This is a minor edit">m</abbr>'
MARK_ZH = '<abbr class="minor-edit" title="这是一次小编辑">小</abbr>'
ATOM = "{http://www.w3.org/2005/Atom}"


def _edit_url(page: Page) -> str:
    return reverse("wiki:page-edit", kwargs={"slug": page.slug})


def _latest(page: Page) -> Revision:
    return page.revisions.order_by("-number").first()  # type: ignore[return-value]


def _rows(html: str) -> list[str]:
    return re.findall(r"<tr>.*?</tr>", html, re.S)


def test_the_edit_forms_offer_the_box_and_the_new_page_form_does_not(editor_client: Client) -> None:
    page = make_page(body="## Part\n\nText.\n")

    whole = editor_client.get(_edit_url(page)).content.decode()
    section = editor_client.get(_edit_url(page) + "?section=1").content.decode()
    new = editor_client.get(reverse("wiki:page-create")).content.decode()
    chinese = editor_client.get(_edit_url(page), headers={"accept-language": "zh-Hans"}).content.decode()

    box = (
        '<input type="checkbox" name="minor" accesskey="i" aria-describedby="id_minor_helptext" id="id_minor"> <label for="id_minor">'
    )
    assert box + "This is a minor edit</label>" in whole and box in section
    assert 'name="minor"' not in new
    assert "这是一次小编辑</label>" in chinese


def test_an_edit_ticked_minor_is_stored_minor_on_its_revision_and_its_change(editor_client: Client) -> None:
    page = make_page(body="Teh text.")

    editor_client.post(
        _edit_url(page),
        {"title": page.title, "body": "The text.", "comment": "typo", "base_revision": 1, "minor": "on", "save": "1"},
    )
    editor_client.post(
        _edit_url(page), {"title": page.title, "body": "The text, longer now.", "base_revision": 2, "save": "1"}
    )

    assert list(page.revisions.order_by("number").values_list("minor", flat=True)) == [False, True, False]
    changes = ChangeEvent.objects.filter(kind="page", object_id=page.pk).order_by("created_at", "id")
    assert list(changes.values_list("action", "minor")) == [("created", False), ("edited", True), ("edited", False)]


def test_a_section_edit_and_a_merged_edit_keep_the_box(editor_client: Client) -> None:
    page = make_page(body="## One\n\nFirst.\n\n## Two\n\nSecond.\n")
    editor_client.post(
        _edit_url(page), {"body": "## One\n\nFirst!\n\n", "base_revision": 1, "section": 1, "minor": "on", "save": "1"}
    )
    page_save_revision(
        slug=page.slug, title=page.title, body=_latest(page).body.replace("Second.", "Second, theirs."), base_revision=2
    )

    editor_client.post(
        _edit_url(page),
        {
            "title": page.title,
            "body": "## One\n\nFirst, mine.\n\n## Two\n\nSecond.\n",
            "base_revision": 2,
            "minor": "on",
            "save": "1",
        },
    )

    assert [(r.number, r.minor) for r in page.revisions.order_by("number")] == [
        (1, False),
        (2, True),
        (3, False),
        (4, True),
    ]
    assert _latest(page).body == "## One\n\nFirst, mine.\n\n## Two\n\nSecond, theirs.\n"


def test_the_conflict_screen_keeps_the_box_ticked(editor_client: Client) -> None:
    page = make_page(body="Line.")
    page_save_revision(slug=page.slug, title=page.title, body="Their line.", base_revision=1)

    clash = editor_client.post(
        _edit_url(page), {"title": page.title, "body": "My line.", "base_revision": 1, "minor": "on", "save": "1"}
    )

    assert clash.status_code == 409
    assert '<input type="checkbox" name="minor" accesskey="i" aria-describedby="id_minor_helptext" id="id_minor" checked>' in (
        clash.content.decode()
    )


def test_creating_a_page_is_never_minor(editor_client: Client) -> None:
    editor_client.post(reverse("wiki:page-create"), {"title": "Brand new", "body": "Text.", "minor": "on", "save": "1"})
    saved = page_save(slug="also-new", title="Also new", body="Text.", minor=True)

    created = Page.objects.get(slug="brand-new")
    assert not _latest(created).minor and not saved.revision.minor
    assert not ChangeEvent.objects.filter(minor=True).exists()
    with pytest.raises(IntegrityError), transaction.atomic():
        Revision.objects.filter(pk=saved.revision.pk).update(minor=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        ChangeEvent.objects.filter(action="created").update(minor=True)


def test_history_marks_minor_edits_with_a_bold_m_said_in_full(client: Client) -> None:
    page = make_page(body="One.")
    page_save_revision(slug=page.slug, title=page.title, body="One!", minor=True)
    page_save_revision(slug=page.slug, title=page.title, body="One! Two.")

    english = client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    chinese = client.get(
        reverse("wiki:page-history", kwargs={"slug": page.slug}), headers={"accept-language": "zh-Hans"}
    ).content.decode()

    rows = _rows(english.split("<tbody>", 1)[1])
    assert [MARK_EN in row for row in rows] == [False, True, False]
    assert sum(MARK_ZH in row for row in _rows(chinese.split("<tbody>", 1)[1])) == 1


def test_recent_changes_the_watchlist_and_home_mark_minor_edits_and_can_hide_them() -> None:
    reader, editor = make_reader("minor-watcher"), make_editor("minor-editor")
    page = make_page(title="Watched page", body="Start.")
    watch_add(user=reader, target=page)
    page_save_revision(slug=page.slug, title=page.title, body="Start!", comment="small fix", minor=True, user=editor)
    page_save_revision(slug=page.slug, title=page.title, body="Start! More.", comment="real edit", user=editor)
    client = Client()
    client.force_login(reader)

    for name in ("wiki:changes", "wiki:watchlist"):
        html = client.get(reverse(name)).content.decode()
        marked = [row for row in _rows(html) if MARK_EN in row]
        assert len(marked) == 1 and "small fix" in marked[0], name
        assert MARK_ZH in client.get(reverse(name), headers={"accept-language": "zh-Hans"}).content.decode()
        hidden = client.get(reverse(name), {"hideminor": "1"})
        assert [c.summary for c in hidden.context["changes"]][:2] == ["real edit", ""], name
        assert '<input type="checkbox" name="hideminor" value="1" checked> Hide minor edits' in hidden.content.decode()
        assert "隐藏小编辑" in client.get(reverse(name), headers={"accept-language": "zh-Hans"}).content.decode()
    assert MARK_EN in Client().get(reverse("wiki:home")).content.decode()


def test_hiding_minor_edits_runs_as_many_queries_however_many_there_are(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    def edits(count: int) -> None:
        for _ in range(count):
            page = make_page(body="x")
            page_save_revision(slug=page.slug, title=page.title, body="y", minor=True)
            page_save_revision(slug=page.slug, title=page.title, body="z")

    edits(2)
    with django_assert_num_queries(2):  # the count, then the rows
        few = client.get(reverse("wiki:changes"), {"hideminor": "1"})
    edits(30)
    with django_assert_num_queries(2):
        many = client.get(reverse("wiki:changes"), {"hideminor": "1"})

    assert len(few.context["changes"]) == 4 and len(many.context["changes"]) == 50
    assert not any(c.minor for c in many.context["changes"])


def _entries(feed: bytes) -> list[tuple[str, list[str]]]:
    root = ElementTree.fromstring(feed)
    return [
        (entry.findtext(f"{ATOM}title") or "", [c.get("term", "") for c in entry.iter(f"{ATOM}category")])
        for entry in root.iter(f"{ATOM}entry")
    ]


def test_the_feeds_say_which_edits_are_minor(client: Client) -> None:
    reader = make_reader("feed-watcher")
    page = make_page(title="Fed page", body="One.")
    watch_add(user=reader, target=page)
    page_save_revision(slug=page.slug, title=page.title, body="One!", minor=True)
    page_save_revision(slug=page.slug, title=page.title, body="One! Two.")
    watchlist_feed = reverse(
        "wiki:watchlist-feed", kwargs={"user_id": reader.pk, "token": watchlist_feed_token(user=reader)}
    )

    for url in (reverse("wiki:changes-feed"), watchlist_feed):
        assert _entries(client.get(url).content)[:3] == [
            ("Page “Fed page” edited", []),
            ("Page “Fed page” edited (minor edit)", ["minor"]),
            ("Page “Fed page” created", []),
        ], url
    assert _entries(client.get(reverse("wiki:changes-feed"), headers={"accept-language": "zh-Hans"}).content)[1][
        0
    ].endswith("（小编辑）")


def test_a_merged_edit_saved_by_the_service_stays_minor() -> None:
    author: Account = make_editor("merging-editor")
    page = make_page(body="A.\n\nB.\n")
    page_save_revision(slug=page.slug, title=page.title, body="A, theirs.\n\nB.\n", base_revision=1)

    saved = page_save_merging(
        slug=page.slug, title=page.title, body="A.\n\nB, mine.\n", base_revision=1, user=author, minor=True
    )

    assert saved.merged is not None and saved.revision.minor
