"""Editor screens for sources, classifications, claims, contrasts and questions, and recent changes."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import (
    SmallWiki,
    make_claim,
    make_classification,
    make_contrast,
    make_editor,
    make_question,
    make_reader,
    make_source,
)
from tests.queries import query_names
from tests.wiki.htmltext import html_text
from tests.wiki.web_imports import web_import
from wiki.forms.classifications import FACT_FIELDS
from wiki.models import (
    ChangeEvent,
    Citation,
    Claim,
    Classification,
    ClassificationChange,
    Component,
    Contrast,
    OpenQuestion,
    Source,
)
from wiki.roles import Account

BIBTEX = """@article{alpha2025, title={AlphaAgent: Policy Gradient for Web Agents}, year={2025}, eprint={2501.00001v1},
 archivePrefix={arXiv}, abstract={We train a web agent with PPO from the task success reward over multi-step browser rollouts.}}
@misc{oops, title={Unclosed
"""


def _edit_urls(db_objects: dict[str, object]) -> list[tuple[str, str]]:
    source, classification, claim, question = (db_objects[k] for k in ("source", "classification", "claim", "question"))
    return [
        ("get", reverse("wiki:source-create")),
        ("post", reverse("wiki:source-create")),
        ("get", reverse("wiki:source-edit", kwargs={"slug": source.slug})),  # type: ignore[attr-defined]
        ("get", reverse("wiki:classification-create", kwargs={"slug": source.slug})),  # type: ignore[attr-defined]
        ("get", reverse("wiki:classification-edit", kwargs={"pk": classification.pk})),  # type: ignore[attr-defined]
        ("get", reverse("wiki:claim-edit", kwargs={"pk": claim.pk})),  # type: ignore[attr-defined]
        ("get", reverse("wiki:contrast-create")),
        ("get", reverse("wiki:question-create")),
        ("post", reverse("wiki:question-edit", kwargs={"pk": question.pk})),  # type: ignore[attr-defined]
    ]


@pytest.fixture
def objects(small_wiki: SmallWiki) -> dict[str, object]:
    source = make_source()
    return {"source": source, "classification": make_classification(source), "claim": small_wiki.claims[0],
            "question": make_question()}


def test_anonymous_users_are_sent_to_log_in_from_every_edit_form(client, objects) -> None:  # type: ignore[no-untyped-def]
    events = ChangeEvent.objects.count()
    for method, url in _edit_urls(objects):
        response = getattr(client, method)(url, {"title": "Typed while logged out"})
        if method == "get":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url
        else:
            # A form posted after the session ended: nothing saved, the text shown to copy (test_editing_expired_forms.py).
            assert response.status_code == 403 and "Typed while logged out" in response.content.decode(), url
    assert ChangeEvent.objects.count() == events


def test_readers_get_403_from_every_edit_form(client, objects) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make_reader())
    events = ChangeEvent.objects.count()
    for method, url in _edit_urls(objects):
        assert getattr(client, method)(url, {"title": "x"}).status_code == 403, url
    assert ChangeEvent.objects.count() == events


def test_bibtex_import_shows_per_entry_results(editor_client: Client) -> None:
    response = web_import(editor_client, {"entry": BIBTEX})
    assert response.status_code == 200
    statuses = [r.status for r in response.context["report"].results]
    assert statuses == ["created", "refused"]
    assert Source.objects.filter(arxiv_id="2501.00001").exists()
    assert "1</strong> created" in response.content.decode()


def test_bibtex_import_of_five_entries_offers_the_failed_ones_again_to_fix(editor_client: Client) -> None:
    existing = make_source(arxiv_id="2501.07777", short_name="Existing", title="Existing: A Study")
    text = (
        "@article{fresh, title={Fresh Agent Study}, year={2025}}\n"
        "@article{dup-arxiv, title={Another Name}, eprint={2501.07777v2}, archivePrefix={arXiv}}\n"
        "@article{dup-title, title={existing: a study}}\n"
        "@article{broken, title={Never closed, author={Y}\n"
        "@misc{notitle, author={Z}}\n"
    )
    response = web_import(editor_client, {"entry": text})
    results = response.context["report"].results
    assert [r.status for r in results] == ["created", "duplicate", "duplicate", "refused", "refused"]
    assert {r.source for r in results if r.status == "duplicate"} == {existing}
    retry = response.context["retry_form"].initial["entry"]
    assert "@article{broken, title={Never closed" in retry and "@misc{notitle" in retry
    assert "fresh" not in retry and "dup-arxiv" not in retry
    assert "Never closed" in response.content.decode().split("Fix the refused entries")[1]
    assert results[3].message == ("this entry is not closed before line 5, where the next entry (@misc) starts: its "
                                  "closing } is missing, or a { or \" inside it is not closed")
    assert results[3].label == "broken"


def test_arxiv_id_prefills_the_form_and_asks_for_the_title(editor_client: Client) -> None:
    response = editor_client.post(reverse("wiki:source-create"), {"entry": "arXiv:2502.11111v3", "import": "1"})
    assert response.context["form"].initial["arxiv_id"] == "2502.11111"
    assert "type the title" in response.content.decode()
    assert not Source.objects.filter(arxiv_id="2502.11111").exists()


def test_known_doi_links_to_the_existing_source(editor_client: Client) -> None:
    existing = make_source(doi="10.1145/3600006")
    response = editor_client.post(reverse("wiki:source-create"), {"entry": "https://doi.org/10.1145/3600006", "import": "1"})
    assert response.context["duplicate"] == existing
    assert existing.get_absolute_url() in response.content.decode()


def test_adding_a_source_by_hand(editor_client: Client, editor: Account) -> None:
    response = editor_client.post(reverse("wiki:source-create"), {
        "short_name": "Hand", "title": "Hand: Made", "kind": "paper", "doi": "doi:10.9999/HAND", "save": "1"})
    source = Source.objects.get(doi="10.9999/hand")
    assert response["Location"] == reverse("wiki:classification-create", kwargs={"slug": source.slug})
    assert ChangeEvent.objects.filter(kind="source", object_id=source.pk, user=editor).exists()


def test_duplicate_by_hand_changes_nothing_and_links_the_existing(editor_client: Client) -> None:
    existing = make_source(title="Exact Same Title")
    count = Source.objects.count()
    response = editor_client.post(reverse("wiki:source-create"), {
        "short_name": "Dup", "title": "exact same title.", "kind": "paper", "save": "1"})
    assert response.status_code == 200
    assert response.context["duplicate"] == existing
    assert Source.objects.count() == count


def test_a_title_close_to_a_works_asks_first_and_saves_once_told_it_is_another(editor_client: Client) -> None:
    existing = make_source(slug="ppo", short_name="PPO", title="Proximal Policy Optimization Algorithms", year=2017)
    count = Source.objects.count()
    typed = {"short_name": "PPO-2", "title": "Proximal Policy Optimisation Algorithm", "kind": "paper", "year": "2017",
             "save": "1"}

    asked = editor_client.post(reverse("wiki:source-create"), typed)
    html = asked.content.decode()
    assert asked.status_code == 200 and Source.objects.count() == count
    assert "A work with a close title exists: “Proximal Policy Optimization Algorithms” (PPO)" in html
    assert f'href="{existing.get_absolute_url()}"' in html and 'name="different_work"' in html

    saved = editor_client.post(reverse("wiki:source-create"), {**typed, "different_work": "on"})
    assert saved.status_code == 302 and Source.objects.count() == count + 1
    # a title close to nothing is saved at once, with no question asked
    plain = editor_client.get(reverse("wiki:source-create")).content.decode()
    assert 'name="different_work"' not in plain


def test_editing_a_source(editor_client: Client) -> None:
    source = make_source()
    data = {"short_name": source.short_name, "title": source.title, "kind": "survey", "year": "2024"}
    response = editor_client.post(reverse("wiki:source-edit", kwargs={"slug": source.slug}), data)
    assert response.status_code == 302
    source.refresh_from_db()
    assert (source.kind, source.year) == ("survey", 2024)


def test_classification_form_shows_the_suggestion_with_highlighted_evidence(editor_client: Client) -> None:
    source = make_source(abstract="We train a web agent with PPO from the task success reward over multi-step browser rollouts.")
    response = editor_client.get(reverse("wiki:classification-create", kwargs={"slug": source.slug}))
    card = response.context["card"]
    assert card is not None
    assert card.values["mechanism"] == card.suggestion.mechanism.value
    assert "<mark" in str(card.highlighted)
    assert b"data-accept-suggestion" in response.content


def _weighed(html: str) -> str | None:
    """The list of what each highlighted phrase weighed, as a page shows it."""
    found = re.search(r'<details class="evidence-list">.*?</details>', html, re.S)
    return found.group() if found else None


def test_classification_form_lists_what_each_highlighted_phrase_weighed_as_the_source_page_does(editor_client: Client) -> None:
    source = make_source(abstract="We train a web agent with PPO from the task success reward over multi-step browser rollouts.")
    form = editor_client.get(reverse("wiki:classification-create", kwargs={"slug": source.slug})).content.decode()
    page = editor_client.get(reverse("wiki:source-detail", kwargs={"slug": source.slug})).content.decode()
    assert _weighed(page) is not None and "PPO" in str(_weighed(page))
    assert _weighed(form) == _weighed(page)


def test_the_suggestions_facts_are_named_in_the_readers_language(editor_client: Client) -> None:
    source = make_source(abstract="We train a web agent with PPO from the task success reward over multi-step browser rollouts.")
    url = reverse("wiki:classification-create", kwargs={"slug": source.slug})
    chinese = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    facts = re.search(r'<ul class="facts">(.*?)</ul>', chinese, re.S)
    assert facts is not None
    assert "可验证或标量奖励：" in facts.group(1) and "Verifiable or scalar reward" not in facts.group(1)
    english = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Verifiable or scalar reward: " in english


def test_each_highlight_says_in_the_readers_language_what_it_points_to_and_its_weight(editor_client: Client) -> None:
    source = make_source(abstract="We fine-tune the model with GRPO on single-turn math questions; there is no environment.")
    url = reverse("wiki:classification-create", kwargs={"slug": source.slug})
    chinese = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans")
    card = chinese.context["card"]
    assert card.suggestion.mechanism.value == "policy_gradient"
    titles = re.findall(r'<mark[^>]* title="([^"]*)"', chinese.content.decode())
    assert titles and not any("mechanism:" in t or "fact:" in t for t in titles)
    # A phrase that weighed on several things names each on a line of its own; a fact found false shows the
    # words that weighed against it, with a negative weight.
    env = "可执行的 agent 与环境、工具或浏览器交互"
    assert any(t.startswith("机制：策略梯度（权重 +") and f"&#10;{env}（权重 −" in t for t in titles)
    assert any(re.search(rf"{env}（权重 −\d", t) for t in titles)
    weights = re.search(r'<p class="evidence-weights">(.*?)</p>', chinese.content.decode(), re.S)
    assert weights is not None and "对“策略梯度”权重最大的词句：" in weights.group(1)
    listed = [span.cue for span in card.strongest]
    assert listed and all(cue in weights.group(1) for cue in listed)
    assert len({cue.casefold() for cue in listed}) == len(listed)
    assert [s.contribution for s in card.strongest] == sorted((s.contribution for s in card.strongest), reverse=True)
    english = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mechanism: Policy gradient (weight +" in english and "Phrases that weighed most towards Policy gradient:" in english


def test_the_suggestions_reason_reads_in_the_readers_language_whatever_the_texts(editor_client: Client) -> None:
    source = make_source(abstract="We fine-tune the model with GRPO on single-turn math questions; there is no environment.")
    url = reverse("wiki:classification-create", kwargs={"slug": source.slug})
    chinese = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    english = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<p>机制：策略梯度（GRPO）；可执行环境✗，多步轨迹✗" in chinese and "Policy gradient (GRPO); env" not in chinese
    assert "<p>Policy gradient (GRPO); env ✗, multi-step ✗" in english and "机制：" not in english


def test_accept_without_javascript_fills_the_form_and_saving_marks_it_from_the_classifier(editor_client: Client, editor: Account) -> None:
    source = make_source(abstract="We train a web agent with PPO from the task success reward over multi-step browser rollouts.")
    url = reverse("wiki:classification-create", kwargs={"slug": source.slug})
    filled = editor_client.post(url, {"accept": "1", "mechanism": "harness", "verdict": "not_strict"})
    card = filled.context["card"]
    initial = filled.context["form"].initial
    assert initial["mechanism"] == card.values["mechanism"]
    assert not Classification.objects.filter(source=source).exists()
    facts = {True: "true", False: "false", None: "unknown"}
    data = {k: (facts[v] if k in FACT_FIELDS else "on" if v is True else v) for k, v in card.values.items() if v is not False}
    data["rationale"] = "accepted"
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    saved = Classification.objects.get(source=source)
    assert (saved.set_by, saved.set_by_user, saved.mechanism) == ("classifier", editor, card.values["mechanism"])


def test_accept_without_javascript_shows_the_rubric_verdict_of_the_filled_facts(editor_client: Client) -> None:
    source = make_source(abstract="We train a web agent with PPO from the task success reward over multi-step browser rollouts.")
    filled = editor_client.post(reverse("wiki:classification-create", kwargs={"slug": source.slug}), {"accept": "1"})
    assert filled.context["rubric"] is not None
    assert f'data-rubric-verdict>{filled.context["rubric_label"]}</output>' in filled.content.decode()


def test_classification_change_is_kept_in_history(editor_client: Client, editor: Account) -> None:
    source = make_source()
    classification = make_classification(source)
    data = {"mechanism": "policy_gradient", "interactive_env": "true", "multi_step": "true", "verifiable_reward": "true",
            "rl_update": "false", "verdict": "not_strict", "rationale": "no RL update"}
    response = editor_client.post(reverse("wiki:classification-edit", kwargs={"pk": classification.pk}), data)
    assert response.status_code == 302
    change = ClassificationChange.objects.get(classification=classification)
    assert (change.before["verdict"], change.after["verdict"], change.user) == ("strict", "not_strict", editor)
    assert (change.before["rl_update"], change.after["rl_update"]) == (True, False)
    history = editor_client.get(reverse("wiki:classification-history", kwargs={"pk": classification.pk}),
                                HTTP_ACCEPT_LANGUAGE="en")
    assert "Not strict" in history.content.decode()


def test_two_editors_editing_one_classification_the_second_sees_both_and_loses_nothing(editor_client: Client) -> None:
    from wiki.services.classifications import classification_save

    classification = make_classification(make_source())
    url = reverse("wiki:classification-edit", kwargs={"pk": classification.pk})
    opened = editor_client.get(url).context["form"].initial["loaded_at"]
    classification_save(source=classification.source, classification=classification,
                        fields={"verdict": "not_strict", "rationale": "their reading"})
    data = {"mechanism": "policy_gradient", "interactive_env": "true", "multi_step": "true", "verifiable_reward": "true",
            "rl_update": "true", "narrow": "on", "verdict": "strict_narrow", "rationale": "my reading", "loaded_at": opened}
    refused = editor_client.post(url, data)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "Someone saved this classification after you opened it" in html and "their reading" in html
    assert "my reading</textarea>" in html
    classification.refresh_from_db()
    assert (classification.verdict, classification.rationale) == ("not_strict", "their reading")
    saved = editor_client.post(url, {**data, "loaded_at": refused.context["form"].data["loaded_at"]})
    assert saved.status_code == 302
    classification.refresh_from_db()
    assert (classification.verdict, classification.rationale) == ("strict_narrow", "my reading")


def test_a_classification_field_only_someone_else_changed_keeps_their_value_after_a_conflict(editor_client: Client) -> None:
    from wiki.services.classifications import classification_save

    classification = make_classification(make_source(), algorithm="", updated="")
    url = reverse("wiki:classification-edit", kwargs={"pk": classification.pk})
    hidden = editor_client.get(url).context["form"].initial
    classification_save(source=classification.source, classification=classification,
                        fields={"algorithm": "GRPO", "updated": "the acting policy", "multi_step": False, "narrow": True,
                                "verdict": "not_strict"})
    data = {"mechanism": "policy_gradient", "interactive_env": "true", "multi_step": "true", "verifiable_reward": "true",
            "rl_update": "true", "verdict": "strict", "rationale": "my reading", "loaded_at": hidden["loaded_at"],
            "opened": hidden["opened"]}
    refused = editor_client.post(url, data)
    assert refused.status_code == 409
    assert 'value="false" id="id_multi_step_1" checked' in refused.content.decode().replace('\n', ' ')
    assert editor_client.post(url, refused.context["form"].data).status_code == 302
    classification.refresh_from_db()
    assert (classification.algorithm, classification.updated, classification.rationale) == (
        "GRPO", "the acting policy", "my reading")
    assert (classification.multi_step, classification.narrow, classification.verdict) == (False, True, "not_strict")


def test_departing_from_the_rubric_without_rationale_changes_nothing(editor_client: Client) -> None:
    classification = make_classification(make_source())
    data = {"mechanism": "policy_gradient", "interactive_env": "true", "multi_step": "true", "verifiable_reward": "true",
            "rl_update": "true", "verdict": "not_strict"}
    response = editor_client.post(reverse("wiki:classification-edit", kwargs={"pk": classification.pk}), data)
    assert response.status_code == 200
    assert "rationale_required" in [e.code for e in response.context["form"].errors.as_data()["rationale"]]
    classification.refresh_from_db()
    assert classification.verdict == "strict"
    assert not ClassificationChange.objects.filter(classification=classification).exists()


@pytest.mark.usefixtures("small_wiki")
def test_editing_a_claim_status_and_citations(editor_client: Client) -> None:
    claim = Claim.objects.current().first()
    assert claim is not None
    source = make_source()
    data = {"status": "disputed", "about": source.slug,
            "citations-TOTAL_FORMS": "2", "citations-INITIAL_FORMS": "0",
            "citations-0-source": source.slug, "citations-0-locator": "§2.4、§3", "citations-0-kind": "cited",
            "citations-1-source": "", "citations-1-locator": "", "citations-1-kind": "cited"}
    response = editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), data)
    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == "disputed"
    assert list(claim.citations.values_list("locator", flat=True)) == ["§2.4、§3"]
    assert list(claim.about.all()) == [source]


@pytest.mark.usefixtures("small_wiki")
def test_a_chinese_locator_is_kept_and_a_bad_one_is_listed_in_the_summary_in_the_readers_language(editor_client: Client) -> None:
    claim = Claim.objects.current().first()
    assert claim is not None
    source = make_source()
    data = {"status": "disputed", "about": "", "citations-TOTAL_FORMS": "2", "citations-INITIAL_FORMS": "0",
            "citations-0-source": source.slug, "citations-0-locator": "表 2、附录 B", "citations-0-kind": "cited",
            "citations-1-source": source.slug, "citations-1-locator": "第三段", "citations-1-kind": "cited"}
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})

    refused = editor_client.post(url, data, headers={"accept-language": "zh-CN"})
    content = refused.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")

    assert refused.status_code == 200 and 'id="error-summary"' in content
    assert "第 2 行 · 出处位置：“第三段”不是有效的出处位置" in content
    assert 'href="#id_citations-1-locator"' in content
    assert claim.status != "disputed" and not claim.citations.filter(source=source).exists()

    data["citations-1-locator"] = "图3a"
    assert editor_client.post(url, data).status_code == 302
    assert sorted(claim.citations.filter(source=source).values_list("locator", flat=True)) == ["图3a", "表 2、附录 B"]


@pytest.mark.usefixtures("small_wiki")
def test_two_editors_editing_one_claim_the_second_sees_both_and_loses_nothing(editor_client: Client) -> None:
    from wiki.services.claims import CitationInput, claim_update

    claim = Claim.objects.current().first()
    assert claim is not None
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    opened = editor_client.get(url).context["form"].initial["loaded_at"]
    theirs, mine = make_source(short_name="TheirWork"), make_source(short_name="MyWork")
    claim_update(claim=claim, status="verified", citations=[CitationInput(source=theirs, locator="p.3", kind="cited")], about=[])
    data = {"status": "disputed", "loaded_at": opened, "citations-TOTAL_FORMS": "1", "citations-INITIAL_FORMS": "0",
            "citations-0-source": mine.slug, "citations-0-locator": "Table 2", "citations-0-kind": "cited"}
    refused = editor_client.post(url, data)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "Someone saved this claim after you opened it" in html
    assert '<span lang="en">TheirWork</span>, p.3' in html and 'value="Table 2"' in html
    claim.refresh_from_db()
    assert claim.status == "verified"
    assert list(claim.citations.values_list("source__short_name", flat=True)) == ["TheirWork"]
    saved = editor_client.post(url, {**data, "loaded_at": refused.context["form"].data["loaded_at"]})
    assert saved.status_code == 302
    claim.refresh_from_db()
    assert (claim.status, list(claim.citations.values_list("locator", flat=True))) == ("disputed", ["Table 2"])


@pytest.mark.usefixtures("small_wiki")
def test_a_claims_status_someone_else_set_meanwhile_is_kept_when_the_form_is_sent_again(editor_client: Client) -> None:
    from wiki.services.claims import claim_set_status

    claim = Claim.objects.current().exclude(status="disputed").first()
    assert claim is not None
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    hidden = _opened(editor_client, url)
    claim_set_status(claim=claim, status="disputed")
    about = make_source(short_name="AboutWork")
    cited = list(claim.citations.order_by("position").values_list("source__slug", "locator", "kind"))
    data = {"status": claim.status, "about": about.slug, "citations-TOTAL_FORMS": str(len(cited)),
            "citations-INITIAL_FORMS": str(len(cited)), **hidden}
    for row, (slug, locator, kind) in enumerate(cited):
        data |= {f"citations-{row}-source": slug, f"citations-{row}-locator": locator, f"citations-{row}-kind": kind}
    refused = editor_client.post(url, data)
    assert refused.status_code == 409
    assert refused.context["form"].data["status"] == "disputed"
    assert editor_client.post(url, refused.context["form"].data).status_code == 302
    claim.refresh_from_db()
    assert (claim.status, list(claim.about.values_list("short_name", flat=True))) == ("disputed", ["AboutWork"])


def _claim_form(client: Client, url: str, **changes: str) -> dict[str, str]:
    """The claim form at ``url`` as a browser sends it (its citations' rows and an empty one), with ``changes``."""
    response = client.get(url)
    form, formset = response.context["form"], response.context["formset"]
    data = {"status": form.initial["status"], "about": ", ".join(work.slug for work in form.initial["about"]),
            "loaded_at": form.initial["loaded_at"], "opened": form.initial["opened"],
            "opened_citations": form.initial.get("opened_citations", ""),
            "citations-TOTAL_FORMS": str(len(formset.initial) + 1), "citations-INITIAL_FORMS": str(len(formset.initial))}
    for row, cited in enumerate(formset.initial):
        data |= {f"citations-{row}-source": cited["source"].slug, f"citations-{row}-locator": cited["locator"],
                 f"citations-{row}-kind": cited["kind"]}
    data |= {f"citations-{len(formset.initial)}-kind": "cited"}
    return {**data, **changes}


def _cited(claim: Claim) -> list[tuple[str, str]]:
    return list(claim.citations.order_by("position").values_list("source__short_name", "locator"))


def test_a_citation_someone_else_added_or_removed_meanwhile_is_kept_when_the_claim_form_is_sent_again(
        editor_client: Client) -> None:
    from wiki.services.claims import CitationInput, claim_update

    kept, dropped, added = make_source(short_name="KeptWork"), make_source(short_name="DroppedWork"), make_source(short_name="AddedWork")
    claim = make_claim("PPO 训练网页智能体。", cites=[kept, dropped], locator="p.3")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    mine = _claim_form(editor_client, url, status="disputed")
    claim_update(claim=claim, status=claim.status, about=[], citations=[
        CitationInput(source=kept, locator="p.3", kind="cited"), CitationInput(source=added, locator="§2", kind="cited")])
    refused = editor_client.post(url, mine)
    assert refused.status_code == 409
    assert refused.context["formset"].total_error_count() == 0
    assert editor_client.post(url, refused.context["form"].data).status_code == 302
    claim.refresh_from_db()
    assert (claim.status, _cited(claim)) == ("disputed", [("KeptWork", "p.3"), ("AddedWork", "§2")])


def test_a_citation_both_editors_changed_keeps_mine_and_names_theirs(editor_client: Client) -> None:
    from wiki.services.claims import CitationInput, claim_update

    work, other = make_source(short_name="RowWork"), make_source(short_name="OtherWork")
    claim = make_claim("GRPO 更新策略。", cites=[work, other], locator="p.3")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    mine = _claim_form(editor_client, url, **{"citations-0-locator": "pp.5-6", "citations-1-locator": "p.9"})
    claim_update(claim=claim, status=claim.status, about=[], citations=[
        CitationInput(source=work, locator="§4", kind="cited")])
    refused = editor_client.post(url, mine, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 409
    rows = refused.context["formset"].forms
    assert [row["locator"].value() for row in rows] == ["pp.5-6", "p.9", None]
    assert rows[0].errors["locator"] == ["他人已在此期间保存：“§4”。这里保留的是你填写的内容：保留它，或改写为对方的内容。"]
    assert rows[1].errors["source"] == ["他人已在此期间删除了这条。这里保留的是你填写的内容：保留它，或删除它。"]
    assert editor_client.post(url, refused.context["form"].data).status_code == 302
    claim.refresh_from_db()
    assert _cited(claim) == [("RowWork", "pp.5-6"), ("OtherWork", "p.9")]


def test_two_editors_editing_one_question_the_second_sees_both_and_loses_nothing(editor_client: Client) -> None:
    from wiki.services.questions import question_update

    question = make_question(title="Is Tree-GRPO strict?")
    url = reverse("wiki:question-edit", kwargs={"pk": question.pk})
    opened = editor_client.get(url).context["form"].initial["loaded_at"]
    question_update(question=question, fields={"priority": "high", "status": "investigating"})
    data = {"title": "Is Tree-GRPO strict? (my wording)", "status": "open", "priority": "low", "loaded_at": opened}
    refused = editor_client.post(url, data)
    assert refused.status_code == 409
    assert "Someone saved this question after you opened it" in refused.content.decode()
    assert 'value="Is Tree-GRPO strict? (my wording)"' in refused.content.decode()
    question.refresh_from_db()
    assert (question.title, question.priority) == ("Is Tree-GRPO strict?", "high")
    saved = editor_client.post(url, {**data, "loaded_at": refused.context["form"].data["loaded_at"]})
    assert saved.status_code == 302


def test_two_editors_editing_one_source_the_second_sees_both_and_loses_nothing(editor_client: Client) -> None:
    from wiki.services.sources import source_update

    source = make_source(short_name="Racer", title="Racer: A Study")
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    opened = editor_client.get(url).context["form"].initial["loaded_at"]
    source_update(source=source, fields={"year": 2024, "title": "Racer: A Study of Theirs"})
    data = {"short_name": "Racer", "title": "Racer: A Study of Mine", "kind": "paper", "year": "2025", "loaded_at": opened}
    refused = editor_client.post(url, data)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "Someone saved this source after you opened it" in html and "Racer: A Study of Theirs" in html
    assert 'value="Racer: A Study of Mine"' in html
    source.refresh_from_db()
    assert (source.title, source.year) == ("Racer: A Study of Theirs", 2024)
    saved = editor_client.post(url, {**data, "loaded_at": refused.context["form"].data["loaded_at"]})
    assert saved.status_code == 302
    source.refresh_from_db()
    assert source.title == "Racer: A Study of Mine"


def _opened(client: Client, url: str) -> dict[str, str]:
    """The hidden values of the edit form at ``url`` as a browser gets them, to be sent back with the fields."""
    form = client.get(url).context["form"]
    return {"loaded_at": form.initial["loaded_at"], "opened": form.initial["opened"]}


def test_a_question_field_only_someone_else_changed_keeps_their_value_after_a_conflict(editor_client: Client) -> None:
    from wiki.services.questions import question_update

    question = make_question(title="Is Tree-GRPO strict?", text="Ours to check.", resolution_criteria="")
    url = reverse("wiki:question-edit", kwargs={"pk": question.pk})
    hidden = _opened(editor_client, url)
    question_update(question=question, fields={"text": "Their answer to check.", "status": "investigating"})
    mine = {"title": "Is Tree-GRPO strict? (mine)", "text": "Ours to check.", "status": "open", "priority": "normal",
            "resolution_criteria": "A run of its code.", **hidden}
    refused = editor_client.post(url, mine)
    assert refused.status_code == 409
    shown = refused.context["form"].data
    assert (shown["title"], shown["text"], shown["status"]) == ("Is Tree-GRPO strict? (mine)", "Their answer to check.", "investigating")
    assert not refused.context["form"].has_error("text")
    assert editor_client.post(url, shown).status_code == 302
    question.refresh_from_db()
    assert (question.title, question.text, question.status, question.resolution_criteria) == (
        "Is Tree-GRPO strict? (mine)", "Their answer to check.", "investigating", "A run of its code.")


def test_a_question_field_both_editors_changed_keeps_mine_and_names_theirs(editor_client: Client) -> None:
    from wiki.services.questions import question_update

    question = make_question(title="Is Tree-GRPO strict?", text="Ours to check.")
    url = reverse("wiki:question-edit", kwargs={"pk": question.pk})
    hidden = _opened(editor_client, url)
    question_update(question=question, fields={"text": "Their wording."})
    refused = editor_client.post(url, {"title": question.title, "text": "My wording.", "status": "open",
                                       "priority": "normal", **hidden}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 409
    assert refused.context["form"].data["text"] == "My wording."
    assert refused.context["form"].errors["text"] == ["他人已在此期间保存：“Their wording.”。这里保留的是你填写的内容：保留它，或改写为对方的内容。"]
    question.refresh_from_db()
    assert question.text == "Their wording."


def test_a_source_field_only_someone_else_changed_keeps_their_value_after_a_conflict(editor_client: Client) -> None:
    from wiki.services.sources import source_update

    source = make_source(short_name="Racer", title="Racer: A Study", year=2024)
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    hidden = _opened(editor_client, url)
    source_update(source=source, fields={"notes": "Their reading notes.", "abstract": "Their abstract."})
    mine = {"short_name": "Racer", "title": "Racer: A Study of Mine", "kind": source.kind, "year": "2024", **hidden}
    refused = editor_client.post(url, mine)
    assert refused.status_code == 409
    assert editor_client.post(url, refused.context["form"].data).status_code == 302
    source.refresh_from_db()
    assert (source.title, source.notes, source.abstract) == ("Racer: A Study of Mine", "Their reading notes.", "Their abstract.")


def test_a_works_details_and_other_fields_only_someone_else_changed_keep_their_values_after_a_conflict(
        editor_client: Client) -> None:
    from wiki.services.sources import source_update

    source = make_source(short_name="Racer", title="Racer: A Study", year=2024, authors="Lee, Ann",
                         bibliographic={"pages": "1-10", "volume": "3"}, extra_fields={"keywords": "agents"})
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    hidden = _opened(editor_client, url)
    source_update(source=source, fields={"authors": "Lee, Ann; Kim, Bo", "bibliographic": {"pages": "11-20", "publisher": "ACM"},
                                         "extra_fields": {"keywords": "agents, RL", "langid": "english"}})
    mine = {"short_name": "Racer", "title": "Racer: A Study of Mine", "kind": source.kind, "year": "2024",
            "authors": "Lee, Ann", "bib_pages": "1-10", "bib_volume": "3", "extra_fields": "keywords = agents", **hidden}
    refused = editor_client.post(url, mine)
    assert refused.status_code == 409
    form = refused.context["form"]
    assert (form.data["bib_pages"], form.data["bib_volume"], form.data["bib_publisher"]) == ("11-20", "", "ACM")
    assert form.data["extra_fields"] == "langid = english\nkeywords = agents, RL"  # as jsonb orders them
    assert not any(form.has_error(name) for name in ("authors", "bib_pages", "bib_volume", "bib_publisher", "extra_fields"))
    assert editor_client.post(url, form.data).status_code == 302
    source.refresh_from_db()
    assert (source.title, source.authors, source.bibliographic, source.extra_fields) == (
        "Racer: A Study of Mine", "Lee, Ann; Kim, Bo", {"pages": "11-20", "publisher": "ACM"},
        {"keywords": "agents, RL", "langid": "english"})


def test_a_works_detail_both_editors_changed_keeps_mine_and_names_theirs(editor_client: Client) -> None:
    from wiki.services.sources import source_update

    source = make_source(short_name="Racer", title="Racer: A Study", bibliographic={"pages": "1-10"},
                         extra_fields={"keywords": "agents"})
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    hidden = _opened(editor_client, url)
    source_update(source=source, fields={"bibliographic": {"pages": "11-20"}, "extra_fields": {"keywords": "theirs"}})
    refused = editor_client.post(url, {"short_name": "Racer", "title": "Racer: A Study", "kind": source.kind,
                                       "bib_pages": "5-6", "extra_fields": "keywords = mine", **hidden},
                                 HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 409
    form = refused.context["form"]
    assert (form.data["bib_pages"], form.data["extra_fields"]) == ("5-6", "keywords = mine")
    assert form.errors["bib_pages"] == ["他人已在此期间保存：“11-20”。这里保留的是你填写的内容：保留它，或改写为对方的内容。"]
    assert form.errors["extra_fields"] == ["他人已在此期间保存：“keywords = theirs”。这里保留的是你填写的内容：保留它，或改写为对方的内容。"]
    assert editor_client.post(url, form.data).status_code == 302
    source.refresh_from_db()
    assert (source.bibliographic, source.extra_fields) == ({"pages": "5-6"}, {"keywords": "mine"})


def test_what_is_saved_now_reads_as_chinese_sentences_on_a_conflict(editor_client: Client) -> None:
    from wiki.services.questions import question_update
    from wiki.services.sources import source_update

    source = make_source(short_name="Racer", title="Racer: A Study", year=2024, arxiv_id="2401.00001")
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    hidden = _opened(editor_client, url)
    source_update(source=source, fields={"notes": "Theirs."})
    refused = editor_client.post(url, {"short_name": "Racer", "title": "Racer: Mine", "kind": source.kind, "year": "2024",
                                       **hidden}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "（2024）、arXiv 2401.00001。" in html_text(refused.content.decode())
    assert "查看已保存的来源</a>。" in refused.content.decode()

    question = make_question(title="Is Tree-GRPO strict?")
    url = reverse("wiki:question-edit", kwargs={"pk": question.pk})
    hidden = _opened(editor_client, url)
    question_update(question=question, fields={"priority": "high"})
    refused = editor_client.post(url, {"title": "Mine?", "status": "open", "priority": "normal", **hidden},
                                 HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "优先级 高。" in html_text(refused.content.decode())


@pytest.mark.usefixtures("small_wiki")
def test_bad_locator_on_a_claim_changes_nothing(editor_client: Client) -> None:
    claim = Claim.objects.current().filter(citations__isnull=False).first()
    assert claim is not None
    before = list(Citation.objects.filter(claim=claim).values_list("pk", flat=True))
    data = {"status": "verified", "citations-TOTAL_FORMS": "1", "citations-INITIAL_FORMS": "0",
            "citations-0-source": make_source().slug, "citations-0-locator": "somewhere", "citations-0-kind": "cited"}
    response = editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), data)
    assert response.status_code == 200
    assert list(Citation.objects.filter(claim=claim).values_list("pk", flat=True)) == before
    assert Claim.objects.get(pk=claim.pk).status == claim.status


def test_a_claim_form_sent_back_with_an_error_names_its_citations_as_citations_not_new_rows(editor_client: Client) -> None:
    claim = make_claim("GRPO 更新策略。", cites=[make_source(short_name="RowWork")], locator="p.3")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    refused = editor_client.post(url, _claim_form(editor_client, url, **{"citations-0-locator": "somewhere"}))
    assert refused.status_code == 200
    legends = re.findall(r'<legend class="visually-hidden">(.*?)</legend>', refused.content.decode())
    assert legends == ["Citation 1", "New citation (left empty, none is added)"]


def test_a_claim_sent_with_more_citations_than_it_may_have_is_told_so_in_chinese_and_changes_nothing(
        editor_client: Client) -> None:
    work = make_source(short_name="RowWork")
    claim = make_claim("GRPO 更新策略。", cites=[work], locator="p.3")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    data = _claim_form(editor_client, url, **{"citations-TOTAL_FORMS": "51"})
    data |= {f"citations-{row}-{name}": value for row in range(1, 51)
             for name, value in (("source", work.slug), ("locator", f"p.{row + 3}"), ("kind", "cited"))}
    refused = editor_client.post(url, data, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 200
    assert refused.context["formset"].non_form_errors() == ["一条论断最多有 50 条引用：请去掉一些，或把论断拆开。"]
    assert _cited(claim) == [("RowWork", "p.3")]


def test_saving_the_form_of_a_claim_whose_page_was_deleted_meanwhile_keeps_the_entries_and_says_who_deleted_it(
        editor_client: Client) -> None:
    from wiki.services.deletion import page_delete

    claim = make_claim("GRPO 更新策略。", cites=[make_source(short_name="RowWork")], locator="p.3")
    url = reverse("wiki:claim-edit", kwargs={"pk": claim.pk})
    mine = _claim_form(editor_client, url, status="disputed", **{"citations-0-locator": "pp.5-6"})
    page_delete(page=claim.page, user=make_editor("carol"), reason="Entered by mistake")
    refused = editor_client.post(url, mine)
    assert refused.status_code == 410
    html = refused.content.decode()
    assert "was deleted by carol" in html and "Entered by mistake" in html
    assert 'value="pp.5-6"' in html and '<option value="disputed" selected>' in html
    claim.refresh_from_db()
    assert claim.status != "disputed" and _cited(claim) == [("RowWork", "p.3")]
    assert editor_client.get(url).status_code == 404


def test_a_form_sent_for_something_deleted_meanwhile_is_answered_with_what_was_typed(editor_client: Client) -> None:
    from tests.factories import make_contrast
    from wiki.services.contrasts import contrast_delete

    left, right = make_source(short_name="LeftWork"), make_source(short_name="RightWork")
    contrast = make_contrast(left, right, axis="what is updated")
    url = reverse("wiki:contrast-edit", kwargs={"pk": contrast.pk})
    contrast_delete(contrast=contrast)
    refused = editor_client.post(url, {"left": left.slug, "right": right.slug, "axis": "我写的对比轴，不可丢失。"},
                                 HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert refused.status_code == 404
    html = refused.content.decode()
    assert "我写的对比轴，不可丢失。" in html
    assert "没有保存任何内容：你所编辑的内容已不在这里（可能在此期间被删除了）。你发送的内容保留在下方，可以复制。" in html_text(html)
    assert Contrast.objects.count() == 0


@pytest.mark.usefixtures("small_wiki")
def test_adding_a_contrast(editor_client: Client) -> None:
    left, right = make_source(), make_source()
    claim = make_claim("A claim on the left work.", cites=[left])
    response = editor_client.post(reverse("wiki:contrast-create"),
                                  {"left": left.slug, "right": right.short_name, "axis": "policy update vs harness", "claim": claim.pk})
    assert response.status_code == 302
    assert Contrast.objects.filter(left=left, right=right, claim=claim).exists()
    assert ChangeEvent.objects.filter(kind="contrast").exists()


@pytest.mark.parametrize(("language", "said"), [("zh-Hans", "这个对比已经存在（可能方向相反）："),
                                              ("en", "This contrast exists already (perhaps the other way round): ")])
def test_adding_a_contrast_that_exists_links_the_one_there_is(editor_client: Client, language: str, said: str) -> None:
    left, right = make_source(short_name="<b>Left</b>", slug="left-work"), make_source(slug="right-work")
    part = Component.objects.create(source=right, slug="planner", name="Planner & co")
    make_contrast(left, right, right_component=part)
    make_contrast(left, right)
    other_way = {"left": right.slug, "right": left.slug, "axis": "the same again"}
    with CaptureQueriesContext(connection) as plain:
        html = editor_client.post(reverse("wiki:contrast-create"), other_way, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    link = '<a href="/contrast/left-work/right-work/">&lt;b&gt;Left&lt;/b&gt; vs Work'
    assert f"<li>{said}{link}" in html
    # The contrast is found with its sides, components and all, in the one query that finds it.
    with CaptureQueriesContext(connection) as of_a_component:
        html = editor_client.post(reverse("wiki:contrast-create"), {**other_way, "left_component": part.pk},
                                  HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert ('<a href="/contrast/left-work/right-work:planner/">&lt;b&gt;Left&lt;/b&gt; vs Work'
            in html and " Planner &amp; co</a>" in html)
    assert query_names(of_a_component).count("SELECT wiki_contrast") == 1
    assert len(of_a_component.captured_queries) == len(plain.captured_queries)
    assert Contrast.objects.count() == 2


def test_a_contrast_added_by_someone_else_meanwhile_is_linked(editor_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    left, right = make_source(slug="left-work"), make_source(slug="right-work")
    make_contrast(left, right)
    monkeypatch.setattr("wiki.forms.contrasts.contrast_find", lambda **sides: None)  # the form checked before it was added
    html = editor_client.post(reverse("wiki:contrast-create"), {"left": left.slug, "right": right.slug, "axis": "again"},
                              HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '(perhaps the other way round): <a href="/contrast/left-work/right-work/">' in html
    assert Contrast.objects.count() == 1


@pytest.mark.usefixtures("small_wiki")
def test_question_is_added_triaged_and_answered(editor_client: Client) -> None:
    assignee = make_editor("triager")
    response = editor_client.post(reverse("wiki:question-create"), {"title": "Does X use RL?", "status": "open", "priority": "low"})
    question = OpenQuestion.objects.get(title="Does X use RL?")
    assert response["Location"] == question.get_absolute_url()
    url = reverse("wiki:question-edit", kwargs={"pk": question.pk})
    base = {"title": question.title, "priority": "high", "assignee": assignee.pk}
    assert editor_client.post(url, {**base, "status": "investigating"}).status_code == 302
    refused = editor_client.post(url, {**base, "status": "answered"})
    assert refused.status_code == 200
    question.refresh_from_db()
    assert (question.status, question.priority, question.assignee) == ("investigating", "high", assignee)
    claim = Claim.objects.current().first()
    assert claim is not None
    assert editor_client.post(url, {**base, "status": "answered", "page": claim.page.slug, "answer_claim": claim.pk,
                                    "claims": [claim.pk]}).status_code == 302
    question.refresh_from_db()
    assert (question.status, question.answer_claim) == ("answered", claim)
    assert ChangeEvent.objects.filter(kind="question", object_id=question.pk, summary="answered").exists()


def test_recent_changes_and_feed_list_every_kind(editor_client: Client) -> None:
    editor_client.post(reverse("wiki:question-create"), {"title": "Feed question", "status": "open", "priority": "normal"})
    page = editor_client.get(reverse("wiki:changes"))
    assert "Feed question" in page.content.decode()
    feed = editor_client.get(reverse("wiki:changes-feed"))
    assert feed["Content-Type"].startswith("application/atom+xml")
    assert "Feed question" in feed.content.decode()
    only_sources = editor_client.get(reverse("wiki:changes") + "?kind=source")
    assert all(c.kind == "source" for c in only_sources.context["changes"])


def test_feed_entries_have_absolute_ids_and_escaped_summaries(client: Client, db: None) -> None:
    from xml.etree import ElementTree

    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="P", url="/wiki/p/",
                               summary="<img src=x onerror=alert(1)>")
    response = client.get(reverse("wiki:changes-feed"))
    atom = "{http://www.w3.org/2005/Atom}"
    entries = ElementTree.fromstring(response.content).findall(f"{atom}entry")
    assert entries
    ids = [entry.findtext(f"{atom}id") for entry in entries]
    assert all(i is not None and re.fullmatch(r"tag:agentic-rl-wiki\.invalid,\d{4}-\d\d-\d\d:change-\d+", i) for i in ids)
    assert len(set(ids)) == len(ids)
    assert entries[0].findtext(f"{atom}summary") == "&lt;img src=x onerror=alert(1)&gt; — import"


def _make_events(n: int, user: Account | None) -> None:
    ChangeEvent.objects.bulk_create(
        ChangeEvent(kind="page", action="edited", object_id=i, label=f"P{i}", url="/", user=user) for i in range(n)
    )


def test_recent_changes_runs_a_fixed_number_of_queries(client: Client, db: None, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    ChangeEvent.objects.all().delete()
    users = [make_editor() for _ in range(5)]
    _make_events(5, users[0])
    with django_assert_num_queries(2):
        client.get(reverse("wiki:changes"))
    for user in users:
        _make_events(60, user)
    with django_assert_num_queries(2):
        response = client.get(reverse("wiki:changes"))
    assert len(response.context["changes"]) == 50
    with django_assert_num_queries(1):
        client.get(reverse("wiki:changes-feed"))
    # one account's changes: the account, then as before
    with django_assert_num_queries(3):
        response = client.get(reverse("wiki:changes"), {"user": users[1].username})
    assert len(response.context["changes"]) == 50
    with django_assert_num_queries(2):
        client.get(reverse("wiki:changes-feed"), {"user": users[1].username})


def test_question_queue_filters_by_assignee(client: Client, db: None) -> None:
    ada, bob = make_editor("ada"), make_editor("bob")
    mine = make_question(title="Ada's question", assignee=ada)
    make_question(title="Bob's question", assignee=bob)
    response = client.get(reverse("wiki:question-list") + "?assignee=ada")
    assert [q.pk for q in response.context["page_obj"]] == [mine.pk]
    assert "Ada&#x27;s question" in response.content.decode() or "Ada's question" in response.content.decode()


def test_edit_links_show_only_for_editors(editor_client: Client, small_wiki: SmallWiki) -> None:
    from django.test import Client

    anonymous = Client()
    source = make_source()
    question = make_question()
    edit_source = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    edit_question = reverse("wiki:question-edit", kwargs={"pk": question.pk})
    edit_page = reverse("wiki:page-edit", kwargs={"slug": small_wiki.page.slug})
    for url, link in ((source.get_absolute_url(), edit_source), (question.get_absolute_url(), edit_question),
                      (small_wiki.page.get_absolute_url(), edit_page)):
        assert link not in anonymous.get(url).content.decode()
        assert link in editor_client.get(url).content.decode()


def _queries(client: Client, url: str) -> list[str]:
    """The queries a GET of ``url`` runs, named by kind and table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200, url
    return query_names(queries)


def test_edit_forms_run_the_same_queries_on_ten_times_the_data(editor_client: Client, small_wiki: SmallWiki) -> None:
    from tests.factories import make_page

    source = small_wiki.strict
    classification = Classification.objects.get(source=source, component=None)
    claim = Claim.objects.current().filter(citations__source=source).first()
    assert claim is not None
    question = OpenQuestion.objects.order_by("pk").first()
    assert question is not None
    urls = [
        reverse("wiki:page-edit", kwargs={"slug": small_wiki.page.slug}),
        reverse("wiki:page-history", kwargs={"slug": small_wiki.page.slug}),
        reverse("wiki:page-move", kwargs={"slug": small_wiki.page.slug}),
        reverse("wiki:source-create"),
        reverse("wiki:source-edit", kwargs={"slug": source.slug}),
        reverse("wiki:classification-edit", kwargs={"pk": classification.pk}),
        reverse("wiki:classification-history", kwargs={"pk": classification.pk}),
        reverse("wiki:claim-edit", kwargs={"pk": claim.pk}),
        reverse("wiki:contrast-create"),
        reverse("wiki:question-create"),
        reverse("wiki:question-edit", kwargs={"pk": question.pk}),
    ]
    before = {url: _queries(editor_client, url) for url in urls}
    sources = [make_source() for _ in range(10 * Source.objects.count())]
    body = "## 关键要点\n\n" + "\n".join(f"- SkillForge claim {i}（来源：{s.title}，p.{i + 1}）" for i, s in enumerate(sources))
    make_page(body=body)
    for n in range(10):
        make_question(title=f"More {n}")
        make_editor()
    after = {url: _queries(editor_client, url) for url in urls}
    assert after == before


def test_recent_changes_refuse_an_unknown_kind_with_a_message(client: Client, db: None) -> None:
    response = client.get(reverse("wiki:changes"), {"kind": "bogus"})
    assert response.status_code == 400
    assert "is not a kind of change" in response.content.decode()


def test_recent_changes_pages_keep_the_kind_filter(client: Client, editor: Account) -> None:
    ChangeEvent.objects.all().delete()
    _make_events(120, editor)
    html = client.get(reverse("wiki:changes") + "?kind=page").content.decode()
    assert 'href="?kind=page&amp;p=2"' in html
    assert "Page 1 of" in html


def test_classification_history_shows_only_changed_fields_page_by_page(client: Client, db: None) -> None:
    classification = make_classification(make_source())
    for n in range(51):
        ClassificationChange.objects.create(classification=classification, before={"verdict": "strict", "algorithm": "PPO"},
                                            after={"verdict": f"v{n}", "algorithm": "PPO"})
    url = reverse("wiki:classification-history", kwargs={"pk": classification.pk})
    first = client.get(url).content.decode()
    assert "v50" in first and "v0<" not in first
    assert 'href="?p=2"' in first
    assert "v0<" in client.get(url + "?p=2").content.decode()
    change = ClassificationChange.objects.for_history().first()
    assert change is not None
    assert change.changed_fields() == [("verdict", "strict", "v50")]



def test_classification_history_lists_fields_in_the_forms_order(db: None) -> None:
    classification = make_classification(make_source())
    before = {"verdict": "strict", "algorithm": "PPO", "mechanism": "policy_gradient", "rl_update": True, "rationale": ""}
    after = {"verdict": "not_strict", "algorithm": "", "mechanism": "harness", "rl_update": False, "rationale": "harness"}

    change = ClassificationChange.objects.create(classification=classification, before=before, after=after)

    assert [name for name, _, _ in change.changed_fields()] == ["mechanism", "algorithm", "rl_update", "verdict", "rationale"]


@pytest.mark.usefixtures("small_wiki")
def test_question_form_picks_claims_from_a_filterable_checkbox_list_and_works_by_name(editor_client: Client) -> None:
    claim = Claim.objects.current().select_related("page").first()
    assert claim is not None
    html = editor_client.get(reverse("wiki:question-create"), {"page": claim.page.slug}).content.decode()
    block = html[html.index('data-filter-choices="id_claims"') - 400:]
    assert "<fieldset" in block and "<legend>" in block
    assert '<input type="checkbox" name="claims"' in html
    assert '<select name="claims"' not in html and 'name="sources"' in html
    assert '<input type="checkbox" name="sources"' not in html and '<select name="sources"' not in html
    assert 'data-picker="multiple"' in html


def _history_rows(html: str) -> list[list[str]]:
    body = html[html.index("<tbody>"):html.rindex("</tbody>")]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_classification_history_reads_in_the_readers_language(editor_client: Client, editor: Account) -> None:
    from wiki.services.classifications import classification_accept_suggestion, classification_save

    source = make_source(abstract="We evaluate web agents on a harness of browser tools; no training is done.")
    claim = make_claim("Quillrun evaluates agents in a browser harness.", cites=[source])
    accepted = classification_accept_suggestion(source=source, user=editor)
    classification_save(source=source, classification=accepted, user=editor, fields={
        "mechanism": "policy_gradient", "algorithm": "GRPO", "interactive_env": True, "multi_step": True,
        "verifiable_reward": True, "rl_update": True, "narrow": True, "verdict": "strict_narrow",
        "rationale": "它用 GRPO 训练浏览器 agent。", "evidence_claim": claim, "evidence_locator": "§3",
    })
    url = reverse("wiki:classification-history", kwargs={"pk": accepted.pk})
    chinese = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    rows = {label: (before, after) for label, before, after in _history_rows(chinese.split('<section class="card">')[1])}
    assert rows["机制"] == ("harness/脚手架", "策略梯度")
    assert rows["判定"] == ("非严格", "严格（窄）")
    assert rows["证据出处位置"] == ("—", "§3")
    assert rows["设定者"] == ("分类器建议", "编辑者")
    assert rows["RL 优化根据交互结果更新 policy/参数"][1] == "是"
    assert rows["窄"] == ("否", "是")
    assert rows["理由"][0].startswith("机制：harness/脚手架；可执行环境") and rows["理由"][1] == "它用 GRPO 训练浏览器 agent。"
    assert rows["证据论断"][0] == "—" and rows["证据论断"][1].startswith("Quillrun evaluates agents in a browser harness.")
    table = chinese[chinese.index("<tbody>"):chinese.rindex("</tbody>")]
    for raw in ("evidence locator", "set by", "not_strict", ">harness<", "classifier", "False", "True", "Harness / scaffold"):
        assert raw not in table
    english = editor_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = {label: (before, after) for label, before, after in _history_rows(english.split('<section class="card">')[1])}
    assert rows["Set by"] == ("Classifier suggestion", "Editor")
    assert rows["Rationale"][0].startswith("Harness / scaffold; env")


def _source_form(source: Source, **changes: str) -> dict[str, str]:
    """The source form as opened, with ``changes`` typed in."""
    fields = {"short_name": source.short_name, "title": source.title, "kind": source.kind, "authors": source.authors,
              "year": str(source.year or ""), "venue": source.venue, "url": source.url, "arxiv_id": source.arxiv_id,
              "doi": source.doi, "bibtex_key": source.bibtex_key, "abstract": source.abstract, "notes": source.notes,
              "loaded_at": source.updated_at.isoformat()}
    return {**fields, **changes}


def test_saving_a_source_form_unchanged_writes_nothing_and_says_so(editor_client: Client) -> None:
    source = make_source(short_name="Steady", doi="10.1234/steady")
    source.refresh_from_db()
    events = ChangeEvent.objects.count()
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})

    response = editor_client.post(url, _source_form(source, doi="https://doi.org/10.1234/STEADY"), follow=True)

    assert [str(m) for m in response.context["messages"]] == ["No changes to save: “Steady” is as it was."]
    assert Source.objects.get(pk=source.pk).updated_at == source.updated_at and ChangeEvent.objects.count() == events


def test_a_source_form_sent_twice_is_saved_once_and_the_second_is_unchanged(editor_client: Client) -> None:
    source = make_source(short_name="Twice")
    source.refresh_from_db()
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    typed = _source_form(source, notes="Typed once, sent twice.")

    first = editor_client.post(url, typed)
    second = editor_client.post(url, typed, follow=True)

    assert first.status_code == 302 and second.status_code == 200
    assert [str(m) for m in second.context["messages"]][-1] == "No changes to save: “Twice” is as it was."
    assert ChangeEvent.objects.filter(kind="source", object_id=source.pk, action="edited").count() == 1


def test_saving_the_form_of_a_work_deleted_meanwhile_keeps_the_entries_and_says_who_deleted_it(editor_client: Client) -> None:
    from wiki.services.deletion import source_delete

    source = make_source(short_name="Doomed work")
    source.refresh_from_db()
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    typed = _source_form(source, notes="我的笔记，不可丢失。")
    source_delete(source=source, user=make_editor("carol"), reason="Entered by mistake")

    response = editor_client.post(url, typed)

    assert response.status_code == 410
    html = response.content.decode()
    assert "我的笔记，不可丢失。" in html
    assert "was deleted by carol" in html and "Entered by mistake" in html
    assert "form-actions" not in html  # nothing to save it to: no Save button
    assert Source.all_objects.get(pk=source.pk).notes == ""
    assert editor_client.get(url)["Location"] == source.get_absolute_url()


def test_saving_the_form_of_a_work_merged_meanwhile_keeps_the_entries_and_links_the_kept_work(editor_client: Client) -> None:
    from wiki.services.merges import source_merge

    source, kept = make_source(short_name="MergeMe"), make_source(short_name="KeepMe")
    source.refresh_from_db()
    url = reverse("wiki:source-edit", kwargs={"slug": source.slug})
    typed = _source_form(source, notes="Edit after the merge.")
    source_merge(merged=source, kept=kept, user=make_editor("admin"))

    response = editor_client.post(url, typed)

    assert response.status_code == 410
    html = response.content.decode()
    assert "Edit after the merge." in html
    assert "“MergeMe” was merged into “KeepMe” by admin" in html
    assert reverse("wiki:source-edit", kwargs={"slug": kept.slug}) in html
    assert Source.all_objects.get(pk=source.pk).notes == "" and Source.objects.get(pk=kept.pk).notes == ""


def test_adding_identifiers_to_a_work_merged_meanwhile_says_so(editor_client: Client) -> None:
    from wiki.services.merges import source_merge

    source, kept = make_source(short_name="MergeMe"), make_source(short_name="KeepMe")
    source_merge(merged=source, kept=kept, user=make_editor("admin"))

    response = editor_client.post(reverse("wiki:source-add-identifiers", kwargs={"slug": source.slug}),
                                  {"doi": "10.1234/added"})

    assert response.status_code == 302 and response["Location"] == source.get_absolute_url()
    assert not Source.all_objects.filter(doi="10.1234/added").exists()
    messages = [str(m) for m in editor_client.get(kept.get_absolute_url()).context["messages"]]
    assert messages == ["While you were editing, “MergeMe” was merged into “KeepMe”; nothing was saved."]
