"""Moving a page: editors give it another address through a form; the former address, and the wiki links naming it,
keep leading to it until a page is created there; a refused address changes nothing; the move is in the changes feed
in each reader's language; it runs as many queries however many pages link to it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_editor, make_reader
from wiki.models import ChangeEvent, Page, PageRedirect, WikiLink
from wiki.roles import Account
from wiki.services.deletion import page_delete
from wiki.services.page_edits import page_save_merging
from wiki.services.page_moves import page_move
from wiki.services.pages import PageDeleted, page_revert, page_save
from wiki.services.watches import watch_add

pytestmark = pytest.mark.django_db


def _targets(slug: str) -> set[str]:
    return set(WikiLink.objects.filter(source_page__slug=slug).values_list("target_slug", flat=True))


@pytest.fixture
def notes() -> Page:
    page = page_save(slug="old-notes", title="Reading notes", body="笔记。").revision.page
    page_save(slug="linker", title="Linker", body="见 [[old-notes]] 与 [[old-notes#定义|定义]]。")
    return page


def test_an_editor_moves_a_page_and_its_former_address_and_links_lead_to_it(notes: Page, editor_client: Client) -> None:
    form = editor_client.get(reverse("wiki:page-move", kwargs={"slug": "old-notes"}), headers={"accept-language": "zh-CN"})
    assert form.status_code == 200 and "移动“Reading notes”" in form.content.decode()

    moved = editor_client.post(reverse("wiki:page-move", kwargs={"slug": "old-notes"}),
                               {"slug": "  Survey-Notes ", "reason": "更准确的地址"}, follow=True)

    assert moved.redirect_chain == [("/wiki/survey-notes/", 302)]
    assert "/wiki/old-notes/ leads here" in moved.content.decode()
    page = Page.objects.get(pk=notes.pk)
    assert page.slug == "survey-notes" and page.revisions.count() == 1
    assert editor_client.get("/wiki/old-notes/")["Location"] == "/wiki/survey-notes/?redirectedfrom=old-notes"
    history = editor_client.get("/wiki/survey-notes/history/", headers={"accept-language": "zh-CN"}).content.decode()
    assert '移动前的地址：<a href="/wiki/old-notes/">old-notes</a>（' in history
    linker = Page.objects.get(slug="linker").rendered_html
    assert 'href="/wiki/survey-notes/"' in linker and 'href="/wiki/survey-notes/#定义"' in linker
    assert "wanted" not in linker
    assert _targets("linker") == {"survey-notes"}
    assert [link.source_page.slug for link in WikiLink.objects.backlinks_to("survey-notes")] == ["linker"]
    assert Page.objects.named("old-notes") == [page]
    event = ChangeEvent.objects.get(action=ChangeEvent.Action.MOVED)
    assert event.url == "/wiki/survey-notes/"
    feed = editor_client.get(reverse("wiki:changes"), headers={"accept-language": "zh-CN"}).content.decode()
    assert "从“old-notes”移至“survey-notes”。原因：更准确的地址" in feed
    assert "moved from old-notes to survey-notes: 更准确的地址" in editor_client.get(
        reverse("wiki:changes"), headers={"accept-language": "en"}).content.decode()


@pytest.mark.parametrize(("typed", "reason", "field", "message"), [
    ("linker", "", "slug", "Another page has the address “linker”."),
    ("gone", "", "slug", "A deleted page has the address “gone”; staff can restore it."),
    ("wanted", "", "slug", "“wanted” is reserved; choose another slug."),
    ("old-notes", "", "slug", "The page is at “old-notes” already."),
    ("two words", "", "slug", "Use letters (Latin, Greek"),
    ("-", "", "slug", "at least one letter or digit"),
    ("_-_", "", "slug", "at least one letter or digit"),
    ("x" * 201, "", "slug", "201"),
    ("fine-address", "two\nlines", "reason", "one line"),
])
def test_a_refused_address_or_reason_says_why_and_changes_nothing(
    notes: Page, editor_client: Client, typed: str, reason: str, field: str, message: str
) -> None:
    page_delete(page=page_save(slug="gone", title="Gone", body="x").revision.page, user=None, reason="test")
    events = ChangeEvent.objects.count()

    response = editor_client.post(reverse("wiki:page-move", kwargs={"slug": "old-notes"}), {"slug": typed, "reason": reason})

    assert response.status_code == 400
    assert message in response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert Page.objects.get(pk=notes.pk).slug == "old-notes"
    assert not PageRedirect.objects.exists() and ChangeEvent.objects.count() == events
    assert _targets("linker") == {"old-notes"}


def test_readers_cannot_move_a_page_and_anonymous_readers_are_sent_to_log_in(notes: Page, client: Client) -> None:
    url = reverse("wiki:page-move", kwargs={"slug": "old-notes"})
    assert client.get(url).status_code == 302
    client.force_login(make_reader("only-reads"))
    assert client.post(url, {"slug": "elsewhere"}).status_code == 403
    assert Page.objects.get(pk=notes.pk).slug == "old-notes"
    assert "/move/" not in client.get("/wiki/old-notes/").content.decode()


def test_a_page_created_at_a_former_address_takes_it_over(notes: Page) -> None:
    page_move(page=notes, slug="survey-notes", user=None)
    assert _targets("linker") == {"survey-notes"}

    page_save(slug="old-notes", title="A new page at the old address", body="新页面。")

    assert not PageRedirect.objects.exists()
    assert _targets("linker") == {"old-notes"}
    assert 'href="/wiki/old-notes/"' in Page.objects.get(slug="linker").rendered_html
    assert Page.objects.named("old-notes")[0].title == "A new page at the old address"


def test_a_page_moved_back_is_at_its_first_address_and_the_second_leads_there(notes: Page, client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=None)
    page_move(page=Page.objects.get(pk=notes.pk), slug="old-notes", user=make_editor("mover"))

    assert Page.objects.get(pk=notes.pk).slug == "old-notes"
    assert list(PageRedirect.objects.values_list("slug", flat=True)) == ["survey-notes"]
    assert client.get("/wiki/survey-notes/")["Location"] == "/wiki/old-notes/?redirectedfrom=survey-notes"
    assert _targets("linker") == {"old-notes"}


def test_the_former_address_of_a_deleted_page_leads_nowhere(notes: Page, client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=None)
    page_delete(page=Page.objects.get(pk=notes.pk), user=None, reason="test")

    assert client.get("/wiki/old-notes/").status_code == 404
    assert "wikilink wanted" in Page.objects.get(slug="linker").rendered_html


def _queries_to_move_a_page_linked_from(n: int, slug: str, *, title: str | None = None) -> int:
    editor = make_editor(f"{slug}-mover")  # who has watched nothing yet, each time
    page = page_save(slug=slug, title=slug, body="x").revision.page
    for i in range(n):
        page_save(slug=f"{slug}-linking-{i}", title=f"{slug} linking {i}", body=f"[[{slug}]]")
    with CaptureQueriesContext(connection) as moved:
        page_move(page=page, slug=f"{slug}-moved", title=title and f"{slug} {title}", user=editor)
    assert all(_targets(f"{slug}-linking-{i}") == {f"{slug}-moved"} for i in range(n))
    return len(moved.captured_queries)


@pytest.mark.parametrize("title", [None, "renamed"])
def test_moving_a_page_runs_as_many_queries_however_many_pages_link_to_it(title: str | None) -> None:
    assert (_queries_to_move_a_page_linked_from(2, "few", title=title)
            == _queries_to_move_a_page_linked_from(12, "many", title=title))


def test_moving_to_an_address_a_wanted_link_names_makes_it_a_link(notes: Page) -> None:
    page_save(slug="wanting", title="Wanting", body="[[survey-notes]]")
    assert "wikilink wanted" in Page.objects.get(slug="wanting").rendered_html

    page_move(page=notes, slug="survey-notes", user=None)

    assert _targets("wanting") == {"survey-notes"}
    assert 'href="/wiki/survey-notes/"' in Page.objects.get(slug="wanting").rendered_html
    assert list(WikiLink.objects.wanted()) == []


def test_moving_to_an_address_another_page_has_as_its_title_takes_the_links_naming_it(notes: Page) -> None:
    page_save(slug="other", title="Survey notes", body="a page titled as the new address")
    page_save(slug="by-title", title="By title", body="[[Survey notes]]")
    assert _targets("by-title") == {"other"}

    page_move(page=notes, slug="survey-notes", user=None)

    # An address wins over a title.
    assert _targets("by-title") == {"survey-notes"}
    assert 'href="/wiki/survey-notes/"' in Page.objects.get(slug="by-title").rendered_html


def test_every_view_of_the_page_at_its_former_address_redirects_to_where_it_is_now(notes: Page, editor_client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=None)

    for view, extra in (("page-history", {}), ("page-diff", {}), ("page-backlinks", {}), ("page-claims", {}),
                        ("page-revision", {"number": 1}), ("page-export-markdown", {}), ("page-edit", {})):
        response = editor_client.get(reverse(f"wiki:{view}", kwargs={"slug": "old-notes", **extra}), {"from": "1", "to": "1"})
        assert (response.status_code, response["Location"]) == (
            302, reverse(f"wiki:{view}", kwargs={"slug": "survey-notes", **extra}) + "?from=1&to=1"), view
    # A form posted to the former address without the revision it started from is not sent on: nothing is saved.
    posted = editor_client.post(reverse("wiki:page-edit", kwargs={"slug": "old-notes"}), {"title": "x", "body": "y", "save": "1"})
    assert posted.status_code == 404 and Page.objects.get(pk=notes.pk).title == "Reading notes"
    assert editor_client.get("/wiki/never-was/history/").status_code == 404


def test_the_local_graph_of_a_page_at_its_former_address_redirects_to_where_it_is_now(notes: Page, client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=None)

    response = client.get(reverse("wiki:graph-local", kwargs={"kind": "page", "key": "old-notes"}), {"depth": "2"})

    assert (response.status_code, response["Location"]) == (
        302, reverse("wiki:graph-local", kwargs={"kind": "page", "key": "survey-notes"}) + "?depth=2")
    assert client.get(response["Location"]).status_code == 200
    # Only a page's address is followed: a source or a term of that name is not a moved page.
    assert client.get(reverse("wiki:graph-local", kwargs={"kind": "source", "key": "old-notes"})).status_code == 404
    assert client.get(reverse("wiki:graph-local", kwargs={"kind": "page", "key": "never-was"})).status_code == 404


def test_a_page_moved_to_another_page_s_former_address_takes_it_over(notes: Page) -> None:
    page_move(page=notes, slug="survey-notes", user=None)
    other = page_save(slug="other", title="Other", body="x").revision.page
    assert _targets("linker") == {"survey-notes"}

    page_move(page=other, slug="old-notes", user=None, take_over=True)

    assert _targets("linker") == {"old-notes"}
    assert dict(PageRedirect.objects.values_list("slug", "page_id")) == {"other": other.pk}
    assert Page.objects.named("old-notes") == [Page.objects.get(pk=other.pk)]


def test_moving_to_another_page_s_former_address_asks_first_and_changes_nothing(notes: Page, editor_client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=None)
    other = page_save(slug="other", title="Other", body="x").revision.page
    url = reverse("wiki:page-move", kwargs={"slug": "other"})

    asked = editor_client.post(url, {"slug": "old-notes", "reason": ""}, headers={"accept-language": "zh-CN"})

    content = asked.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert asked.status_code == 400
    assert "“old-notes”曾是现位于 /wiki/survey-notes/ 的页面的地址" in content
    assert 'type="checkbox" name="take_over"' in content
    assert Page.objects.get(pk=other.pk).slug == "other" and _targets("linker") == {"survey-notes"}

    moved = editor_client.post(url, {"slug": "old-notes", "reason": "", "take_over": "on"})

    assert moved.status_code == 302 and Page.objects.get(pk=other.pk).slug == "old-notes"
    assert _targets("linker") == {"old-notes"}


def test_a_page_moves_back_to_its_own_former_address_without_asking(notes: Page) -> None:
    page_move(page=notes, slug="survey-notes", user=None)

    page_move(page=notes, slug="old-notes", user=None)

    assert Page.objects.get(pk=notes.pk).slug == "old-notes" and _targets("linker") == {"old-notes"}


def test_a_page_deleted_before_the_move_is_not_moved(notes: Page) -> None:
    page_delete(page=notes, user=None, reason="test")

    with pytest.raises(ValidationError) as refused:
        page_move(page=notes, slug="survey-notes", user=None)

    assert refused.value.code == "deleted"
    assert Page.all_objects.get(pk=notes.pk).slug == "old-notes" and not PageRedirect.objects.exists()


def test_an_edit_opened_before_the_move_is_saved_at_the_new_address_with_the_move_kept(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    page_move(page=notes, slug="survey-notes", user=editor)

    saved = editor_client.post("/wiki/old-notes/edit/", {**form.initial, "body": "笔记。\n\n新的一段。", "comment": ""},
                               headers={"accept-language": "zh-CN"}, follow=True)

    assert saved.redirect_chain == [("/wiki/survey-notes/", 302)]
    page = Page.objects.get(pk=notes.pk)
    assert page.slug == "survey-notes" and page.body == "笔记。\n\n新的一段。"
    assert "你编辑期间，页面已从“old-notes”移至“survey-notes”：你的修改将保存到新地址。" in saved.content.decode()


def test_an_edit_opened_before_the_move_of_a_page_since_deleted_keeps_what_was_typed(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    page_move(page=notes, slug="survey-notes", user=editor)
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="重复")

    kept = editor_client.post("/wiki/old-notes/edit/", {**form.initial, "body": "没有丢的一段。", "comment": ""})

    assert "没有丢的一段。" in kept.content.decode()
    assert Page.all_objects.get(pk=notes.pk).body == "笔记。"


def _sent(form: Any, **typed: str) -> dict[str, str]:
    """An opened edit form's values as the browser sends them back, hidden ones included, with ``typed``."""
    return {**{name: "" if value is None else str(value) for name, value in form.initial.items()}, **typed,
            "save": "1"}


def _newcomer(editor: Account, *, revisions: int) -> Page:
    """A page created at old-notes once the page there moved, saved ``revisions`` times."""
    for number in range(revisions):
        newcomer = page_save(slug="old-notes", title="Newcomer", body=f"新页面，第 {number + 1} 版。", user=editor,
                             base_revision=number or 0).revision.page
    return newcomer


@pytest.mark.parametrize("revisions", [1, 2])
def test_an_edit_opened_before_the_move_is_saved_to_the_moved_page_not_to_a_page_created_at_its_former_address(
    notes: Page, editor: Account, editor_client: Client, revisions: int
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer(editor, revisions=revisions)

    saved = editor_client.post("/wiki/old-notes/edit/", _sent(form, body="笔记。\n\n新的一段。"), follow=True)

    assert saved.redirect_chain == [("/wiki/survey-notes/", 302)]
    assert Page.objects.get(pk=notes.pk).body == "笔记。\n\n新的一段。"
    newcomer = Page.objects.get(pk=newcomer.pk)
    assert (newcomer.slug, newcomer.revisions.count()) == ("old-notes", revisions)
    assert newcomer.body == f"新页面，第 {revisions} 版。"


def test_a_section_edit_opened_before_the_move_is_saved_to_the_moved_page_not_to_a_page_created_at_its_former_address(
    editor: Account, editor_client: Client
) -> None:
    notes = page_save(slug="old-notes", title="Reading notes", body="## 定义\n\n旧的定义。\n").revision.page
    form = editor_client.get("/wiki/old-notes/edit/?section=1").context["form"]
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = page_save(slug="old-notes", title="Newcomer", body="## 别的\n\n新页面。\n", user=editor).revision.page

    saved = editor_client.post("/wiki/old-notes/edit/", _sent(form, body="## 定义\n\n新的定义。\n"))

    assert saved.status_code == 302 and saved["Location"].startswith("/wiki/survey-notes/")
    assert Page.objects.get(pk=notes.pk).body == "## 定义\n\n新的定义。\n"
    assert Page.objects.get(pk=newcomer.pk).body == "## 别的\n\n新页面。\n"


def test_an_edit_conflict_on_a_moved_page_resolves_on_it_not_on_a_page_created_at_its_former_address(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    page_save(slug="old-notes", title="Reading notes", body="别人的笔记。", user=editor, base_revision=1)
    page_move(page=Page.objects.get(pk=notes.pk), slug="survey-notes", user=editor)
    newcomer = _newcomer(editor, revisions=1)

    conflict = editor_client.post("/wiki/old-notes/edit/", _sent(form, body="我的笔记。"))

    assert conflict.status_code == 409
    assert 'action="/wiki/survey-notes/edit/"' in conflict.content.decode()
    resolved = editor_client.post("/wiki/old-notes/edit/", _sent(conflict.context["form"], body="合并的笔记。"))
    assert resolved.status_code == 302 and resolved["Location"] == "/wiki/survey-notes/"
    assert Page.objects.get(pk=notes.pk).body == "合并的笔记。"
    assert Page.objects.get(pk=newcomer.pk).body == "新页面，第 1 版。"


def test_an_edit_of_a_moved_page_sent_after_the_session_ended_comes_back_for_the_moved_page(
    notes: Page, editor: Account, editor_client: Client
) -> None:
    form = editor_client.get("/wiki/old-notes/edit/").context["form"]
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer(editor, revisions=1)
    editor_client.logout()

    ended = editor_client.post("/wiki/old-notes/edit/", _sent(form, body="会话结束前写的。"))

    assert ended.status_code == 403
    assert 'action="/wiki/survey-notes/edit/"' in ended.content.decode()
    assert ended.context["form"]["page_id"].value() == str(notes.pk)
    editor_client.force_login(editor)
    again = editor_client.post("/wiki/old-notes/edit/", _sent(ended.context["form"]))
    assert again.status_code == 302 and again["Location"] == "/wiki/survey-notes/"
    assert Page.objects.get(pk=notes.pk).body == "会话结束前写的。"
    assert Page.objects.get(pk=newcomer.pk).body == "新页面，第 1 版。"


def test_a_save_naming_the_page_it_was_opened_on_goes_to_it_wherever_it_is_and_not_to_a_deleted_one(
    notes: Page, editor: Account
) -> None:
    page_move(page=notes, slug="survey-notes", user=editor)
    newcomer = _newcomer(editor, revisions=1)

    saved = page_save_merging(slug="old-notes", page_id=notes.pk, title="Reading notes", body="改过的笔记。",
                              base_revision=1, user=editor)

    assert saved.revision.page.pk == notes.pk and Page.objects.get(pk=notes.pk).body == "改过的笔记。"
    assert Page.objects.get(pk=newcomer.pk).revisions.count() == 1
    page_delete(page=Page.objects.get(pk=notes.pk), user=editor, reason="重复")
    with pytest.raises(PageDeleted):
        page_save_merging(slug="survey-notes", page_id=notes.pk, title="Reading notes", body="又改。", base_revision=2)
    assert Page.all_objects.get(pk=notes.pk).body == "改过的笔记。"


def test_a_retitled_pages_former_title_leads_to_it_until_a_page_takes_that_title(client: Client) -> None:
    page_save(slug="reward-shaping", title="奖励塑形", body="正文。", user=None)
    page_save(slug="tool-use-rl", title="工具调用强化学习", body="见 [[奖励塑形]] 一节。", user=None)
    page_save(slug="reward-shaping", title="奖励塑形（Reward Shaping）", body="正文。", user=None)

    linking = Page.objects.get(slug="tool-use-rl").rendered_html
    assert 'href="/wiki/reward-shaping/"' in linking and "wanted" not in linking
    typed = client.get("/wiki/奖励塑形/")
    assert typed.status_code in (301, 302) and typed["Location"].endswith("/wiki/reward-shaping/?redirectedfrom=%E5%A5%96%E5%8A%B1%E5%A1%91%E5%BD%A2")
    assert not WikiLink.objects.wanted().filter(target_title="奖励塑形").exists()

    page_save(slug="", title="奖励塑形", body="一个新的同名页面。", user=None)
    new_page = Page.objects.get(title="奖励塑形")
    assert f'href="{new_page.get_absolute_url()}"' in Page.objects.get(slug="tool-use-rl").rendered_html


def test_a_former_title_another_page_has_as_title_or_address_stays_that_pages() -> None:
    page_save(slug="ppo", title="PPO", body="算法。", user=None)
    page_save(slug="ppo-notes", title="PPO notes", body="笔记。", user=None)
    page_save(slug="ppo-notes", title="PPO", body="笔记。", user=None)
    page_save(slug="ppo-notes", title="Proximal policy notes", body="笔记。", user=None)

    assert not PageRedirect.objects.filter(slug="ppo").exists()
    assert Page.objects.get(slug="ppo").title == "PPO"


def test_a_page_reached_by_its_former_address_says_so_under_its_title(notes: Page, client: Client) -> None:
    page_move(page=notes, slug="survey-notes", user=None)

    reached = client.get("/wiki/old-notes/", follow=True, headers={"accept-language": "zh-CN"})
    assert reached.redirect_chain == [("/wiki/survey-notes/?redirectedfrom=old-notes", 302)]
    assert '<p class="redirected-from">（重定向自 old-notes）</p>' in reached.content.decode()
    english = client.get("/wiki/survey-notes/?redirectedfrom=old-notes", headers={"accept-language": "en"})
    assert '<p class="redirected-from">(Redirected from old-notes)</p>' in english.content.decode()
    # Its own address and its title, in any case, are not other names: no line to say.
    assert client.get("/wiki/Survey-Notes/")["Location"] == "/wiki/survey-notes/"
    assert "redirected-from" not in client.get("/wiki/survey-notes/").content.decode()


def test_a_page_does_not_say_it_was_reached_from_a_name_that_does_not_lead_to_it(notes: Page, client: Client) -> None:
    page_save(slug="other", title="Other", body="别处。")

    for typed in ("Visit evil.example now", "other", "reading notes", "old-notes"):
        response = client.get("/wiki/old-notes/", {"redirectedfrom": typed})
        assert (response.status_code, response["Location"]) == (302, "/wiki/old-notes/"), typed


def _feed(client: Client, url: str, language: str) -> str:
    return client.get(url, headers={"accept-language": language}).content.decode().replace("&gt;", ">")


def test_a_move_renames_title_and_address_together_and_the_old_title_leads_to_the_page(editor: Account,
                                                                                   editor_client: Client) -> None:
    page = page_save(slug="", title="Reward Shaping Pitfalls", body="正文。", user=editor).revision.page
    page_save(slug="linker", title="Linker", body="见 [[Reward Shaping Pitfalls]]。")
    watcher = make_reader("watcher")
    watch_add(user=watcher, target=page)
    url = reverse("wiki:page-move", kwargs={"slug": "reward-shaping-pitfalls"})
    form = editor_client.get(url).content.decode()
    assert 'name="title" value="Reward Shaping Pitfalls"' in form and 'name="slug"' in form

    # The address left empty is made from the new title, as a new page's is.
    moved = editor_client.post(url, {"title": "奖励塑形的陷阱", "slug": "", "reason": "中文标题"}, follow=True)

    assert moved.redirect_chain == [("/wiki/%E5%A5%96%E5%8A%B1%E5%A1%91%E5%BD%A2%E7%9A%84%E9%99%B7%E9%98%B1/", 302)]
    page = Page.objects.get(pk=page.pk)
    assert (page.slug, page.title) == ("奖励塑形的陷阱", "奖励塑形的陷阱")
    latest = page.revisions.order_by("-number").first()
    assert latest is not None and (latest.number, latest.title, latest.body, latest.comment) == (2, "奖励塑形的陷阱", "正文。", "中文标题")
    assert Page.objects.named("Reward Shaping Pitfalls") == [page]
    assert editor_client.get("/wiki/Reward Shaping Pitfalls/")["Location"].startswith(page.get_absolute_url())
    linker = Page.objects.get(slug="linker").rendered_html
    assert f'href="{page.get_absolute_url()}"' in linker and "wanted" not in linker
    assert not WikiLink.objects.wanted().exists()
    # One entry in the changes feed: the move, saying the new title first.
    event = ChangeEvent.objects.get(kind="page", object_id=page.pk, action=ChangeEvent.Action.MOVED)
    assert not ChangeEvent.objects.filter(kind="page", object_id=page.pk, action=ChangeEvent.Action.EDITED).exists()
    assert event.label == "奖励塑形的陷阱"
    history = _feed(editor_client, reverse("wiki:page-history", kwargs={"slug": page.slug}), "zh-CN")
    assert '标题：<span lang="en">Reward Shaping Pitfalls</span> → <span lang="zh-Hans">奖励塑形的陷阱</span>' in history
    changes = _feed(editor_client, reverse("wiki:changes"), "en")
    assert ("Title: Reward Shaping Pitfalls → 奖励塑形的陷阱; moved from reward-shaping-pitfalls to 奖励塑形的陷阱: 中文标题"
            in changes)
    assert "标题：Reward Shaping Pitfalls → 奖励塑形的陷阱；从“reward-shaping-pitfalls”移至“奖励塑形的陷阱”。原因：中文标题" in _feed(
        editor_client, reverse("wiki:changes"), "zh-CN")
    watching = Client()
    watching.force_login(watcher)
    assert "Title: Reward Shaping Pitfalls → 奖励塑形的陷阱" in _feed(watching, reverse("wiki:watchlist"), "en")


def test_a_move_that_keeps_the_address_retitles_the_page_as_an_edit(notes: Page, editor_client: Client) -> None:
    url = reverse("wiki:page-move", kwargs={"slug": "old-notes"})

    retitled = editor_client.post(url, {"title": "Survey reading notes", "slug": "old-notes"}, follow=True,
                                  headers={"accept-language": "en"})

    assert retitled.redirect_chain == [("/wiki/old-notes/", 302)]
    assert "“Reading notes” is now titled “Survey reading notes”, at the same address." in retitled.content.decode()
    page = Page.objects.get(pk=notes.pk)
    assert (page.slug, page.title, page.revisions.count()) == ("old-notes", "Survey reading notes", 2)
    assert not ChangeEvent.objects.filter(action=ChangeEvent.Action.MOVED).exists()
    event = ChangeEvent.objects.filter(kind="page", object_id=page.pk).latest("id")
    assert (event.action, event.summary) == (ChangeEvent.Action.EDITED, "Title: Reading notes → Survey reading notes")
    assert Page.objects.named("Reading notes") == [page]


def test_a_move_changing_neither_title_nor_address_is_refused(notes: Page, editor_client: Client) -> None:
    url = reverse("wiki:page-move", kwargs={"slug": "old-notes"})
    for sent, message in (({"title": "Reading notes", "slug": ""}, "Type the page&#x27;s new address or a new title."),
                          ({"title": "Reading notes", "slug": "old-notes"}, "The page is at “old-notes” already."),
                          ({"title": "？！", "slug": ""}, "The title gives no usable address; type a slug."),
                          ({"title": "two\nlines", "slug": "fine"}, "")):
        response = editor_client.post(url, sent, headers={"accept-language": "en"})
        assert response.status_code == 400 and message in response.content.decode(), sent
    page = Page.objects.get(pk=notes.pk)
    assert (page.slug, page.title, page.revisions.count()) == ("old-notes", "Reading notes", 1)
    assert not ChangeEvent.objects.filter(action__in=[ChangeEvent.Action.MOVED, ChangeEvent.Action.EDITED]).exists()


def test_a_title_changed_in_the_edit_form_without_a_summary_shows_in_history_changes_and_watchlists(
    editor: Account, editor_client: Client
) -> None:
    page = page_save(slug="ppo-notes", title="PPO notes", body="笔记。", user=editor).revision.page
    watcher = make_reader("watcher")
    watch_add(user=watcher, target=page)
    url = reverse("wiki:page-edit", kwargs={"slug": "ppo-notes"})

    saved = editor_client.post(url, {"title": "近端策略优化笔记", "summary": "", "body": "笔记。", "comment": "",
                                     "base_revision": 1, "save": "1"})
    editor_client.post(url, {"title": "近端策略优化（PPO）笔记", "summary": "", "body": "笔记。", "comment": "加上缩写",
                             "base_revision": 2, "save": "1"})

    assert saved.status_code == 302 and Page.objects.get(pk=page.pk).revisions.count() == 3
    events = ChangeEvent.objects.filter(kind="page", object_id=page.pk, action=ChangeEvent.Action.EDITED).order_by("id")
    assert [(e.summary_key, e.summary) for e in events] == [
        ("page_retitled", "Title: PPO notes → 近端策略优化笔记"),
        ("clauses", "Title: 近端策略优化笔记 → 近端策略优化（PPO）笔记; 加上缩写"),
    ]
    history = _feed(editor_client, reverse("wiki:page-history", kwargs={"slug": "ppo-notes"}), "en")
    assert 'Title: <span lang="en">PPO notes</span> → <span lang="zh-Hans">近端策略优化笔记</span></span></td>' in history
    assert ('Title: <span lang="zh-Hans">近端策略优化笔记</span> → <span lang="zh-Hans">近端策略优化（PPO）笔记</span></span>; '
            '<span lang="zh-Hans">加上缩写</span>') in history
    changes = _feed(editor_client, reverse("wiki:changes"), "zh-CN")
    assert "标题：PPO notes → 近端策略优化笔记" in changes
    assert "标题：近端策略优化笔记 → 近端策略优化（PPO）笔记；加上缩写" in changes
    watching = Client()
    watching.force_login(watcher)
    watchlist = _feed(watching, reverse("wiki:watchlist"), "en")
    assert "Title: PPO notes → 近端策略优化笔记" in watchlist
    assert "Title: 近端策略优化笔记 → 近端策略优化（PPO）笔记; 加上缩写" in watchlist


def test_a_revert_that_changes_the_title_says_so_in_the_readers_language(editor: Account, client: Client) -> None:
    page = page_save(slug="ppo-notes", title="PPO notes", body="笔记。", user=editor).revision.page
    page_save(slug="ppo-notes", title="PPO", body="笔记。", user=editor)

    page_revert(page=page, number=1, user=editor)

    event = ChangeEvent.objects.filter(kind="page", object_id=page.pk).latest("id")
    assert event.action == ChangeEvent.Action.REVERTED
    assert "标题：PPO → PPO notes；回退到修订版本 1" in _feed(client, reverse("wiki:changes"), "zh-CN")


def test_the_move_form_runs_a_fixed_number_of_queries(notes: Page, editor_client: Client,
                                                      django_assert_num_queries: DjangoAssertNumQueries) -> None:
    url = reverse("wiki:page-move", kwargs={"slug": "old-notes"})
    editor_client.get(url)
    with django_assert_num_queries(3):  # the session, the account, the page
        editor_client.get(url)


def test_a_title_of_latin_and_chinese_gives_the_address_the_move_form_shows_where_links_by_title_lead(
        editor: Account, editor_client: Client) -> None:
    page = page_save(slug="", title="组相对策略优化在智能体训练中的应用", body="正文。", user=editor).revision.page
    page_save(slug="linker", title="Linker", body="见 [[GRPO 在智能体训练中的应用]]。")
    url = reverse("wiki:page-move", kwargs={"slug": page.slug})
    form = editor_client.get(url, headers={"accept-language": "zh-CN"}).content.decode()
    assert "“GRPO 在智能体训练中的应用”生成 /wiki/grpo-在智能体训练中的应用/" in form

    editor_client.post(url, {"title": "GRPO 在智能体训练中的应用", "slug": "", "reason": "标题改用缩写"})

    # In lower case, a hyphen for the space: the address a wiki link by the title finds, as the form says.
    page = Page.objects.get(pk=page.pk)
    assert page.slug == "grpo-在智能体训练中的应用"
    assert f'href="{page.get_absolute_url()}"' in Page.objects.get(slug="linker").rendered_html
    create_form = editor_client.get(reverse("wiki:page-create"), headers={"accept-language": "zh-CN"}).content.decode()
    assert "“GRPO 在智能体训练中的应用”生成 grpo-在智能体训练中的应用" in create_form


def _as_sent(form: Any) -> dict[str, str]:
    """A move form's values as the browser would send them back, hidden ones included."""
    return {name: form[name].value() or "" for name in form.fields if name != "take_over"}


def _opened_move_form(client: Client, slug: str) -> dict[str, str]:
    """The move form's values as the browser would send them, hidden ones included."""
    return _as_sent(client.get(reverse("wiki:page-move", kwargs={"slug": slug})).context["form"])


def test_a_move_form_opened_before_a_retitling_moves_nothing_and_keeps_the_new_title(
    notes: Page, editor_client: Client
) -> None:
    opened = _opened_move_form(editor_client, "old-notes")
    page_save(slug="old-notes", title="Survey reading notes", body="笔记。", base_revision=1)

    response = editor_client.post(reverse("wiki:page-move", kwargs={"slug": "old-notes"}),
                                  {**opened, "slug": "survey-notes"}, headers={"accept-language": "zh-CN"})

    assert response.status_code == 409
    assert "有人在你打开此表单后更改了本页的标题" in response.content.decode()
    page = Page.objects.get(pk=notes.pk)
    assert (page.slug, page.title) == ("old-notes", "Survey reading notes")
    assert not ChangeEvent.objects.filter(action=ChangeEvent.Action.MOVED).exists()
    # Sent again as shown, it moves the page under the title saved meanwhile.
    shown = response.context["form"]
    assert shown["title"].value() == "Survey reading notes" and shown["slug"].value() == "survey-notes"
    again = editor_client.post(reverse("wiki:page-move", kwargs={"slug": "old-notes"}),
                               _as_sent(shown))
    assert again.status_code == 302
    page = Page.objects.get(pk=notes.pk)
    assert (page.slug, page.title, page.revisions.count()) == ("survey-notes", "Survey reading notes", 2)


def test_a_move_form_retitling_a_page_retitled_meanwhile_names_the_title_saved_and_keeps_the_one_typed(
    notes: Page, editor_client: Client
) -> None:
    opened = _opened_move_form(editor_client, "old-notes")
    page_save(slug="old-notes", title="Survey reading notes", body="笔记。", base_revision=1)

    response = editor_client.post(reverse("wiki:page-move", kwargs={"slug": "old-notes"}),
                                  {**opened, "title": "Notes on the survey", "slug": ""})

    assert response.status_code == 409
    assert "Saved meanwhile by someone else: “Survey reading notes”" in response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert response.context["form"]["title"].value() == "Notes on the survey"
    assert Page.objects.get(pk=notes.pk).title == "Survey reading notes"


def test_a_move_form_opened_before_an_edit_of_the_text_moves_the_page(notes: Page, editor_client: Client) -> None:
    opened = _opened_move_form(editor_client, "old-notes")
    page_save(slug="old-notes", title="Reading notes", body="笔记，改过。", base_revision=1)

    response = editor_client.post(reverse("wiki:page-move", kwargs={"slug": "old-notes"}), {**opened, "slug": "survey-notes"})

    assert response.status_code == 302
    assert Page.objects.get(pk=notes.pk).slug == "survey-notes"
