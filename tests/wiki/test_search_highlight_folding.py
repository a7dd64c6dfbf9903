"""A hit highlights the words that matched where they are written, when search matched them folded (full-width
letters, Traditional characters, case) on either side, and however folding changed the length of the text before them;
a claim's hit is its own sentence, not its page's text."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from wiki.models import Claim, SearchDocument
from wiki.search.highlight import highlight, highlighter, snippet
from wiki.search.plain import plain_text
from wiki.search.query import search
from wiki.search.tokenize import fold_with_positions, folded_text
from wiki.services.pages import page_save_revision


def _marked(query: str, text: str) -> str:
    return str(highlight(text, highlighter(query)))


def test_a_query_in_one_form_highlights_the_text_in_the_other() -> None:
    assert _marked("grpo", "我们用 ＧＲＰＯ 训练。") == "我们用 <mark>ＧＲＰＯ</mark> 训练。"
    assert _marked("ＧＲＰＯ", "GRPO and grpo") == "<mark>GRPO</mark> and <mark>grpo</mark>"
    assert _marked("強化學習", "强化学习很重要。") == "<mark>强化学习</mark>很重要。"
    assert _marked("强化学习", "強化學習很重要。") == "<mark>強化學習</mark>很重要。"
    assert _marked("ｓｋｉｌｌｆｏｒｇｅ", "SkillForge") == "<mark>SkillForge</mark>"


def test_highlights_stay_in_place_when_folding_changes_the_length() -> None:
    # ﬁ is two letters folded, Ⅻ three, and an e written with a separate accent one
    assert _marked("grpo", "ﬁ Ⅻ ＧＲＰＯ，再用 GRPO") == "ﬁ Ⅻ <mark>ＧＲＰＯ</mark>，再用 <mark>GRPO</mark>"
    assert _marked("first", "the ﬁrst run") == "the <mark>ﬁrst</mark> run"
    assert _marked("cafe", "cafe\u0301 Ⅻ cafe") == "<mark>cafe\u0301</mark> Ⅻ <mark>cafe</mark>"
    # two matches within one character folded into several mark it once (½ is 1⁄2 folded)
    assert _marked("1 2", "½") == "<mark>½</mark>"
    assert _marked("grpo", "<ＧＲＰＯ>") == "&lt;<mark>ＧＲＰＯ</mark>&gt;"


def test_folded_positions_lead_back_to_whole_characters() -> None:
    folded = fold_with_positions("ﬁ ＧＲＰＯ 強")
    assert folded.text == "fi GRPO 强"
    assert folded.written(3, 7) == (2, 6)
    assert folded.written(1, 2) == (0, 1)  # the i of ﬁ is the ligature
    assert fold_with_positions("plain text").starts is None


def test_text_read_in_runs_folds_and_leads_back_as_read_a_character_at_a_time() -> None:
    # plain runs (ASCII, CJK) beside characters NFKC changes, and letters a combining accent follows
    text = "（来源：SkillForge，§2.1）e\u0301cole 中\u0301文 ＧＲＰＯ Ⅻ ab\u0301c 學習"

    folded = fold_with_positions(text)

    assert folded.text == "(来源:SkillForge,§2.1)ecole 中\u0301文 GRPO XII ab\u0301c 学习" == folded_text(text)
    assert folded.starts is not None and folded.ends is not None
    assert [text[folded.starts[i]:folded.ends[i]] for i in range(len(folded.text))][:4] == ["（", "来", "源", "："]
    accented = folded.text.index("ecole")
    assert folded.written(accented, accented + 1) == (text.index("e\u0301"), text.index("e\u0301") + 2)
    after = folded.text.index("文")
    assert folded.written(after - 2, after - 1) == folded.written(after - 1, after)  # 中 and its accent, one cluster
    roman = folded.text.index("XII")
    assert folded.written(roman, roman + 3) == (text.index("Ⅻ"), text.index("Ⅻ") + 1)


def test_a_snippet_is_cut_around_the_match_after_text_that_folds_longer() -> None:
    text = "ﬁ" * 400 + " ＧＲＰＯ 更新策略。"

    cut = str(snippet(text, highlighter("grpo"), length=60))

    assert "<mark>ＧＲＰＯ</mark>" in cut and cut.startswith("…")


@pytest.mark.django_db
def test_the_search_page_highlights_full_width_and_traditional_forms_as_written(client: Client) -> None:
    page_save_revision(slug="training", title="训练笔记",
                       body="## 关键要点\n\n- 我们用 ＧＲＰＯ 训练网页智能体。\n- 強化學習需要可验证的奖励。\n")

    by_latin = client.get(reverse("wiki:search"), {"q": "grpo", "kind": "claim"}).content.decode()
    by_traditional = client.get(reverse("wiki:search"), {"q": "強化學習", "kind": "claim"}).content.decode()
    by_simplified = client.get(reverse("wiki:search"), {"q": "强化学习", "kind": "claim"}).content.decode()

    assert "<mark>ＧＲＰＯ</mark>" in by_latin
    assert "<mark>強化學習</mark>" in by_traditional and "<mark>強化學習</mark>" in by_simplified


@pytest.mark.django_db
def test_a_claims_search_entry_is_its_own_sentence() -> None:
    page_save_revision(slug="notes", title="Notes", body=(
        "Preamble about SkillForge.\n\n## 关键要点\n\n"
        "- Tree-GRPO updates the policy with tree rollouts.\n- The supervisor corrects actions without training.\n"))
    tree, supervisor = Claim.objects.current().filter(page__slug="notes").order_by("position")

    documents = dict(SearchDocument.objects.filter(kind="claim").values_list("object_id", "body"))
    claims = {group.kind: [hit.object_id for hit in group.hits] for group in search("supervisor").groups}
    preamble = {group.kind: [hit.object_id for hit in group.hits] for group in search("SkillForge").groups}

    assert documents == {tree.pk: plain_text(tree.text), supervisor.pk: plain_text(supervisor.text)}
    assert "Preamble" not in documents[tree.pk] and "supervisor" not in documents[tree.pk]
    assert claims["claim"] == [supervisor.pk]
    assert "claim" not in preamble and preamble["page"] != []
