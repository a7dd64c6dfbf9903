"""The queue's sorts and its unresolved, unassigned and assigned-to-me filters, on the page and in the API, and the
cached copies of a queue that depends on its reader."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_editor, make_page, make_question
from tests.queries import query_names
from wiki.caching import versions
from wiki.caching.readers import READER_VALUES
from wiki.filters import ASSIGNED_TO_ME
from wiki.models import Claim, OpenQuestion, QuestionStatus
from wiki.roles import Account
from wiki.views.listing import PER_PAGE

pytestmark = pytest.mark.django_db

QUEUE = reverse("wiki:question-list")


def _listed_ids(content: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<td><a href="/questions/(\d+)/">', content)]


def _api_ids(client: Client, **params: str) -> list[int]:
    response = client.get("/api/v1/questions/", params)
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


def _aged(**ages: tuple[int, int]) -> dict[str, OpenQuestion]:
    """Questions titled by the keys, created and last changed that many days ago."""
    OpenQuestion.objects.all().delete()
    now = timezone.now()
    made = {}
    for title, (created, changed) in ages.items():
        question = make_question(title=title, priority="high" if title.startswith("high") else "normal")
        OpenQuestion.objects.filter(pk=question.pk).update(created_at=now - timedelta(days=created),
                                                           updated_at=now - timedelta(days=changed))
        made[title] = question
    return made


def test_the_queue_sorts_by_priority_newest_oldest_or_recently_changed(client: Client) -> None:
    q = _aged(high_old=(9, 9), normal_new=(1, 5), normal_mid=(4, 0), normal_old=(7, 2))

    def ids(sort: str) -> list[int]:
        response = client.get(QUEUE, {"sort": sort} if sort else {})
        assert response.status_code == 200
        return _listed_ids(response.content.decode())

    def pks(*titles: str) -> list[int]:
        return [q[title].pk for title in titles]

    assert ids("") == pks("high_old", "normal_old", "normal_mid", "normal_new")
    assert ids("newest") == pks("normal_new", "normal_mid", "normal_old", "high_old")
    assert ids("oldest") == pks("high_old", "normal_old", "normal_mid", "normal_new")
    assert ids("changed") == pks("normal_mid", "normal_old", "normal_new", "high_old")
    assert client.get(QUEUE, {"sort": "loudest"}).status_code == 400
    # the API's ordering offers the same orders, priority by its rank rather than its name
    assert _api_ids(client, ordering="priority,created_at") == ids("")
    assert _api_ids(client, ordering="-created_at") == ids("newest")
    assert _api_ids(client, ordering="created_at") == ids("oldest")
    assert _api_ids(client, ordering="-updated_at") == ids("changed")
    low = make_question(title="low", priority="low")
    assert _api_ids(client, ordering="-priority")[0] == low.pk
    assert _api_ids(client, ordering="priority")[-1] == low.pk


def test_the_sort_and_filters_are_kept_from_page_to_page(client: Client) -> None:
    OpenQuestion.objects.all().delete()
    for n in range(PER_PAGE + 5):
        make_question(title=f"Unassigned {n}")

    first = client.get(QUEUE, {"sort": "newest", "assigned": "nobody"}).content.decode()
    following = re.search(r'<a href="([^"]+)" rel="next">', first)

    assert following is not None
    assert sorted(following.group(1).replace("&amp;", "&").lstrip("?").split("&")) == ["assigned=nobody", "p=2", "sort=newest"]
    assert 'name="sort"' in first and '<option value="newest" selected>' in first


def test_the_queue_opens_on_the_unresolved_questions(client: Client) -> None:
    OpenQuestion.objects.all().delete()
    claim = Claim.objects.create(page=make_page(title="Answers"), text="An answer.", key="answer", anchor="claim-answer")
    make_question(title="answered", status=QuestionStatus.ANSWERED, answer_claim=claim)
    make_question(title="dropped", status=QuestionStatus.DROPPED)
    open_one = make_question(title="open")
    looked_at = make_question(title="looked at", status=QuestionStatus.INVESTIGATING)

    content = client.get(QUEUE, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert sorted(_listed_ids(content)) == sorted([open_one.pk, looked_at.pk])
    assert re.search(r'<select name="status"[^>]*>\s*<option value="unresolved"', content)
    assert 'Clear</a>' not in content  # nothing was chosen yet
    assert len(_listed_ids(client.get(QUEUE, {"status": "all"}).content.decode())) == 4
    # the API lists every status unless asked, and reads "unresolved" as the queue does
    assert len(_api_ids(client)) == 4
    assert sorted(_api_ids(client, status="unresolved")) == sorted([open_one.pk, looked_at.pk])


def test_unassigned_and_assigned_to_me_combine_with_the_other_filters(client: Client) -> None:
    OpenQuestion.objects.all().delete()
    me, other = make_editor("me-editor"), make_editor("other-editor")
    page = make_page(title="Filtered page")
    mine_here = make_question(title="mine here", page=page, assignee=me)
    mine_high = make_question(title="mine high", assignee=me, priority="high")
    make_question(title="mine dropped", assignee=me, status=QuestionStatus.DROPPED)
    make_question(title="theirs", assignee=other, page=page)
    nobodys_here = make_question(title="nobody's here", page=page)
    nobodys_high = make_question(title="nobody's high", priority="high")
    client.force_login(me)

    def listed(**params: str) -> list[int]:
        response = client.get(QUEUE, params)
        assert response.status_code == 200
        return sorted(_listed_ids(response.content.decode()))

    assert listed(assigned="me") == sorted([mine_here.pk, mine_high.pk])
    assert listed(assigned="me", page_slug=page.slug) == [mine_here.pk]
    assert listed(assigned="me", priority="high") == [mine_high.pk]
    assert len(listed(assigned="me", status="all")) == 3
    assert listed(assigned="nobody") == sorted([nobodys_here.pk, nobodys_high.pk])
    assert listed(assigned="nobody", page_slug=page.slug) == [nobodys_here.pk]
    assert listed(assigned="nobody", assignee=other.username) == []
    for params in ({"assigned": "me", "page_slug": page.slug}, {"assigned": "nobody", "priority": "high"}):
        assert sorted(_api_ids(client, **params)) == listed(**params)


def test_the_page_filter_finds_a_page_by_its_title_typed_in_traditional_characters(client: Client) -> None:
    page = make_page(slug="claims-under-test", title="论断测试")
    make_page(slug="other-page", title="论断测试之外")
    here = make_question(title="here", page=page)
    make_question(title="elsewhere")

    for typed in ("论断测试", "論斷測試"):
        response = client.get(QUEUE, {"page_slug": typed})
        assert response.status_code == 200, typed
        assert _listed_ids(response.content.decode()) == [here.pk]
        assert _api_ids(client, page_slug=typed) == [here.pk]


def test_assigned_to_me_is_a_logged_in_readers_choice(client: Client) -> None:
    anonymous = client.get(QUEUE, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    refused = client.get(QUEUE, {"assigned": "me"})
    api_refused = client.get("/api/v1/questions/", {"assigned": "me"})
    client.force_login(make_editor("logged-in"))
    logged_in = client.get(QUEUE, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert '<option value="nobody">To no one (unassigned)</option>' in anonymous
    assert 'value="me"' not in anonymous
    assert refused.status_code == 400 and api_refused.status_code == 401
    assert api_refused.json()["code"] == "not_authenticated" and "assigned=me" in api_refused.json()["detail"]
    assert '<option value="me">To me</option>' in logged_in


def test_a_queue_assigned_to_me_is_never_served_to_another_reader(client: Client) -> None:
    assert ("assigned", ASSIGNED_TO_ME) in READER_VALUES
    OpenQuestion.objects.all().delete()
    first, second = make_editor("first-reader"), make_editor("second-reader")  # the same permissions: one shared copy
    firsts = make_question(title="The first reader's", assignee=first)
    seconds = make_question(title="The second reader's", assignee=second)
    other = Client()
    client.force_login(first)
    other.force_login(second)

    for _ in range(2):  # the second time from the cache
        assert _listed_ids(client.get(QUEUE, {"assigned": "me"}).content.decode()) == [firsts.pk]
        assert _listed_ids(other.get(QUEUE, {"assigned": "me"}).content.decode()) == [seconds.pk]
        assert _api_ids(client, assigned="me") == [firsts.pk]
        assert _api_ids(other, assigned="me") == [seconds.pk]
    # what does not depend on the reader is still one copy for both
    with mock.patch.object(cache, "set", wraps=cache.set) as stored:
        client.get(QUEUE, {"assigned": "nobody"})
        other.get(QUEUE, {"assigned": "nobody"})
    assert len([call for call in stored.call_args_list if call.args[0].startswith("wiki:response:")]) == 1


@pytest.mark.parametrize("params", [
    {"status": "unresolved", "assigned": "nobody", "sort": "changed"},
    {"status": "all", "assigned": "me", "sort": "newest", "priority": "high"},
    {"assigned": "me", "sort": "oldest"},
], ids=["unassigned", "mine", "mine by default"])
def test_the_new_filters_and_sorts_cost_the_same_whatever_the_number_of_questions(
        client: Client, editor: Account, params: dict[str, str]) -> None:
    client.force_login(editor)

    def measured() -> list[str]:
        client.get(QUEUE, params)
        versions.bump()
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(QUEUE, params)
        assert response.status_code == 200
        assert _listed_ids(response.content.decode())
        return query_names(queries)

    make_question(title="Few", assignee=editor, priority="high")
    make_question(title="Few nobody's", priority="high")
    few = measured()
    for n in range(PER_PAGE + 20):
        make_question(title=f"Many {n}", assignee=editor if n % 2 else None, priority=("high", "normal")[n % 2],
                      page=make_page(title=f"Many page {n}"))
    assert measured() == few
    assert few.count("SELECT wiki_openquestion") == 1


def test_the_schema_documents_the_queue_filters_and_orders(client: Client) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/questions/"]["get"]["parameters"]}

    assert set(parameters["status"]["schema"]["enum"]) >= {"unresolved", "open", "investigating", "answered", "dropped"}
    assert set(parameters["assigned"]["schema"]["enum"]) == {"nobody", "me"}
    assert "`priority` puts high first" in parameters["ordering"]["description"]
    assert "`-updated_at` (recently changed first)" in parameters["ordering"]["description"]
