"""The editor sees what a save does to claims (preview, save result, diff) and decides on orphaned claims."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.client import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.factories import make_page, make_question
from wiki.change_summaries import summary_for_reader
from wiki.models import ChangeEvent, Claim, ClaimRevision, Page, SearchDocument
from wiki.services.claims import claim_retire, claim_set_status
from wiki.services.page_claims import claim_report_for
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

FACET = "FACET 是一个重要的非严格反例"
REWORDED = "FACET 是一个重要且常被误读的非严格反例"
BODY = """## 关键要点

- SkillForge 用 GRPO 同时更新环境动作和 skill calling，是严格 Agentic RL 的正例。
- StarHarness 只演化外部 harness，没有参数更新，不属于严格 Agentic RL。
- FACET 用 verifier 筛选的轨迹做 SFT，没有用环境回报更新 agent policy。
"""


def _edit_post(page: Page, body: str, **extra: str) -> dict[str, object]:
    latest = page.revisions.order_by("-number").first()
    assert latest is not None
    return {"title": page.title, "summary": page.summary, "body": body, "comment": "", "base_revision": latest.number,
            **extra}


def _facet_page() -> Page:
    return make_page(slug="facet-page", title="FACET page", body=(
        "## 关键要点\n\n"
        f"- {FACET}：它在可执行 terminal 环境中生成 rollout，但用这些轨迹做 SFT。（来源：FACET: Terminal Task Synthesis，§3.1 / §5）\n"
        "- SkillForge 是严格 Agentic RL 的正例。（来源：SkillForge: Evolving Verifiable Skills）\n"
    ))


def test_preview_lists_a_reworded_claim_with_its_per_character_diff(editor_client: Client) -> None:
    page = _facet_page()
    claim = Claim.objects.get(page=page, text__contains=FACET)
    response = editor_client.post(reverse("wiki:page-edit", kwargs={"slug": page.slug}),
                                  _edit_post(page, page.body.replace(FACET, REWORDED), preview="1"))
    html = response.content.decode()
    assert f'data-outcome="reworded" data-claim="{claim.pk}"' in html
    assert "<ins>且常被误读</ins>" in html
    assert "Claims: </strong>" in html and "1 reworded" in html
    assert Claim.objects.get(pk=claim.pk).text == claim.text  # a preview writes nothing


def test_live_preview_fragment_matches_the_page_it_is_told_and_a_new_page_has_only_new_claims(editor_client: Client) -> None:
    page = _facet_page()
    body = page.body.replace(FACET, REWORDED)
    with_page = editor_client.post(reverse("wiki:page-preview"), {"body": body, "slug": page.slug}).content.decode()
    without = editor_client.post(reverse("wiki:page-preview"), {"body": body}).content.decode()
    assert 'data-outcome="reworded"' in with_page
    assert 'data-outcome="reworded"' not in without and 'data-outcome="new"' in without


def test_save_result_lists_what_the_save_did_to_claims(editor_client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    body = BODY.replace("只演化外部 harness", "只演化外部的 harness").replace(
        "- FACET 用 verifier 筛选的轨迹做 SFT，没有用环境回报更新 agent policy。\n", ""
    ) + "- WebArena 只评测固定模型，没有根据回报更新 policy。\n"
    response = editor_client.post(reverse("wiki:page-edit", kwargs={"slug": page.slug}), _edit_post(page, body),
                                  follow=True)
    html = response.content.decode()
    assert "Saved revision 2" in html
    assert f'data-outcome="reworded" data-claim="{star.pk}"' in html
    assert f'data-outcome="orphaned" data-claim="{facet.pk}"' in html
    assert 'data-outcome="new"' in html
    assert "1 kept, 1 reworded, 1 new, 1 orphaned" in html


def test_page_diff_marks_the_claims_that_changed(client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("只演化外部 harness", "只演化外部的 harness"),
                       base_revision=1)
    html = client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=2").content.decode()
    assert f'data-outcome="reworded" data-claim="{star.pk}"' in html
    assert "<ins>的</ins>" in html


def test_page_diff_lists_each_claim_once_with_what_the_saves_did_to_it(client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    reworded = BODY.replace("只演化外部 harness", "只演化外部的 harness").replace("做 SFT", "做监督微调 SFT")
    page_save_revision(slug=page.slug, title=page.title, body=reworded, base_revision=1)
    star_line = next(line for line in reworded.splitlines() if "StarHarness" in line)
    page_save_revision(slug=page.slug, title=page.title, body=reworded.replace(star_line + "\n", ""), base_revision=2)
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(star_line.replace("的 harness", " harness") + "\n", ""),
                       base_revision=3)

    html = client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=3").content.decode()
    # Reworded in revision 2, orphaned in 3: orphaned, once, with the text it had then.
    assert html.count(f'data-claim="{star.pk}"') == 1
    assert f'data-outcome="orphaned" data-claim="{star.pk}"' in html
    assert html.count(f'data-claim="{facet.pk}"') == 1
    assert "1 reworded, 1 orphaned" in html
    # From 1 to 4 FACET's sentence came back as it was: nothing happened to it.
    html = client.get(reverse("wiki:page-diff", kwargs={"slug": page.slug}) + "?from=1&to=4").content.decode()
    assert f'data-claim="{facet.pk}"' not in html
    assert html.count(f'data-claim="{star.pk}"') == 1


def test_claim_page_shows_status_attachments_and_text_history(client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    question = make_question(title="StarHarness 是否更新参数？")
    question.claims.add(star)
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace("只演化外部 harness", "只演化外部的 harness"),
                       base_revision=1)
    html = client.get(reverse("wiki:claim-detail", kwargs={"pk": star.pk})).content.decode()
    assert 'data-claim-status="needs_verification"' in html
    assert f'data-question="{question.pk}"' in html
    assert 'data-kind="created"' in html and 'data-kind="reworded"' in html
    assert "只演化外部<ins>的</ins> harness" in html


def test_a_question_the_claim_answers_is_listed_once_as_answered(client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    answered = make_question(title="StarHarness 是否更新参数？", answer_claim=star, status="answered")
    answered.claims.add(star)
    related = make_question(title="StarHarness 的 harness 如何演化？")
    related.claims.add(star)
    html = client.get(reverse("wiki:claim-detail", kwargs={"pk": star.pk})).content.decode()
    assert html.count("StarHarness 是否更新参数？") == 1
    assert f'data-answers="{answered.pk}"' in html and f'data-question="{answered.pk}"' not in html
    assert f'data-question="{related.pk}"' in html


def test_claim_page_takes_the_same_queries_for_a_short_or_long_history(client: Client) -> None:
    counts = []
    for saves in (1, 10):
        page = make_page(body=BODY)
        star = Claim.objects.get(page=page, text__startswith="StarHarness")
        make_question().claims.add(star)
        for n in range(saves):
            text = BODY.replace("只演化外部 harness", "只演化外部 harness" + "的" * (n % 2 + 1))
            page_save_revision(slug=page.slug, title=page.title, body=text, base_revision=n + 1)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("wiki:claim-detail", kwargs={"pk": star.pk})).status_code == 200
        counts.append(len(queries.captured_queries))
        assert ClaimRevision.objects.filter(claim=star).count() == saves + 1
    assert counts[0] == counts[1]


def test_editor_reattaches_an_orphaned_claim_to_the_sentence_that_replaced_it(editor_client: Client) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    question = make_question(title="FACET 是否用 RL？")
    question.claims.add(facet)
    rewritten = BODY.replace("FACET 用 verifier 筛选的轨迹做 SFT，没有用环境回报更新 agent policy。",
                             "FACET 的训练信号来自监督学习而非环境奖励。")
    page_save_revision(slug=page.slug, title=page.title, body=rewritten, base_revision=1)
    facet.refresh_from_db()
    assert facet.is_orphaned
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="FACET 的训练信号")
    detail = editor_client.get(reverse("wiki:claim-detail", kwargs={"pk": facet.pk})).content.decode()
    assert f'<option value="{sentence.pk}" lang="zh-Hans">' in detail
    response = editor_client.post(reverse("wiki:claim-reattach", kwargs={"pk": facet.pk}), {"sentence": sentence.pk})
    assert response.status_code == 302
    facet.refresh_from_db()
    assert (facet.is_orphaned, facet.text) == (False, "FACET 的训练信号来自监督学习而非环境奖励。")
    assert not Claim.objects.filter(pk=sentence.pk).exists()
    assert list(question.claims.all()) == [facet]
    assert facet.revisions.order_by("-id").first().kind == "reattached"  # type: ignore[union-attr]
    # The next save of the page keeps the re-attached claim on its sentence.
    page_save_revision(slug=page.slug, title=page.title, body=rewritten + "\nMore.\n", base_revision=2)
    assert Claim.objects.get(pk=facet.pk).is_orphaned is False


def test_editor_reattaches_to_a_sentence_of_another_page(editor_client: Client) -> None:
    page = make_page(body=BODY)
    other = make_page(body="## 关键要点\n\n- FACET 的轨迹来自可执行 terminal 环境，但训练只是 SFT。\n")
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "").replace("- \n", ""),
                       base_revision=1)
    detail = editor_client.get(reverse("wiki:claim-detail", kwargs={"pk": facet.pk}) + f"?page={other.slug}")
    sentence = Claim.objects.get(page=other)
    assert f'<option value="{sentence.pk}" lang="zh-Hans">' in detail.content.decode()
    editor_client.post(reverse("wiki:claim-reattach", kwargs={"pk": facet.pk}), {"sentence": sentence.pk})
    facet.refresh_from_db()
    assert (facet.page_id, facet.is_orphaned) == (other.pk, False)


def test_editor_retires_an_orphaned_claim_with_a_reason_and_it_stays_retired(editor_client: Client) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "").replace("- \n", ""),
                       base_revision=1)
    empty = editor_client.post(reverse("wiki:claim-retire", kwargs={"pk": facet.pk}), {"reason": "  "}, follow=True)
    assert "Say why the claim is retired." in empty.content.decode()
    editor_client.post(reverse("wiki:claim-retire", kwargs={"pk": facet.pk}), {"reason": "duplicated elsewhere"})
    facet.refresh_from_db()
    assert (facet.retired_reason, facet.retired_at is not None) == ("duplicated elsewhere", True)
    page_save_revision(slug=page.slug, title=page.title, body=BODY, base_revision=2)
    facet.refresh_from_db()
    assert facet.is_orphaned is True
    assert Claim.objects.get(page=page, is_orphaned=False, text__startswith="FACET").pk != facet.pk


def test_a_retirement_reason_over_the_limit_is_refused_whole(editor_client: Client) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "").replace("- \n", ""),
                       base_revision=1)
    response = editor_client.post(reverse("wiki:claim-retire", kwargs={"pk": facet.pk}), {"reason": "why " * 200}, follow=True)
    assert "at most 500 characters" in response.content.decode()
    facet.refresh_from_db()
    assert (facet.retired_reason, facet.retired_at) == ("", None)
    with pytest.raises(ValidationError) as refused:
        claim_retire(claim=facet, reason="why " * 200)
    assert refused.value.code == "max_length"


def test_a_current_claim_cannot_be_retired(editor_client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    response = editor_client.post(reverse("wiki:claim-retire", kwargs={"pk": star.pk}), {"reason": "x"}, follow=True)
    assert "Only an orphaned claim can be retired." in response.content.decode()
    assert Claim.objects.get(pk=star.pk).retired_at is None


def test_readers_cannot_reattach_or_retire(client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    response = client.post(reverse("wiki:claim-retire", kwargs={"pk": star.pk}), {"reason": "x"})
    assert response.status_code == 403 and Claim.objects.get(pk=star.pk).retired_at is None


def test_page_claims_lists_orphans_awaiting_a_decision(client: Client) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "").replace("- \n", ""),
                       base_revision=1)
    html = client.get(reverse("wiki:page-claims", kwargs={"slug": page.slug})).content.decode()
    assert f'href="/claims/{facet.pk}/"' in html and "orphaned: re-attach or retire" in html


def _orphan_facet() -> tuple[Page, Claim]:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "").replace("- \n", ""),
                       base_revision=1)
    facet.refresh_from_db()
    return page, facet


def test_setting_a_status_in_the_edit_form_is_in_the_claims_history_with_who_and_when(editor_client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    data = {"status": "verified", "citations-TOTAL_FORMS": "0", "citations-INITIAL_FORMS": "0"}
    assert editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": star.pk}), data).status_code == 302
    entry = star.revisions.get(kind="status")
    assert entry.user is not None
    assert (entry.previous_status, entry.status, entry.user.get_username()) == ("needs_verification", "verified", "editor")
    claim_set_status(claim=star, status="disputed")
    assert list(star.revisions.filter(kind="status").values_list("previous_status", "status")) == [
        ("needs_verification", "verified"), ("verified", "disputed")]
    html = editor_client.get(reverse("wiki:claim-detail", kwargs={"pk": star.pk})).content.decode()
    row = html.split('data-kind="status"')[1].split("</tr>")[0]
    assert "editor" in row and "Needs verification → Verified" in row and "<time" in row


def test_the_reasons_the_wiki_writes_about_claims_read_in_the_readers_language(client: Client) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    star = claim_set_status(claim=Claim.objects.get(page=page, text__startswith="StarHarness"), status="verified")
    body = BODY.replace(facet.text + "\n", "").replace("只演化外部 harness", "只演化由人编写的外部 harness 与提示")
    revision = page_save_revision(slug=page.slug, title=page.title, body=body, base_revision=1)
    stored = dict(ClaimRevision.objects.filter(page_revision=revision).values_list("claim_id", "reason"))
    assert stored[facet.pk] == "Its sentence was removed."
    assert stored[star.pk].startswith("Verified before; needs verification again: its wording changed (")
    url = reverse("wiki:claim-detail", kwargs={"pk": star.pk})
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "此前已核实；需要重新核实：其措辞已改变（" in chinese and "Verified before" not in chinese
    assert "Verified before; needs verification again" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    removed = client.get(reverse("wiki:claim-detail", kwargs={"pk": facet.pk}), HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert "其句子已从页面删除。" in removed.content.decode()
    with translation.override("zh-hans"):
        changes = {c.claim_id: c.reason for c in claim_report_for(revision).changes}
    assert changes[facet.pk] == "其句子已从页面删除。"


def test_the_edit_preview_gives_the_reason_a_claim_needs_verification_in_chinese(editor_client: Client) -> None:
    page = _facet_page()
    claim = claim_set_status(claim=Claim.objects.get(page=page, text__contains=FACET), status="verified")
    post = _edit_post(page, page.body.replace(FACET, REWORDED).replace("§3.1 / §5", "§3.2"), preview="1")
    html = editor_client.post(reverse("wiki:page-edit", kwargs={"slug": page.slug}), post,
                              HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert f'data-claim="{claim.pk}"' in html
    assert "此前已核实；需要重新核实：其引用或出处位置已改变，措辞也已改变（5 个字符）。" in html


def test_a_reattached_sentences_claim_leaves_search_and_its_address_leads_to_the_reattached_claim(
        editor_client: Client) -> None:
    page, facet = _orphan_facet()
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "FACET 的训练信号来自监督学习。"),
                       base_revision=2)
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="FACET 的训练信号")
    assert SearchDocument.objects.filter(kind="claim", object_id=sentence.pk).exists()
    editor_client.post(reverse("wiki:claim-reattach", kwargs={"pk": facet.pk}), {"sentence": sentence.pk})
    assert not SearchDocument.objects.filter(kind="claim", object_id=sentence.pk).exists()
    found = editor_client.get("/api/v1/search/", {"q": "监督学习", "kind": "claim"}).json()
    assert [hit["object_id"] for group in found["groups"] for hit in group["results"]] == [facet.pk]
    gone = editor_client.get(reverse("wiki:claim-detail", kwargs={"pk": sentence.pk}))
    assert (gone.status_code, gone["Location"]) == (301, reverse("wiki:claim-detail", kwargs={"pk": facet.pk}))
    assert editor_client.get(reverse("wiki:claim-detail", kwargs={"pk": sentence.pk + 1000})).status_code == 404


def test_a_refused_retirement_reason_comes_back_in_the_form_with_the_error(editor_client: Client) -> None:
    _, facet = _orphan_facet()
    typed = "撤回：" + "这篇论文的实验无法复现。" * 60
    response = editor_client.post(reverse("wiki:claim-retire", kwargs={"pk": facet.pk}), {"reason": typed})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'value="{typed}"' in html
    assert "at most 500 characters" in html.split('id="id_reason_error"')[1].split("</ul>")[0]
    assert Claim.objects.get(pk=facet.pk).retired_at is None


def test_retiring_a_retired_claim_says_when_by_whom_and_why(editor_client: Client) -> None:
    page = make_page(body=BODY)
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(facet.text, "").replace("- \n", ""),
                       base_revision=1)
    url = reverse("wiki:claim-retire", kwargs={"pk": facet.pk})
    editor_client.post(url, {"reason": "duplicated elsewhere"})

    again = editor_client.post(url, {"reason": "duplicated elsewhere"}, follow=True)

    text = again.content.decode()
    assert f"Claim #{facet.pk} is already retired" in text and "duplicated elsewhere" in text and "editor" in text
    assert "Only an orphaned claim can be retired." not in text


def test_reattaching_to_a_sentence_taken_meanwhile_says_so_in_the_form(
        editor_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from wiki.forms.claims import ClaimReattachForm
    from wiki.services.claims import claim_reattach

    page = make_page(body=BODY)
    facet, star = (Claim.objects.get(page=page, text__startswith=start) for start in ("FACET", "StarHarness"))
    page_save_revision(slug=page.slug, title=page.title, base_revision=1, body=BODY.replace(facet.text, "WebArena 只评测固定模型。")
                       .replace(star.text, "").replace("- \n", ""))
    sentence = Claim.objects.get(page=page, is_orphaned=False, text__startswith="WebArena")
    claim_reattach(claim=facet, sentence=Claim.objects.get(pk=sentence.pk))

    def validated_before_it_was_taken(form: ClaimReattachForm) -> bool:
        form.cleaned_data = {"sentence": sentence}
        return True

    monkeypatch.setattr(ClaimReattachForm, "is_valid", validated_before_it_was_taken)
    response = editor_client.post(reverse("wiki:claim-reattach", kwargs={"pk": star.pk}), {"sentence": sentence.pk},
                                  follow=True)

    assert response.status_code == 200 and f"&quot;{sentence.pk}&quot;" in response.content.decode()
    assert Claim.objects.get(pk=star.pk).is_orphaned is True


def test_citations_set_in_the_claim_form_are_in_its_history_and_the_change_names_both_edits(editor_client: Client) -> None:
    page = _facet_page()
    facet = Claim.objects.get(page=page, text__startswith=FACET)
    source = facet.citations.get().source
    data = {"status": "verified", "citations-TOTAL_FORMS": "1", "citations-INITIAL_FORMS": "0",
            "citations-0-source": source.slug, "citations-0-locator": "§4", "citations-0-kind": "cited"}

    assert editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": facet.pk}), data).status_code == 302

    entry = facet.revisions.get(kind="cited")
    assert entry.user is not None and entry.user.get_username() == "editor"
    with translation.override("zh-hans"):
        assert entry.reason_for_reader == f"引用：{source.short_name}, §3.1 / §5 → {source.short_name}, §4"
    event = ChangeEvent.objects.filter(kind="claim").latest("id")
    with translation.override("en"):
        assert summary_for_reader(event) == "status Needs verification → Verified; citations and works"
    html = editor_client.get(reverse("wiki:claim-detail", kwargs={"pk": facet.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "citations edited" in html.split('data-kind="cited"')[1].split("</tr>")[0]
    # The same citations sent again change nothing in the history.
    editor_client.post(reverse("wiki:claim-edit", kwargs={"pk": facet.pk}), {**data, "loaded_at": ""})
    assert facet.revisions.filter(kind="cited").count() == 1


def test_two_verified_claims_merged_after_spacing_and_traditional_edits_keep_one_and_the_other_says_into_which(
        client: Client) -> None:
    skillforge = "SkillForge 用 GRPO 同时更新环境动作和 skill calling，是严格 Agentic RL 的正例。（来源：SkillForge，§3）"
    shepherd = ("Shepherd 的 Tree-GRPO 利用共享前缀的 terminal rollout 计算 sibling outcome advantage，"
                "再用 clipped GRPO 更新 worker policy。（来源：Shepherd，§4.2）")
    page = make_page(slug="grpo-agents", title="GRPO agents", body=f"## 关键要点\n\n- {skillforge}\n- {shepherd}\n")
    first = Claim.objects.get(page=page, text__startswith="SkillForge")
    second = Claim.objects.get(page=page, text__startswith="Shepherd")
    Claim.objects.filter(pk__in=[first.pk, second.pk]).update(status="verified")
    # The spaces between Chinese and Latin taken out of one, part of the other converted to Traditional characters.
    edited = (f"## 关键要点\n\n- SkillForge用GRPO同时更新环境动作和skill calling,是严格Agentic RL的正例.（来源：SkillForge，§3）\n"
              f"- {shepherd.replace('前缀', '前綴').replace('计算', '計算')}\n")
    page_save_revision(slug=page.slug, title=page.title, body=edited, base_revision=1)
    assert set(Claim.objects.filter(page=page, is_orphaned=False).values_list("pk", "status")) == {
        (first.pk, "verified"), (second.pk, "verified")}
    merged = ("## 关键要点\n\n- SkillForge 用 GRPO 同时更新环境动作和 skill calling，Shepherd 的 Tree-GRPO 则利用共享前缀的 "
              "terminal rollout 计算 sibling outcome advantage 后再用 clipped GRPO 更新 worker policy，两者都是严格 Agentic RL "
              "的正例。（来源：SkillForge，§3；Shepherd，§4.2）\n")
    revision = page_save_revision(slug=page.slug, title=page.title, body=merged, base_revision=2)

    kept = Claim.objects.get(page=page, is_orphaned=False)
    assert kept.pk in {first.pk, second.pk}
    gone = Claim.objects.get(pk=({first.pk, second.pk} - {kept.pk}).pop())
    assert gone.is_orphaned is True
    assert {c.claim_id: c.outcome for c in claim_report_for(revision).changes} == {kept.pk: "reworded", gone.pk: "merged"}
    assert kept.revisions.filter(kind="reworded").count() == 2  # its history goes on
    with translation.override("zh-hans"):
        html = client.get(reverse("wiki:claim-detail", kwargs={"pk": gone.pk}), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    detail = reverse("wiki:claim-detail", kwargs={"pk": kept.pk})
    assert f'孤立：它的句子已合并到<a href="{detail}">论断 #{kept.pk}</a>' in html
    assert "已从页面中删除" not in html


def test_an_orphan_whose_sentence_was_removed_says_so_and_one_merged_into_a_claim_since_gone_says_merged(
        client: Client) -> None:
    page = make_page(body=BODY)
    star = Claim.objects.get(page=page, text__startswith="StarHarness")
    facet = Claim.objects.get(page=page, text__startswith="FACET")
    page_save_revision(slug=page.slug, title=page.title, body=BODY.replace(f"- {star.text}\n", ""), base_revision=1)
    html = client.get(reverse("wiki:claim-detail", kwargs={"pk": star.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "orphaned: its sentence was removed from the page" in html
    # Its latest loss a merge into a claim deleted since (as a re-attachment deletes the claim it replaces).
    ClaimRevision.objects.create(claim=star, kind=ClaimRevision.Kind.MERGED, text=star.text, status=star.status,
                                 related_claim=facet)
    facet.delete()
    html = client.get(reverse("wiki:claim-detail", kwargs={"pk": star.pk}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "orphaned: its sentence was merged into another claim’s" in html
    assert "removed from the page" not in html


def _page_of_claims(slug: str, count: int) -> Page:
    body = "## 关键要点\n\n" + "\n".join(f"- 第 {n} 条论断：方法 {n} 用 GRPO 更新 agent policy。" for n in range(count))
    return page_save_revision(slug=slug, title=f"Claims {count}", body=body).page


def test_page_claims_lists_a_hundred_a_page_in_the_same_queries_however_many_the_page_states(client: Client) -> None:
    shown = {}
    for count in (30, 250):
        page = _page_of_claims(f"claims-{count}", count)
        url = reverse("wiki:page-claims", kwargs={"slug": page.slug})
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            html = client.get(url).content.decode()
        shown[count] = (len(queries), html.count('<a href="/claims/'))
    # A page of 1,500 claims listed them all on one page of 600 kB.
    assert shown[30][0] == shown[250][0]
    assert (shown[30][1], shown[250][1]) == (30, 100)
    last = client.get(reverse("wiki:page-claims", kwargs={"slug": "claims-250"}) + "?p=3").content.decode()
    assert last.count('<a href="/claims/') == 50 and "第 249 条论断" in last and "第 199 条论断" not in last


def test_the_other_page_field_gives_back_only_a_page_it_found(editor_client: Client) -> None:
    """The field gives back the page found, never what was typed: a slug naming no page leaves it empty, and the
    control characters typed into a slug are left out (a NUL is one PostgreSQL refuses to read)."""
    _, facet = _orphan_facet()
    other = make_page(title="Other notes", body="## 关键要点\n\n- FACET 的轨迹来自可执行 terminal 环境。\n")
    url = reverse("wiki:claim-detail", kwargs={"pk": facet.pk})

    found = editor_client.get(url, {"page": other.slug}).content.decode()
    unknown = editor_client.get(url, {"page": "no-such\x07page"})
    controlled = editor_client.get(url, {"page": f"{other.slug}\x00\x1b"})

    assert f'<input name="page" value="{other.slug}" size="30">' in found
    assert unknown.status_code == 200 and '<input name="page" value="" size="30">' in unknown.content.decode()
    assert controlled.status_code == 200 and f'<input name="page" value="{other.slug}" size="30">' in controlled.content.decode()
    assert "\x07" not in unknown.content.decode() and "\x00" not in controlled.content.decode()
