"""Form validation: clear, coded errors next to the field."""

from __future__ import annotations

import re

from django import forms

from tests.factories import make_classification, make_source
from wiki.forms.claims import CitationForm, CitationFormSet
from wiki.forms.classifications import FACT_FIELDS, ClassificationForm
from wiki.forms.contrasts import ContrastForm
from wiki.forms.pages import PageCreateForm, PageForm
from wiki.forms.questions import QuestionForm
from wiki.forms.sources import SourceForm, SourceImportForm


def _codes(form: forms.BaseForm, field: str) -> list[str | None]:
    return [e.code for e in form.errors.as_data().get(field, [])]


def test_page_form_refuses_deep_nesting_with_a_coded_error() -> None:
    form = PageForm({"title": "T", "body": "> " * 40 + "deep"})
    assert not form.is_valid()
    assert _codes(form, "body") == ["too_complex"]


def test_page_form_keeps_the_body_as_typed_but_normalises_newlines() -> None:
    form = PageForm({"title": "T", "body": "  indented\r\nnext"})
    assert form.is_valid()
    assert form.cleaned_data["body"] == "  indented\nnext"


def test_page_form_refuses_a_summary_the_size_of_a_body() -> None:
    form = PageForm({"title": "T", "summary": "s" * 1_000_000, "body": "b"})
    assert _codes(form, "summary") == ["max_length"]


def test_page_create_form_reserves_new(db: None) -> None:
    form = PageCreateForm({"title": "New", "slug": "new", "body": ""})
    assert _codes(form, "slug") == ["reserved"]


def test_source_form_normalises_identifiers(db: None) -> None:
    form = SourceForm({"short_name": "X", "title": "X: a title", "kind": "paper",
                       "arxiv_id": "https://arxiv.org/abs/2401.12345v3", "doi": "https://doi.org/10.1145/ABC"})
    assert form.is_valid(), form.errors
    # Source.clean normalises, whichever way a source is saved (form, API, import).
    assert (form.instance.arxiv_id, form.instance.doi) == ("2401.12345", "10.1145/abc")


def test_source_form_rejects_bad_identifiers(db: None) -> None:
    form = SourceForm({"short_name": "X", "title": "X", "kind": "paper", "arxiv_id": "nonsense", "doi": "nope"})
    assert not form.is_valid()
    assert _codes(form, "arxiv_id") == ["invalid_arxiv"]
    assert _codes(form, "doi") == ["invalid_doi"]


def test_a_url_refused_is_named_with_what_the_wiki_can_link_to(db: None) -> None:
    # Django's own "Enter a valid URL." (请输入合法的URL。) says neither what was wrong nor what to write
    for url in ("not an address", "http://["):  # refused by the rule, and by reading the address at all
        form = SourceForm({"short_name": "X", "title": "X", "kind": "paper", "url": url})
        assert not form.is_valid()
        assert form.errors["url"] == [
            f"“{url if '[' in url else 'https://' + url}” is not a web address (http://, https://, ftp://…) the wiki can link to."]


def test_source_form_offers_the_existing_source_for_a_duplicate(db: None) -> None:
    existing = make_source(arxiv_id="2401.12345")
    form = SourceForm({"short_name": "Y", "title": "Y", "kind": "paper", "arxiv_id": "2401.12345v2"})
    assert not form.is_valid()
    assert _codes(form, "__all__") == ["duplicate"]
    assert form.duplicate == existing


def test_source_form_refuses_an_abstract_the_size_of_a_book(db: None) -> None:
    form = SourceForm(data={"short_name": "Bookish", "title": "Bookish: A Study", "kind": "paper", "abstract": "a" * 1_000_000})
    assert _codes(form, "abstract") == ["max_length"]


def test_import_form_rejects_text_that_is_no_identifier() -> None:
    form = SourceImportForm({"entry": "a paper about agents"})
    assert _codes(form, "entry") == ["unrecognised"]


def test_citation_locators_are_validated_and_kept_as_typed(db: None) -> None:
    source = make_source()
    for locator in ["p.3", "pp.3-4", "§3.1", "§2.4、§3", "Table 2", "Fig. 3", "Appendix B"]:
        form = CitationForm({"source": source.slug, "locator": locator, "kind": "cited"})
        assert form.is_valid(), locator
        assert form.cleaned_data["locator"] == locator
    bad = CitationForm({"source": source.slug, "locator": "somewhere", "kind": "cited"})
    assert _codes(bad, "locator") == ["invalid_locator"]


def test_citation_formset_refuses_the_same_citation_twice(db: None) -> None:
    source = make_source()
    data = {"c-TOTAL_FORMS": "2", "c-INITIAL_FORMS": "0",
            "c-0-source": source.slug, "c-0-locator": "p.3", "c-0-kind": "cited",
            "c-1-source": source.slug, "c-1-locator": "p.3", "c-1-kind": "cited"}
    formset = CitationFormSet(data, prefix="c")
    assert not formset.is_valid()
    assert [e.code for e in formset.non_form_errors().as_data()] == ["duplicate_citation"]


def _classification_data(**overrides: object) -> dict[str, object]:
    data: dict[str, object] = {"mechanism": "policy_gradient", "interactive_env": "true", "multi_step": "true",
                               "verifiable_reward": "true", "rl_update": "true", "verdict": "strict", "rationale": ""}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_verdict_that_departs_from_the_rubric_needs_a_rationale(db: None) -> None:
    source = make_source()
    form = ClassificationForm(_classification_data(verdict="not_strict"), source=source)
    assert not form.is_valid()
    assert _codes(form, "rationale") == ["rationale_required"]
    assert form.rubric() == "strict"
    ok = ClassificationForm(_classification_data(verdict="not_strict", rationale="The reward is a proxy."), source=source)
    assert ok.is_valid(), ok.errors


def test_rubric_follows_the_facts_and_narrow(db: None) -> None:
    source = make_source()
    form = ClassificationForm(_classification_data(narrow="on", verdict="strict_narrow"), source=source)
    assert form.is_valid(), form.errors
    assert form.rubric() == "strict_narrow"
    es = ClassificationForm(_classification_data(mechanism="evolution_strategies", rl_update=None, verdict="adjacent"), source=source)
    assert es.is_valid(), es.errors


def test_a_fact_is_yes_no_or_unknown_and_unknown_never_makes_a_work_strict(db: None) -> None:
    source = make_source()
    form = ClassificationForm(_classification_data(multi_step="unknown", rl_update=None, verdict="not_strict"), source=source)
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["interactive_env"], form.cleaned_data["multi_step"], form.cleaned_data["rl_update"]) == (True, None, None)
    assert form.rubric() == "not_strict"
    assert _checked(str(form["multi_step"])) == "unknown" and _checked(str(form["interactive_env"])) == "true"
    blank = ClassificationForm(source=source)
    assert [_checked(str(blank[name])) for name in FACT_FIELDS] == ["unknown"] * 4


def _checked(radios: str) -> str:
    """The value of the checked radio button in a widget's HTML."""
    [value] = re.findall(r'<input type="radio"[^>]* value="([a-z]+)"[^>]* checked', radios)
    return str(value)


def test_rubric_verdict_is_known_before_the_form_is_valid(db: None) -> None:
    source = make_source()
    suggested = ClassificationForm(
        initial={"mechanism": "policy_gradient", "interactive_env": True, "multi_step": True, "verifiable_reward": True,
                 "rl_update": True, "narrow": False}, source=source,
    )
    assert suggested.rubric() == "strict"
    no_mechanism = ClassificationForm(_classification_data(mechanism="", rl_update=None), source=source)
    assert not no_mechanism.is_valid()
    assert no_mechanism.rubric() is None  # evolution strategies would make it "adjacent"
    no_interaction = ClassificationForm(_classification_data(mechanism="", multi_step=None), source=source)
    assert not no_interaction.is_valid()
    assert no_interaction.rubric() == "not_strict"


def test_second_classification_of_the_same_work_is_refused(db: None) -> None:
    source = make_source()
    make_classification(source)
    form = ClassificationForm(_classification_data(), source=source)
    assert _codes(form, "component") == ["exists"]


def test_evidence_locator_is_validated(db: None) -> None:
    form = ClassificationForm(_classification_data(evidence_locator="page three"), source=make_source())
    assert _codes(form, "evidence_locator") == ["invalid_locator"]


def test_contrast_of_a_work_with_itself_is_refused(db: None) -> None:
    source = make_source()
    form = ContrastForm({"left": source.slug, "right": source.slug, "axis": "x"})
    assert [e.code for e in form.non_field_errors().as_data()] == ["same"]


def test_contrast_that_exists_the_other_way_round_is_refused(db: None) -> None:
    from wiki.services.contrasts import contrast_create

    left, right = make_source(), make_source()
    contrast_create(left=left, right=right, axis="policy update vs harness evolution")
    form = ContrastForm({"left": right.slug, "right": left.slug, "axis": "the same, reversed"})
    assert [e.code for e in form.non_field_errors().as_data()] == ["exists"]


def test_answered_question_needs_its_answer_claim(db: None) -> None:
    form = QuestionForm({"title": "Q", "status": "answered", "priority": "normal"})
    assert not form.is_valid()
    assert _codes(form, "answer_claim") == ["answer_required"]


def test_page_form_refuses_unresolved_conflict_markers() -> None:
    from wiki.text.merge import merge_texts

    merged = merge_texts(base="a\nb\n", theirs="a\ntheirs\n", mine="a\nmine\n").text()
    form = PageForm({"title": "T", "body": merged})
    assert _codes(form, "body") == ["unresolved_conflict"]
    assert PageForm({"title": "T", "body": "a\nmine\n"}).is_valid()


def test_conflict_marker_check_is_linear_on_hostile_input() -> None:
    import time

    from wiki.text.merge import has_conflict_markers

    started = time.perf_counter()
    assert not has_conflict_markers("<<<<<<< theirs\n" * 13_000)
    assert time.perf_counter() - started < 0.5


def test_source_form_refuses_a_second_work_of_the_same_short_name(db: None) -> None:
    existing = make_source(short_name="Tortoise", title="Tortoise: A Runtime Supervisor")
    form = SourceForm(data={"short_name": "tortoise", "title": "Another Tortoise Paper", "kind": "paper"})
    assert not form.is_valid()
    assert form.errors.as_data()["short_name"][0].code == "duplicate" and form.name_taken == existing
    assert SourceForm(data={"short_name": "Tortoise 2", "title": "Another Tortoise Paper", "kind": "paper"}).is_valid()


def test_source_form_refuses_the_same_title_of_the_same_year(db: None) -> None:
    existing = make_source(short_name="Tortoise", title="Tortoise: A Runtime Supervisor", year=2025)
    form = SourceForm(data={"short_name": "T2", "title": "tortoise — a runtime supervisor", "kind": "paper", "year": 2025})
    assert not form.is_valid()
    assert form.errors.as_data()["__all__"][0].code == "duplicate"
    assert form.duplicate == existing
