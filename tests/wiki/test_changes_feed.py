"""The changes feed is valid Atom (RFC 4287), in the reader's language, with ids that never change."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import make_editor
from wiki.models import ChangeEvent

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def _feed(client: Client, language: str = "en", **extra: str) -> ElementTree.Element:
    response = client.get(reverse("wiki:changes-feed"), HTTP_ACCEPT_LANGUAGE=language, **extra)  # type: ignore[arg-type]
    assert response.status_code == 200
    return ElementTree.fromstring(response.content)


def _events() -> None:
    ChangeEvent.objects.create(kind="page", action="edited", object_id=1, label="P", url="/wiki/p/", summary="fixed a typo")
    ChangeEvent.objects.create(kind="source", action="created", object_id=2, label="S", url="/sources/s/",
                               user=make_editor("ada"))


def test_the_feed_and_every_entry_hold_what_rfc_4287_requires(client: Client) -> None:
    _events()
    feed = _feed(client)
    assert feed.tag == f"{ATOM}feed"
    # §4.1.1: id, title, updated; an author, since not every entry would otherwise have one
    for name in ("id", "title", "updated"):
        assert (feed.findtext(f"{ATOM}{name}") or "").strip(), name
    assert feed.findtext(f"{ATOM}author/{ATOM}name") == "Agentic RL Wiki"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 2
    for entry in entries:
        # §4.1.2: id, title, updated; an author of its own here as well
        for name in ("id", "title", "updated"):
            assert (entry.findtext(f"{ATOM}{name}") or "").strip(), name
        assert (entry.findtext(f"{ATOM}author/{ATOM}name") or "").strip()
    assert {e.findtext(f"{ATOM}author/{ATOM}name") for e in entries} == {"ada", "import"}


def test_rows_without_a_user_are_called_import_in_the_readers_language(client: Client) -> None:
    _events()
    feed = _feed(client, "zh-Hans")
    entry = next(e for e in feed.findall(f"{ATOM}entry") if e.findtext(f"{ATOM}title", "").find("“P”") >= 0)
    assert entry.findtext(f"{ATOM}author/{ATOM}name") == "导入"
    assert entry.findtext(f"{ATOM}summary") == "fixed a typo — 导入"
    assert "import" not in ElementTree.tostring(feed, encoding="unicode").replace("导入", "")


def test_entry_ids_are_tag_uris_that_do_not_depend_on_the_host_or_scheme(client: Client) -> None:
    _events()
    ids = {}
    for host, secure in (("testserver", False), ("localhost", False), ("wiki.example.org", True)):
        with override_settings(ALLOWED_HOSTS=["*"]):
            feed = _feed(client, HTTP_HOST=host, **({"wsgi.url_scheme": "https"} if secure else {}))
        ids[host] = [feed.findtext(f"{ATOM}id")] + [e.findtext(f"{ATOM}id") for e in feed.findall(f"{ATOM}entry")]
    assert ids["testserver"] == ids["localhost"] == ids["wiki.example.org"]
    feed_id, *entry_ids = ids["testserver"]
    assert feed_id == "tag:agentic-rl-wiki.invalid,2026-11-29:recent-changes"
    pks = sorted(ChangeEvent.objects.values_list("pk", flat=True))
    assert sorted(int(re.fullmatch(r"tag:agentic-rl-wiki\.invalid,\d{4}-\d\d-\d\d:change-(\d+)", i or "").group(1))  # type: ignore[union-attr]
                  for i in entry_ids) == pks


@override_settings(FEED_TAG_AUTHORITY="wiki.example.org")
def test_the_tag_authority_is_the_configured_one(client: Client) -> None:
    _events()
    assert (_feed(client).findtext(f"{ATOM}id") or "").startswith("tag:wiki.example.org,")


def test_an_entrys_title_says_what_was_done_in_the_readers_word_order(client: Client) -> None:
    ChangeEvent.objects.create(kind="page", action="moved", object_id=1, label="GRPO 在智能体训练中的应用", url="/wiki/p/",
                               summary_key="page_moved_because",
                               summary_values={"before": "组相对策略优化", "after": "grpo-在智能体训练中的应用", "reason": "标题改用缩写"})
    ChangeEvent.objects.create(kind="claim", action="edited", object_id=2, label="策略梯度方法需要估计优势函数。", minor=True)
    ChangeEvent.objects.create(kind="source", action="unmerged", object_id=3, label="SkillForge")

    chinese = {e.findtext(f"{ATOM}title"): e.findtext(f"{ATOM}summary") for e in _feed(client, "zh-Hans").findall(f"{ATOM}entry")}
    english = {e.findtext(f"{ATOM}title") for e in _feed(client).findall(f"{ATOM}entry")}

    assert set(chinese) == {"移动了页面“GRPO 在智能体训练中的应用”", "编辑了论断“策略梯度方法需要估计优势函数。”（小编辑）",
                            "撤销了来源“SkillForge”的合并"}
    assert chinese["移动了页面“GRPO 在智能体训练中的应用”"] == (
        "从“组相对策略优化”移至“grpo-在智能体训练中的应用”。原因：标题改用缩写 — 导入")
    assert english == {"Page “GRPO 在智能体训练中的应用” moved", "Claim “策略梯度方法需要估计优势函数。” edited (minor edit)",
                       "Source “SkillForge” merge undone"}


def test_the_feed_of_one_kind_of_change_is_linked_from_that_list_and_says_what_it_holds(client: Client) -> None:
    _events()
    ChangeEvent.objects.create(kind="question", action="created", object_id=3, label="Q", url="/questions/3/",
                               user=make_editor("lin"))
    ChangeEvent.objects.create(kind="question", action="edited", object_id=3, label="Q", url="/questions/3/", minor=True)

    listed = client.get(reverse("wiki:changes"), {"kind": "question", "hideminor": "1", "hidemine": "1"},
                        HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    link = reverse("wiki:changes-feed") + "?kind=question&amp;hideminor=1"
    assert f'href="{link}">Atom 订阅</a>' in listed
    assert f'type="application/atom+xml" title="最近更改" href="{link}"' in listed

    query = {"kind": "question", "hideminor": "1"}
    chinese = ElementTree.fromstring(client.get(reverse("wiki:changes-feed"), query, HTTP_ACCEPT_LANGUAGE="zh-hans").content)
    english = ElementTree.fromstring(client.get(reverse("wiki:changes-feed"), {**query, "days": "7"}).content)
    assert [entry.findtext(f"{ATOM}title") for entry in chinese.findall(f"{ATOM}entry")] == ["创建了待核实问题“Q”"]
    assert chinese.findtext(f"{ATOM}title") == "Agentic RL Wiki——最近更改（待核实问题、不含小编辑）"
    assert english.findtext(f"{ATOM}title") == "Agentic RL Wiki — recent changes (Open question, last 7 days, no minor edits)"
    assert chinese.find(f"{ATOM}link[@rel='alternate']").get("href", "").endswith("/changes/?kind=question&hideminor=1")  # type: ignore[union-attr]
    ids = {feed.findtext(f"{ATOM}id") for feed in (chinese, english, _feed(client))}
    assert len(ids) == 3
    assert client.get(reverse("wiki:changes-feed"), {"kind": "nothing"}).status_code == 404
