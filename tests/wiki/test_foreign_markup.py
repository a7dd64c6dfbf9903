"""MediaWiki habits in a page's text: the preview and the save result name each construct this wiki reads otherwise
(``#REDIRECT``, ``[[Category:…]]``, ``[[User:…]]`` and other namespaces, ``~~~~``) and say what to do instead, without
refusing the save; and a colon in a link's target parts words, so that ``[[User:ed2]]`` is wanted at ``user-ed2``, not
at a slug that glued the words, while a page whose title holds a colon is still linked by it."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from wiki import markdown as wiki_markdown
from wiki.markdown.foreign_markup import ForeignKind, foreign_markup
from wiki.markdown.wikilinks import target_slug
from wiki.models import Page, PageRedirect, WikiLink
from wiki.services.pages import page_preview, page_save

pytestmark = pytest.mark.django_db

HABITS = """#REDIRECT [[Reward design]]

奖励设计的常见做法。

[[Category:Reward design]] [[User:ed2]] [[File:reward.png]]

—— ~~~~
"""


def _kinds(text: str, **kwargs: object) -> list[tuple[ForeignKind, str, int]]:
    return [(item.kind, item.text, item.line) for item in foreign_markup(text, **kwargs)]  # type: ignore[arg-type]


def test_each_mediawiki_construct_is_found_with_its_line() -> None:
    assert _kinds(HABITS) == [
        (ForeignKind.REDIRECT, "#REDIRECT [[Reward design]]", 1),
        (ForeignKind.CATEGORY, "[[Category:Reward design]]", 5),
        (ForeignKind.USER, "[[User:ed2]]", 5),
        (ForeignKind.NAMESPACE, "[[File:reward.png]]", 5),
        (ForeignKind.SIGNATURE, "~~~~", 7),
    ]
    assert _kinds("#重定向 [[奖励设计]]\n\n[[分类：奖励设计]] [[:Category:X]] [[User talk:ed2|ed2]] [[Help:Links#x]]") == [
        (ForeignKind.REDIRECT, "#重定向 [[奖励设计]]", 1),
        (ForeignKind.CATEGORY, "[[分类：奖励设计]]", 3),
        (ForeignKind.CATEGORY, "[[:Category:X]]", 3),
        (ForeignKind.USER, "[[User talk:ed2|ed2]]", 3),
        (ForeignKind.NAMESPACE, "[[Help:Links#x]]", 3),
    ]


def test_what_is_code_a_title_with_a_colon_or_a_struck_word_is_no_foreign_markup() -> None:
    text = ("`[[Category:X]]` and `~~~~`\n\n```\n#REDIRECT [[X]]\n~~~~\n```\n\n<!-- [[User:ed2]] -->\n\n"
            "[[Agentic AI 03: Survey Notes]] ~~struck~~ 1~2 步 [[Reward: design]]\n\n# Redirects and moves\n")
    assert _kinds(text) == []
    # A link that leads to a page (or a glossary term) of that name is a link like any other.
    assert _kinds("[[Category:Reward design]]", linked={"Category:Reward design"}) == []


def test_a_colon_parts_the_words_of_a_link_target_and_keeps_titles_with_colons_as_they_were() -> None:
    assert target_slug("Category:Reward design") == "category-reward-design"
    assert target_slug("User:ed2") == "user-ed2"
    assert target_slug("分类：奖励设计") == "分类-奖励设计"
    assert target_slug("Agentic AI 03: Agentic RL Survey Reading Notes") == "agentic-ai-03-agentic-rl-survey-reading-notes"
    assert target_slug("agentic-rl") == "agentic-rl"


def test_a_namespace_link_is_wanted_under_its_words_and_shown_as_typed(client: Client) -> None:
    page_save(slug="habits", title="Habits", body=HABITS)

    html = Page.objects.get(slug="habits").rendered_html
    assert ('<a class="wikilink wanted" href="/wiki/category-reward-design/" title="Category:Reward design"'
            in html)
    assert 'href="/wiki/user-ed2/" title="User:ed2"' in html
    assert "categoryreward" not in html and "usered2" not in html
    wanted = {row["target_slug"]: row["title"] for row in WikiLink.objects.wanted()}
    assert wanted["category-reward-design"] == "Category:Reward design" and wanted["user-ed2"] == "User:ed2"
    listed = client.get(reverse("wiki:wanted-pages")).content.decode()
    assert '<a href="/wiki/category-reward-design/" class="wikilink wanted">Category:Reward design</a>' in listed
    missing = client.get("/wiki/category-reward-design/").content.decode()
    assert "Category:Reward design" in missing and "habits" in missing
    # The address bar reads a typed name the way a link does.
    assert client.get("/wiki/User:ed2/").status_code == 404


def test_a_page_titled_with_a_colon_is_linked_by_its_title_and_raises_no_warning() -> None:
    page = page_save(slug="", title="Category: Reward design", body="关于奖励设计的页面。").revision.page
    assert page.slug == "category-reward-design"
    old = page_save(slug="notes", title="Reading:Notes", body="x").revision.page
    assert old.title_key == "reading-notes"

    saved = page_save(slug="linker", title="Linker", body="[[Category:Reward design]] [[Reading:Notes]]")

    html = Page.objects.get(slug="linker").rendered_html
    assert 'class="wikilink" href="/wiki/category-reward-design/"' in html
    assert 'class="wikilink" href="/wiki/notes/"' in html
    assert saved.foreign == ()


def _warnings(html: str) -> list[str]:
    section = re.search(r'<section class="foreign-markup".*?</section>', html, re.DOTALL)
    assert section is not None, "no warning"
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li[^>]*>(.*?)</li>", section.group(0), re.DOTALL)]


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Line 1: This makes no redirect here: it shows as a heading. To have another name lead to a page, move the "
            "page (its former title and address keep leading to it); to send readers to another page, link to it in a "
            "sentence. — #REDIRECT [[Reward design]]",
            "Line 5: This wiki has no categories: this is a link to a page of that name. Group pages by linking them "
            "from one another, or through the glossary (a term and the page that defines it). — [[Category:Reward design]]",
            "Line 5: This wiki has no user pages: this is a link to a page of that name. Write the person&#x27;s name "
            "as plain text. — [[User:ed2]]",
            "Line 5: This wiki has no namespaces (File:, Template:, Talk: …): this is a link to a page of that name. "
            "Link a page by its title or address. — [[File:reward.png]]",
            "Line 7: Signatures are not expanded here: this shows as typed. The history records who saved each "
            "revision and when; remove it. — ~~~~"]),
    ("zh-CN", ["第 1 行：这不会在本 wiki 中生成重定向，而是显示为标题。要让另一个名称通向某个页面，请移动该页面（它的原标题和原地址仍会通向它）；"
               "要把读者引向另一个页面，请在句子中链接它。 — #REDIRECT [[Reward design]]",
               "第 5 行：本 wiki 没有分类：这是指向同名页面的链接。请通过页面之间的链接，或通过术语表（术语及定义它的页面）来组织页面。 — "
               "[[Category:Reward design]]",
               "第 5 行：本 wiki 没有用户页面：这是指向同名页面的链接。请把人名写成普通文字。 — [[User:ed2]]",
               "第 5 行：本 wiki 没有命名空间（File:、Template:、Talk: 等）：这是指向同名页面的链接。请用标题或地址链接页面。 — "
               "[[File:reward.png]]",
               "第 7 行：本 wiki 不展开签名：它会按原样显示。历史记录已保存每个修订版本的保存者和时间，请删除它。 — ~~~~"]),
])
def test_the_preview_names_each_construct_and_what_to_do_instead(editor_client: Client, language: str,
                                                                 expected: list[str]) -> None:
    fragment = editor_client.post(reverse("wiki:page-preview"), {"body": HABITS},
                                  headers={"accept-language": language}).content.decode()

    assert _warnings(fragment) == expected


def test_the_save_goes_through_and_its_result_names_each_construct(editor_client: Client) -> None:
    saved = editor_client.post(reverse("wiki:page-create"), {"title": "Habits", "slug": "", "body": HABITS, "save": "1"},
                               follow=True, headers={"accept-language": "en"})

    assert saved.redirect_chain == [("/wiki/habits/", 302)]
    assert Page.objects.get(slug="habits").body == HABITS
    html = saved.content.decode()
    assert "saved as typed, but this wiki reads it otherwise." in html
    assert [item.rsplit(" — ", 1)[1] for item in _warnings(html)] == [
        "#REDIRECT [[Reward design]]", "[[Category:Reward design]]", "[[User:ed2]]", "[[File:reward.png]]", "~~~~"]
    # An edit of the page that keeps them says so again; one that removes them, no more.
    kept = editor_client.post("/wiki/habits/edit/", {"title": "Habits", "body": HABITS + "\n更多。\n", "base_revision": 1,
                                                     "save": "1"}, follow=True)
    assert len(_warnings(kept.content.decode())) == 5
    clean = editor_client.post("/wiki/habits/edit/", {"title": "Habits", "body": "奖励设计。\n", "base_revision": 2,
                                                      "save": "1"}, follow=True)
    assert 'class="foreign-markup"' not in clean.content.decode()


def test_the_preview_runs_as_many_queries_however_many_constructs_it_names(editor_client: Client) -> None:
    def count(body: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert editor_client.post(reverse("wiki:page-preview"), {"body": body}).status_code == 200
        return len(queries)

    editor_client.post(reverse("wiki:page-preview"), {"body": "x"})
    assert count("[[Category:A]] ~~~~") == count("\n\n".join(f"[[Category:A{i}]] [[User:u{i}]] ~~~~" for i in range(30)))


def test_the_render_result_carries_the_foreign_markup_of_unresolved_links_only() -> None:
    preview = page_preview(body=HABITS)
    assert [item.kind for item in preview.result.foreign] == [
        ForeignKind.REDIRECT, ForeignKind.CATEGORY, ForeignKind.USER, ForeignKind.NAMESPACE, ForeignKind.SIGNATURE]
    result = wiki_markdown.render("[[User:ed2]]", sources={}, existing_pages=frozenset({"user-ed2"}))
    assert result.foreign == []


migration = importlib.import_module("wiki.migrations.0042_colons_part_words_in_link_targets")


def test_the_migration_reads_colon_titles_and_links_anew() -> None:
    page = page_save(slug="notes", title="Reading:Notes", body="x").revision.page
    page_save(slug="notes", title="Notes", body="x")
    page_save(slug="linker", title="Linker", body="[[Reading:Notes]] [[User:ed2]]")
    # As the wiki stored them before a colon parted words: the former title's key, the links and their HTML.
    PageRedirect.objects.filter(page=page).update(slug="readingnotes")
    Page.objects.filter(slug="linker").update(rendered_html="<p>old</p>")
    linker = Page.objects.get(slug="linker")
    WikiLink.objects.filter(source_page=linker).delete()
    WikiLink.objects.bulk_create([WikiLink(source_page=linker, target_slug="readingnotes", target_title="Reading:Notes"),
                                  WikiLink(source_page=linker, target_slug="usered2", target_title="User:ed2")])
    titled = page_save(slug="glued", title="Glued:Title", body="x").revision.page
    Page.objects.filter(pk=titled.pk).update(title_key="gluedtitle")

    with connection.schema_editor() as schema_editor:
        migration.forward(apps, schema_editor)

    assert Page.objects.get(pk=titled.pk).title_key == "glued-title"
    assert set(PageRedirect.objects.filter(page=page).values_list("slug", flat=True)) == {"readingnotes", "reading-notes"}
    html = Page.objects.get(slug="linker").rendered_html
    assert 'class="wikilink" href="/wiki/notes/"' in html and 'href="/wiki/user-ed2/"' in html
    assert set(WikiLink.objects.filter(source_page=linker).values_list("target_slug", flat=True)) == {"notes", "user-ed2"}

    with connection.schema_editor() as schema_editor:
        migration.backward(apps, schema_editor)

    assert Page.objects.get(pk=titled.pk).title_key == "gluedtitle"
