"""An entry refused for several reasons gives each the line of the field it is about, where the reader knows it, so
that each can be found in a long entry; a reason about no one field has the entry's line."""

from __future__ import annotations

import pytest
from django.utils import translation

from wiki.models import Source
from wiki.services.source_import import sources_import

pytestmark = pytest.mark.django_db

ENTRY = """% exported by JabRef
@article{bad,
  title = {A Fine Title},
  author = {Li, Na},
  year = {circa},
  url = {www.example.com/paper},
  journal = UndefinedMacro
}
@article{ok, title={Another Title}, year={2024}}
"""


def test_each_problem_of_an_entry_has_the_line_of_its_field() -> None:
    bad, ok = sources_import(text=ENTRY).results
    assert (bad.status, bad.line, ok.status) == ("refused", 2, "created")
    assert "journal uses “UndefinedMacro”, which no @string defines" in bad.message
    assert "UndefinedMacro”, which no @string defines: brace it ({UndefinedMacro}) if it is text (line 7)" in bad.message
    assert "year “circa” is not a year (line 5)" in bad.message
    assert "the URL “www.example.com/paper” has no scheme: write it whole, with https:// (line 6)" in bad.message
    assert Source.objects.filter(title="A Fine Title").count() == 0


def test_a_problem_about_no_one_field_keeps_the_entrys_line() -> None:
    (result,) = sources_import(text="\n@article{untitled,\n  author = {Li, Na},\n  year = {2024}\n}\n").results
    assert (result.status, result.line, result.message) == ("refused", 2, "no title")


def test_a_problem_on_the_entrys_own_line_is_not_given_it_twice() -> None:
    (result,) = sources_import(text="@article{one, title={T}, year={circa}}\n").results
    assert result.message == "year “circa” is not a year"


def test_a_ris_records_problems_have_the_lines_of_their_tags() -> None:
    text = "TY  - JOUR\nTI  - A Fine Title\nAU  - Li, Na\nPY  - circa\nUR  - www.example.com/paper\nER  - \n"
    (result,) = sources_import(text=text).results
    assert (result.status, result.line) == ("refused", 1)
    assert "year “circa” is not a year (line 4)" in result.message
    assert "the URL “www.example.com/paper” has no scheme: write it whole, with https:// (line 5)" in result.message


def test_a_problem_with_the_key_has_the_line_of_the_key() -> None:
    key = "k" * 201
    bad, _, repeated = sources_import(text=f"@article{{\n  {key},\n  title = {{A Fine Title}},\n  year = {{2024}}\n}}\n"
                                        "@article{twice, title={One Title}, year={2024}}\n"
                                        "@article{\n  twice,\n  title = {Another Title},\n  year = {2024}\n}\n").results
    assert (bad.status, bad.line) == ("refused", 1)
    assert bad.message == "the BibTeX key is longer than 200 characters (it has 201) (line 2)"
    assert (repeated.status, repeated.line) == ("refused", 7)
    assert repeated.message == "the key twice on line 8 is already that of another work, the entry on line 6"
    assert not Source.objects.filter(title__in=["A Fine Title", "Another Title"]).exists()


def test_a_repeated_key_names_both_entries_lines_in_chinese() -> None:
    text = "@article{twice, title={One Title}, year={2024}}\n@article{\n  twice,\n  title = {Another Title}\n}\n"
    with translation.override("zh-hans"):
        _, repeated = sources_import(text=text).results
    assert (repeated.status, repeated.line) == ("refused", 2)
    assert repeated.message == "第 3 行的引用键 twice 已是另一项工作（第 1 行的条目）的引用键"


def test_a_ris_record_repeating_an_earlier_records_id_is_refused_at_its_id() -> None:
    text = ("TY  - JOUR\nID  - li2024\nTI  - A Fine Title\nPY  - 2024\nER  - \n"
            "TY  - JOUR\nTI  - Another Title\nPY  - 2023\nID  - li2024\nER  - \n")
    first, second = sources_import(text=text).results
    assert (first.status, second.status, second.line) == ("created", "refused", 6)
    assert second.message == "the key li2024 on line 9 is already that of another work, the entry on line 1"
    assert list(Source.objects.filter(bibtex_key="li2024").values_list("title", flat=True)) == ["A Fine Title"]
