"""Page editing end to end: reserved addresses, the diff of a summary, links from deleted pages, reverts read in
each reader's language, conflict markers in the editor's language, creating a wanted page, one message for NUL."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_editor, make_page
from wiki.change_summaries import comment_for_reader
from wiki.forms.pages import PageCreateForm, PageForm
from wiki.models import Page, WikiLink
from wiki.models.pages import RESERVED_SLUGS
from wiki.models.rules import validate_no_conflict_markers
from wiki.services.deletion import page_delete, page_restore
from wiki.services.pages import page_save, page_save_revision
from wiki.text.merge import merge_texts

pytestmark = pytest.mark.django_db


def _zh_editor() -> Client:
    client = Client(headers={"accept-language": "zh-CN"})
    client.force_login(make_editor("zh-editor"))
    return client


# Reserved addresses


def test_every_fixed_route_under_wiki_is_reserved() -> None:
    assert {"new", "wanted"} <= set(RESERVED_SLUGS)
    assert "agentic-rl" not in RESERVED_SLUGS


@pytest.mark.parametrize("typed", [{"title": "Wanted", "slug": ""}, {"title": "保留wanted", "slug": "wanted"}])
def test_a_page_cannot_take_the_wanted_pages_address(typed: dict[str, str]) -> None:
    form = PageCreateForm({**typed, "body": "x"})
    assert not form.is_valid()
    assert [e.code for e in form.errors.as_data()["slug"]] == ["reserved"]
    with pytest.raises(ValidationError) as refused:
        page_save(slug="wanted", title="Wanted", body="x")
    assert refused.value.error_dict["slug"][0].code == "reserved"
    assert not Page.all_objects.filter(slug="wanted").exists()


def test_the_editor_reads_the_reserved_message_as_for_new() -> None:
    response = _zh_editor().post(reverse("wiki:page-create"), {"title": "保留wanted", "slug": "wanted", "body": "x", "save": "1"})
    assert response.status_code == 200
    assert "“wanted”是保留地址" in response.content.decode()


# The diff


def test_the_diff_shows_a_changed_summary_and_does_not_call_the_revisions_the_same(client: Client) -> None:
    page = make_page(slug="summed", title="Summed", body="Same text.", summary="旧摘要 old")
    page_save_revision(slug="summed", title="Summed", body="Same text.", summary="新摘要 new summary", base_revision=1)
    html = client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=2").content.decode()
    assert "Summary:" in html and "<del" in html and "旧摘要 old</del>" in html and "新摘要 new summary</ins>" in html
    assert "The text is the same in both revisions." not in html
    assert "The page text is the same in both revisions; only what is shown above changed." in html


def test_the_diff_of_two_identical_revisions_still_says_so(client: Client) -> None:
    make_page(slug="twice", title="Twice", body="Same.")
    page_save_revision(slug="twice", title="Twice", body="Same.\n", base_revision=1)
    html = client.get(reverse("wiki:page-diff", kwargs={"slug": "twice"}) + "?from=1&to=2").content.decode()
    assert "Summary:" not in html


# Links from deleted pages


def _backlinks_box(client: Client, slug: str) -> str:
    html = client.get(reverse("wiki:page-detail", kwargs={"slug": slug})).content.decode()
    return html.split('<section class="backlinks"', 1)[1].split("</section>", 1)[0]


def test_a_deleted_page_links_nowhere_until_it_is_restored(client: Client) -> None:
    make_page(slug="conflict", title="Conflict")
    linker = make_page(slug="linker", title="Linker", body="[[conflict]] and [[未来页面 Future]]")
    assert [link.source_page.slug for link in WikiLink.objects.backlinks_to("conflict")] == ["linker"]
    assert [row["target_slug"] for row in WikiLink.objects.wanted()] == ["未来页面-future"]
    assert 'href="/wiki/linker/"' in _backlinks_box(client, "conflict")  # and cached now

    page_delete(page=linker, user=None, reason="backlink test")
    assert list(WikiLink.objects.backlinks_to("conflict")) == []
    assert list(WikiLink.objects.wanted()) == []
    assert 'href="/wiki/linker/"' not in _backlinks_box(client, "conflict")
    assert 'href="/wiki/linker/"' not in client.get(reverse("wiki:page-backlinks", kwargs={"slug": "conflict"})).content.decode()
    assert "未来页面 Future" not in client.get(reverse("wiki:wanted-pages")).content.decode()

    page_restore(page=Page.all_objects.get(slug="linker"), user=None)
    assert 'href="/wiki/linker/"' in _backlinks_box(client, "conflict")
    assert "未来页面 Future" in client.get(reverse("wiki:wanted-pages")).content.decode()


# Reverts


def test_a_revert_with_the_prefilled_chinese_summary_reads_in_english_too() -> None:
    page = make_page(slug="reverted", title="Reverted", body="good")
    page_save_revision(slug="reverted", title="Reverted", body="bad", base_revision=1)
    editor = _zh_editor()
    url = reverse("wiki:page-revert", kwargs={"slug": "reverted", "number": 1})
    assert 'value="回退到修订版本 1"' in editor.get(url).content.decode()
    editor.post(url, {"base_revision": 2, "comment": "回退到修订版本 1"})
    stored = page.revisions.order_by("-number").values_list("comment", flat=True)[0]
    assert stored == "Reverted to revision 1"
    english = Client(headers={"accept-language": "en"}).get(reverse("wiki:page-history", kwargs={"slug": "reverted"}))
    assert "Reverted to revision 1" in english.content.decode() and "回退到修订版本" not in english.content.decode()


def test_a_revert_summary_stored_in_chinese_before_reads_in_each_language() -> None:
    with translation.override("en"):
        assert comment_for_reader("回退到修订版本 3") == "Reverted to revision 3"
    with translation.override("zh-hans"):
        assert comment_for_reader("Reverted to revision 3") == "回退到修订版本 3"
        assert comment_for_reader("回退到修订版本 3 并修正错字") == "回退到修订版本 3 并修正错字"


def test_a_revert_summary_the_editor_wrote_is_kept_as_typed(editor_client: Client) -> None:
    page = make_page(slug="typed", title="Typed", body="good")
    page_save_revision(slug="typed", title="Typed", body="bad", base_revision=1)
    editor_client.post(reverse("wiki:page-revert", kwargs={"slug": "typed", "number": 1}),
                       {"base_revision": 2, "comment": "回退到修订版本 2"})  # not the revision reverted to
    assert page.revisions.order_by("-number").values_list("comment", flat=True)[0] == "回退到修订版本 2"


# Conflict markers


def test_conflict_markers_are_labelled_in_the_editors_language_and_still_refused() -> None:
    merge = merge_texts(base="a\nb\n", theirs="a\nTHEIRS\n", mine="a\nMINE\n")
    with translation.override("zh-hans"):
        text = merge.text()
    assert "theirs" not in text and ">>>>>>> 我的版本" in text and "<<<<<<< 他人的版本" in text
    with pytest.raises(ValidationError):
        validate_no_conflict_markers(text)
    assert not PageForm({"title": "T", "body": text}).is_valid()


# A wanted page


def test_creating_a_wanted_page_keeps_the_title_its_links_typed() -> None:
    make_page(slug="linker", title="Linker", body="See [[未来页面 Future]] and [[冲突页 Conflict (Bob)]].")
    editor = _zh_editor()
    missing = editor.get(reverse("wiki:page-detail", kwargs={"slug": "未来页面-future"}))
    assert missing.status_code == 404
    create = f'{reverse("wiki:page-create")}?slug=%E6%9C%AA%E6%9D%A5%E9%A1%B5%E9%9D%A2-future&amp;title=%E6%9C%AA%E6%9D%A5%E9%A1%B5%E9%9D%A2%20Future'
    assert create in missing.content.decode()
    form = editor.get(reverse("wiki:page-create") + "?slug=冲突页-conflict-bob&title=冲突页 Conflict (Bob)").content.decode()
    assert 'value="冲突页 Conflict (Bob)"' in form


def test_without_a_title_the_new_page_form_still_starts_from_the_address(editor_client: Client) -> None:
    form = editor_client.get(reverse("wiki:page-create") + "?slug=some-page").content.decode()
    assert 'value="some page"' in form


# NUL


def test_a_nul_character_gets_one_message_the_wikis() -> None:
    form = PageCreateForm({"title": "Ti\x00tle", "body": "bo\x00dy", "comment": "c\x00"})
    assert not form.is_valid()
    for name in ("title", "body", "comment"):
        assert [e.code for e in form.errors.as_data()[name]] == ["invalid_characters"], name
    with translation.override("zh-hans"):
        messages = PageForm({"title": "T", "body": "x\x00"}).errors["body"]
    assert len(messages) == 1 and "不允许是用空字符串" not in messages[0]


def test_django_s_own_nul_message_reads_rightly_in_chinese() -> None:
    with translation.override("zh-hans"):
        assert translation.gettext("Null characters are not allowed.") == "不允许包含空字符（U+0000）。"
