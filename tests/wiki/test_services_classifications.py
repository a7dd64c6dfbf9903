"""Saving classifications through the service."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from tests.factories import make_source
from wiki.models import Classification
from wiki.services.classifications import classification_save

FIELDS = {"mechanism": "policy_gradient", "interactive_env": True, "multi_step": True, "verifiable_reward": True,
          "rl_update": True, "verdict": "strict"}


@pytest.mark.django_db(transaction=True)
def test_two_editors_classifying_the_same_work_at_once_get_one_classification_and_one_message(seed: None) -> None:
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
        except Exception as error:  # an IntegrityError here would be a server error
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
