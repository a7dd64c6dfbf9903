"""The page editor, history, diff and revert screens, and who may reach them."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries, Settings

from tests.factories import make_editor, make_page, make_reader
from wiki.models import Page, PageRedirect, Revision
from wiki.roles import Account
from wiki.services.pages import page_save_revision


@pytest.fixture
def reader_client(client, db):  # type: ignore[no-untyped-def]
    client.force_login(make_reader())
    return client


def _edit_urls(page: Page) -> list[tuple[str, str]]:
    return [
        ("get", reverse("wiki:page-create")),
        ("get", reverse("wiki:page-edit", kwargs={"slug": page.slug})),
        ("post", reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1})),
        ("post", reverse("wiki:page-preview")),
    ]


def test_anonymous_users_are_sent_to_log_in(client: Client, db: None) -> None:
    page = make_page()
    for method, url in _edit_urls(page):
        if url == reverse("wiki:page-preview"):
            # The live preview's pane says the session ended (tests/wiki/test_editing_expired_forms.py).
            assert getattr(client, method)(url).status_code == 403
            continue
        response = getattr(client, method)(url)
        if method == "post":
            # A form posted after the session ended: nothing saved, and the 403 page says so.
            assert response.status_code == 403 and "nothing was saved" in response.content.decode(), url
            continue
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_readers_are_forbidden(reader_client: Client) -> None:
    page = make_page()
    for method, url in _edit_urls(page):
        assert getattr(reader_client, method)(url).status_code == 403, url
    assert page.revisions.count() == 1


def test_create_form_prefills_the_slug(editor_client: Client) -> None:
    response = editor_client.get(reverse("wiki:page-create") + "?slug=tree-grpo")
    assert response.status_code == 200
    assert response.context["form"].initial["slug"] == "tree-grpo"
    assert b'name="csrfmiddlewaretoken"' in response.content


def test_editor_creates_a_page_and_is_sent_to_it(editor_client: Client, editor: Account) -> None:
    response = editor_client.post(
        reverse("wiki:page-create"),
        {"title": "Tree GRPO", "slug": "", "summary": "", "body": "Body [[Agentic RL]].", "comment": "new", "save": "1"},
    )
    page = Page.objects.get(slug="tree-grpo")
    assert response.status_code == 302
    assert response["Location"] == page.get_absolute_url()
    assert page.revisions.get().author == editor


def test_creating_a_page_that_exists_is_refused_next_to_the_slug(editor_client: Client) -> None:
    page = make_page(title="Agentic RL")
    response = editor_client.post(reverse("wiki:page-create"), {"title": "Agentic RL", "slug": page.slug, "body": "x"})
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["slug"]] == ["exists"]


def test_a_new_page_form_sent_twice_leads_to_the_page_it_made_and_saves_nothing_more(
        editor_client: Client, editor: Account) -> None:
    sent = {"title": "树搜索 GRPO", "slug": "", "summary": "", "body": "正文 [[Agentic RL]]。\r\n\r\n第二段。",
            "comment": "", "save": "1"}
    first = editor_client.post(reverse("wiki:page-create"), sent)
    again = editor_client.post(reverse("wiki:page-create"), sent, HTTP_ACCEPT_LANGUAGE="zh-hans", follow=True)
    page = Page.objects.get(title="树搜索 GRPO")
    assert first["Location"] == page.get_absolute_url() == again.redirect_chain[-1][0]
    assert page.revisions.count() == 1
    assert "这个页面已用同样的文字创建；没有再次保存。" in again.content.decode()
    # Someone else's page at that address, or other text, is still refused next to the slug.
    other = editor_client.post(reverse("wiki:page-create"), {**sent, "body": "另一段文字。"})
    assert [e.code for e in other.context["form"].errors.as_data()["slug"]] == ["exists"]


@pytest.mark.parametrize(("language", "said"), [
    ("zh-Hans", "请只用字母（拉丁、希腊、西里尔字母及中日韩文字）"), ("en", "Use letters (Latin, Greek, Cyrillic, Chinese, Japanese, Korean)"),
])
def test_a_slug_with_characters_an_address_cannot_hold_is_refused_in_the_wikis_own_words(
    editor_client: Client, language: str, said: str,
) -> None:
    response = editor_client.post(reverse("wiki:page-create"), {"title": "Bad address", "slug": "a b!", "body": "x"},
                                  HTTP_ACCEPT_LANGUAGE=language)

    [error] = response.context["form"].errors["slug"]
    assert said in error and "Unicode" not in error and "“字段”" not in error
    assert not Page.objects.filter(title="Bad address").exists()


def test_edit_form_carries_the_current_revision_as_base(editor_client: Client) -> None:
    page = make_page(body="one")
    page_save_revision(slug=page.slug, title=page.title, body="two", base_revision=1)
    response = editor_client.get(reverse("wiki:page-edit", kwargs={"slug": page.slug}))
    assert response.context["form"].initial["base_revision"] == 2
    assert b'name="base_revision" value="2"' in response.content


def test_preview_button_renders_without_saving(editor_client: Client) -> None:
    page = make_page(body="old")
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "**bold** <script>alert(1)</script>", "base_revision": 1, "preview": "1"},
    )
    assert response.status_code == 200
    assert b"<strong>bold</strong>" in response.content
    assert b"<script>alert(1)" not in response.content
    page.refresh_from_db()
    assert page.body == "old"


def test_preview_fragment_returns_sanitised_html(editor_client: Client) -> None:
    response = editor_client.post(reverse("wiki:page-preview"), {"body": "# T\n\n[x](javascript:alert(1))"})
    assert response.status_code == 200
    assert b"javascript:" not in response.content
    assert b"<h1" in response.content


def test_saving_an_edit_makes_a_revision(editor_client: Client) -> None:
    page = make_page(body="old")
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "new", "comment": "fix", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 302
    assert page.revisions.order_by("-number").first().comment == "fix"  # type: ignore[union-attr]


def test_pathological_markdown_is_a_field_error_and_changes_nothing(editor_client: Client) -> None:
    page = make_page(body="old")
    nested = "\n".join("    " * i + "- item" for i in range(60))
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": nested, "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["body"]] == ["too_complex"]
    assert b"levels deep" in response.content
    assert page.revisions.count() == 1


def test_oversized_body_is_a_field_error(editor_client: Client, settings: Settings) -> None:
    settings.WIKI_MAX_BODY_CHARS = 1000
    page = make_page(body="old")
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "x" * 1001, "base_revision": 1, "save": "1"},
    )
    assert "the limit is 1,000" in response.context["form"].errors["body"][0]
    assert page.revisions.count() == 1


def test_stale_edit_that_merges_cleanly_is_saved_with_both_edits_and_says_so(editor_client: Client) -> None:
    other = make_editor("other")
    page = make_page(body="intro\nmiddle\nend\n")
    page_save_revision(slug=page.slug, title=page.title, body="INTRO\nmiddle\nend\n", base_revision=1, user=other)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "intro\nmiddle\nEND\n", "comment": "the end", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 302 and response["Location"] == page.get_absolute_url()
    page.refresh_from_db()
    assert page.body == "INTRO\nmiddle\nEND\n"
    merged = page.revisions.get(number=3)
    assert (merged.body, merged.comment, merged.author) == ("INTRO\nmiddle\nEND\n", "the end", Account.objects.get(username="editor"))
    shown = editor_client.get(response["Location"])
    [message] = [str(m) for m in shown.context["messages"]]
    diff = reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=2&amp;to=3"
    assert "Saved revision 3" in message
    assert "Revision 2 was saved while you were editing: your edit was merged with it." in message
    assert f'<a href="{diff}">What your edit changed in revision 2</a>' in message
    assert editor_client.get(diff.replace("&amp;", "&")).status_code == 200


def test_an_edit_merged_with_several_revisions_saved_meanwhile_names_them_in_chinese(editor_client: Client) -> None:
    page = make_page(body="a\nb\nc\nd\n")
    page_save_revision(slug=page.slug, title=page.title, body="A\nb\nc\nd\n", base_revision=1)
    page_save_revision(slug=page.slug, title=page.title, body="A\nB\nc\nd\n", base_revision=2)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "a\nb\nc\nD\n", "base_revision": 1, "save": "1"},
        follow=True, headers={"accept-language": "zh-hans"},
    )
    assert page.revisions.get(number=4).body == "A\nB\nc\nD\n"
    [message] = [str(m) for m in response.context["messages"]]
    assert "你编辑期间，修订版本 2 至 3 已被保存：你的编辑已与它们合并。" in message
    assert "?from=3&amp;to=4" in message and "你的编辑对修订版本 3 做了哪些改动" in message


def test_a_stale_edit_already_holding_what_was_saved_meanwhile_saves_nothing(editor_client: Client) -> None:
    page = make_page(body="a\nb\n")
    page_save_revision(slug=page.slug, title=page.title, body="a\nB\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "a\nb\n", "base_revision": 1, "save": "1"}, follow=True,
    )
    assert page.revisions.count() == 2
    assert [str(m) for m in response.context["messages"]] == [f"No changes to save: “{page.title}” is still at revision 2."]


def test_a_clean_merge_too_long_to_save_goes_to_the_conflict_screen_with_nothing_lost(
    editor_client: Client, settings: Settings
) -> None:
    settings.WIKI_MAX_BODY_CHARS = 30
    page = make_page(body="a\nb\nc\n")
    page_save_revision(slug=page.slug, title=page.title, body="a long line\nb\nc\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "a\nb\nc, and a long end\n", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 409
    assert response.context["merge"].is_clean
    assert response.context["form"].initial["body"] == "a long line\nb\nc, and a long end\n"
    assert page.revisions.count() == 2


def test_a_clean_text_merge_with_a_clashing_summary_still_stops_on_the_conflict_screen(editor_client: Client) -> None:
    page = make_page(body="a\nb\nc\n")
    page_save_revision(slug=page.slug, title=page.title, summary="Theirs", body="A\nb\nc\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "summary": "Mine", "body": "a\nb\nC\n", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 409
    assert response.context["form"].initial["body"] == "A\nb\nC\n"
    assert response.context["form"].initial["summary"] == "Mine"
    assert page.revisions.count() == 2


def test_clashing_edit_marks_the_clash(editor_client: Client) -> None:
    page = make_page(body="a\nb\nc\n")
    page_save_revision(slug=page.slug, title=page.title, body="a\ntheirs\nc\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "a\nmine\nc\n", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 409
    assert response.context["merge"].conflict_count == 1
    assert b'class="clash"' in response.content
    assert "<<<<<<<" in response.context["form"].initial["body"]


def test_conflict_screen_carries_the_edit_summary_and_typed_summary_over(editor_client: Client) -> None:
    page = make_page(body="a\nb\nc\n")
    page_save_revision(slug=page.slug, title=page.title, body="a\nb\nC\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "summary": "My summary", "body": "a\nb\nmine\n", "comment": "Fix the end",
         "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert 'name="comment" value="Fix the end"' in html
    assert "My summary</textarea>" in html


def test_the_conflict_screens_boxes_of_text_that_scroll_take_the_focus_and_say_their_language(editor_client: Client) -> None:
    """A box that scrolls with nothing in it to focus is reached by the keyboard itself (WCAG 2.1.1), named as a
    region, and a Chinese page's text in it is read in a Chinese voice whatever the interface's language."""
    page = make_page(body="第一段保持不变。\nb\nc\n")
    page_save_revision(slug=page.slug, title=page.title, body="第一段保持不变。\nb\nC\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "第一段保持不变。\nB\nc\n", "base_revision": 1, "save": "1"},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert '<pre class="clean" tabindex="0" role="region" aria-label="Text neither edit changed" lang="zh-Hans">第一段保持不变。' in html
    versions = re.findall(r'<summary id="([a-z-]+)">.*?</summary><pre class="version" tabindex="0" role="region" '
                          r'aria-labelledby="([a-z-]+)" lang="zh-Hans">', html)
    assert versions == [("saved-version-label", "saved-version-label"), ("your-version-label", "your-version-label")]


def test_conflict_keeps_a_title_and_summary_saved_meanwhile(editor_client: Client) -> None:
    page = make_page(title="Old title", body="a\n")
    page_save_revision(slug=page.slug, title="Their title", summary="Their summary", body="a\nb\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": "Old title", "summary": "", "body": "a\nmine\n", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 409
    form = response.context["form"]
    assert form.initial["title"] == "Their title"
    assert form.initial["summary"] == "Their summary"


def test_conflict_on_a_title_both_changed_keeps_mine_and_shows_theirs_next_to_it(editor_client: Client) -> None:
    page = make_page(title="Old title", body="a\n")
    page_save_revision(slug=page.slug, title="Their title", body="a\n", base_revision=1)
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": "My title", "body": "a\n", "base_revision": 1, "save": "1"},
    )
    assert response.status_code == 409
    assert response.context["form"].initial["title"] == "My title"
    assert "Changed meanwhile too, to “Their title”" in response.content.decode()


def test_history_lists_author_summary_and_size_change(client: Client, db: None) -> None:
    user = make_editor("historian")
    page = make_page(body="abc", user=user)
    page_save_revision(slug=page.slug, title=page.title, body="abcdef", comment="longer", user=user, base_revision=1)
    response = client.get(reverse("wiki:page-history", kwargs={"slug": page.slug}))
    assert response.status_code == 200
    text = response.content.decode()
    assert "historian" in text and "longer" in text and "(+3)" in text
    # each revision after the first links what it changed, as a wiki's history does
    diffs = re.findall(r'href="([^"]*/diff/\?[^"]*)"[^>]*>diff<', text)
    assert [d.replace("&amp;", "&") for d in diffs] == [reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=2"]
    assert client.get(diffs[0].replace("&amp;", "&")).status_code == 200


def test_history_runs_a_fixed_number_of_queries(client: Client, db: None, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    small = make_page(body="0")
    large = make_page(body="0")
    authors = [make_editor() for _ in range(3)]
    for n in range(2, 4):
        page_save_revision(slug=small.slug, title=small.title, body=str(n), base_revision=n - 1, user=authors[0])
    for n in range(2, 41):  # every fifth revision retitles the page
        page_save_revision(slug=large.slug, title=f"{large.title} {n // 5}", body=str(n), base_revision=n - 1, user=authors[n % 3])
    for n in range(30):  # the addresses it had before
        PageRedirect.objects.create(slug=f"{large.slug}-before-{n}", page=large)
    # the page, its revisions with their authors, the count for the pagination, the former addresses
    with django_assert_num_queries(4):
        client.get(reverse("wiki:page-history", kwargs={"slug": small.slug}))
    with django_assert_num_queries(4):
        response = client.get(reverse("wiki:page-history", kwargs={"slug": large.slug}))
    assert len(response.context["revisions"]) == 40 and len(response.context["former"]) == 20
    assert response.content.decode().count('class="title-change"') == 9


def test_diff_between_two_revisions(client: Client, db: None) -> None:
    page = make_page(body="策略梯度更新\n")
    page_save_revision(slug=page.slug, title=page.title, body="策略蒸馏更新\n", base_revision=1)
    response = client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=2")
    assert response.status_code == 200
    assert "<del>梯度</del>" in response.content.decode()
    assert "<ins>蒸馏</ins>" in response.content.decode()


def test_the_diff_page_alone_shows_the_latest_change(client: Client, db: None) -> None:
    page = make_page(body="策略梯度更新\n")
    url = reverse("wiki:page-diff", kwargs={"slug": page.slug})
    assert client.get(url).status_code == 404  # one revision: no change to show
    page_save_revision(slug=page.slug, title=page.title, body="策略蒸馏更新\n", base_revision=1)
    page_save_revision(slug=page.slug, title=page.title, body="策略蒸馏与搜索\n", base_revision=2)

    response = client.get(url)

    assert response.status_code == 302 and response["Location"] == f"{url}?from=2&to=3"
    assert "<ins>与搜索</ins>" in client.get(response["Location"]).content.decode()


def test_diff_with_unknown_revision_is_not_found(client: Client, db: None) -> None:
    page = make_page()
    assert client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=9").status_code == 404
    assert client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=x").status_code == 404


def test_revert_through_the_history_screen(editor_client: Client) -> None:
    page = make_page(body="good")
    page_save_revision(slug=page.slug, title=page.title, body="bad", base_revision=1)
    response = editor_client.post(reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1}), {"base_revision": 2})
    assert response.status_code == 302
    page.refresh_from_db()
    assert page.body == "good"
    assert page.revisions.count() == 3


def test_revert_from_a_stale_history_screen_changes_nothing(editor_client: Client) -> None:
    page = make_page(body="good")
    page_save_revision(slug=page.slug, title=page.title, body="bad", base_revision=1)
    page_save_revision(slug=page.slug, title=page.title, body="fixed", base_revision=2)
    editor_client.post(reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1}), {"base_revision": 2})
    assert Revision.objects.filter(page=page).count() == 3


def test_a_stale_revert_asks_again_with_its_summary_kept_and_reverts_on_confirming(editor_client: Client) -> None:
    page = make_page(body="good")
    page_save_revision(slug=page.slug, title=page.title, body="bad", base_revision=1)
    page_save_revision(slug=page.slug, title=page.title, body="fixed", base_revision=2)
    url = reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1})

    stale = editor_client.post(url, {"base_revision": 2, "comment": "back to the reviewed text"})
    assert stale.status_code == 409 and page.revisions.count() == 3
    html = stale.content.decode()
    assert "The page changed while you were looking at its history; nothing was reverted." in html
    assert 'value="back to the reviewed text"' in html and 'name="base_revision" value="3"' in html

    assert editor_client.post(url, {"base_revision": 3, "comment": "back to the reviewed text"}).status_code == 302
    latest = page.revisions.latest("number")
    assert (latest.number, latest.body, latest.comment) == (4, "good", "back to the reviewed text")


def test_revert_asks_for_confirmation_and_an_edit_summary(editor_client: Client) -> None:
    page = make_page(body="good")
    page_save_revision(slug=page.slug, title=page.title, body="bad", base_revision=1)
    url = reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1})

    history = editor_client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    assert f'href="{url}"' in history and 'method="post" action="' + url not in history
    confirm = editor_client.get(url)
    assert confirm.status_code == 200 and page.revisions.count() == 2
    html = confirm.content.decode()
    assert 'name="comment"' in html and 'name="base_revision" value="2"' in html

    editor_client.post(url, {"base_revision": 2, "comment": "spam removed"})
    assert page.revisions.order_by("-number").values_list("comment", flat=True)[0] == "spam removed"


def test_revert_with_an_edit_summary_over_the_limit_says_so_and_reverts_nothing(editor_client: Client) -> None:
    page = make_page(body="good")
    page_save_revision(slug=page.slug, title=page.title, body="bad", base_revision=1)
    url = reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1})

    response = editor_client.post(url, {"base_revision": 2, "comment": "x" * 600})

    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="errorlist"' in html and "x" * 600 in html and 'name="base_revision" value="2"' in html
    assert page.revisions.count() == 2


def test_reverting_to_a_revision_over_todays_limits_says_why_and_reverts_nothing(
    editor_client: Client, settings: Settings
) -> None:
    page = make_page(body="x" * 1200)
    page_save_revision(slug=page.slug, title=page.title, body="short", base_revision=1)
    settings.WIKI_MAX_BODY_CHARS = 1000
    url = reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1})

    response = editor_client.post(url, {"base_revision": 2, "comment": "back to the long text"},
                                  headers={"accept-language": "zh-CN"})

    assert response.status_code == 400
    html = response.content.decode()
    assert "修订版本 1 无法按原样再次保存" in html and "上限为 1000" in html and "back to the long text" in html
    assert page.revisions.count() == 2 and Page.objects.get(pk=page.pk).body == "short"


def test_preview_fragment_reports_too_complex_text(editor_client: Client) -> None:
    response = editor_client.post(reverse("wiki:page-preview"), {"body": "[" * 30_000})
    assert response.status_code == 422
    assert "markup characters" in response.content.decode()


def _not_reached(*args: object, **kwargs: object) -> None:
    raise AssertionError("a text over the limits had its citations read")


def test_an_oversized_live_preview_is_refused_before_its_citations_are_read(
        editor_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # Some 800,000 characters of citations, each to a title of its own: matching them all takes minutes.
    body = "\n".join(f"C{n}（来源：Title number {n} y{'x' * 40}，p.1）" for n in range(12_000))
    edit_form = editor_client.post(reverse("wiki:page-create"), {"title": "Huge", "body": body, "preview": "1"})
    monkeypatch.setattr("wiki.services.pages.citations_resolve", _not_reached)
    monkeypatch.setattr("wiki.markdown.find_citations", _not_reached)

    response = editor_client.post(reverse("wiki:page-preview"), {"body": body})

    assert response.status_code == 422
    message = f"The text is {len(body):,} characters long; the limit is 200,000."
    assert message in response.content.decode()
    assert edit_form.context["form"].errors["body"] == [message]


def test_diff_with_bad_revision_numbers_says_which_value_is_wrong(client: Client, db: None) -> None:
    page = make_page(body="one")
    response = client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=abc&to=999")
    assert response.status_code == 404
    text = response.content.decode()
    assert "“from=abc” is not a revision number" in text
    assert "this page has no revision 999" in text


def test_revert_from_an_older_history_page_is_checked_for_conflicts(editor_client: Client) -> None:
    page = make_page(body="0")
    for n in range(2, 53):
        page_save_revision(slug=page.slug, title=page.title, body=str(n), base_revision=n - 1)
    response = editor_client.get(reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1}))
    assert 'name="base_revision" value="52"' in response.content.decode()


def test_a_megabyte_of_chinese_gets_the_length_message_with_the_text_kept(editor_client: Client) -> None:
    from urllib.parse import urlencode

    body = "策略梯度更新。" * 150_000
    response = editor_client.post(
        reverse("wiki:page-create"), urlencode({"title": "Huge", "body": body, "save": "1"}),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert "the limit is 200,000" in response.content.decode()
    assert response.context["form"].data["body"] == body
    assert not Page.objects.filter(title="Huge").exists()


def test_a_page_with_a_very_long_title_gets_a_slug_a_link_to_that_title_finds(editor_client: Client) -> None:
    title = "Long " * 60
    response = editor_client.post(reverse("wiki:page-create"), {"title": title, "body": "x", "save": "1"})
    assert response.status_code == 302
    page = Page.objects.get(title=title.strip())
    assert len(page.slug) <= 200
    linking = make_page(body=f"see [[{title.strip()}]]")
    assert list(linking.outgoing_links.values_list("target_slug", flat=True)) == [page.slug]


def test_an_altered_hidden_revision_number_is_reported_not_silently_refused(editor_client: Client) -> None:
    page = make_page(body="one")
    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": page.title, "body": "two", "base_revision": "abc", "save": "1"},
    )
    assert response.status_code == 200
    assert "hidden “base_revision” value is not valid" in response.content.decode()
    assert "two</textarea>" in response.content.decode()


def test_history_of_a_single_revision_offers_no_comparison(client: Client, db: None) -> None:
    page = make_page(body="Only text.")
    html = client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    assert "Compare selected revisions" not in html
    assert "nothing to compare yet" in html


@pytest.mark.parametrize("button", ["save", "preview"])
def test_an_edit_of_a_page_deleted_meanwhile_keeps_the_text_and_says_who_deleted_it(editor_client: Client, button: str) -> None:
    from wiki.services.deletion import page_delete

    staff = make_editor("carol")
    page = make_page(slug="doomed", title="Doomed", body="old")
    page_delete(page=page, user=staff, reason="Duplicate of another page")
    typed = {"title": "Doomed", "summary": "mine", "body": "我的新文字，不可丢失。", "comment": "fix",
             "base_revision": 1, button: "1"}

    response = editor_client.post(reverse("wiki:page-edit", kwargs={"slug": "doomed"}), typed)

    assert response.status_code == 410
    text = response.content.decode()
    assert "我的新文字，不可丢失。" in text and "mine" in text
    assert "was deleted by carol" in text and "Duplicate of another page" in text
    form = response.context["form"]
    assert form.initial["body"] == "我的新文字，不可丢失。" and "slug" in form.fields
    assert f'action="{reverse("wiki:page-create")}"' in text
    assert Page.all_objects.get(pk=page.pk).body == "old" and page.revisions.count() == 1


def test_opening_the_editor_of_a_deleted_page_leads_to_its_address(editor_client: Client, editor: Account) -> None:
    from wiki.services.deletion import page_delete

    page = make_page(slug="doomed")
    page_delete(page=page, user=editor, reason="Spam")

    response = editor_client.get(reverse("wiki:page-edit", kwargs={"slug": "doomed"}))

    assert response.status_code == 302 and response["Location"] == page.get_absolute_url()
    assert editor_client.get(reverse("wiki:page-edit", kwargs={"slug": "never-was"})).status_code == 404


def test_saving_the_form_unchanged_makes_no_revision_and_says_so(editor_client: Client) -> None:
    from wiki.models import ChangeEvent

    page = make_page(title="Same", body="same text", summary="s")
    events = ChangeEvent.objects.count()

    response = editor_client.post(
        reverse("wiki:page-edit", kwargs={"slug": page.slug}),
        {"title": "Same", "summary": "s", "body": "same text", "comment": "no-op", "base_revision": 1, "save": "1"},
        follow=True,
    )

    assert page.revisions.count() == 1 and ChangeEvent.objects.count() == events
    assert [str(m) for m in response.context["messages"]] == ["No changes to save: “Same” is still at revision 1."]


def test_a_slug_typed_with_capitals_is_lower_cased_and_links_find_the_page(editor_client: Client) -> None:
    response = editor_client.post(
        reverse("wiki:page-create"),
        {"title": "Upper", "slug": "UPPER-Form", "summary": "", "body": "x", "comment": "", "save": "1"},
    )

    page = Page.objects.get(title="Upper")
    assert page.slug == "upper-form" and response["Location"] == page.get_absolute_url()
    linking = page_save_revision(slug="linking", title="Linking", body="See [[UPPER-Form]].")
    assert 'href="/wiki/upper-form/"' in linking.page.rendered_html and "wanted" not in linking.page.rendered_html
    again = editor_client.post(
        reverse("wiki:page-create"),
        {"title": "Other", "slug": "upper-FORM", "summary": "", "body": "y", "comment": "", "save": "1"},
    )
    assert again.status_code == 200 and [e.code for e in again.context["form"].errors.as_data()["slug"]] == ["exists"]


def test_a_form_over_the_upload_limit_gets_a_413_page_naming_the_limit(editor_client: Client, settings: Settings,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

    response = editor_client.post(reverse("wiki:page-create"),
                                  {"title": "Big", "body": "x" * (1024 * 1024 + 10), "save": "1"},
                                  HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 413
    text = response.content.decode()
    assert "1 MB" in text and "<html" in text and "Bad Request" not in text
    assert not Page.objects.filter(title="Big").exists()
    assert not any(record.exc_info for record in caplog.records), [(r.name, r.getMessage()) for r in caplog.records]


def test_reverting_to_a_revision_the_page_reads_as_already_makes_no_revision(editor_client: Client) -> None:
    page = make_page(body="good")
    page_save_revision(slug=page.slug, title=page.title, body="bad", base_revision=1)
    page_save_revision(slug=page.slug, title=page.title, body="good", base_revision=2)

    response = editor_client.post(reverse("wiki:page-revert", kwargs={"slug": page.slug, "number": 1}),
                                  {"base_revision": 3}, follow=True)

    assert page.revisions.count() == 3
    assert [str(m) for m in response.context["messages"]] == [f"No changes to save: “{page.title}” is still at revision 3."]


def test_preview_fragment_with_a_nul_in_the_slug_still_previews(editor_client: Client) -> None:
    response = editor_client.post(reverse("wiki:page-preview"), {"body": "**bold**", "slug": "a\x00b"})

    assert response.status_code == 200 and b"<strong>bold</strong>" in response.content


def test_the_edit_form_sent_twice_saves_once_and_answers_the_second_as_saved_already(editor_client: Client) -> None:
    page = make_page(title="Double click", body="start")
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    typed = {"title": "Double click", "summary": "", "body": "start, then more", "comment": "", "base_revision": 1,
             "save": "1"}

    first = editor_client.post(url, typed)
    second = editor_client.post(url, typed, follow=True)

    assert first.status_code == 302 and second.status_code == 200
    assert [str(m) for m in second.context["messages"]][-1] == "No changes to save: “Double click” is still at revision 2."
    assert page.revisions.count() == 2
    stale = editor_client.post(url, {**typed, "body": "start, then other words"})
    assert stale.status_code == 409
