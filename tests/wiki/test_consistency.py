from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import ContrastWiki, make_classification, make_source
from wiki.models import Citation, CitationKind, Claim, Classification, Source
from wiki.reports.consistency import consistency_report, has_rl_in_name, names_side
from wiki.roles import Account


def _subjects(findings) -> set[str]:  # type: ignore[no-untyped-def]
    return {finding.subject for finding in findings}


@pytest.mark.django_db
def test_seed_report_finds_the_real_inconsistencies(seed: None) -> None:
    report = consistency_report()
    # Read from their own claims, every seed work agrees with its editor's verdict.
    assert report.verdict_disagrees == []
    assert report.no_evidence == []
    assert report.contrast_after_reclassification == []
    assert _subjects(report.rl_name_not_rl) == {"prime-rl", "RLinf", "Agent RL Environment"}
    without_locator = Citation.objects.filter(kind=CitationKind.CITED, locator="", claim__is_orphaned=False)
    assert len(report.missing_locator) == without_locator.count() > 0
    assert "SkillForge" in _subjects(report.missing_locator)
    assert "FACET" not in _subjects(report.missing_locator)


def test_a_contrast_whose_evidence_names_only_one_side_is_reported(seed: None) -> None:
    report = consistency_report()
    # the seed sets FACET and ESOpt against SkillForge from claims that only name FACET and ESOpt
    assert _subjects(report.one_sided_contrast) == {"FACET vs SkillForge", "Agentic ESOpt vs SkillForge"}
    assert all("never names SkillForge" in f.detail for f in report.one_sided_contrast)
    assert names_side("Multi-Harness RL 展示了…", "Multi-Harness RL Guide")
    assert names_side("Shepherd 的 Tree-GRPO 是严格正例", "Shepherd", "Tree-GRPO")


@pytest.mark.django_db
def test_the_report_does_not_read_the_editors_notes(seed: None) -> None:
    # FlashREINFORCE's notes deny GUI results ("no OSWorld or real GUI results"); read as evidence
    # they would make its strict verdict look wrong, though its claims support it.
    assert "OSWorld" in Source.objects.get(slug="flashreinforce").notes
    assert "FlashREINFORCE" not in _subjects(consistency_report().verdict_disagrees)


@pytest.mark.django_db
def test_editor_verdict_that_contradicts_the_claims_is_reported(contrast_wiki: ContrastWiki) -> None:
    sft = Classification.objects.get(source=contrast_wiki.sft)
    sft.verdict = "strict"
    sft.save()
    findings = {f.subject: f.detail for f in consistency_report().verdict_disagrees}
    assert "editor: Strict Agentic RL; suggested: Not strict" in findings["TaskSmith"]


@pytest.mark.django_db
def test_classification_without_evidence_claim_is_reported() -> None:
    make_classification(make_source(short_name="LoneWork"))
    assert "LoneWork" in _subjects(consistency_report().no_evidence)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("prime-rl", True), ("RLinf", True), ("Multi-Harness RL", True), ("Agent RL Environment", True),
     ("WMRL", False), ("World Models", False), ("Curl", False), ("SkillForge", False)],
)
def test_rl_in_a_name_is_a_word_or_name_part(name: str, expected: bool) -> None:
    assert has_rl_in_name(name) is expected


@pytest.mark.django_db
def test_report_page_and_command_show_the_same_findings(client: Client, seed: None, capsys: pytest.CaptureFixture[str]) -> None:
    response = client.get(reverse("wiki:consistency-report"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "RLinf" in html and "prime-rl" in html
    call_command("check_consistency")
    out = capsys.readouterr().out
    assert "Works named “…RL…” whose mechanism is not RL: 0 (3 dismissed)" in out


@pytest.mark.django_db
def test_report_runs_a_fixed_number_of_queries(client: Client, contrast_wiki: ContrastWiki, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    url = reverse("wiki:consistency-report")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()  # the same wiki may have been reported by an earlier test: measure a report computed here
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    for n in range(60):
        source = make_source(short_name=f"Bulk{n}-RL")
        make_classification(source, mechanism="harness", verdict="not_strict", rl_update=False)
    with CaptureQueriesContext(connection) as large:
        response = client.get(url)
    assert "Bulk59-RL" in response.content.decode() + client.get(url, {"section": "rl_name_not_rl", "p": "2"}).content.decode()
    assert len(large.captured_queries) == len(small.captured_queries)


@pytest.mark.django_db
def test_source_page_shows_the_suggestion_beside_the_editor_classification(client: Client, contrast_wiki: ContrastWiki) -> None:
    html = client.get(contrast_wiki.sft.get_absolute_url()).content.decode()
    assert "Classifier suggestion" in html
    assert "Agrees with the editor" in html
    assert "<mark" in html and "SFT" in html
    # The card lists the phrases that weighed most towards the suggested mechanism, with their weights.
    card = html.split('class="card suggestion')[1].split("</aside>")[0]
    assert re.search(r'<p class="evidence-weights">.*Phrases that weighed most towards SFT / distillation:.*\+\d\.\d\d', card, re.S)
    assert re.search(r'<span class="muted"> \((yes|no|unknown)\)</span>', card)
    # Each fact's value is bracketed as Chinese writes it.
    chinese = client.get(contrast_wiki.sft.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()
    card = chinese.split('class="card suggestion')[1].split("</aside>")[0]
    assert re.search(r'<span class="muted">（(是|否|未知)）</span>', card) and '<span class="muted">(' not in card
    # The mechanism, a name in Latin letters and Chinese, is quoted in the Chinese sentence naming it.
    assert '<span class="muted">对“SFT/蒸馏”权重最大的词句：</span>' in card


@pytest.mark.django_db
def test_source_page_marks_a_disagreement(client: Client, contrast_wiki: ContrastWiki) -> None:
    Classification.objects.filter(source=contrast_wiki.env).update(verdict="strict", mechanism="policy_gradient")
    html = client.get(contrast_wiki.env.get_absolute_url()).content.decode()
    assert "Disagrees with the editor" in html
    assert "mechanism and verdict" in html


@pytest.mark.django_db
def test_unclassified_source_gets_a_suggestion_alone(client: Client) -> None:
    make_source(slug="lonely", short_name="Lonely", abstract="We train the web agent with PPO on WebArena tasks using the task success reward.")
    html = client.get(reverse("wiki:source-detail", kwargs={"slug": "lonely"})).content.decode()
    assert "not classified yet" in html
    assert "Classifier suggestion" in html and "PPO" in html


@pytest.mark.django_db
def test_findings_read_as_labels_and_cut_only_long_claims(seed: None) -> None:
    report = consistency_report()
    details = {finding.subject: finding.detail for finding in report.rl_name_not_rl}
    assert details["RLinf"] == "the name says RL, the mechanism is Infrastructure"
    assert details["Agent RL Environment"] == "the name says RL, the mechanism is Environment / benchmark"
    for finding in report.missing_locator:
        excerpt = finding.detail.split("”引")[0].split("” cites")[0].lstrip("“")
        assert len(excerpt) <= 80
        if excerpt.endswith("…"):
            # cut at a sentence end, a comma or a space: never inside a word
            head = excerpt[:-1]
            claim = next(c.text for c in Claim.objects.filter(text__startswith=head))
            assert claim[len(head)] in "。；，、：） " or head[-1] in "。；，、：） ", (head, claim[len(head):len(head) + 5])


@pytest.mark.django_db
def test_a_work_with_nothing_to_read_gets_no_suggested_verdict(client: Client) -> None:
    make_source(slug="silent", short_name="Silent", abstract="")
    html = client.get(reverse("wiki:source-detail", kwargs={"slug": "silent"})).content.decode()
    suggestion = html.split('class="card suggestion')[1].split("</aside>")[0]
    assert "No suggestion" in suggestion
    assert "badge" not in suggestion


NOTES_ONLY = "We train a web agent with PPO from the task success reward over multi-step browser rollouts."


@pytest.mark.django_db
def test_no_suggestion_reads_the_notes(client: Client, editor: Account) -> None:
    source = make_source(slug="noted", short_name="Noted", abstract="", notes=NOTES_ONLY)
    classification = make_classification(source, mechanism="harness", verdict="not_strict", rl_update=False)
    page = client.get(reverse("wiki:source-detail", kwargs={"slug": "noted"})).content.decode()
    card = page.split('class="card suggestion')[1].split("</aside>")[0]
    assert "PPO" not in card and "No suggestion" in card
    # With nothing to read there is no suggestion to agree with.
    assert "Agrees with the editor" not in card and "Disagrees" not in card
    assert "Noted" not in {finding.subject for finding in consistency_report().verdict_disagrees}
    client.force_login(editor)
    form = client.get(reverse("wiki:classification-edit", kwargs={"pk": classification.pk}))
    assert form.context["card"] is None
    assert "PPO" not in form.content.decode().split('class="card suggestion')[1]


@pytest.mark.django_db
def test_unclassified_source_page_reads_the_claims_once(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from wiki import suggestions

    calls = []
    real = suggestions.texts_about

    def counted(ids: Any) -> Any:
        calls.append(ids)
        return real(ids)

    monkeypatch.setattr(suggestions, "texts_about", counted)
    make_source(slug="lonely", short_name="Lonely", abstract=NOTES_ONLY)
    client.get(reverse("wiki:source-detail", kwargs={"slug": "lonely"}))
    assert len(calls) == 1


@pytest.mark.django_db
def test_report_page_is_computed_again_only_after_a_change(client: Client, contrast_wiki: ContrastWiki, monkeypatch: pytest.MonkeyPatch) -> None:
    from wiki.reports import consistency

    computed = []
    real = consistency.consistency_report

    def counted() -> consistency.ConsistencyReport:
        computed.append(1)
        return real()

    monkeypatch.setattr(consistency, "consistency_report", counted)
    url = reverse("wiki:consistency-report")
    cache.clear()
    client.get(url)
    client.get(url)
    assert len(computed) == 1
    make_classification(make_source(short_name="Fresh-RL"), mechanism="harness", verdict="not_strict", rl_update=False)
    assert "Fresh-RL" in client.get(url).content.decode()
    assert len(computed) == 2


def _rl_named_harnesses(first: int, count: int) -> list[Classification]:
    """Works named …RL… classified as harnesses, without evidence: a finding each in two sections."""
    return [make_classification(make_source(slug=f"many-{n}-rl", short_name=f"Many{n:03d}-RL"), mechanism="harness",
                                verdict="not_strict", rl_update=False) for n in range(first, first + count)]


def _rl_name_anchors(html: str) -> list[str]:
    return re.findall(r'<tr id="(finding-rl_name_not_rl-[^"]+)"', html)


@pytest.mark.django_db
def test_the_report_shows_a_bounded_number_of_findings_per_section_with_the_same_queries(editor_client: Client, contrast_wiki: ContrastWiki) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from wiki.reports.reviewed import FINDINGS_SHOWN

    url = reverse("wiki:consistency-report")

    def measured() -> tuple[int, int, str]:
        editor_client.get(url)  # brings the stored suggestions of new works up to date, which is not the report's cost
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = editor_client.get(url)
        assert response.status_code == 200
        return len(queries.captured_queries), len(response.content), response.content.decode()

    small_queries, _, _ = measured()
    _rl_named_harnesses(0, FINDINGS_SHOWN + 10)
    over_queries, over_size, _ = measured()
    _rl_named_harnesses(FINDINGS_SHOWN + 10, 140)
    large_queries, large_size, html = measured()

    assert small_queries == over_queries == large_queries
    assert large_size - over_size < 500  # only the counts changed
    assert len(_rl_name_anchors(html)) == FINDINGS_SHOWN
    assert f"The first {FINDINGS_SHOWN} of 200 open findings are shown." in html
    assert 'href="/reports/consistency/?section=rl_name_not_rl">See all 200, page by page</a>' in html


@pytest.mark.django_db
def test_a_sections_whole_list_is_reachable_page_by_page(client: Client) -> None:
    from wiki.reports.consistency import classification_key

    classifications = _rl_named_harnesses(0, 120)
    url = reverse("wiki:consistency-report")
    pages = [client.get(url, {"section": "rl_name_not_rl", "p": str(number)}) for number in (1, 2, 3)]
    assert [page.status_code for page in pages] == [200, 200, 200]
    listed = [anchor for page in pages for anchor in _rl_name_anchors(page.content.decode())]
    assert len(listed) == 120
    assert set(listed) == {f"finding-rl_name_not_rl-{classification_key(c.pk)}" for c in classifications}
    # One section only, with its pages linked.
    second = pages[1].content.decode()
    assert 'id="no_evidence"' not in second
    assert "Page 2 of 3" in second and 'href="?section=rl_name_not_rl&amp;p=3"' in second


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "message"), [
    ({"section": "rl_name_not_rl", "p": "4"}, "“4” is not a page of this section: its pages are numbered 1 to 3."),
    ({"section": "rl_name_not_rl", "p": "two"}, "“two” is not a page of this section: its pages are numbered 1 to 3."),
    ({"section": "rl_name_not_rl", "dp": "2"}, "“2” is not a page of this section: its pages are numbered 1 to 1."),
    ({"section": "nowhere"}, "There is no section “nowhere” in this report: choose one below."),
])
def test_a_bad_section_or_page_number_is_refused_with_a_message(client: Client, params: dict[str, str], message: str) -> None:
    _rl_named_harnesses(0, 120)
    response = client.get(reverse("wiki:consistency-report"), params)
    assert response.status_code == 400
    assert message in response.content.decode()


@pytest.mark.django_db
def test_a_fact_the_suggested_mechanism_decides_says_so_rather_than_a_bare_no(client: Client, contrast_wiki: ContrastWiki) -> None:
    from classifier import classify
    from wiki.services.sources import source_update

    abstract = "PolarHarness evolves the harness around a fixed model: its prompts, tools and memory."
    source_update(source=contrast_wiki.harness, fields={"abstract": abstract})
    suggestion = classify(abstract)
    derived = [finding for finding in suggestion.facts if finding.value.value == "false" and not finding.evidence]
    html = client.get(contrast_wiki.harness.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()

    assert suggestion.mechanism.value == "harness" and [f.fact.value for f in derived] == ["rl_update"]
    assert "RL 优化根据交互结果更新 policy/参数<span class=\"muted\">（否，由其机制推出）</span>" in html


def test_a_contrast_written_before_a_side_was_reclassified_is_reported_until_its_axis_is_reviewed(
        client: Client, contrast_wiki: ContrastWiki) -> None:
    from django.db.models import Q

    from wiki.models import Contrast
    from wiki.services.classifications import classification_save
    from wiki.services.contrasts import contrast_update

    harness = Classification.objects.get(source=contrast_wiki.harness, component=None)
    contrast = Contrast.objects.get(left=contrast_wiki.grpo, right=contrast_wiki.harness)
    assert consistency_report().contrast_after_reclassification == []

    classification_save(source=contrast_wiki.harness, classification=harness, fields={"rationale": "Reworded, same verdict."})
    assert consistency_report().contrast_after_reclassification == []

    classification_save(source=contrast_wiki.harness, classification=harness,
                        fields={"mechanism": "policy_gradient", "interactive_env": True, "multi_step": True,
                                "rl_update": True, "verdict": "strict"})
    [finding] = consistency_report().contrast_after_reclassification
    cache.clear()
    chinese, english = (re.sub(r"<[^>]+>", "", client.get(reverse("wiki:consistency-report"), HTTP_ACCEPT_LANGUAGE=language)
                               .content.decode()) for language in ("zh-Hans", "en"))

    assert finding.subject == "GripForge vs PolarHarness"
    assert finding.url == reverse("wiki:contrast-edit", kwargs={"pk": contrast.pk})
    assert f"PolarHarness was reclassified after the contrast was written: do they still differ on “{contrast.axis}”?" in english
    assert "PolarHarness 被重新分类" in chinese and "写成后有一方被重新分类的对比" in chinese

    contrast_update(contrast=contrast, fields={"axis": "两种策略更新 / two policy updates"})
    assert consistency_report().contrast_after_reclassification == []

    # a first classification of a side is not a change of mind about it
    assert Contrast.objects.filter(Q(left=contrast_wiki.unclassified) | Q(right=contrast_wiki.unclassified)).exists()
    classification_save(source=contrast_wiki.unclassified, fields={"mechanism": "sft_distillation", "verdict": "not_strict"})
    assert consistency_report().contrast_after_reclassification == []
