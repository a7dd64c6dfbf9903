"""Content keeps its own language inside an interface in the other one (WCAG 3.1.2): every piece of user content
carries the ``lang`` its text calls for, and a label built of two parts gives each part its own."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from tests.factories import make_classification, make_editor, make_page, make_source, make_wiki
from wiki.services.pages import page_save_revision
from wiki.templatetags.wiki_tags import quoted_lang

pytestmark = pytest.mark.django_db

ENGLISH = {"accept-language": "en"}
CHINESE = {"accept-language": "zh-CN"}


def _html(client: Client, url: str, headers: dict[str, str] = ENGLISH) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return str(response.content.decode())


def test_a_chinese_short_name_is_marked_chinese_in_the_source_list_and_the_triage_queue(client: Client) -> None:
    make_source(slug="oss-retro", short_name="开源项目回溯", title="开源项目回溯", abstract="A look back at agent projects.")
    make_source(slug="reward-study", short_name="Reward Description Training Study", title="Reward Description Training Study")
    sources = _html(client, reverse("wiki:source-list"))
    assert re.search(r'class="short-name"><span lang="zh-Hans">开源项目回溯</span></a>', sources)
    assert re.search(r'class="short-name"><span lang="en">Reward Description Training Study</span></a>', _html(client, reverse("wiki:source-list"), CHINESE))

    client.force_login(make_editor())
    triage = _html(client, reverse("wiki:triage"))
    assert re.search(r'<h2><a href="/sources/oss-retro/" lang="zh-Hans">开源项目回溯</a>', triage)


def test_a_claim_citing_a_work_names_its_page_and_section_each_in_its_own_language(client: Client) -> None:
    wiki = make_wiki()
    html = _html(client, wiki.strict.get_absolute_url())
    assert '<span lang="en">Loop Wiki</span> › <span lang="zh-Hans">关键要点</span>' in html

    claim = wiki.claims[0]
    kicker = re.search(r'<p class="kicker">(.*?)</p>', _html(client, reverse("wiki:claim-detail", kwargs={"pk": claim.pk})), re.S)
    assert kicker is not None
    assert 'lang="en">Loop Wiki</a> › <span lang="zh-Hans">关键要点</span>' in kicker.group(1)


def test_the_question_list_marks_an_english_page_title_in_the_chinese_interface(client: Client) -> None:
    make_wiki()
    html = _html(client, reverse("wiki:question-list"), CHINESE)
    assert re.search(r'<a href="/wiki/loop-wiki/" lang="en">Loop Wiki</a>', html)


def test_the_lines_of_a_diff_are_in_the_language_of_the_page(client: Client) -> None:
    editor = make_editor()
    page = make_page(slug="notes", title="Notes", body="第一段。\n", user=editor)
    page_save_revision(slug="notes", title="Notes", summary="", body="第一段。\n\n补充说明：这是 accessibility 测试段落。\n", user=editor)
    html = _html(client, reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=2")
    assert re.search(r'<td class="new" lang="zh-Hans"><ins>补充说明', html), re.findall(r'<td class="new"[^>]*>.*?</td>', html)


def test_graph_tooltips_carry_the_language_of_their_text(client: Client) -> None:
    wiki = make_wiki()
    html = _html(client, wiki.page.get_absolute_url()).split("<body", 1)[1]
    # the tooltips of nodes and edges; the drawing's own title (with an id) is in the interface's language
    tooltips = re.findall(r"<title( lang=\"[^\"]*\")?>([^<]*)</title>", html)
    assert tooltips
    assert all(lang for lang, _text in tooltips), [text for lang, text in tooltips if not lang][:3]
    assert any(lang == ' lang="zh-Hans"' for lang, _text in tooltips)


def test_a_quoted_claim_in_a_finding_is_marked_with_its_own_language() -> None:
    assert str(quoted_lang("“SkillLoop 是正例” cites it without a page or section")) == (
        '“<span lang="zh-Hans">SkillLoop 是正例</span>” cites it without a page or section')
    assert str(quoted_lang("“<b>” & no quote")) == '“<span lang="en">&lt;b&gt;</span>” &amp; no quote'


def test_the_consistency_report_marks_the_claims_it_quotes(client: Client) -> None:
    make_wiki()
    html = _html(client, reverse("wiki:consistency-report"))
    assert '“<span lang="zh-Hans">ShopWorld 与 DeskWorld' in html


def test_claim_excerpts_in_comparisons_and_contrasts_carry_their_language() -> None:
    text = "SkillForge 是严格 Agentic RL 的正例：它用 GRPO 更新策略。" * 3
    excerpt = render_to_string("wiki/graph/excerpt.html", {"text": text, "url": "/claims/1/", "limit": 40})
    assert 'class="claim-ref" lang="zh-Hans"' in excerpt and f'<p lang="zh-Hans">{text}</p>' in excerpt

    cell = SimpleNamespace(text=text[:30] + "…", url="/wiki/agentic-rl/#claim-1", fact="", cut=True, full=text)
    row = SimpleNamespace(key="evidence", label="Evidence", differs=False, group="", cells=[cell])
    table = render_to_string("wiki/graph/comparison_table.html", {"comparison": SimpleNamespace(columns=[object()], rows=[row])})
    assert '<a href="/wiki/agentic-rl/#claim-1" lang="zh-Hans">' in table and f'<p lang="zh-Hans">{text}</p>' in table


def test_a_questions_claims_and_a_classifications_evidence_name_page_and_section_each_in_its_own_language(client: Client) -> None:
    wiki = make_wiki()
    both = '<span lang="en">Loop Wiki</span> › <span lang="zh-Hans">关键要点</span>'
    assert both in _html(client, wiki.question.get_absolute_url())

    evidence = wiki.claims[0]
    make_classification(wiki.unclassified, evidence_claim=evidence, evidence_locator="§3")
    html = _html(client, wiki.unclassified.get_absolute_url())
    assert f'#{evidence.anchor}">{both}</a>' in html


def test_the_graph_in_words_and_its_drawn_labels_carry_their_language(client: Client) -> None:
    wiki = make_wiki()
    html = _html(client, wiki.page.get_absolute_url())
    tables = re.findall(r'<table class="graph-table">.*?</table>', html, re.S)
    assert tables
    links = [link for table in tables for link in re.findall(r"<a [^>]*>", table)]
    assert links and all(" lang=" in link for link in links), [link for link in links if " lang=" not in link][:3]
    labels = re.findall(r'<text [^>]*class="label"[^>]*>', html)
    assert labels and all(re.search(r' lang="(en|zh-Hans)"', label) for label in labels)


def test_the_works_to_tick_in_the_compare_form_carry_their_language(client: Client) -> None:
    make_source(slug="oss-retro", short_name="开源项目回溯", title="开源项目回溯")
    make_source(slug="reward-study", short_name="Reward Study", title="Reward Study")
    html = _html(client, reverse("wiki:compare"), CHINESE)
    assert '<label title="开源项目回溯" lang="zh-Hans">' in html and '<label title="Reward Study" lang="en">' in html


@pytest.mark.django_db
def test_chinese_content_in_the_english_edit_forms_is_marked_chinese() -> None:
    wiki = make_wiki()
    client = Client()
    client.force_login(make_editor("english-reader"))  # the wiki's own editor reads Chinese
    claim = wiki.claims[0]
    screens = {
        reverse("wiki:page-edit", args=[wiki.notes.slug]): None,
        reverse("wiki:question-edit", args=[wiki.question.pk]): wiki.question.title,
        reverse("wiki:glossary-edit", args=[wiki.term.slug]): wiki.term.name_zh,
        reverse("wiki:claim-edit", args=[claim.pk]): None,
    }
    for url, title in screens.items():
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        if title:
            assert f'<h1 class="page-title">Edit “<span lang="zh-Hans">{title}</span>”</h1>' in html, url
    claim_form = client.get(reverse("wiki:claim-edit", args=[claim.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<blockquote class="evidence-claim"><p lang="zh-Hans">{claim.text}</p></blockquote>' in claim_form


def test_english_names_of_works_keep_their_language_in_chinese_pages(client: Client, contrast_wiki: Any) -> None:
    page = _html(client, contrast_wiki.page.get_absolute_url(), CHINESE)
    assert re.search(r'<a class="cite" href="/sources/gripforge/" lang="en"[^>]*>GripForge', page)

    contrast = _html(client, reverse("wiki:contrast", args=[contrast_wiki.grpo.slug, contrast_wiki.harness.slug]), CHINESE)
    h1 = re.search(r"<h1>(.*?)</h1>", contrast, re.S)
    assert h1 is not None and h1.group(1).count('lang="en"') == 2

    split = _html(client, contrast_wiki.split.get_absolute_url(), CHINESE)
    assert re.search(r'<h3 id="classification-\d+-heading"><span lang="en">', split)


def test_a_forms_text_is_marked_in_the_language_it_is_written_in_whatever_the_interfaces(client: Client) -> None:
    """A screen reader reads a field's text in its own voice: a Chinese page body in the English interface."""
    make_page(slug="voiced", title="Voiced", body="强化学习让智能体从回报中学习。")
    client.force_login(make_editor())

    html = client.get("/wiki/voiced/edit/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    new = client.get("/wiki/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert re.search(r'<textarea[^>]*name="body"[^>]*lang="zh-Hans"|<textarea[^>]*lang="zh-Hans"[^>]*name="body"', html)
    assert re.search(r'<input[^>]*name="title"[^>]*lang="en"|<input[^>]*lang="en"[^>]*name="title"', html)
    assert not re.search(r'<textarea[^>]*name="body"[^>]*lang=', new)  # nothing typed yet: the interface's language


def test_the_words_searched_for_are_named_in_their_own_language(client: Client) -> None:
    make_wiki()
    found = _html(client, reverse("wiki:search") + "?q=环境回报")
    nothing = _html(client, reverse("wiki:search") + "?q=无此词句")
    assert re.search(r'<p class="result-count" role="status">\d+ results? for “<span lang="zh-Hans">环境回报</span>”\.</p>', found)
    assert "Nothing matches “<span lang=\"zh-Hans\">无此词句</span>”." in nothing


def test_each_language_is_offered_in_its_own_language_on_the_preferences_page(client: Client) -> None:
    english = _html(client, reverse("wiki:preferences"))
    chinese = _html(client, reverse("wiki:preferences"), CHINESE)
    assert '<option value="zh-hans" lang="zh-Hans">简体中文</option>' in english
    assert '<option value="en" lang="en">English</option>' in chinese


def test_claims_offered_as_choices_carry_their_language(client: Client) -> None:
    """An option or a checkbox's label holds one piece of text: the claim decides its lang, not the interface."""
    wiki = make_wiki()
    client.force_login(make_editor())
    question = _html(client, reverse("wiki:question-edit", args=[wiki.question.pk]))
    claim = wiki.claims[0]
    # the claims to tick, and the one that answers
    assert re.search(rf'<label for="id_claims_\d+"><input [^>]*value="{claim.pk}"[^>]*>\s*<span lang="zh-Hans">Loop Wiki: SkillLoop', question)
    assert re.search(rf'<option value="{claim.pk}" lang="zh-Hans">Loop Wiki: SkillLoop', question)
    card = wiki.strict.classifications.get(component=None)
    evidence = _html(client, reverse("wiki:classification-edit", args=[card.pk]))
    options = re.findall(r'<select name="evidence_claim"[^>]*>(.*?)</select>', evidence, re.S)
    assert options and re.search(r'<option value="\d+" lang="zh-Hans">Loop Wiki: ', options[0])
    assert '<option value="" selected>' in options[0]  # the empty choice speaks the interface's language


def test_chinese_examples_in_a_help_text_are_marked_in_the_english_interface_only(client: Client) -> None:
    client.force_login(make_editor())
    english = _html(client, reverse("wiki:page-create"))
    chinese = _html(client, reverse("wiki:page-create"), CHINESE)
    assert 'Citations: <span lang="zh-Hans">（来源：Title，pp.3-4）</span> or <span lang="zh-Hans">（综合：Title）;</span>' in english
    help_text = re.search(r'<p class="help muted" id="id_body_helptext">(.*?)</p>', chinese, re.S)
    assert help_text is not None and "<span" not in help_text.group(1)


def test_a_claims_page_and_section_are_each_in_their_own_language_on_its_edit_form(client: Client) -> None:
    wiki = make_wiki()
    client.force_login(make_editor())
    html = _html(client, reverse("wiki:claim-edit", args=[wiki.claims[0].pk]))
    assert '">Loop Wiki</a>' not in html
    assert '<span lang="en">Loop Wiki</span></a> · <span lang="zh-Hans">关键要点</span>' in html


def test_the_sides_and_axis_of_a_contrast_statement_carry_their_language(client: Client) -> None:
    wiki = make_wiki()
    html = _html(client, reverse("wiki:contrast", args=[wiki.strict.slug, wiki.harness.slug]), CHINESE)
    statements = re.findall(r'<ul class="statements"[^>]*>(.*?)</ul>', html, re.S)
    assert statements
    assert re.search(r'<li><a href="[^"]+" lang="en">[^<]+</a> <span class="vs">对比</span> <a href="/sources/harnesskit/" lang="en">HarnessKit</a>'
                     r'：<span class="axis" lang="en">policy update vs harness evolution</span>', statements[0])
