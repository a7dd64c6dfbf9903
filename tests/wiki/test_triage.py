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
    assert re.search(r'<p class="evidence-weights">.*Phrases that weighed most towards Policy gradient:.*GRPO.*\+\d\.\d\d', html, re.S)
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


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_queue_runs_the_same_queries_however_many_works_wait() -> None:
    client = _editor_client()
    client.get(reverse("wiki:triage"))  # the editor's account is cached from the first request on
    # Each count right after works were added (the stored suggestions are brought up to date), then again unchanged.
    make_source(short_name="First", abstract=STRICT)
    one = [_queries(client, reverse("wiki:triage")), _queries(client, reverse("wiki:triage"))]
    for n in range(6):
        make_source(short_name=f"More{n}", abstract=STRICT)
    many = [_queries(client, reverse("wiki:triage")), _queries(client, reverse("wiki:triage"))]
    assert many == one


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
        # Chinese sentences run on without spaces; the English ones carry their own.
        assert f"项，{order}" in text and "）。快捷键" in text
    english = client.get(reverse("wiki:triage"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "shown, most confident first" in english and "). Keys" in re.sub(r"<[^>]+>", "", english)


NOTES = "A benchmark of web tasks on which agents are evaluated; we release the tasks and their checkers."
WEAK = "We train the web agent with GRPO in a live browser environment over many steps."


def _item(html: str, name: str) -> str:
    """The queue's card of the work called ``name``."""
    start = html.index(f">{name}</a>")
    ends = [end for end in (html.find('<li class="card triage-item"', start), html.find("</ol>", start)) if end >= 0]
    return html[html.rindex('<li class="card triage-item"', 0, start):min(ends)]


def test_a_work_with_nothing_to_read_is_queued_without_a_suggestion_and_only_the_override_form() -> None:
    source = make_source(short_name="Blankly", abstract="", notes=NOTES)
    make_source(short_name="Quillrun", abstract=STRICT)
    client = _editor_client()
    for query in ("", "?order=least"):
        html = client.get(reverse("wiki:triage") + query, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
        card = _item(html, "Blankly")
        assert "没有建议：这项工作还没有可供阅读的摘要或论断。" in card
        assert 'data-key="a"' not in card and "badge" not in card and "置信度" not in card
        assert f'href="{reverse("wiki:classification-create", kwargs={"slug": source.slug})}?next=' in card
    most = client.get(reverse("wiki:triage")).content.decode()
    least = client.get(reverse("wiki:triage") + "?order=least").content.decode()
    assert most.index(">Quillrun<") < most.index(">Blankly<")
    assert least.index(">Blankly<") < least.index(">Quillrun<")


def test_the_queue_the_override_form_and_the_source_page_give_one_suggestion() -> None:
    source = make_source(short_name="Quillrun", abstract=WEAK, notes=NOTES)
    client = _editor_client()
    queued = client.get(reverse("wiki:triage")).context["items"][0].view.suggestion
    card = client.get(reverse("wiki:classification-create", kwargs={"slug": source.slug})).context["card"]
    page = client.get(reverse("wiki:source-detail", kwargs={"slug": source.slug})).context["cards"].unclassified_suggestion
    assert card.suggestion == queued == page.suggestion
    client.post(reverse("wiki:triage-accept", kwargs={"slug": source.slug}))
    accepted = Classification.objects.get(source=source)
    assert (accepted.mechanism, accepted.verdict) == (queued.mechanism.value, queued.verdict.value)


def test_accepting_names_what_was_accepted_and_sends_the_keys_to_the_next_work() -> None:
    first = make_source(short_name="Quillrun", abstract=STRICT)
    second = make_source(short_name="Sedgewick", abstract=STRICT)
    client = _editor_client()
    html = client.get(reverse("wiki:triage")).content.decode()
    assert f'name="then" value="{second.slug}"' in _item(html, "Quillrun")
    assert f'name="then" value="{first.slug}"' in _item(html, "Sedgewick")
    response = client.post(reverse("wiki:triage-accept", kwargs={"slug": first.slug}),
                           {"then": second.slug, "order": "least"}, HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 302
    assert response["Location"] == reverse("wiki:triage") + f"?order=least#triage-{second.slug}"
    queue = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    message = re.search(r'<li class="message success">(.*?)</li>', queue, re.S)
    assert message is not None and message.group(1) == "已采纳 Quillrun 的建议：策略梯度，严格 Agentic RL。"
    assert f'id="triage-{second.slug}"' in queue


def test_overriding_from_the_queue_comes_back_to_the_queue_at_the_next_work() -> None:
    first = make_source(short_name="Quillrun", abstract=STRICT)
    second = make_source(short_name="Sedgewick", abstract=STRICT)
    client = _editor_client()
    queue = client.get(reverse("wiki:triage"), {"order": "least"}).content.decode()
    override = re.search(r'<a href="([^"]+)" data-key="o"[^>]*>', _item(queue, "Quillrun"))
    assert override is not None
    form = client.get(override.group(1).replace("&amp;", "&")).content.decode()
    back = reverse("wiki:triage") + f"?order=least#triage-{second.slug}"
    assert f'<input type="hidden" name="next" value="{back}">' in form and f'<a href="{back}">Cancel</a>' in form
    overridden = {"mechanism": "harness", "interactive_env": "true", "multi_step": "true", "verifiable_reward": "true",
                  "rl_update": "false", "verdict": "not_strict", "next": back}

    response = client.post(reverse("wiki:classification-create", kwargs={"slug": first.slug}), overridden)

    assert response.status_code == 302 and response["Location"] == back
    assert Classification.objects.get(source=first).set_by == SetBy.EDITOR


@pytest.mark.parametrize("elsewhere", ["https://evil.example/triage/", "//evil.example/", "triage/"])
def test_the_override_form_goes_back_only_to_an_address_on_this_site(elsewhere: str) -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    client = _editor_client()
    data = {"mechanism": "harness", "interactive_env": "true", "multi_step": "true", "verifiable_reward": "true",
            "rl_update": "false", "verdict": "not_strict", "next": elsewhere}

    response = client.post(reverse("wiki:classification-create", kwargs={"slug": source.slug}), data)

    assert response["Location"] == source.get_absolute_url()


def test_an_anchor_that_is_not_a_slug_is_dropped() -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    response = _editor_client().post(reverse("wiki:triage-accept", kwargs={"slug": source.slug}),
                                     {"then": '"><script>x</script>'})
    assert response["Location"] == reverse("wiki:triage")


def test_accepting_a_work_twice_says_it_is_classified_already() -> None:
    source = make_source(short_name="Quillrun", abstract=STRICT)
    client = _editor_client()
    url = reverse("wiki:triage-accept", kwargs={"slug": source.slug})
    client.post(url)
    again = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 200
    message = re.search(r'<li class="message error">(.*?)</li>', again.content.decode(), re.S)
    assert message is not None and message.group(1) == "Quillrun is classified already; nothing was changed."
    assert ClassificationChange.objects.filter(classification__source=source).count() == 1


def test_accepting_a_work_with_nothing_to_read_is_refused_with_a_message() -> None:
    source = make_source(short_name="Blankly", abstract="", notes=NOTES)
    response = _editor_client().post(reverse("wiki:triage-accept", kwargs={"slug": source.slug}), follow=True,
                                     HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 200
    message = re.search(r'<li class="message error">(.*?)</li>', response.content.decode(), re.S)
    assert message is not None and message.group(1).startswith("Blankly 没有可采纳的建议")
    assert not Classification.objects.filter(source=source).exists()


def test_queue_with_works_that_have_nothing_to_read_runs_the_same_queries() -> None:
    client = _editor_client()
    client.get(reverse("wiki:triage"))
    make_source(short_name="First", abstract=STRICT)
    one = [_queries(client, reverse("wiki:triage")), _queries(client, reverse("wiki:triage"))]
    for n in range(6):
        make_source(short_name=f"Blank{n}", abstract="", notes=NOTES)
    many = [_queries(client, reverse("wiki:triage")), _queries(client, reverse("wiki:triage"))]
    assert many == one


def test_an_empty_queue_says_every_work_is_classified_and_no_more() -> None:
    Classification.objects.create(source=make_source(short_name="Done", abstract=STRICT), mechanism="policy_gradient",
                                  verdict="strict", interactive_env=True, multi_step=True, verifiable_reward=True, rl_update=True)
    html = _editor_client().get(reverse("wiki:triage"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "Every work is classified." in html
    assert "0 works without a classification" not in html and "0–0 shown" not in html
    assert "confident first" not in html and "<kbd>a</kbd>" not in html
    assert 'class="triage"' not in html
