from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from tests.conftest import FIXTURES
from wiki.change_summaries import comment_for_reader
from wiki.markdown.citations import CITATION_RE
from wiki.markdown.wikilinks import target_slug
from wiki.models import Citation, Claim, Page, Revision, Source
from wiki.services.page_import import PageImportError, page_import, parse_page_file

SEED_PAGE = FIXTURES / "pages" / "agentic-rl.md"


def _citations_in_text(text: str) -> list[tuple[str, str]]:
    found = []
    for match in CITATION_RE.finditer(text):
        body = match.group(2)
        head, _, tail = body.rpartition("，") if "，" in body else (body, "", "")
        for title in head.split("、"):
            found.append((title.strip(), tail.strip()))
    return found


@pytest.mark.django_db
def test_seed_page_claims_and_citations_match_the_text(seed: None) -> None:
    text = SEED_PAGE.read_text(encoding="utf-8")
    page = Page.objects.get(slug="agentic-rl")
    key_point_lines = re.search(r"### 关键要点\n(.*?)\n#", text, re.DOTALL).group(1)  # type: ignore[union-attr]
    bullets = [line for line in key_point_lines.splitlines() if line.startswith("- ")]
    claims = Claim.objects.current().filter(page=page)
    assert claims.filter(section="关键要点").count() == len(bullets) == 17
    expected = sorted(_citations_in_text(text))
    stored = sorted(Citation.objects.filter(claim__page=page).values_list("source__title", "locator"))
    assert stored == expected
    assert ("Shepherd: Enabling Programmable Meta-Agents via Reversible Agentic Execution Traces", "§4.3") in stored
    assert ("FACET: Preserving Source Intent and Executable State in Terminal Task Synthesis", "§3.1 / §5") in stored
    assert ("TraceForge: Distilling with Your Own Thinking", "§2.4、§3") in stored
    synthesised = Citation.objects.filter(claim__page=page, kind="synthesised").values_list("source__slug", flat=True)
    assert sorted(synthesised) == ["agent-oss-retrospective", "agentic-esopt"]


@pytest.mark.django_db
def test_importing_the_same_file_twice_duplicates_nothing(seed: None) -> None:
    counts = (Page.objects.count(), Revision.objects.count(), Claim.objects.count(), Citation.objects.count(), Source.objects.count())
    report = page_import(page_file=parse_page_file(SEED_PAGE.read_bytes()))
    assert report.unchanged
    assert counts == (Page.objects.count(), Revision.objects.count(), Claim.objects.count(), Citation.objects.count(), Source.objects.count())


@pytest.mark.django_db
def test_import_reports_created_sources_and_claims(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.md"
    path.write_text("---\ntitle: New Page\nslug: new-page\n---\n## 关键要点\n\n- A claim（来源：Brand New Work: A Title，p.3）。\n", encoding="utf-8")
    call_command("import_page", str(path))
    out = capsys.readouterr().out
    assert "Page new-page created: 1 claims (1 new), 1 citations." in out
    assert "Brand New Work" in out
    assert Citation.objects.get(claim__page__slug="new-page").locator == "p.3"


@pytest.mark.django_db
def test_reimport_reports_what_it_did_to_claims_and_keeps_a_reworded_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "page.md"
    head = "---\ntitle: Claims Page\nslug: claims-page\n---\n## 关键要点\n\n"
    path.write_text(head + "- SkillForge 用 GRPO 同时更新环境动作和 skill calling。\n- FACET 只做 SFT。\n", encoding="utf-8")
    call_command("import_page", str(path))
    claim = Claim.objects.get(page__slug="claims-page", text__startswith="SkillForge")
    path.write_text(head + "- SkillForge 用 GRPO 同时更新 agent 的环境动作和 skill calling。\n", encoding="utf-8")
    call_command("import_page", str(path))
    out = capsys.readouterr().out
    assert "Claims: 1 reworded, 1 orphaned." in out
    assert f"reworded #{claim.pk}: SkillForge 用 GRPO 同时更新 agent 的环境动作" in out
    assert Claim.objects.get(pk=claim.pk).is_orphaned is False


def test_a_file_over_the_limits_is_refused_before_its_citations_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    body = "\n".join(f"C{n}（来源：Title number {n}，p.1）" for n in range(12_000))

    def not_reached(*args: object, **kwargs: object) -> None:
        raise AssertionError("a text over the limits had its citations read")

    monkeypatch.setattr("wiki.markdown.find_citations", not_reached)
    with pytest.raises(PageImportError) as error:
        parse_page_file(f"# Huge\n\n{body}\n".encode(), filename="huge.md")
    assert "the limit is 200,000" in str(error.value)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"\xff\xfe\x00bad", "not UTF-8"),
        ("- 一条断言（来源：Some Work，p.3\n".encode(), "unbalanced bracket"),
        ("- 一条断言(来源: Some Work)\n".encode(), "unknown citation form"),
        ("- 一条断言（出处：Some Work）\n".encode(), "unknown citation form"),
        ("- 一条断言（来源：Some Work，chapter three）\n".encode(), "is not a locator"),
        ("- 一条断言（来源：）\n".encode(), "names no source"),
        (b"---\nslug: a/b c\n---\ntext\n", "may hold only letters"),
        (b"---\nslug: -_-\n---\ntext\n", "at least one letter or digit"),
        ("---\nslug: سلام\n---\ntext\n".encode(), "may hold only letters (Latin"),
        (f"---\nslug: {'x' * 201}\n---\ntext\n".encode(), "at most 200"),
        (f"---\ntitle: {'长' * 301}\n---\ntext\n".encode(), "at most 300"),
        (b"---\nslug: new\n---\ntext\n", "reserved"),
    ],
)
@pytest.mark.django_db
def test_bad_input_is_refused_and_changes_nothing(raw: bytes, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (Page.objects.count(), Source.objects.count(), Claim.objects.count())
    with pytest.raises(PageImportError) as error:
        parse_page_file(raw, filename="bad.md")
    assert message in str(error.value)
    path = tmp_path / "bad.md"
    path.write_bytes(raw)
    with pytest.raises(CommandError):
        call_command("import_page", str(path))
    assert message in capsys.readouterr().err
    assert before == (Page.objects.count(), Source.objects.count(), Claim.objects.count())


@pytest.mark.django_db
def test_citations_in_code_and_comments_are_examples_not_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "examples.md"
    path.write_text(
        "# Citation syntax\n\n## 关键要点\n\n- A real claim（来源：Real Work: Title，p.2）\n\n"
        "```\n- 示例（来源：Fenced Example，p.1）\n- 未闭合（来源：Broken\n```\n\n"
        "Write `（出处：Inline Example）` never.\n\n<!-- draft（来源：Commented Out，p.9） -->\n",
        encoding="utf-8",
    )
    call_command("import_page", str(path))
    out = capsys.readouterr().out
    assert "New sources (1): Real Work" in out
    assert not Source.objects.filter(short_name__in=["Fenced Example", "Broken", "Inline Example", "Commented Out"]).exists()


@pytest.mark.django_db
def test_a_citation_by_short_name_finds_the_existing_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first.md"
    first.write_text("# First\n\n## 关键要点\n\n- A claim（来源：Quillforge: Evolving Quills，p.3）\n", encoding="utf-8")
    call_command("import_page", str(first))
    second = tmp_path / "second.md"
    second.write_text("# Second\n\n## 关键要点\n\n- Another claim（来源：quillforge，§2）\n", encoding="utf-8")
    call_command("import_page", str(second))
    out = capsys.readouterr().out
    assert "New sources" not in out.split("second.md")[-1]
    [source] = Source.objects.filter(short_name__iexact="Quillforge")
    assert Citation.objects.get(claim__page__slug="second").source == source


def test_a_long_title_gives_a_slug_that_fits() -> None:
    page_file = parse_page_file(f"# {'Agentic ' * 30}\n\ntext\n".encode(), filename="long.md")
    assert 0 < len(page_file.slug) <= 200 and not page_file.slug.endswith("-")
    # a wiki link to the same title reaches the imported page
    assert page_file.slug == target_slug(f"{'Agentic ' * 30}".strip())


@pytest.mark.django_db
def test_a_title_close_to_an_existing_work_is_reported_and_not_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Source.objects.create(slug="react", short_name="ReAct", title="ReAct: Synergizing Reasoning and Acting in Language Models")
    path = tmp_path / "react.md"
    path.write_text("# ReAct\n\n## 关键要点\n\n- A claim（来源：ReAct: Synergizing Reasoning and Acting in Language Model，§3）\n",
                    encoding="utf-8")
    call_command("import_page", str(path))
    out = capsys.readouterr().out
    assert "“ReAct: Synergizing Reasoning and Acting in Language Model” — did you mean ReAct?" in out
    assert Source.objects.filter(title__istartswith="ReAct").count() == 1


@pytest.mark.django_db
def test_an_imports_edit_summary_reads_in_the_readers_language(tmp_path: Path, client: Client) -> None:
    path = tmp_path / "page.md"
    path.write_text("---\ntitle: Imported Page\nslug: imported-page\n---\nText.\n", encoding="utf-8")
    call_command("import_page", str(path))
    assert Revision.objects.get(page__slug="imported-page").comment == "Imported from file"
    for url in (reverse("wiki:page-history", kwargs={"slug": "imported-page"}), reverse("wiki:changes")):
        assert "从文件导入" in client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Imported from file" in english and "从文件导入" not in english
    # An editor's own summary that happens to read like one is shown as typed.
    assert comment_for_reader("Imported from file, then fixed") == "Imported from file, then fixed"
