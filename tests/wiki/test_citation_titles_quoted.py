"""A cited title holding the citation's own separators is read whole: in quotes or title marks, and before a locator
given after an ASCII comma, as English writes it."""

from __future__ import annotations

import pytest
from django.test.client import Client
from django.urls import reverse

from tests.factories import make_page, make_source
from wiki.markdown.citations import find_citations, written_title
from wiki.markdown.claim_markers import is_writable_title
from wiki.models import Claim, Source

COMMAS = "Agents, Tools, and RL: A Study of Commas in Titles"
MARKS = "规划、记忆，与工具：一项关于标点的研究"
BRACKETS = "Agentic RL（智能体强化学习）：综述"


def _cited(text: str) -> list[tuple[tuple[str, ...], str]]:
    refs, problems = find_citations(text)
    assert problems == []
    return [(ref.titles, ref.locator) for ref in refs]


@pytest.mark.parametrize(
    "text",
    [
        f"x（来源：{COMMAS}, pp.3-4）",
        f"x（来源：{COMMAS}，pp.3-4）",
        f"x（来源：“{COMMAS}”, pp.3-4）",
        f'x（来源："{COMMAS}", pp.3-4）',
    ],
)
def test_a_title_with_commas_is_read_whole_before_its_locator(text: str) -> None:
    assert _cited(text) == [((COMMAS,), "pp.3-4")]


def test_a_locator_of_several_parts_after_an_ascii_comma_is_read_whole() -> None:
    assert _cited(f"x（来源：{COMMAS}, pp.3-4, 7）") == [((COMMAS,), "pp.3-4, 7")]


@pytest.mark.parametrize(
    "text", [f"x（来源：“{MARKS}”，§2；B）", f"x（来源：《{MARKS}》，§2；B）", f"x（来源：「{MARKS}」，§2；B）"]
)
def test_a_title_in_quotes_or_title_marks_keeps_its_separators(text: str) -> None:
    assert _cited(text) == [((MARKS,), "§2"), (("B",), "")]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("x（来源：A、B，§2；C，p.3）", [(("A", "B"), "§2"), (("C",), "p.3")]),
        (f"x（来源：{COMMAS}）", [((COMMAS,), "")]),
        ("x（来源：关于“规划、记忆”的研究）", [(("关于“规划、记忆”的研究",), "")]),
        ("x（来源：Deep RL, Tools and Tables）", [(("Deep RL, Tools and Tables",), "")]),
    ],
)
def test_the_forms_written_before_read_as_they_did(text: str, read: list[tuple[tuple[str, ...], str]]) -> None:
    assert _cited(text) == read


@pytest.mark.django_db
def test_a_page_citing_titles_with_separators_cites_the_works_and_creates_none(client: Client) -> None:
    commas = make_source(short_name="Commas", title=COMMAS)
    marks = make_source(short_name="Marks", title=MARKS)
    page = make_page(body=f"## 关键要点\n\n- 一个断言（来源：{COMMAS}, pp.3-4；“{MARKS}”，§2）\n")
    claim = Claim.objects.current().get(page=page)
    assert list(claim.citations.values_list("source__short_name", "locator")) == [("Commas", "pp.3-4"), ("Marks", "§2")]
    assert Source.objects.count() == 2
    html = client.get(page.get_absolute_url()).content.decode()
    assert f'href="{commas.get_absolute_url()}"' in html and f'href="{marks.get_absolute_url()}"' in html
    assert f">“{MARKS}”</a>" in html


@pytest.mark.django_db
def test_the_claim_form_writes_a_title_with_separators_in_quotes(editor_client: Client) -> None:
    marks = make_source(short_name="规划", title=MARKS)
    page = make_page(body="## 关键要点\n\n- 一个断言。（来源：Other Work）\n")
    claim = Claim.objects.current().get(page=page)
    other = Source.objects.get(title="Other Work")
    data = {
        "status": claim.status,
        "loaded_at": claim.updated_at.isoformat(),
        "citations-TOTAL_FORMS": "2",
        "citations-INITIAL_FORMS": "0",
        "citations-0-source": other.slug,
        "citations-0-locator": "",
        "citations-0-kind": "cited",
        "citations-1-source": marks.slug,
        "citations-1-locator": "§2",
        "citations-1-kind": "cited",
    }
    response = editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), data)
    assert response.status_code == 302
    page.refresh_from_db()
    assert "（来源：Other Work；“规划、记忆，与工具：一项关于标点的研究”，§2）" in page.body
    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", "locator")) == [
        ("Other Work", ""),
        ("规划", "§2"),
    ]


@pytest.mark.parametrize(
    "text", [f"x（来源：“{BRACKETS}”，§2；B）", f"x（来源：《{BRACKETS}》，§2；B）", f"x（来源：「{BRACKETS}」，§2；B）",
             f'x（来源："{BRACKETS}"，§2；B）']
)
def test_a_quoted_title_holds_a_pair_of_brackets(text: str) -> None:
    assert _cited(text) == [((BRACKETS,), "§2"), (("B",), "")]


def test_a_quoted_title_with_brackets_and_separators_is_read_whole_among_others() -> None:
    assert _cited("x（来源：A、“规划（上）、记忆”，p.3）和（其他）") == [(("A", "规划（上）、记忆"), "p.3")]


@pytest.mark.parametrize("text", [f"x（来源：{BRACKETS}，§2）", "x（来源：“A（B”，§2）", "x（来源：“A（B（C））”）"])
def test_brackets_outside_quotes_or_unpaired_make_no_citation_and_say_to_quote(text: str) -> None:
    refs, problems = find_citations(text)
    assert refs == [] and [problem.message for problem in problems] == [
        "a title holding brackets is written in quotes: （来源：“Title（…）”，p.3）"]


@pytest.mark.parametrize(("title", "written"), [
    (BRACKETS, f"“{BRACKETS}”"), ("ReAct", "ReAct"), ("A、B", "“A、B”"), ("A（B（C））", ""), ("A（B", ""), ("A）B", ""),
])
def test_a_title_with_brackets_is_written_quoted_so_as_to_read_back(title: str, written: str) -> None:
    assert written_title(title) == written
    assert is_writable_title(title) is bool(written)
    if written:
        assert _cited(f"x（来源：{written}，p.3）") == [((title,), "p.3")]


@pytest.mark.django_db
def test_a_page_citing_a_quoted_title_with_brackets_cites_the_work(client: Client) -> None:
    work = make_source(short_name="Agentic RL", title=BRACKETS)
    page = make_page(body=f"## 关键要点\n\n- 一个断言（来源：“{BRACKETS}”，§2）\n")

    claim = Claim.objects.current().get(page=page)
    assert list(claim.citations.values_list("source__short_name", "locator")) == [("Agentic RL", "§2")]
    assert Source.objects.count() == 1
    html = client.get(page.get_absolute_url()).content.decode()
    assert f'href="{work.get_absolute_url()}"' in html and f">“{BRACKETS}”</a>" in html
