from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import make_classification, make_page, make_question, make_source
from tests.wiki.web_merges import web_merge
from tests.wiki.wikistate import wiki_state
from wiki.models import (
    ChangeEvent,
    Citation,
    Classification,
    ClassificationChange,
    Component,
    Contrast,
    Page,
    Source,
    SourceMerge,
)
from wiki.services.classifications import classification_save, classification_snapshot
from wiki.services.merges import source_merge, source_merge_undo
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

ALPHA = "Alpha Agents: Learning to Act from Rewards"
BETA = "Beta Agents: Learning to Act from Rewards at Scale"
BODY = f"- 第一个断言（来源：{ALPHA}，§1）\n- 第二个断言（来源：{ALPHA}，§2）（来源：{BETA}，§2）\n"
MOVED_TABLES = ("wiki.citation", "wiki.classification", "wiki.classificationchange", "wiki.component", "wiki.contrast",
                "wiki.source", "wiki.claim", "wiki.openquestion", "wiki.page")


def _untimed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{name: value for name, value in row.items() if name != "updated_at"} for row in rows]


@pytest.fixture
def works(editor: Any) -> dict[str, Any]:
    alpha = make_source(slug="alpha", short_name="Alpha", title=ALPHA)
    beta = make_source(slug="beta", short_name="Beta", title=BETA)
    other = make_source(slug="other", short_name="Other", title="Other Agents: Harnesses Without Updates")
    page = make_page(slug="merging", title="Merging", body=BODY)
    classification = make_classification(alpha)
    classification_save(source=alpha, classification=classification, user=editor,
                        fields={**classification_snapshot(classification), "evidence_claim": None, "algorithm": "PPO"})
    part = Component.objects.create(source=alpha, slug="planner", name="Planner")
    make_classification(alpha, component=part, mechanism="harness", verdict="not_strict", interactive_env=False,
                        multi_step=False, verifiable_reward=False, rl_update=False)
    claim = page.claims.order_by("position").first()
    assert claim is not None
    claim.about.add(alpha)
    Contrast.objects.create(left=alpha, right=other, axis="policy update vs harness", claim=claim)
    Contrast.objects.create(left=alpha, right=beta, axis="one and the same")
    only_alpha, both = make_question(), make_question()
    only_alpha.sources.add(alpha)
    both.sources.add(alpha, beta)
    return {"alpha": alpha, "beta": beta, "other": other, "page": page, "claim": claim}


def test_merging_moves_everything_to_the_kept_work_and_its_address_redirects(works: dict[str, Any], editor_client: Client) -> None:
    alpha, beta = works["alpha"], works["beta"]
    history = ClassificationChange.objects.filter(classification__source=alpha).count()

    response = web_merge(editor_client, "alpha", "http://wiki.example/sources/beta/")

    assert response.status_code == 302 and response["Location"] == beta.get_absolute_url()
    reader = Client()
    moved = reader.get("/sources/alpha/")
    assert moved.status_code == 301 and moved["Location"] == "/sources/beta/"
    assert not Citation.objects.filter(source=alpha).exists()
    assert Citation.objects.filter(source=beta, claim__page=works["page"]).count() == 2  # §1 moved; §2 was cited already
    assert Classification.objects.filter(source=beta).count() == 2
    assert ClassificationChange.objects.filter(classification__source=beta).count() == history > 0
    assert Component.objects.get(slug="planner").source_id == beta.pk
    assert Contrast.objects.filter(left=beta, right=works["other"]).exists()
    assert Contrast.all_objects.filter(left=alpha, right=beta).exists()  # a work is not contrasted with itself
    assert set(works["claim"].about.all()) == {beta}
    assert all(q.sources.filter(pk=beta.pk).exists() for q in beta.questions.all()) and beta.questions.count() == 2
    assert "Alpha" not in reader.get(reverse("wiki:source-list")).content.decode()
    detail = editor_client.get(beta.get_absolute_url()).content.decode()
    assert "Merged into this work" in detail and reverse("wiki:source-merge-undo", kwargs={"pk": SourceMerge.objects.get().pk}) in detail
    event = ChangeEvent.objects.get(kind="source", action="merged", object_id=alpha.pk)
    assert event.url == beta.get_absolute_url() and "1 citations" in event.summary
    assert "/sources/alpha/" not in Page.objects.get(slug="merging").rendered_html


def test_citing_a_merged_works_title_cites_the_kept_work(works: dict[str, Any], editor: Any) -> None:
    source_merge(merged=works["alpha"], kept=works["beta"], user=editor)
    count = Source.all_objects.count()

    page_save_revision(slug="merging", title="Merging", body=BODY + f"- 第三个断言（来源：{ALPHA}，§3）\n", user=editor)

    assert Source.all_objects.count() == count
    assert set(Citation.objects.filter(claim__page__slug="merging").values_list("source__slug", flat=True)) == {"beta"}


def test_citing_a_merged_works_short_name_or_identifier_cites_the_kept_work(works: dict[str, Any], editor: Any) -> None:
    Source.objects.filter(pk=works["alpha"].pk).update(arxiv_id="2401.00001")
    source_merge(merged=works["alpha"], kept=works["beta"], user=editor)
    count = Source.all_objects.count()

    page_save_revision(slug="merging", title="Merging", user=editor,
                       body=BODY + "- 第三个断言（来源：Alpha，§3）\n- 第四个断言（来源：arXiv:2401.00001，§4）\n")

    assert Source.all_objects.count() == count
    assert set(Citation.objects.filter(claim__page__slug="merging").values_list("source__slug", flat=True)) == {"beta"}


def test_a_merged_works_identifiers_and_title_find_the_kept_work_on_import_and_in_the_new_work_form(
        works: dict[str, Any], editor: Any, editor_client: Client) -> None:
    from wiki.services.source_import import ImportStatus, sources_import

    Source.objects.filter(pk=works["alpha"].pk).update(arxiv_id="2401.00001", doi="10.1000/alpha")
    source_merge(merged=works["alpha"], kept=works["beta"], user=editor)
    count = Source.all_objects.count()

    results = sources_import(text=(
        "@article{a1, title={Some Other Title}, author={Doe, Jane}, year={2024}, eprint={2401.00001}, archivePrefix={arXiv}}\n"
        "@article{a2, title={Yet Another Title}, author={Doe, Jane}, year={2024}, doi={10.1000/alpha}}\n"
        f"@article{{a3, title={{{ALPHA}}}, author={{Doe, Jane}}, year={{2024}}}}\n"), user=editor).results
    form = editor_client.post(reverse("wiki:source-create"), {"title": "A Fourth Title", "arxiv_id": "2401.00001",
                                                              "kind": "paper"})

    assert [(r.status, r.source.slug if r.source else None) for r in results] == [(ImportStatus.DUPLICATE, "beta")] * 3
    assert all(r.missing == {} for r in results)
    assert Source.all_objects.count() == count
    assert form.status_code == 200 and "/sources/beta/" in form.content.decode()


def test_undoing_a_merge_moves_back_exactly_what_moved(works: dict[str, Any], editor: Any, editor_client: Client) -> None:
    before = wiki_state()
    merge = source_merge(merged=works["alpha"], kept=works["beta"], user=editor)
    url = reverse("wiki:source-merge-undo", kwargs={"pk": merge.pk})
    assert "Undo the merge" in editor_client.get(url).content.decode()

    response = editor_client.post(url)

    assert response.status_code == 302 and response["Location"] == works["alpha"].get_absolute_url()
    after = wiki_state()
    for table in MOVED_TABLES:
        # The rows are as they were; their times moved, as what each shows changed twice (?updated_after= finds them).
        assert _untimed(after[table]) == _untimed(before[table]), table
    assert Client().get("/sources/alpha/").status_code == 200
    assert ChangeEvent.objects.filter(kind="source", action="unmerged", object_id=works["alpha"].pk).exists()
    assert SourceMerge.objects.get().undone_at is not None
    with pytest.raises(ValidationError):
        source_merge_undo(merge=merge, user=editor)


def test_a_merge_cannot_be_undone_after_the_kept_work_was_merged_in_turn(works: dict[str, Any], editor: Any) -> None:
    first = source_merge(merged=works["alpha"], kept=works["beta"], user=editor)
    source_merge(merged=works["beta"], kept=works["other"], user=editor)

    assert Client().get("/sources/alpha/")["Location"] == "/sources/other/"
    with pytest.raises(ValidationError, match="undo that first"):
        source_merge_undo(merge=first, user=editor)


def test_a_merge_form_names_a_work_other_than_itself(works: dict[str, Any], editor_client: Client) -> None:
    url = reverse("wiki:source-merge", kwargs={"slug": "alpha"})
    assert editor_client.get(url).status_code == 200
    assert "cannot be merged into itself" in editor_client.post(url, {"into": "alpha"}).content.decode()
    response = editor_client.post(url, {"into": "no-such-work"})
    assert response.status_code == 400 and "no-such-work" in response.content.decode()
    assert Source.objects.filter(slug="alpha").exists() and not SourceMerge.objects.exists()


def test_a_merge_form_takes_the_kept_work_by_its_short_name_in_any_case(works: dict[str, Any], editor_client: Client) -> None:
    response = web_merge(editor_client, "alpha", "ＢＥＴＡ")

    assert response.status_code == 302
    assert SourceMerge.objects.get().kept == Source.objects.get(slug="beta")


def test_only_editors_merge(works: dict[str, Any], client: Client) -> None:
    url = reverse("wiki:source-merge", kwargs={"slug": "alpha"})
    assert client.get(url)["Location"].startswith(reverse("login"))
    assert client.post(url, {"into": "beta"}).status_code == 403  # the session ended: what was typed is shown to copy
    from tests.factories import make_reader

    client.force_login(make_reader())
    assert client.post(url, {"into": "beta"}).status_code == 403
    assert not SourceMerge.objects.exists()
