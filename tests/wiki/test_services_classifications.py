"""Saving classifications through the service."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from tests.factories import make_source
from wiki.models import Classification
from wiki.services.classifications import classification_accept_suggestion, classification_save

FIELDS = {"mechanism": "policy_gradient", "interactive_env": True, "multi_step": True, "verifiable_reward": True,
          "rl_update": True, "verdict": "strict"}


@pytest.mark.django_db(transaction=True)
def test_two_editors_classifying_the_same_work_at_once_get_one_classification_and_one_message() -> None:
    source = make_source()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def classify() -> None:
        try:
            barrier.wait(timeout=5)
            classification_save(source=source, fields=FIELDS)
            outcomes.append("saved")
        except ValidationError:
            outcomes.append("refused")
        except Exception as error:  # noqa: BLE001 - an IntegrityError here would be a server error
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=classify) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["refused", "saved"]
    assert Classification.objects.filter(source=source).count() == 1


@pytest.mark.django_db
def test_saving_a_verdict_other_than_the_rubrics_without_a_rationale_is_refused() -> None:
    source = make_source()

    with pytest.raises(ValidationError) as refused:
        classification_save(source=source, fields={**FIELDS, "verdict": "not_strict"})

    assert [e.code for e in refused.value.error_dict["rationale"]] == ["rationale_required"]
    assert not Classification.objects.filter(source=source).exists()
    saved = classification_save(source=source, fields={**FIELDS, "verdict": "not_strict", "rationale": "The reward is a proxy."})
    assert saved.departs_from_rubric


@pytest.mark.django_db
def test_a_change_that_empties_the_rationale_of_a_departing_verdict_is_refused() -> None:
    source = make_source()
    classification = classification_save(source=source, fields={**FIELDS, "verdict": "adjacent", "rationale": "Why."})

    with pytest.raises(ValidationError) as refused:
        classification_save(source=source, classification=classification, fields={"rationale": " "})

    assert [e.code for e in refused.value.error_dict["rationale"]] == ["rationale_required"]


@pytest.mark.django_db
def test_a_second_classification_of_the_same_work_is_refused_by_the_service() -> None:
    source = make_source()
    classification_save(source=source, fields=FIELDS)

    with pytest.raises(ValidationError) as refused:
        classification_save(source=source, fields=FIELDS)

    assert [e.code for e in refused.value.error_dict["component"]] == ["exists"]
    assert Classification.objects.filter(source=source).count() == 1


@pytest.mark.django_db
def test_accepting_the_suggestion_of_a_work_with_nothing_to_read_is_refused() -> None:
    # The notes are never read: a work whose only text is its notes has no suggestion.
    source = make_source(abstract="", notes="We train a web agent with PPO from the task success reward over many steps.")

    with pytest.raises(ValidationError) as refused:
        classification_accept_suggestion(source=source)

    assert refused.value.code == "no_suggestion"
    assert not Classification.objects.filter(source=source).exists()


@pytest.mark.django_db
def test_accepting_the_suggestion_of_a_classified_work_is_refused_and_changes_nothing() -> None:
    source = make_source(abstract="We train a web agent with PPO from the task success reward over many browser steps.")
    classification_save(source=source, fields={**FIELDS, "mechanism": "harness", "verdict": "not_strict",
                                               "rl_update": False})

    with pytest.raises(ValidationError) as refused:
        classification_accept_suggestion(source=source)

    assert refused.value.code == "classified"
    assert Classification.objects.get(source=source).mechanism == "harness"
