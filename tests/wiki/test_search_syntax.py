"""The operators of a search box: "quoted phrases" find their words in that order, in English and Chinese (Traditional
characters read as Simplified ones), as written; -word and -"a phrase" leave out what holds them, and are not read as
a glossary term's names; OR finds either side; a quote left open is closed at the end; the results page says what it
understood and highlights a phrase whole; a hyphen inside a word or standing alone is read as before."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_page
from wiki.devtools.generate import wiki_generate
from wiki.models import Page
from wiki.roles import Account
from wiki.search.index import search_reindex_all
from wiki.search.query import search
from wiki.search.syntax import Piece, Understood, understand
from wiki.services.glossary import glossary_term_create

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Corpus:
    in_order: Page  # proxy dense rewards
    shuffled: Page  # dense proxy rewards
    model: Page  # 奖励模型, as written
    scattered: Page  # 奖励 … 激励模型: the bigrams of 奖励模型, not in a row
    by_alias: Page  # RM, another name of 奖励模型
    traditional: Page  # 獎勵模型 in Traditional characters
    hacking: Page  # reward hacking
    hacking_zh: Page  # 奖励黑客, its Chinese name
    shaping: Page  # reward shaping, no hacking
    hacked_reward: Page  # hacking and reward, not "reward hacking"
    grpo: Page
    ppo: Page
    multi_turn: Page


@pytest.fixture
def corpus(editor: Account) -> Corpus:
    glossary_term_create(
        fields={
            "slug": "reward-hacking",
            "name_zh": "奖励黑客",
            "name_en": "reward hacking",
            "aliases_en": ["specification gaming"],
        },
        user=editor,
    )
    glossary_term_create(
        fields={"slug": "reward-model", "name_zh": "奖励模型", "name_en": "reward model", "aliases_en": ["RM"]},
        user=editor,
    )
    return Corpus(
        in_order=make_page(
            slug="in-order", title="Shaping notes", body="Agents learn faster from proxy dense rewards in long tasks."
        ),
        shuffled=make_page(
            slug="shuffled", title="Signals", body="Dense proxy rewards can mislead the policy over many rewards."
        ),
        model=make_page(slug="model", title="评分", body="奖励模型给出每一步的分数。"),
        scattered=make_page(slug="scattered", title="信号", body="奖励信号来自一个激励模型。"),
        by_alias=make_page(slug="by-alias", title="Scores", body="An RM scores each step."),
        traditional=make_page(slug="traditional", title="評分", body="獎勵模型為每一步評分。"),
        hacking=make_page(slug="hacking", title="Exploits", body="Reward hacking shows up when the reward is a proxy."),
        hacking_zh=make_page(slug="hacking-zh", title="漏洞", body="策略会出现奖励黑客行为。"),
        shaping=make_page(
            slug="shaping", title="Shaping", body="Reward shaping adds a potential-based bonus to the reward."
        ),
        hacked_reward=make_page(slug="hacked-reward", title="Audit", body="Hacking the grader inflates the reward."),
        grpo=make_page(
            slug="grpo-only",
            title="Group baselines",
            body="GRPO normalises advantages within a group; 我们用GRPO训练策略。",
        ),
        ppo=make_page(slug="ppo-only", title="Clipping", body="PPO clips the ratio of new to old policy."),
        multi_turn=make_page(
            slug="multi-turn",
            title="Dialogue",
            body="Multi-turn agents with GRPO-based training and 强化学习-奖励 shaping.",
        ),
    )


def _pages(query: str) -> set[str]:
    return {
        hit.url.strip("/").split("/")[-1]
        for group in search(query, kinds=["page"], limit=50).groups
        for hit in group.hits
    }


def test_a_query_is_read_into_phrases_exclusions_and_ors() -> None:
    assert understand('"proxy dense rewards"') == Understood(clauses=((Piece("proxy dense rewards", phrase=True),),))
    assert understand('reward -hacking -"reward model"') == Understood(
        clauses=((Piece("reward"),),), excluded=(Piece("hacking"), Piece("reward model", phrase=True))
    )
    assert understand("policy GRPO OR PPO") == Understood(clauses=((Piece("policy"),), (Piece("GRPO"), Piece("PPO"))))
    # Curly and full-width quotes and minus signs, as a Chinese input method types them.
    assert understand("“奖励模型” －黑客") == Understood(
        clauses=((Piece("奖励模型", phrase=True),),), excluded=(Piece("黑客"),)
    )


def test_a_hyphen_inside_a_word_or_standing_alone_and_a_lower_case_or_are_plain_words() -> None:
    for query in (
        "multi-turn GRPO-based",
        "强化学习-奖励",
        "reward - hacking",
        "GRPO or PPO",
        "OR GRPO",
        "GRPO OR",
        "GRPO OR -PPO",
    ):
        understood = understand(query)
        assert not understood.phrases and not understood.alternatives, query
        assert understood.excluded == ((Piece("PPO"),) if query.endswith("-PPO") else ()), query


def test_an_unbalanced_quote_is_closed_at_the_end() -> None:
    assert understand('GRPO "proxy dense') == Understood(
        clauses=((Piece("GRPO"),), (Piece("proxy dense", phrase=True),))
    )
    assert understand('reward -"proxy') == Understood(
        clauses=((Piece("reward"),),), excluded=(Piece("proxy", phrase=True),)
    )
    assert understand('"') == understand('-"') == Understood()


def test_a_quoted_phrase_finds_its_words_in_that_order_only(corpus: Corpus) -> None:
    assert {"in-order", "shuffled"} <= _pages("proxy dense rewards")

    assert _pages('"proxy dense rewards"') == {"in-order"}
    assert _pages('"dense proxy rewards"') == {"shuffled"}
    assert _pages('"rewards proxy"') == set()


def test_a_chinese_phrase_is_that_run_of_characters_in_either_script(corpus: Corpus) -> None:
    assert {"model", "scattered", "traditional"} <= _pages("奖励模型")

    assert _pages('"奖励模型"') == {"model", "traditional"}
    assert _pages("“獎勵模型”") == {"model", "traditional"}
    # Latin and Chinese in one phrase, a lone character at its edge included
    assert _pages('"用 GRPO 训练"') == _pages('"GRPO训练"') == {"grpo-only"}
    assert _pages('"训练 GRPO"') == set()


def test_a_phrase_is_searched_as_written_not_by_a_glossary_terms_other_names(corpus: Corpus) -> None:
    assert "by-alias" in _pages("奖励模型")
    results = search('"奖励模型"', kinds=["page"])

    assert results.terms == []
    assert "by-alias" not in _pages('"奖励模型"')
    assert "by-alias" not in _pages('"reward model"')


def test_a_minus_before_a_word_leaves_out_what_holds_it_and_names_no_term(corpus: Corpus) -> None:
    assert {"hacking", "hacking-zh"} <= _pages("reward hacking")

    results = search("reward -hacking", kinds=["page"])

    assert results.terms == []
    assert _pages("reward -hacking") == {"shaping", "in-order", "shuffled"}
    assert _pages("奖励 -黑客") == {"model", "scattered", "traditional", "multi-turn"}


def test_a_minus_before_a_quoted_phrase_leaves_out_only_what_holds_the_phrase(corpus: Corpus) -> None:
    assert _pages('reward -"reward hacking"') == {"shaping", "hacked-reward", "in-order", "shuffled"}
    assert _pages('奖励 -"奖励模型"') == {"scattered", "hacking-zh", "multi-turn"}
    assert _pages('rewards -"proxy dense rewards"') == {"shuffled"}


def test_hyphens_inside_words_and_alone_are_read_as_before(corpus: Corpus) -> None:
    assert _pages("multi-turn") == _pages("multi turn") == {"multi-turn"}
    assert _pages("GRPO-based") == {"multi-turn"}
    assert _pages("强化学习-奖励") == {"multi-turn"}
    assert _pages("reward - hacking") == _pages("reward hacking")
    assert [t.slug for t in search("reward - hacking").terms] == ["reward-hacking"]
    # the same words with the minus starting one: left out
    assert _pages("multi -turn") == set()


def test_or_between_two_terms_finds_either(corpus: Corpus) -> None:
    assert _pages("GRPO OR PPO") == {"grpo-only", "ppo-only", "multi-turn"}
    assert _pages('PPO OR "proxy dense rewards"') == {"ppo-only", "in-order"}
    assert _pages("policy GRPO OR PPO") == {"ppo-only"}
    assert _pages("GRPO or PPO") == set()  # a lower-case "or" is a word


def test_the_results_page_says_what_it_understood_in_either_language(client: Client, corpus: Corpus) -> None:
    url = reverse("wiki:search")
    english = client.get(url, {"q": 'reward -hacking "proxy dense'}).content.decode()
    chinese = client.get(url, {"q": 'reward -hacking "proxy dense'}, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    either = client.get(url, {"q": "GRPO OR PPO"}, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()

    assert 'Phrases, their words in this order: “<span lang="en">proxy dense</span>”.' in english
    assert 'Excluding: <span lang="en">hacking</span>.' in english
    assert '短语（词按此顺序紧挨着）：“<span lang="en">proxy dense</span>”。' in chinese
    assert '排除：<span lang="en">hacking</span>。' in chinese
    assert '任一：<span lang="en">GRPO</span> 或 <span lang="en">PPO</span>。' in either
    assert "search-understood" not in client.get(url, {"q": "reward hacking"}).content.decode()


def test_a_search_that_only_excludes_says_so_and_an_unbalanced_quote_is_no_error(
    client: Client, corpus: Corpus
) -> None:
    url = reverse("wiki:search")
    only_excludes = client.get(url, {"q": "-hacking"})
    for query in ('"', '-"', '"proxy dense', 'reward -"', '""', '"-"', "-", "- -"):
        assert client.get(url, {"q": query}).status_code == 200, query

    assert only_excludes.status_code == 200
    assert "only says what to leave out: add a word or a phrase to look for." in only_excludes.content.decode()
    assert _pages('"proxy dense') == {"in-order"}


def test_a_phrase_is_highlighted_whole_in_its_snippet(client: Client, corpus: Corpus) -> None:
    def snippets(query: str) -> dict[str, str]:
        return {hit.url: hit.snippet_html for group in search(query, kinds=["page"]).groups for hit in group.hits}

    chinese = snippets('"獎勵模型"')

    assert snippets('"proxy dense rewards"')["/wiki/in-order/"] == (
        "Agents learn faster from <mark>proxy dense rewards</mark> in long tasks."
    )
    # the phrase, not each of its words, wherever it stands
    assert snippets('"用 GRPO 训练"')["/wiki/grpo-only/"] == (
        "GRPO normalises advantages within a group; 我们<mark>用GRPO训练</mark>策略。"
    )
    assert chinese["/wiki/model/"] == "<mark>奖励模型</mark>给出每一步的分数。"
    assert chinese["/wiki/traditional/"] == "<mark>獎勵模型</mark>為每一步評分。"
    html = client.get(reverse("wiki:search"), {"q": 'reward -hacking "proxy dense rewards"'}).content.decode()
    assert "<mark>proxy dense rewards</mark>" in html


def test_a_search_with_operators_runs_the_same_queries_on_a_larger_wiki(client: Client, corpus: Corpus) -> None:
    url = reverse("wiki:search")
    query = {"q": 'reward -hacking "proxy dense rewards" GRPO OR PPO'}
    # A search that finds something in both (one that finds nothing also reads the names to suggest close ones).
    make_page(slug="all-three", title="Everything", body="GRPO learns from proxy dense rewards as its reward.")
    with CaptureQueriesContext(connection) as small:
        response = client.get(url, query)
    assert response.status_code == 200
    assert [hit.url for group in response.context["results"].groups for hit in group.hits] == ["/wiki/all-three/"]

    wiki_generate(works=200, claims=300, pages=20, seed=5)
    search_reindex_all()
    with CaptureQueriesContext(connection) as large:
        response = client.get(url, query)

    assert len(large) == len(small)
    assert [hit.url for group in response.context["results"].groups for hit in group.hits] == ["/wiki/all-three/"]
