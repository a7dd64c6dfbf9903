"""A work's page, its classification form and the one-key accept show the stored suggestion when it was made from the
work's text as it is and the installed weights, and classify only when none was; what they show is what the
classifier gives for that text."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import classifier.engine
from classifier import Mechanism, classify
from classifier.model import current_weights
from tests.factories import make_claim, make_classification, make_editor, make_source
from wiki import suggestions
from wiki.caching import versions
from wiki.models import Classification, Component, Source, StoredSuggestion
from wiki.suggestions import SuggestionView

pytestmark = pytest.mark.django_db

STRICT = "We train the web agent with GRPO in a live browser environment over many steps; task success is the reward."
SFT = "We fine-tune the model on expert trajectories filtered by a verifier."


def _refused(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("classified although a stored suggestion was made from the same text and weights")


def _refuse_classifying(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever asks the classifier from now on fails."""
    monkeypatch.setattr(classifier.engine, "suggest", _refused)


def _work(abstract: str = STRICT, *, claims: bool = True) -> tuple[Source, Component]:
    """A work (with claims about it) and a classified component, their suggestions stored."""
    source = make_source(short_name="Quillrun", abstract=abstract)
    if claims:
        claim = make_claim("Quillrun updates the browser agent's policy with GRPO from the task reward.", cites=[source])
        for n in range(3):
            make_claim(f"Quillrun's planner {n} is trained with GRPO; its runtime supervisor is not trained.",
                       cites=[source], page=claim.page)
    component = Component.objects.create(source=source, slug="supervisor", name="supervisor")
    make_classification(source, component=component, mechanism="harness", verdict="not_strict")
    assert suggestions.suggestions_refresh(limit=None)
    return Source.objects.get(pk=source.pk), component


def _text(source: Source) -> str:
    return suggestions.suggestion_text(source, suggestions.texts_about([source.pk]).get(source.pk, []))


def _page_suggestions(client: Client, source: Source) -> list[SuggestionView]:
    versions.bump()
    response = client.get(source.get_absolute_url())
    assert response.status_code == 200
    cards = response.context["cards"]
    return [view for _classification, view in cards.pairs] or [cards.unclassified_suggestion]


def _editor_client() -> Client:
    client = Client()
    client.force_login(make_editor())
    return client


def test_the_work_page_shows_the_stored_suggestions_without_classifying(client: Client,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    source, _component = _work()
    make_classification(source)
    text = _text(source)
    fresh = [classify(text, subject="Quillrun"), classify(text, subject="Quillrun supervisor")]
    _refuse_classifying(monkeypatch)
    shown = _page_suggestions(client, source)
    # Mechanism, verdict, confidence, every evidence span with its contribution: all as the classifier gives them.
    assert sorted((view.subject, view.suggestion) for view in shown) == sorted(zip(["Quillrun", "Quillrun supervisor"],
                                                                                   fresh, strict=True))


def _cards_html(client: Client, source: Source) -> str:
    versions.bump()
    html = client.get(source.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    cards = re.findall(r'<p class="suggestion-text"[^>]*>.*?</p>|<details class="evidence-list">.*?</details>', html, re.S)
    assert cards
    return "".join(cards)


def test_the_work_page_reads_the_same_from_a_stored_suggestion_as_from_the_classifier(client: Client,
                                                                                     classified: list[str]) -> None:
    source, _component = _work()
    make_classification(source)
    classified.clear()
    stored = _cards_html(client, source)
    assert classified == []
    StoredSuggestion.objects.all().delete()
    made = _cards_html(client, source)
    assert sorted(classified) == ["Quillrun", "Quillrun supervisor"]
    assert stored == made


def test_the_work_page_classifies_again_when_its_text_changed_since_and_writes_nothing(client: Client,
                                                                                      classified: list[str]) -> None:
    source, _component = _work(abstract=SFT, claims=False)
    assert StoredSuggestion.objects.get(source=source, component=None).mechanism == Mechanism.SFT_DISTILLATION.value
    stored = list(StoredSuggestion.objects.values_list("pk", "digest", "suggestion"))
    # Written past the services, as a shell would: no refresh runs before the page is read.
    Source.objects.filter(pk=source.pk).update(abstract=STRICT)
    source = Source.objects.get(pk=source.pk)
    classified.clear()

    (shown,) = _page_suggestions(client, source)

    assert classified == ["Quillrun supervisor"]
    assert shown.suggestion == classify(_text(source), subject="Quillrun supervisor")
    assert shown.suggestion.mechanism == Mechanism.POLICY_GRADIENT
    assert list(StoredSuggestion.objects.values_list("pk", "digest", "suggestion")) == stored


def test_the_work_page_classifies_again_under_other_weights(client: Client, classified: list[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    source, _component = _work()
    newer = dataclasses.replace(current_weights(), version=current_weights().version + 1)
    monkeypatch.setattr(suggestions, "current_weights", lambda: newer)
    classified.clear()

    (shown,) = _page_suggestions(client, source)

    assert classified == ["Quillrun supervisor"]
    assert shown.suggestion == classify(_text(source), subject="Quillrun supervisor")


def test_the_classification_forms_show_the_stored_suggestions_without_classifying(monkeypatch: pytest.MonkeyPatch) -> None:
    source, component = _work()
    _refuse_classifying(monkeypatch)
    text = _text(source)
    client = _editor_client()
    card = client.get(reverse("wiki:classification-create", kwargs={"slug": source.slug})).context["card"]
    of_component = Classification.objects.get(source=source, component=component)
    component_card = client.get(reverse("wiki:classification-edit", kwargs={"pk": of_component.pk})).context["card"]
    rows = {row.component_id: row.as_suggestion() for row in StoredSuggestion.objects.of_work(source.pk)}
    assert card.suggestion == rows[None] and component_card.suggestion == rows[component.pk]
    assert text and card.view.text == text


def test_a_component_with_no_stored_suggestion_is_classified_on_its_form(classified: list[str]) -> None:
    source, _component = _work()
    other = Component.objects.create(source=source, slug="planner", name="planner")
    classified.clear()
    url = reverse("wiki:classification-create", kwargs={"slug": source.slug}) + f"?component={other.slug}"
    card = _editor_client().get(url).context["card"]
    assert classified == ["Quillrun planner"]
    assert card.suggestion == classify(_text(source), subject="Quillrun planner")


def test_accepting_saves_the_stored_suggestion_without_classifying(monkeypatch: pytest.MonkeyPatch) -> None:
    source, _component = _work()
    Classification.objects.filter(source=source).delete()
    _refuse_classifying(monkeypatch)
    stored = StoredSuggestion.objects.get(source=source, component=None).as_suggestion()
    response = _editor_client().post(reverse("wiki:triage-accept", kwargs={"slug": source.slug}))
    assert response.status_code == 302
    accepted = Classification.objects.get(source=source, component=None)
    assert (accepted.mechanism, accepted.verdict, accepted.rationale) == (
        stored.mechanism.value, stored.verdict.value, stored.rationale)
