"""The page view: backlinks, wanted pages, page meta and the page's open questions."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_page, make_question, make_reader
from tests.wiki.htmltext import html_text, sections_with_class
from wiki.models import QuestionStatus
from wiki.roles import Account
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


def _backlinks(content: str) -> str:
    [section] = sections_with_class(content, "backlinks")
    return section


def test_a_page_linking_to_agentic_rl_shows_in_its_what_links_here(client: Client) -> None:
    make_page(slug="agentic-rl", title="Agentic RL")
    make_page(slug="survey-notes", title="Agentic RL Survey Notes", body="See [[Agentic RL]].")
    before = client.get(reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"})).content.decode()
    assert "GRPO 学习笔记" not in _backlinks(before)
    page_save_revision(slug="grpo-notes", title="GRPO 学习笔记", body="GRPO 是 [[agentic-rl]] 常用的算法。")
    after = client.get(reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"})).content.decode()
    backlinks = _backlinks(after)
    assert 'href="/wiki/grpo-notes/"' in backlinks
    assert "GRPO 学习笔记" in backlinks
    assert "Agentic RL Survey Notes" in backlinks


def test_a_page_without_links_to_it_says_so(client: Client) -> None:
    page = make_page(title="Lonely")
    content = client.get(page.get_absolute_url()).content.decode()
    assert "No page links here yet." in _backlinks(content)


def test_a_wanted_link_shows_as_wanted_and_its_page_is_a_404_listing_who_links_to_it(client: Client) -> None:
    page_save_revision(slug="wants", title="Wants a page", body="We still need [[Credit Assignment Survey]].")
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "wants"})).content.decode()
    assert '<a class="wikilink wanted" href="/wiki/credit-assignment-survey/"' in content

    missing = client.get("/wiki/credit-assignment-survey/")
    assert missing.status_code == 404
    body = missing.content.decode()
    assert "wanted page" in html_text(body)
    assert 'href="/wiki/wants/"' in _backlinks(body)


def test_an_address_no_page_has_or_links_to_is_not_called_wanted(client: Client) -> None:
    missing = html_text(client.get("/wiki/Special:Random/").content.decode())

    assert "wanted page" not in missing and "and no page links to it" in missing


def test_random_page_leads_to_a_live_page_each_time_never_from_a_cache(client: Client) -> None:
    from wiki.services.deletion import page_delete

    for n in range(3):
        page_save_revision(slug=f"live-{n}", title=f"Live {n}", body="x")
    page_delete(page=page_save_revision(slug="gone", title="Gone", body="x").page, user=None, reason="test")

    answers = [client.get(reverse("wiki:random-page")) for _ in range(12)]

    assert {answer.status_code for answer in answers} == {302}
    assert {answer["Location"] for answer in answers} <= {f"/wiki/live-{n}/" for n in range(3)}
    assert len({answer["Location"] for answer in answers}) > 1
    assert "no-cache" in answers[0]["Cache-Control"]


def test_a_wanted_page_is_headed_by_the_title_its_links_give_it_not_its_lowered_address(client: Client) -> None:
    page_save_revision(slug="wants-more", title="Wants more", body="还缺 [[不存在的页面XYZ]] 和 [[Credit Assignment Survey]]。")

    chinese = client.get(reverse("wiki:page-detail", kwargs={"slug": "不存在的页面xyz"})).content.decode()
    english = client.get("/wiki/credit-assignment-survey/").content.decode()

    assert '<h1 class="page-title">不存在的页面XYZ</h1>' in chinese
    assert '<h1 class="page-title">Credit Assignment Survey</h1>' in english


def test_editors_get_a_link_to_create_a_wanted_page_and_readers_do_not(client: Client, editor_client: Client) -> None:
    create_url = f'{reverse("wiki:page-create")}?slug=tool-routing'
    assert create_url in editor_client.get("/wiki/tool-routing/").content.decode()
    client.force_login(make_reader())
    assert create_url not in client.get("/wiki/tool-routing/").content.decode()


def test_page_meta_shows_last_editor_time_and_revision_count(client: Client, editor: Account) -> None:
    page_save_revision(slug="meta", title="Meta", body="One.")
    revision = page_save_revision(slug="meta", title="Meta", body="Two.", user=editor)
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "meta"})).content.decode()
    meta = content.split('<div class="page-meta">')[1]
    text = html_text(meta.split("</div>")[0])
    # Shown in the reader's time zone, the wiki's default until they choose one (UTC+8 is a day ahead
    # of UTC from 16:00 UTC).
    shown = timezone.localtime(revision.created_at, ZoneInfo(settings.TIME_ZONE))
    assert f"Last edited {shown:%Y-%m-%d %H:%M}" in text
    assert "by editor" in text
    assert "2 revisions" in text


def test_the_page_lists_its_unresolved_questions_only(client: Client) -> None:
    page = make_page(title="Questions here")
    make_question(page=page, title="还没回答的问题", priority="high")
    make_question(page=page, title="A dropped question", status=QuestionStatus.DROPPED)
    content = client.get(page.get_absolute_url()).content.decode()
    questions = content.split('id="questions-heading"')[1].split("</section>")[0]
    assert "还没回答的问题" in questions
    assert "A dropped question" not in questions


def test_a_page_shows_its_open_questions_from_the_queue(client: Client) -> None:
    page = make_page(slug="agentic-rl", title="Agentic RL")
    make_question(page=page, title="多 harness 结果的验证", priority="high")
    make_question(page=page, title="补充策略梯度类原始论文以对比参数空间 ES")
    content = client.get(reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"})).content.decode()
    assert "多 harness 结果的验证" in content
    assert "补充策略梯度类原始论文以对比参数空间 ES" in content


@pytest.mark.parametrize("url", ["/wiki/%00/", "/wiki/a%00b/history/", "/wiki/%01x/", "/graph/local/page/%00/"])
def test_a_slug_with_control_characters_is_not_found_rather_than_an_error(client, url) -> None:  # type: ignore[no-untyped-def]
    assert client.get(url).status_code == 404


def test_a_wanted_chinese_slug_is_a_wanted_page(client: Client) -> None:
    page_save_revision(slug="router-notes", title="Router notes", body="见 [[工具路由]]。")
    response = client.get("/wiki/%E5%B7%A5%E5%85%B7%E8%B7%AF%E7%94%B1/")  # 工具路由, no page and no glossary term
    assert response.status_code == 404
    assert "工具路由" in html_text(response.content.decode())
    assert "wanted page" in html_text(response.content.decode())


def test_a_title_typed_as_the_address_redirects_to_the_page(client: Client) -> None:
    make_page(slug="agentic-rl", title="Agentic RL")
    response = client.get("/wiki/Agentic%20RL/")
    assert response.status_code == 302
    assert response["Location"] == reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"})
    assert client.get("/wiki/No%20Such%20Page/").status_code == 404


def test_the_summary_is_not_shown_again_above_a_body_that_opens_with_it(client: Client) -> None:
    from wiki.models import Page

    summary = "Agentic RL 指让可执行 LLM Agent 依据轨迹回报更新策略的强化学习范式。"
    make_page(slug="agentic-rl", title="Agentic RL", summary=summary, body=f"## 摘要\n\n{summary}\n\n## 核心内容\n\n定义。\n")
    page = Page.objects.get(slug="agentic-rl")
    html = client.get(reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"})).content.decode()
    assert page.summary and page.summary in page.rendered_html
    assert '<p class="summary">' not in html


def test_the_main_menu_offers_the_list_of_pages_and_editors_a_new_page(editor_client: Client) -> None:
    html = Client().get(reverse("wiki:home")).content.decode()
    nav = html[html.index('class="site-nav"'):html.index("</nav>")]
    assert f'href="{reverse("wiki:page-list")}"' in nav and f'href="{reverse("wiki:page-create")}"' not in nav
    html = editor_client.get(reverse("wiki:home")).content.decode()
    nav = html[html.index('class="site-nav"'):html.index("</nav>")]
    assert f'href="{reverse("wiki:page-list")}"' in nav and f'href="{reverse("wiki:page-create")}"' in nav


def test_the_main_menu_marks_the_page_shown_and_the_section_it_is_in(editor_client: Client) -> None:
    make_page(slug="agentic-rl", title="Agentic RL")

    def current(url: str) -> list[tuple[str, str]]:
        html = editor_client.get(url).content.decode()
        nav = html[html.index('class="site-nav"'):html.index("</nav>")]
        return re.findall(r'<a (?:class="[^"]*" )?href="([^"]+)"(?: accesskey="\w")? aria-current="(\w+)"', nav)

    assert current(reverse("wiki:source-list")) == [(reverse("wiki:source-list"), "page")]
    assert current(reverse("wiki:page-history", kwargs={"slug": "agentic-rl"})) == [(reverse("wiki:page-list"), "true")]
    assert current(reverse("wiki:page-create")) == [(reverse("wiki:page-create"), "page")]  # not under Pages as well
    assert current(reverse("wiki:changes")) == [(reverse("wiki:changes"), "page")]
    assert current(reverse("wiki:home")) == [(reverse("wiki:home"), "page")]
    assert current(reverse("wiki:search")) == []


def test_enter_in_the_edit_summary_previews_instead_of_saving(editor_client: Client) -> None:
    make_page(slug="agentic-rl", title="Agentic RL")
    html = editor_client.get(reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"})).content.decode()
    form = html[html.index('<form method="post" class="edit-form"'):]
    # implicit submission uses the first submit button of the form
    assert form.index('name="preview"') < form.index('name="save"')
    preview = editor_client.post(reverse("wiki:page-edit", kwargs={"slug": "agentic-rl"}),
                                 {"title": "Agentic RL", "body": "x", "preview": "1"}).content.decode()
    # the preview takes the focus after the page loads (editor.js), its top in view
    assert 'id="live-preview" tabindex="-1" data-preview-shown' in preview


def test_wanted_pages_lists_link_targets_without_a_page_most_linked_first(client: Client) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    make_page(slug="agentic-rl", title="Agentic RL", body="[[Reward Shaping Tricks]] is wanted.")
    make_page(slug="agentic-rl-survey-notes", title="Survey notes", body="[[Agentic RL]] and [[Reward Shaping Tricks]].")
    url = reverse("wiki:wanted-pages")
    with CaptureQueriesContext(connection) as small:
        html = client.get(url).content.decode()
    assert 'href="/wiki/reward-shaping-tricks/"' in html
    assert 'href="/wiki/agentic-rl-survey-notes/"' not in html and 'href="/wiki/agentic-rl/"' not in html
    for n in range(30):
        page_save_revision(slug=f"bulk-{n}", title=f"Bulk {n}", body=f"[[Wanted {n}]] and [[Reward Shaping Tricks]]")
    with CaptureQueriesContext(connection) as large:
        html = client.get(url).content.decode()
    assert len(large.captured_queries) == len(small.captured_queries)
    assert html.index('href="/wiki/reward-shaping-tricks/"') < html.index('href="/wiki/wanted-0/"')


def test_the_summary_is_shown_once_when_the_body_opens_with_it_as_a_quote_with_a_wiki_link(client: Client) -> None:
    from wiki.models import Page

    # the notes open with "> Insights ：[[Agentic RL]] 不是…", the summary with a wiki link inside
    summary = "Agentic RL 不是“再用 RL 把回答调好一点”，而是让 LLM 在有反馈的环境里学习如何长期推进任务。"
    make_page(slug="agentic-rl", title="Agentic RL")
    make_page(slug="survey-notes", title="Survey notes", summary=summary,
              body=f"> Insights ：[[Agentic RL]] {summary.removeprefix('Agentic RL ')}\n\n## TLDR\n\n综述。\n")
    page = Page.objects.get(slug="survey-notes")
    assert page.summary not in page.rendered_html and page.body_opens_with_summary
    html = client.get(reverse("wiki:page-detail", kwargs={"slug": page.slug})).content.decode()
    assert '<p class="summary"' not in html
    assert html.count("不是“再用 RL 把回答调好一点”") == 1


def test_a_summary_the_body_does_not_say_is_shown_above_it(client: Client, editor: Account) -> None:
    page_save_revision(slug="lead-test", title="Lead test", summary="A summary said nowhere else.",
                       body="The body says something different, then [[Agentic RL]].", comment="", user=editor)
    html = client.get(reverse("wiki:page-detail", kwargs={"slug": "lead-test"})).content.decode()
    assert '<p class="summary" lang="en">A summary said nowhere else.</p>' in html
