"""Citations set in a claim's form are written into its sentence in the page's text, as a revision of the page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test.client import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_contrast, make_editor, make_page, make_question, make_source
from wiki.models import ChangeEvent, Claim, ClaimRevision, Page, Revision, Source
from wiki.services.claims import CitationInput, claim_set_status, claim_update
from wiki.services.page_edits import page_save_merging
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

SKILL = "SkillForge: Evolving Verifiable Skills for Reinforcement Learning Agents"
STAR = "StarHarness: Harness Evolution"
SKILL_LINE = f"- SkillForge 用 GRPO 同时更新环境动作和 skill calling，是严格 Agentic RL 的正例。（来源：{SKILL}，pp.3-4）"
STAR_LINE = "- StarHarness 只演化外部 harness，没有参数更新，不属于严格 Agentic RL。"
BODY = f"## 摘要\n\n两个例子。\n\n## 关键要点\n\n{SKILL_LINE}\n{STAR_LINE}\n"


def _page(body: str = BODY) -> Page:
    return make_page(slug="cited-page", title="Cited page", body=body)


def _claim(page: Page, start: str) -> Claim:
    return Claim.objects.current().get(page=page, text__startswith=start)


def _post(client: Client, claim: Claim, rows: list[tuple[Source, str, str]], **extra: str) -> Any:
    """The claim form sent with ``rows`` (work, locator, kind) as its citations, as the editor opened it."""
    data = {"status": claim.status, "loaded_at": claim.updated_at.isoformat(),
            "citations-TOTAL_FORMS": str(len(rows)), "citations-INITIAL_FORMS": "0", **extra}
    for n, (source, locator, kind) in enumerate(rows):
        data |= {f"citations-{n}-source": source.slug, f"citations-{n}-locator": locator, f"citations-{n}-kind": kind}
    return client.post(reverse("wiki:claim-edit", kwargs={"pk": claim.pk}), data)


def _work(title: str) -> Source:
    return Source.objects.get(title=title)


def test_a_citation_added_in_the_claim_form_is_written_into_the_sentence_as_a_revision_by_the_editor(
        editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    star = make_source(short_name="StarHarness", title=STAR)

    response = _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "§3.1", "cited")])

    assert response.status_code == 302
    page.refresh_from_db()
    written = SKILL_LINE.replace("pp.3-4）", f"pp.3-4；{STAR}，§3.1）")
    assert page.body == BODY.replace(SKILL_LINE, written)
    revision = page.revisions.get(number=2)
    assert revision.body == page.body and revision.author is not None and revision.author.get_username() == "editor"
    assert f"#{claim.pk}" in revision.comment and "StarHarness, §3.1" in revision.comment
    event = ChangeEvent.objects.filter(kind="page", object_id=page.pk).latest("id")
    assert (event.action, event.summary) == ("edited", revision.comment)
    same = Claim.objects.get(pk=claim.pk)
    assert same.text.endswith(f"（来源：{SKILL}，pp.3-4；{STAR}，§3.1）") and not same.is_orphaned
    assert list(same.citations.values_list("source__short_name", "locator")) == [("SkillForge", "pp.3-4"), ("StarHarness", "§3.1")]
    # The page shows it: its history, the diff of the two revisions (the claim's sentence), the editor's watchlist.
    assert response.url == same.get_absolute_url()
    history = editor_client.get(reverse("wiki:page-history", kwargs={"slug": page.slug})).content.decode()
    assert revision.comment in history
    diff = editor_client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=2").content.decode()
    assert f'data-outcome="reworded" data-claim="{claim.pk}"' in diff
    watchlist = editor_client.get(reverse("wiki:watchlist")).content.decode()
    assert revision.comment in watchlist


def _cite_star_in_chinese(locator: str) -> tuple[Page, Claim]:
    """A page's SkillForge claim given a second citation, of StarHarness at ``locator``, by an editor reading Chinese."""
    page = _page()
    claim = _claim(page, "SkillForge")
    star = make_source(short_name="StarHarness", title=STAR)
    with translation.override("zh-hans"):
        claim_update(claim=claim, status=claim.status, about=[], user=make_editor(),
                     citations=[CitationInput(_work(SKILL), "pp.3-4", "cited"), CitationInput(star, locator, "cited")])
    return page, claim


def test_the_revision_comment_is_in_the_editors_language(db: None) -> None:
    page, claim = _cite_star_in_chinese("")
    assert page.revisions.get(number=2).comment == (
        f"编辑了论断 #{claim.pk} 的引用：SkillForge, pp.3-4 → SkillForge, pp.3-4; StarHarness")


def test_the_revision_comment_reads_in_each_readers_language(client: Client) -> None:
    page, claim = _cite_star_in_chinese("§3.1")
    english = f"Citations of claim #{claim.pk} edited: SkillForge, pp.3-4 → SkillForge, pp.3-4; StarHarness, §3.1"
    for url in (reverse("wiki:page-history", kwargs={"slug": page.slug}), reverse("wiki:changes")):
        read = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert english in read and "编辑了论断" not in read
        assert f"编辑了论断 #{claim.pk} 的引用" in client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()


def test_a_citation_removed_in_the_claim_form_is_taken_out_of_the_sentence(editor_client: Client) -> None:
    star = make_source(short_name="StarHarness", title=STAR)
    page = _page(BODY.replace("pp.3-4）", f"pp.3-4；{STAR}，§3.1）"))
    claim = _claim(page, "SkillForge")

    assert _post(editor_client, claim, [(star, "§3.1", "cited")]).status_code == 302

    page.refresh_from_db()
    assert f"严格 Agentic RL 的正例。（来源：{STAR}，§3.1）\n" in page.body and SKILL not in page.body
    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", flat=True)) == ["StarHarness"]
    # Every citation taken out: the key point stays a claim, its sentence without a citation.
    assert _post(editor_client, Claim.objects.get(pk=claim.pk), []).status_code == 302
    page.refresh_from_db()
    assert SKILL_LINE.split("（")[0] + "\n" in page.body and page.revisions.count() == 3
    assert not Claim.objects.get(pk=claim.pk).is_orphaned and not Claim.objects.get(pk=claim.pk).citations.exists()


def test_a_changed_locator_is_changed_where_the_citation_stands(editor_client: Client) -> None:
    page = _page(BODY.replace(f"（来源：{SKILL}，pp.3-4）", "（来源：SkillForge，pp.3-4）"))
    claim = _claim(page, "SkillForge")
    skill = Source.objects.get(short_name="SkillForge")

    assert _post(editor_client, claim, [(skill, "§4", "synthesised")]).status_code == 302
    assert _post(editor_client, Claim.objects.get(pk=claim.pk), [(skill, "§5", "synthesised")]).status_code == 302

    page.refresh_from_db()
    # Cited as the sentence named it (the work's short name); a kind of its own is a citation of its own.
    assert "的正例。（综合：SkillForge，§5）\n" in page.body


def test_re_saving_the_page_keeps_the_citation_the_form_added(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    star = make_source(short_name="StarHarness", title=STAR)
    _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "§3.1", "cited")])
    page.refresh_from_db()

    # Another editor changes the sentence's locator in the page's text, from the latest revision.
    latest = page.revisions.latest("number").number
    page_save_revision(slug=page.slug, title=page.title, body=page.body.replace("pp.3-4", "pp.3-5"), base_revision=latest)

    same = Claim.objects.get(pk=claim.pk)
    assert list(same.citations.values_list("source__short_name", "locator")) == [("SkillForge", "pp.3-5"), ("StarHarness", "§3.1")]


def test_the_claim_keeps_its_identity_status_questions_and_contrasts(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    claim_set_status(claim=claim, status="verified")
    question = make_question(title="SkillForge 是否多 seed？")
    question.claims.add(claim)
    star = make_source(short_name="StarHarness", title=STAR)
    contrast = make_contrast(_work(SKILL), star, claim=claim)
    claim = Claim.objects.get(pk=claim.pk)

    assert _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "", "cited")]).status_code == 302

    same = Claim.objects.get(pk=claim.pk)
    assert (same.status, same.is_orphaned, same.position) == ("verified", False, claim.position)
    assert list(same.questions.all()) == [question] and same.contrasts.get() == contrast
    assert Claim.objects.filter(page=page).count() == 2
    entry = same.revisions.get(kind=ClaimRevision.Kind.CITED)
    assert entry.page_revision == page.revisions.get(number=2)
    assert (entry.previous_text, entry.text) == (claim.text, same.text)
    assert (entry.previous_status, entry.status) == ("verified", "verified")
    assert not same.revisions.filter(kind__in=[ClaimRevision.Kind.REWORDED, ClaimRevision.Kind.STATUS]).exclude(
        pk__lt=entry.pk).exists()


def test_a_page_edited_meanwhile_elsewhere_is_merged_with_the_citation(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    opened = editor_client.get(reverse("wiki:claim-edit", kwargs={"pk": claim.pk})).context["form"].initial["loaded_at"]
    star = make_source(short_name="StarHarness", title=STAR)
    # Someone edits another paragraph of the page after the form was opened.
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("两个例子。", "两个常被引用的例子。"), base_revision=1)

    response = _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "§3.1", "cited")], loaded_at=opened)

    assert response.status_code == 302
    page.refresh_from_db()
    assert "两个常被引用的例子。" in page.body and f"pp.3-4；{STAR}，§3.1）" in page.body
    assert page.revisions.count() == 3


def test_a_sentence_edited_meanwhile_is_a_conflict_that_keeps_the_editors_entries(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    opened = editor_client.get(reverse("wiki:claim-edit", kwargs={"pk": claim.pk})).context["form"].initial["loaded_at"]
    star = make_source(short_name="StarHarness", title=STAR)
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("pp.3-4", "p.3"), base_revision=1)

    refused = _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "§3.1", "cited")], loaded_at=opened)

    assert refused.status_code == 409
    html = refused.content.decode()
    assert "Someone saved this claim after you opened it" in html and 'value="§3.1"' in html
    page.refresh_from_db()
    assert page.revisions.count() == 2 and STAR not in page.body
    saved = _post(editor_client, claim, [(_work(SKILL), "p.3", "cited"), (star, "§3.1", "cited")],
                  loaded_at=refused.context["form"].data["loaded_at"])
    assert saved.status_code == 302
    page.refresh_from_db()
    assert f"（来源：{SKILL}，p.3；{STAR}，§3.1）" in page.body


def test_a_page_editor_who_opened_the_page_before_the_claim_form_saved_gets_a_conflict(editor_client: Client) -> None:
    from wiki.services.pages import EditConflict

    page = _page()
    claim = _claim(page, "SkillForge")
    star = make_source(short_name="StarHarness", title=STAR)
    _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "§3.1", "cited")])

    with pytest.raises(EditConflict):
        page_save_revision(slug=page.slug, title=page.title, body=BODY + "\n更多。\n", base_revision=1)
    page.refresh_from_db()
    assert STAR in page.body


def test_a_claims_sentence_reworded_by_a_page_editor_who_opened_it_before_the_claim_form_saved_keeps_the_citation(
        editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    star = make_source(short_name="StarHarness", title=STAR)
    _post(editor_client, claim, [(_work(SKILL), "pp.3-4", "cited"), (star, "§3.1", "cited")])

    reworded = BODY.replace("同时更新环境动作", "用环境回报同时更新环境动作")
    page_save_merging(slug=page.slug, title=page.title, body=reworded, base_revision=1)
    page.refresh_from_db()
    assert f"- SkillForge 用 GRPO 用环境回报同时更新环境动作和 skill calling，是严格 Agentic RL 的正例。（来源：{SKILL}，pp.3-4；{STAR}，§3.1）" in page.body
    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", flat=True)) == [
        "SkillForge", "StarHarness"]


@pytest.mark.parametrize(("line", "written"), [
    # Chinese, and English: after the sentence's final punctuation, as the wiki's pages write citations.
    ("- StarHarness 只演化外部 harness，没有参数更新，不属于严格 Agentic RL。",
     f"- StarHarness 只演化外部 harness，没有参数更新，不属于严格 Agentic RL。（来源：{STAR}，§3.1）"),
    ("- StarHarness only evolves an **external harness**; no parameters are updated.",
     f"- StarHarness only evolves an **external harness**; no parameters are updated.（来源：{STAR}，§3.1）"),
    ("- StarHarness 没有参数更新（见 [[Harness|外部 harness]]）", f"- StarHarness 没有参数更新（见 [[Harness|外部 harness]]）（来源：{STAR}，§3.1）"),
])
def test_a_sentence_without_citations_gets_one_at_its_end(editor_client: Client, line: str, written: str) -> None:
    page = _page(BODY.replace(STAR_LINE, line))
    claim = _claim(page, "StarHarness")
    star = make_source(short_name="StarHarness", title=STAR)

    assert _post(editor_client, claim, [(star, "§3.1", "cited")]).status_code == 302

    page.refresh_from_db()
    assert page.body == BODY.replace(STAR_LINE, written)
    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", flat=True)) == ["StarHarness"]


def test_on_a_page_that_cites_before_the_final_punctuation_a_new_citation_goes_there(editor_client: Client) -> None:
    body = (f"## 关键要点\n\n- SkillForge 是严格正例（来源：{SKILL}，pp.3-4）。\n"
            f"- Agents learn from rewards (see below)（来源：{SKILL}，§2）.\n- StarHarness 不更新参数。\n- It updates nothing.\n")
    page = _page(body)
    star = make_source(short_name="StarHarness", title=STAR)

    _post(editor_client, _claim(page, "StarHarness"), [(star, "", "cited")])
    _post(editor_client, _claim(page, "It updates"), [(star, "p.2", "synthesised")])

    page.refresh_from_db()
    assert f"- StarHarness 不更新参数（来源：{STAR}）。\n- It updates nothing（综合：{STAR}，p.2）.\n" in page.body


def test_a_claim_in_a_paragraph_and_in_a_footnote_is_found(editor_client: Client) -> None:
    body = (f"SkillForge 用 *GRPO* 训练。（来源：{SKILL}）\n另起一行，仍是同一段。\n\n"
            f"正文[^1]。\n\n[^1]: 脚注里的论断。（来源：{SKILL}，§2）\n")
    page = _page(body)
    star = make_source(short_name="StarHarness", title=STAR)

    _post(editor_client, _claim(page, "SkillForge"), [(_work(SKILL), "", "cited"), (star, "", "cited")])
    _post(editor_client, _claim(page, "脚注"), [(star, "§4", "cited")])

    page.refresh_from_db()
    assert page.body == body.replace(f"（来源：{SKILL}）", f"（来源：{SKILL}、{STAR}）").replace(
        f"（来源：{SKILL}，§2）", f"（来源：{STAR}，§4）")


def test_a_work_whose_title_a_citation_cannot_hold_is_cited_by_its_short_name(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    odd = make_source(short_name="TreeGRPO", title="树搜索（强化（学习））与智能体")

    assert _post(editor_client, claim, [(odd, "表 2", "cited")]).status_code == 302

    page.refresh_from_db()
    assert "的正例。（来源：TreeGRPO，表 2）\n" in page.body


def test_a_work_whose_title_holds_brackets_is_cited_by_its_title_in_quotes(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    odd = make_source(short_name="Tree（GRPO）", title="树搜索（强化学习）与智能体")

    assert _post(editor_client, claim, [(odd, "表 2", "cited")]).status_code == 302

    page.refresh_from_db()
    assert "的正例。（来源：“树搜索（强化学习）与智能体”，表 2）\n" in page.body
    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", "locator")) == [
        ("Tree（GRPO）", "表 2")]


def test_a_work_whose_title_holds_the_citations_separators_is_cited_by_its_title_in_quotes(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    odd = make_source(short_name="TreeGRPO", title="树搜索、强化学习，与智能体")

    assert _post(editor_client, claim, [(odd, "表 2", "cited")]).status_code == 302

    page.refresh_from_db()
    assert "的正例。（来源：“树搜索、强化学习，与智能体”，表 2）\n" in page.body
    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", "locator")) == [("TreeGRPO", "表 2")]


def test_a_citation_that_cannot_be_written_changes_nothing_and_says_why(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    odd = make_source(short_name="Tree（G（RPO））", title="树搜索（强化（学习））与智能体")

    refused = _post(editor_client, claim, [(odd, "", "cited")])

    assert refused.status_code == 400
    assert "cannot cite" in refused.content.decode()
    page.refresh_from_db()
    assert page.body == BODY and page.revisions.count() == 1
    assert list(claim.citations.values_list("source__short_name", flat=True)) == ["SkillForge"]


def test_taking_out_the_only_citation_of_a_paragraph_is_refused_as_it_would_no_longer_be_a_claim(db: None) -> None:
    page = _page(f"SkillForge 用 GRPO 训练。（来源：{SKILL}）\n")
    claim = _claim(page, "SkillForge")

    with pytest.raises(ValidationError) as refused:
        claim_update(claim=claim, status=claim.status, citations=[], about=[])

    assert refused.value.code == "no_longer_a_claim"
    page.refresh_from_db()
    assert page.revisions.count() == 1 and Claim.objects.get(pk=claim.pk).citations.count() == 1


def test_an_orphaned_claim_has_its_citations_set_on_the_claim_alone(editor_client: Client) -> None:
    page = _page()
    claim = _claim(page, "SkillForge")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(SKILL_LINE + "\n", ""), base_revision=1)
    star = make_source(short_name="StarHarness", title=STAR)
    orphan = Claim.objects.get(pk=claim.pk)
    assert orphan.is_orphaned

    assert _post(editor_client, orphan, [(star, "§3.1", "cited")]).status_code == 302

    assert list(Claim.objects.get(pk=claim.pk).citations.values_list("source__short_name", flat=True)) == ["StarHarness"]
    assert Revision.objects.filter(page=page).count() == 2


@pytest.mark.usefixtures("seed")
def test_every_claim_of_the_seed_page_can_have_a_citation_added_in_its_form(db: None) -> None:
    page = Page.objects.get(slug="agentic-rl")
    added = make_source(short_name="AddedWork", title="AddedWork: A Study of Citations")
    claims = list(page.claims.current().order_by("position"))
    for claim in claims:
        before = [CitationInput(c.source, c.locator, c.kind) for c in claim.citations.all()]
        claim_update(claim=claim, status=claim.status, about=list(claim.about.all()),
                     citations=[*before, CitationInput(added, "§2", "cited")])
        same = Claim.objects.get(pk=claim.pk)
        assert not same.is_orphaned and same.citations.filter(source=added, locator="§2").exists()
        assert same.citations.count() == len(before) + 1
    page.refresh_from_db()
    assert page.body.count(f"{added.title}，§2）") == len(claims)
    assert list(page.claims.current().order_by("position")) == claims
