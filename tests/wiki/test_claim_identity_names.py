"""A claim's identity and status through edits that change how its sentence is written, not what it says or cites."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_page, make_source
from wiki.models import Claim, OpenQuestion, Page
from wiki.services.claims import claim_reattach
from wiki.services.page_claims import page_claims_plan
from wiki.services.pages import page_preview, page_save_revision

pytestmark = pytest.mark.django_db

TITLE = "SkillForge: Learning Reusable Skills for LLM Agents"
STATEMENT = "SkillForge 是严格 Agentic RL 的正例"


def _key_points(*names: str) -> str:
    return "## 关键要点\n\n" + "".join(f"- {STATEMENT}，第 {i} 条（来源：{name}，§3）\n" for i, name in enumerate(names))


def _save(page: Page, body: str) -> None:
    latest = page.revisions.order_by("-number").values_list("number", flat=True)[0]
    page_save_revision(slug=page.slug, title=page.title, body=body, base_revision=latest)


@pytest.mark.parametrize(("before", "after"), [
    ("SkillForge", TITLE), (TITLE, "SkillForge"), ("SkillForge", "arXiv:2502.01234"), ("2502.01234", TITLE),
])
def test_citing_the_same_work_by_another_name_keeps_a_verified_claim_verified(before: str, after: str) -> None:
    work = make_source(short_name="SkillForge", title=TITLE, arxiv_id="2502.01234")
    page = make_page(body=_key_points(before))
    claim = page.claims.get()
    assert list(claim.citations.values_list("source_id", flat=True)) == [work.pk]
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    body = _key_points(after)

    preview = page_preview(body=body, page=page)
    planned = page_claims_plan(page=page, refs=preview.result.claims, sources=preview.sources)
    _save(page, body)

    assert [(c.claim_id, c.status, c.reason) for c in planned.changes] == [(claim.pk, "verified", "")]
    after_save = Claim.objects.get(pk=claim.pk)
    assert (after_save.is_orphaned, after_save.status) == (False, "verified")
    assert list(after_save.citations.values_list("source_id", "locator")) == [(work.pk, "§3")]


def test_citing_another_work_still_asks_a_verified_claim_to_be_verified_again() -> None:
    make_source(short_name="SkillForge", title=TITLE)
    other = make_source(short_name="TraceForge", title="TraceForge: Co-training Generators and Critics")
    page = make_page(body=_key_points("SkillForge"))
    claim = page.claims.get()
    Claim.objects.filter(pk=claim.pk).update(status="verified")

    _save(page, _key_points(other.title))

    after = Claim.objects.get(pk=claim.pk)
    assert after.status == "needs_verification"
    assert list(after.citations.values_list("source_id", flat=True)) == [other.pk]


def test_renaming_citations_takes_the_same_number_of_queries_whatever_the_page_size() -> None:
    counts = []
    for n in (3, 30):
        make_source(short_name=f"Forge{n}", title=f"Forge{n}: {TITLE}")
        page = make_page(body=_key_points(*[f"Forge{n}"] * n))
        Claim.objects.filter(page=page).update(status="verified")
        with CaptureQueriesContext(connection) as queries:
            _save(page, _key_points(*[f"Forge{n}: {TITLE}"] * n))
        counts.append(len(queries.captured_queries))
        assert set(page.claims.values_list("status", flat=True)) == {"verified"}
    assert counts[0] == counts[1]


DEEP = "- 通义深度研究是严格 Agentic RL 的正例（来源：Tongyi Work，§2）\n"
ENV = "- 另一个完全不同的论断讲的是环境构造（来源：Env Work，§1）\n"
REWARD = "- 第三条论断关于奖励模型的设计（来源：Reward Work，§4）\n"


def test_an_orphan_reattached_to_its_sentence_citing_the_same_work_by_another_name_stays_verified() -> None:
    work = make_source(short_name="SkillForge", title=TITLE)
    page = make_page(body=_key_points("SkillForge"))
    orphan = page.claims.get()
    Claim.objects.filter(pk=orphan.pk).update(status="verified")
    _save(page, "## 关键要点\n\n- 另一条完全不同的论断（来源：SkillForge，§1）\n")
    elsewhere = make_page(body=_key_points(TITLE))

    claim_reattach(claim=Claim.objects.get(pk=orphan.pk), sentence=elsewhere.claims.get())

    after = Claim.objects.get(pk=orphan.pk)
    assert (after.is_orphaned, after.status, after.page_id) == (False, "verified", elsewhere.pk)
    assert list(after.citations.values_list("source_id", "locator")) == [(work.pk, "§3")]


@pytest.mark.parametrize(("copied", "left"), [
    (DEEP + ENV + REWARD + DEEP, ENV + REWARD + DEEP),
    (DEEP + ENV + REWARD + "\n## 其他\n\n" + DEEP, ENV + REWARD + "\n## 其他\n\n" + DEEP),
    (DEEP + DEEP + ENV + REWARD, DEEP + ENV + REWARD),
])
def test_deleting_the_original_of_a_sentence_written_twice_leaves_the_older_claim_on_the_copy(copied: str, left: str) -> None:
    page = make_page(body="## 关键要点\n\n" + DEEP + ENV + REWARD)
    original = Claim.objects.get(page=page, text__contains="通义")
    Claim.objects.filter(pk=original.pk).update(status="verified")
    question = OpenQuestion.objects.create(page=page, title="通义深度研究的回报从哪里来？")
    question.claims.add(original)
    _save(page, "## 关键要点\n\n" + copied)
    copy = Claim.objects.get(page=page, text__contains="通义", is_orphaned=False, pk__gt=original.pk)

    _save(page, "## 关键要点\n\n" + left)

    kept = Claim.objects.get(pk=original.pk)
    assert (kept.is_orphaned, kept.status) == (False, "verified")
    assert list(question.claims.all()) == [kept]
    assert list(kept.revisions.values_list("kind", flat=True)) == ["created"]
    assert Claim.objects.get(pk=copy.pk).is_orphaned is True


def test_the_edit_forms_previews_tell_a_claim_citing_the_same_work_by_another_name_stays_verified(
    editor_client: Client,
) -> None:
    make_source(short_name="SkillForge", title=TITLE)
    page = make_page(body=_key_points("SkillForge"))
    claim = page.claims.get()
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    body = _key_points(TITLE)
    edit = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    sent = {"title": page.title, "body": body, "base_revision": 1}

    previews = [editor_client.post(edit, {**sent, "preview": "1"}).context["claims"],
                editor_client.post(edit, {**sent, "diff": "1"}).context["changed_claims"],
                editor_client.post(reverse("wiki:page-preview"), {"body": body, "slug": page.slug}).context["claims"]]

    assert [[(c.claim_id, c.status, c.reason) for c in plan.changes] for plan in previews] == [
        [(claim.pk, "verified", "")]] * 3


def test_an_orphan_brought_back_citing_its_work_by_a_name_the_page_no_longer_writes_stays_verified() -> None:
    work = make_source(short_name="SkillForge", title=TITLE)
    page = make_page(body="## 关键要点\n\n" + _key_points("SkillForge").split("\n\n", 1)[1] + ENV)
    claim = Claim.objects.get(page=page, text__startswith=STATEMENT)
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    _save(page, "## 关键要点\n\n" + ENV)
    body = "## 关键要点\n\n" + _key_points(TITLE).split("\n\n", 1)[1] + ENV

    preview = page_preview(body=body, page=page)
    planned = page_claims_plan(page=page, refs=preview.result.claims, sources=preview.sources)
    _save(page, body)

    assert [(c.outcome, c.claim_id, c.status, c.reason) for c in planned.changes] == [
        ("restored", claim.pk, "verified", "")]
    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "verified")
    assert list(after.citations.values_list("source_id", "locator")) == [(work.pk, "§3")]


def test_an_orphan_brought_back_citing_another_work_by_a_name_the_page_no_longer_writes_needs_verification() -> None:
    make_source(short_name="SkillForge", title=TITLE)
    other = make_source(short_name="TraceForge", title="TraceForge: Co-training Generators and Critics")
    page = make_page(body="## 关键要点\n\n" + _key_points("SkillForge").split("\n\n", 1)[1] + ENV)
    claim = Claim.objects.get(page=page, text__startswith=STATEMENT)
    Claim.objects.filter(pk=claim.pk).update(status="verified")
    _save(page, "## 关键要点\n\n" + ENV)

    _save(page, "## 关键要点\n\n" + _key_points(other.title).split("\n\n", 1)[1] + ENV)

    after = Claim.objects.get(pk=claim.pk)
    assert (after.is_orphaned, after.status) == (False, "needs_verification")
    assert list(after.citations.values_list("source_id", flat=True)) == [other.pk]


SAME = "实验只在单一环境上进行，没有跨环境验证"


def test_two_claims_stating_the_same_of_two_works_keep_their_status_and_questions_when_their_bullets_swap() -> None:
    alpha, beta = make_source(short_name="AlphaWork", title="AlphaWork: A"), make_source(short_name="BetaWork", title="BetaWork: B")
    first, second = f"- {SAME}（来源：AlphaWork，§1）\n", f"- {SAME}（来源：BetaWork，§2）\n"
    page = make_page(body="## 关键要点\n\n" + first + second + ENV)
    claims = {c.citations.get().source_id: c for c in Claim.objects.filter(page=page, text__startswith=SAME)}
    Claim.objects.filter(page=page).update(status="verified")
    question = OpenQuestion.objects.create(page=page, title="AlphaWork 只用了一个环境吗？")
    question.claims.add(claims[alpha.pk])

    _save(page, "## 关键要点\n\n" + second + first + ENV)

    for work in (alpha, beta):
        after = Claim.objects.get(pk=claims[work.pk].pk)
        assert (after.is_orphaned, after.status) == (False, "verified")
        assert list(after.citations.values_list("source_id", flat=True)) == [work.pk]
        assert not after.revisions.exclude(kind="created").exists()
    assert list(question.claims.values_list("pk", flat=True)) == [claims[alpha.pk].pk]
