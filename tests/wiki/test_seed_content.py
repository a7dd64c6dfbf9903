"""The two seed pages render every sentence of their Markdown, their tables as tables and their formulas as math."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import FIXTURES
from tests.wiki.htmltext import html_tables, html_text, normalize_space

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seed")]

PAGES = ["agentic-rl", "agentic-rl-survey-notes"]
SENTENCE_END = re.compile(r"[。！？\n]")


def _body(slug: str) -> str:
    text = (FIXTURES / "pages" / f"{slug}.md").read_text(encoding="utf-8")
    return text.split("---", 2)[2] if text.startswith("---") else text


def _plain_lines(markdown: str) -> list[str]:
    """The text a reader sees, line by line: markup removed, formulas left out, table cells one per line."""
    lines: list[str] = []
    in_formula = False
    for raw in markdown.splitlines():
        line = raw.strip()
        if line.startswith("$$"):
            in_formula = not in_formula if line == "$$" else in_formula
            continue
        if in_formula or line.startswith("```"):
            continue
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if all(re.fullmatch(r":?-{3,}:?", cell) for cell in cells):
                continue
            lines.extend(cells)
            continue
        line = re.sub(r"^(?:>\s*)+", "", line)
        line = re.sub(r"^#{1,6}\s+", "", line)
        line = re.sub(r"^(?:[-*+]|\d+\.)\s+", "", line)
        lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r"\[\[([^\]|]+)\|([^\]]+)\]\]", r"\2", text)
    text = re.sub(r"\[\[([^\]]+)\]\]", r"\1", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<!\w)\*(.+?)\*(?!\w)", r"\1", text)
    text = re.sub(r"`([^`]+)`", r"\1", text)
    return text.splitlines()


def _sentences(slug: str) -> list[str]:
    sentences = []
    for line in _plain_lines(_body(slug)):
        for piece in SENTENCE_END.split(line):
            piece = normalize_space(piece)
            if len(piece) > 4:
                sentences.append(piece)
    return sentences


@pytest.mark.parametrize("slug", PAGES)
def test_every_sentence_of_the_seed_page_is_on_the_rendered_page(client: Client, slug: str) -> None:
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": slug}))
    assert response.status_code == 200
    text = html_text(response.content.decode())
    sentences = _sentences(slug)
    assert len(sentences) > 40
    missing = [sentence for sentence in sentences if sentence not in text]
    assert missing == []


def test_the_survey_tables_are_html_tables_with_their_header_cells(client: Client) -> None:
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": "agentic-rl-survey-notes"}))
    tables = html_tables(response.content.decode())
    headers = [table.headers for table in tables]
    assert ["维度", "PBRFT / 传统 LLM RL", "Agentic RL"] in headers
    assert ["类型", "代表例子", "适合研究的问题"] in headers
    comparison = tables[headers.index(["维度", "PBRFT / 传统 LLM RL", "Agentic RL"])]
    assert len(comparison.rows) == 6
    assert comparison.rows[0] == ["模型角色", "条件文本生成器", "可学习的决策 policy"]
    frameworks = tables[headers.index(["类型", "代表例子", "适合研究的问题"])]
    assert [row[0] for row in frameworks.rows] == ["Web / GUI", "Code / SWE", "General Agent", "Domain-specific", "RL Framework"]


def test_the_four_formulas_render_as_math_once_each_without_flattened_copies(client: Client) -> None:
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": "agentic-rl-survey-notes"}))
    content = response.content.decode()
    assert content.count("<math") == 4
    assert content.count('<div class="math-display" tabindex="0"><math') == 4
    identifiers = re.findall(r"<math.*?</math>", content, re.DOTALL)
    assert len(set(identifiers)) == 4
    text_without_math = html_text(content, skip=frozenset({"script", "style", "math"}))
    for flattened in ("Aagent=Atext∪Aaction", "Jtrad(θ)", "Jagent(θ)", "R=λoRoutcome", "\\text{", "$$"):
        assert flattened not in text_without_math
