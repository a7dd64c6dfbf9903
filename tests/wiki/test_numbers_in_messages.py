"""Numbers the wiki writes into its messages (limits, counts) read as the reader's language writes them: 200000 in
Chinese, which sets no commas in a number, 200,000 in English."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from wiki.forms.pages import PageForm
from wiki.markdown import MarkdownTooComplex, render
from wiki.markdown.limits import limit_problem
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import parse_references

_GROUPED = re.compile(r"\d,\d{3}")


def _in_both(make: object) -> tuple[str, str]:
    assert callable(make)
    with translation.override("zh-hans"):
        chinese = str(make())
    with translation.override("en"):
        english = str(make())
    return chinese, english


def test_the_page_forms_limit_is_written_without_commas_in_chinese() -> None:
    chinese, english = _in_both(lambda: PageForm().fields["body"].help_text)
    assert "至多 200000 个字符" in chinese and not _GROUPED.search(chinese)
    assert "At most 200,000 characters." in english


def test_a_text_over_a_limit_is_told_its_size_without_commas_in_chinese() -> None:
    def too_long() -> str:
        with pytest.raises(MarkdownTooComplex) as refused:
            render("字" * 200_001, sources={}, existing_pages=frozenset())
        return str(refused.value)

    chinese, english = _in_both(too_long)
    assert chinese == "文本长 200001 个字符；上限为 200000。"
    assert english == "The text is 200,001 characters long; the limit is 200,000."
    chinese, english = _in_both(lambda: limit_problem("\n" * 10_000))
    assert "10001" in chinese and "10000" in chinese and not _GROUPED.search(chinese)
    assert "10,001" in english and "10,000" in english


def test_a_reference_files_limits_are_written_without_commas_in_chinese() -> None:
    def too_many() -> str:
        with pytest.raises(ReferencesRefused) as refused:
            parse_references("".join(f"@misc{{k{n}, title={{T{n}}}}}\n" for n in range(2_001)))
        return str(refused.value)

    chinese, english = _in_both(too_many)
    assert chinese == "共 2001 个条目；一次最多导入 2000 个。"
    assert english == "2,001 entries; at most 2,000 are imported at once."


@pytest.mark.django_db
def test_the_import_forms_help_gives_its_limit_without_commas_in_chinese(editor_client: Client) -> None:
    html = editor_client.get(reverse("wiki:source-create"), headers={"accept-language": "zh-CN"}).content.decode()
    assert re.search(r"至多 \d+ MB、2000 个条目。", html)
    assert not _GROUPED.search(re.sub(r"<[^>]+>", "", html))
    english = editor_client.get(reverse("wiki:source-create"), headers={"accept-language": "en"}).content.decode()
    assert re.search(r"of up to \d+ MB and 2,000 entries\.", english)
