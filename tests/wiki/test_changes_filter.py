"""The recent-changes list refuses a kind of change it does not know without saying the wiki has none; it and its feed
list one account's changes, and refuse an account there is not."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_editor, make_indexed_question
from wiki.models import ChangeEvent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "empty"), [("en", "No changes yet."), ("zh-Hans", "还没有更改。")])
def test_an_unknown_kind_of_change_is_refused_without_the_empty_list_sentence(client: Client, language: str, empty: str) -> None:
    make_indexed_question(title="A change there is")

    refused = client.get(reverse("wiki:changes"), {"kind": "bogus"}, HTTP_ACCEPT_LANGUAGE=language)
    empty_kind = client.get(reverse("wiki:changes"), {"kind": "finding"}, HTTP_ACCEPT_LANGUAGE=language)

    assert refused.status_code == 400
    content = refused.content.decode()
    assert "bogus" in content and 'aria-invalid="true"' in content
    assert empty not in content
    assert empty in empty_kind.content.decode()


def _rows(html: str) -> list[str]:
    return [row.split("</td>", 2)[1] for row in html.split('<tbody>', 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]]


def test_one_account_s_changes_are_listed_and_fed_with_a_link_from_every_name(client: Client) -> None:
    from xml.etree import ElementTree

    alice, bob = make_editor("alice"), make_editor("bob")
    make_indexed_question(title="Alice asks", user=alice)
    make_indexed_question(title="Bob asks", user=bob)
    make_indexed_question(title="Alice asks again", user=alice)

    everyone = client.get(reverse("wiki:changes")).content.decode()
    assert '<a href="/changes/?user=alice" title="Changes by alice">alice</a>' in everyone
    mine = client.get(reverse("wiki:changes"), {"user": "alice"}, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "<h1 class=\"page-title\">alice 的更改</h1>" in mine
    assert [("Alice asks again" in row, "Alice asks" in row) for row in _rows(mine)] == [(True, True), (False, True)]
    assert 'href="/changes/feed/?user=alice"' in mine
    feed = ElementTree.fromstring(client.get(reverse("wiki:changes-feed"), {"user": "alice"}).content)
    atom = "{http://www.w3.org/2005/Atom}"
    assert feed.findtext(f"{atom}title") == "Agentic RL Wiki — changes by alice"
    assert [e.findtext(f"{atom}title") for e in feed.iter(f"{atom}entry")] == [
        "Open question “Alice asks again” created", "Open question “Alice asks” created"]
    assert feed.findtext(f"{atom}id") != ElementTree.fromstring(client.get(reverse("wiki:changes-feed")).content).findtext(f"{atom}id")


@pytest.mark.parametrize("name", ["nobody", "a\x00b", "x" * 200])
def test_an_unknown_account_is_refused_with_its_name(client: Client, name: str) -> None:
    refused = client.get(reverse("wiki:changes"), {"user": name}, HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert refused.status_code == 400
    content = refused.content.decode()
    assert "没有名为“" in content and 'aria-describedby="user_error"' in content
    assert client.get(reverse("wiki:changes-feed"), {"user": name}).status_code == 404


def test_a_change_s_size_is_bracketed_as_each_language_writes_it(client: Client) -> None:
    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="P", url="/wiki/p/", size_delta=42)
    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="P", url="/wiki/p/", size_delta=-7)

    chinese = client.get(reverse("wiki:changes"), headers={"accept-language": "zh-CN"}).content.decode()
    english = client.get(reverse("wiki:changes"), headers={"accept-language": "en"}).content.decode()

    assert '<span class="grew">（+42）</span>' in chinese and '<span class="shrank">（-7）</span>' in chinese
    assert '<span class="grew"> (+42)</span>' in english and '<span class="shrank"> (-7)</span>' in english


def test_a_large_change_is_grouped_in_english_and_not_in_chinese(client: Client) -> None:
    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="P", url="/wiki/p/", size_delta=12047)
    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="P", url="/wiki/p/", size_delta=-1500)

    for url in (reverse("wiki:changes"), reverse("wiki:home")):
        chinese = client.get(url, headers={"accept-language": "zh-CN"}).content.decode()
        english = client.get(url, headers={"accept-language": "en"}).content.decode()

        assert "+12047" in chinese and "-1500" in chinese and "12,047" not in chinese
        assert "+12,047" in english and "-1,500" in english


def test_an_account_is_found_whatever_the_case_typed_and_named_as_it_is_spelt(client: Client) -> None:
    alice, shouting = make_editor("alice"), make_editor("ALICE")
    make_indexed_question(title="Alice asks", user=alice)
    make_indexed_question(title="ALICE asks", user=shouting)
    make_indexed_question(title="Bob asks", user=make_editor("Bob2"))

    # Spelt as typed first: two accounts told apart by case stay apart.
    assert ["ALICE asks" in row for row in _rows(client.get(reverse("wiki:changes"), {"user": "ALICE"}).content.decode())] == [True]
    assert ["Alice asks" in row for row in _rows(client.get(reverse("wiki:changes"), {"user": "alice"}).content.decode())] == [True]
    # Otherwise the account spelt so but for case, named as it spells itself.
    bob = client.get(reverse("wiki:changes"), {"user": "bob2"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bob.status_code == 200
    content = bob.content.decode()
    assert ["Bob asks" in row for row in _rows(content)] == [True]
    assert "Bob2" in content.split("<h1", 1)[1].split("</h1>", 1)[0]
    feed = client.get(reverse("wiki:changes-feed"), {"user": "BOB2"})
    assert feed.status_code == 200 and b"changes by Bob2" in feed.content
