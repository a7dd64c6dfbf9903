"""Choosing works by typing them: the editor forms that pick works cost the same whatever the number of works and claims."""

from __future__ import annotations

import html
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_claim, make_indexed_question, make_page, make_source
from tests.queries import query_names
from wiki.forms.contrasts import ContrastForm
from wiki.models import Claim, Component, Contrast, OpenQuestion, Source

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Works:
    left: Source
    right: Source
    other: Source
    citing_left: Claim
    about_right: Claim
    citing_other: Claim
    question: OpenQuestion


@pytest.fixture
def works(db: None) -> Works:
    left = make_source(slug="tree-grpo", short_name="Tree-GRPO")
    right = make_source(slug="star-harness", short_name="StarHarness")
    other = make_source(slug="other-work", short_name="Other Work")
    Component.objects.create(source=left, slug="rollout", name="Tree rollout")
    Component.objects.create(source=other, slug="elsewhere", name="Elsewhere part")
    citing_left = make_claim("Tree-GRPO updates the policy from tree rollouts.", cites=[left], locator="p.3")
    about_right = make_claim("StarHarness evolves its harness instead.", cites=[other])
    about_right.about.add(right)
    citing_other = make_claim("Other Work is an unrelated benchmark.", cites=[other])
    question = make_indexed_question(title="Does Tree-GRPO need a critic?", sources=[left])
    return Works(left, right, other, citing_left, about_right, citing_other, question)


def _get(client: Client, url: str) -> tuple[list[str], str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return query_names(queries), response.content.decode()


def _forms(works: Works) -> list[str]:
    return [
        reverse("wiki:claim-edit", kwargs={"pk": works.citing_left.pk}),
        reverse("wiki:question-create"),
        reverse("wiki:question-edit", kwargs={"pk": works.question.pk}),
        reverse("wiki:contrast-create") + f"?left={works.left.slug}&right={works.right.slug}",
    ]


def test_the_forms_that_pick_works_do_not_grow_with_the_wiki(editor_client: Client, works: Works) -> None:
    _get(editor_client, _forms(works)[0])  # the session's first request loads the editor's account
    before = {url: _get(editor_client, url) for url in _forms(works)}
    added = [make_source() for _ in range(200)]
    bullets = "\n".join(f"- Claim {n} of many（来源：{added[n % len(added)].title}，p.{n + 1}）" for n in range(300))
    make_page(body=f"## 关键要点\n\n{bullets}\n")
    for n in range(100):
        make_page(title=f"One more page {n}")
    assert Source.objects.count() >= 203 and Claim.objects.current().count() >= 303

    after = {url: _get(editor_client, url) for url in _forms(works)}

    for url, (queries, page) in before.items():
        assert after[url][0] == queries, (url, "|".join(queries), "|".join(after[url][0]))
        assert abs(len(after[url][1]) - len(page)) < 300, url
        assert "One more page" not in after[url][1], url
        assert added[0].slug not in after[url][1] and added[0].title not in after[url][1], url


def test_the_claim_form_shows_the_slugs_of_its_works_in_text_inputs(editor_client: Client, works: Works) -> None:
    works.citing_left.about.add(works.left, works.right)
    page = editor_client.get(reverse("wiki:claim-edit", kwargs={"pk": works.citing_left.pk})).content.decode()

    assert 'name="about" value="star-harness, tree-grpo"' in page or 'name="about" value="tree-grpo, star-harness"' in page
    assert 'name="citations-0-source" value="tree-grpo"' in page
    assert 'data-picker="multiple"' in page and 'data-picker="one"' in page
    assert f'data-picker-search="{reverse("api:source-list")}"' in page
    assert "<option value=\"" + str(works.other.pk) not in page


def test_a_claims_works_are_accepted_by_slug_or_short_name_in_any_case(editor_client: Client, works: Works) -> None:
    claim = works.citing_left
    data = {"status": "disputed", "about": "tree-grpo, starharness", "citations-TOTAL_FORMS": "2",
            "citations-INITIAL_FORMS": "1", "citations-0-source": "OTHER WORK", "citations-0-locator": "p.4",
            "citations-0-kind": "cited", "citations-1-source": "", "citations-1-locator": "", "citations-1-kind": "cited"}

    response = editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), data)

    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == "disputed"
    assert set(claim.about.all()) == {works.left, works.right}
    assert list(claim.citations.values_list("source__slug", "locator")) == [("other-work", "p.4")]


def test_a_short_name_is_read_whatever_its_case_width_spacing_or_punctuation(editor_client: Client, works: Works) -> None:
    claim = works.citing_left
    data = {"status": "disputed", "about": "tree grpo, ＳＴＡＲｈａｒｎｅｓｓ", "citations-TOTAL_FORMS": "1",
            "citations-INITIAL_FORMS": "1", "citations-0-source": "other-work.", "citations-0-locator": "p.4",
            "citations-0-kind": "cited"}

    response = editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), data)

    assert response.status_code == 302
    claim.refresh_from_db()
    assert set(claim.about.all()) == {works.left, works.right}
    assert list(claim.citations.values_list("source__slug", "locator")) == [("other-work", "p.4")]


def test_an_unknown_work_is_refused_naming_what_was_typed_and_nothing_is_saved(editor_client: Client, works: Works) -> None:
    claim = works.citing_left
    data = {"status": "disputed", "about": "tree-grpo, No Such Paper", "citations-TOTAL_FORMS": "1",
            "citations-INITIAL_FORMS": "1", "citations-0-source": "nowhere-2025", "citations-0-locator": "p.4",
            "citations-0-kind": "cited"}
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    about = set(claim.about.all())

    english = html.unescape(editor_client.post(url, data).content.decode())
    chinese = html.unescape(editor_client.post(url, data, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())

    assert "No work has the slug or short name “No Such Paper”." in english
    assert "No work has the slug or short name “nowhere-2025”." in english
    assert 'value="tree-grpo, No Such Paper"' in english
    assert "没有哪个工作的 slug 或简称是“No Such Paper”。" in chinese
    # several unknown works: listed with each language's separator
    data["about"] = "No Such Paper, 另一个"
    assert "No work has the slug or short name “No Such Paper”, “另一个”." in html.unescape(editor_client.post(url, data).content.decode())
    assert "没有哪个工作的 slug 或简称是“No Such Paper”、“另一个”。" in html.unescape(
        editor_client.post(url, data, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
    claim.refresh_from_db()
    assert claim.status != "disputed" and set(claim.about.all()) == about
    assert list(claim.citations.values_list("source__slug", "locator")) == [("tree-grpo", "p.3")]


def test_a_short_name_shared_by_two_works_asks_for_the_slug(editor_client: Client, works: Works) -> None:
    make_source(slug="tree-grpo-2", short_name="tree-grpo v2")
    twin = make_source(slug="twin-b", short_name="Twin")
    make_source(slug="twin-a", short_name="twin")
    response = editor_client.post(reverse("wiki:question-create"),
                                  {"title": "Which twin?", "status": "open", "priority": "low", "sources": "Twin"})

    assert "Several works are called “Twin”; type the slug of the one you mean (twin-a, twin-b)." in html.unescape(
        response.content.decode())
    assert not OpenQuestion.objects.filter(title="Which twin?").exists()
    editor_client.post(reverse("wiki:question-create"),
                       {"title": "Which twin?", "status": "open", "priority": "low", "sources": "twin-b, Tree-GRPO"})
    assert set(OpenQuestion.objects.get(title="Which twin?").sources.all()) == {twin, works.left}


def test_a_question_keeps_its_works_when_saved_unchanged(editor_client: Client, works: Works) -> None:
    url = reverse("wiki:question-edit", kwargs={"pk": works.question.pk})
    form = editor_client.get(url).context["form"]
    assert form["sources"].value() == "tree-grpo"

    data = {"title": works.question.title, "status": "open", "priority": "high", "sources": "tree-grpo, other work",
            "loaded_at": form.initial["loaded_at"]}
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    assert set(works.question.sources.all()) == {works.left, works.other}


def test_the_citation_rows_are_looked_up_in_one_query_whatever_their_number(editor_client: Client, works: Works) -> None:
    url = reverse("wiki:claim-edit", kwargs={"pk": works.citing_left.pk})

    def refused(rows: int) -> list[str]:
        data = {"status": "verified", "citations-TOTAL_FORMS": str(rows), "citations-INITIAL_FORMS": "0"}
        for n in range(rows):
            data |= {f"citations-{n}-source": ["tree-grpo", "StarHarness", "other-work", "no-such-work"][n % 4],
                     f"citations-{n}-locator": "nowhere" if n == 0 else f"p.{n}", f"citations-{n}-kind": "cited"}
        with CaptureQueriesContext(connection) as queries:
            assert editor_client.post(url, data).status_code == 200
        return query_names(queries)

    refused(1)  # the session's first request loads the editor's account
    assert refused(1) == refused(6)


def test_the_contrast_form_offers_only_the_chosen_works_components_and_claims(works: Works) -> None:
    form = ContrastForm(initial={"left": works.left.slug, "right": works.right.pk})

    assert (form["left"].value(), form["right"].value()) == ("tree-grpo", "star-harness")
    assert [c.name for c in form.fields["left_component"].queryset] == ["Tree rollout"]
    assert set(form.fields["claim"].queryset) == {works.citing_left, works.about_right}

    nothing = ContrastForm()
    assert not nothing.fields["claim"].queryset.exists() and not nothing.fields["left_component"].queryset.exists()
    assert "Choose the two works first" in str(nothing.fields["claim"].help_text)


def test_the_contrast_form_as_sent_offers_the_typed_works_claims(editor_client: Client, works: Works) -> None:
    shown = editor_client.post(reverse("wiki:contrast-create"),
                               {"left": "Other Work", "right": "", "axis": "", "show_choices": "1"}).content.decode()

    assert works.citing_other.text[:40] in html.unescape(shown) and works.citing_left.text[:40] not in html.unescape(shown)
    assert "Elsewhere part" in shown and "Tree rollout" not in shown
    assert not Contrast.objects.exists()


def test_a_contrast_is_added_by_short_names_with_a_claim_of_its_works(editor_client: Client, works: Works) -> None:
    url = reverse("wiki:contrast-create")
    unrelated = editor_client.post(url, {"left": "tree-grpo", "right": "starharness", "axis": "policy vs harness",
                                         "claim": works.citing_other.pk})
    assert unrelated.status_code == 200 and not Contrast.objects.exists()

    unknown = editor_client.post(url, {"left": "Tree GRPO 2", "right": "starharness", "axis": "policy vs harness"})
    assert "No work has the slug or short name “Tree GRPO 2”." in html.unescape(unknown.content.decode())
    assert not Contrast.objects.exists()

    added = editor_client.post(url, {"left": "tree-grpo", "right": "starharness", "axis": "policy vs harness",
                                     "claim": works.about_right.pk, "left_component": works.left.components.get().pk})
    assert added.status_code == 302
    contrast = Contrast.objects.get()
    assert (contrast.left, contrast.right, contrast.claim) == (works.left, works.right, works.about_right)


def test_a_question_names_its_page_by_slug_or_title_and_an_unknown_one_is_refused(editor_client: Client, works: Works) -> None:
    page = works.citing_left.page
    html = editor_client.get(reverse("wiki:question-edit", kwargs={"pk": works.question.pk})).content.decode()
    refused = editor_client.post(reverse("wiki:question-create"), {
        "title": "Where?", "status": "open", "priority": "normal", "page": "no-such-page"})
    added = editor_client.post(reverse("wiki:question-create"), {
        "title": "Here?", "status": "open", "priority": "normal", "page": page.slug})
    by_title = editor_client.post(reverse("wiki:question-create"), {
        "title": "By title?", "status": "open", "priority": "normal", "page": f" {page.title.upper()} "})

    assert '<input type="text" name="page"' in html
    assert refused.status_code == 200 and "No page has the slug or title “no-such-page”." in refused.content.decode()
    assert not OpenQuestion.objects.filter(title="Where?").exists()
    assert added.status_code == 302 and OpenQuestion.objects.get(title="Here?").page == page
    assert by_title.status_code == 302 and OpenQuestion.objects.get(title="By title?").page == page
