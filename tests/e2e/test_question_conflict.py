"""Two editors editing one open question in two browsers: the second save keeps what the first one changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.accounts import two_editors_at
from tests.factories import make_question
from wiki.models import OpenQuestion

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_second_editor_saving_again_after_a_conflict_keeps_the_first_editors_text(page: Any, live_server: Any) -> None:
    base = live_server.url
    question = make_question(title="Is Tree-GRPO strict?", text="To check.")
    url = f"{base}{reverse('wiki:question-edit', kwargs={'pk': question.pk})}"
    other = two_editors_at(page, base, url)

    page.fill("main form [name=text]", "The first editor's text.")
    page.click("main form .form-actions button[type=submit] >> nth=0")
    page.wait_for_url(f"{base}{question.get_absolute_url()}")
    other.fill("main form [name=resolution_criteria]", "A run of its released code.")
    other.click("main form .form-actions button[type=submit] >> nth=0")
    other.wait_for_selector("text=Someone saved this question after you opened it")
    assert other.input_value("main form [name=text]") == "The first editor's text."
    other.click("main form .form-actions button[type=submit] >> nth=0")
    other.wait_for_url(f"{base}{question.get_absolute_url()}")

    question = OpenQuestion.objects.get(pk=question.pk)
    assert (question.text, question.resolution_criteria) == ("The first editor's text.", "A run of its released code.")
