import re

import pytest
from django.db import connection
from django.test.client import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_editor, make_source
from wiki.models import Classification, ClassificationChange, SetBy, Source

pytestmark = pytest.mark.django_db

STRICT = "We train the web agent with GRPO in a live browser environment over many steps; task success is the reward."


def _editor_client() -> Client:
    client = Client()
    client.force_login(make_editor())
    return client


def test_queue_lists_unclassified_works_with_suggestion_and_confidence() -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    html = _editor_client().get(reverse("wiki:triage")).content.decode()
    assert "Quillrun" in html and "Policy gradient" in html and "confidence" in html
    assert reverse("wiki:classification-create", kwargs={"slug": source.slug}) in html
    # Each card lists the phrases that weighed most towards its mechanism; how to read the weights is said once.
    assert re.search(r'<p class="evidence-weights">.*Weighed most towards Policy gradient:.*GRPO.*\+\d\.\d\d', html, re.S)
    assert html.count("Hover a highlighted phrase") == 1


def test_queue_orders_by_confidence_both_ways() -> None:
    make_source(short_name="Sure", abstract=STRICT)
    make_source(short_name="Vague", abstract="A system.")
    client = _editor_client()
    most = client.get(reverse("wiki:triage")).content.decode()
    least = client.get(reverse("wiki:triage") + "?order=least").content.decode()
    assert most.index(">Sure<") < most.index(">Vague<")
    assert least.index(">Vague<") < least.index(">Sure<")


def test_accepting_records_the_suggestion_as_accepted_in_the_history() -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    response = _editor_client().post(reverse("wiki:triage-accept", kwargs={"slug": source.slug}))
    assert response.status_code == 302
    classification = Classification.objects.get(source=source)
    assert classification.set_by == SetBy.CLASSIFIER and classification.set_by_user is not None
    assert classification.mechanism == "policy_gradient"
    change = ClassificationChange.objects.get(classification=classification)
    assert change.after["set_by"] == SetBy.CLASSIFIER
    assert not Source.objects.unclassified().filter(pk=source.pk).exists()


def test_queue_runs_the_same_queries_however_many_works_wait() -> None:
    client = _editor_client()
    make_source(short_name="First", abstract=STRICT)
    client.get(reverse("wiki:triage"))  # the editor's account is cached from the first request on
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("wiki:triage"))
    for n in range(6):
        make_source(short_name=f"More{n}", abstract=STRICT)
    with CaptureQueriesContext(connection) as many:
        client.get(reverse("wiki:triage"))
    assert len(many) == len(one)


def test_queue_is_for_editors() -> None:
    assert Client().get(reverse("wiki:triage")).status_code == 302


def test_the_queue_explains_itself_in_whole_chinese_sentences() -> None:
    make_source(short_name="Quillrun", abstract=STRICT)
    client = _editor_client()
    for query, order in (("", "置信度最高的在前"), ("?order=least", "置信度最低的在前")):
        html = client.get(reverse("wiki:triage") + query, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
        intro = re.search(r'<p class="muted">(.*?)</p>', html, re.S)
        assert intro is not None
        text = re.sub(r"<[^>]+>", "", intro.group(1))
        assert f"{order}（" in text and "）。" in text and ")." not in text
        assert text.rstrip().endswith("打开修改表单。")
