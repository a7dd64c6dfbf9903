"""How a suggestion's evidence reads to an editor: the highlights' tooltips and the phrases that weighed most."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client
from django.utils import translation

from classifier import classify
from classifier.result import Span, Suggestion
from tests.calls import python_calls, python_steps
from tests.factories import make_source
from wiki.suggestions import highlight, signed_weight, strongest

TEXT = "We fine-tune the agent with SFT on expert data. The SFT data come from a stronger teacher, and SFT is all it uses."


def test_the_phrases_that_weighed_most_are_listed_heaviest_first_and_each_once() -> None:
    suggestion = classify(TEXT)
    decides = f"mechanism:{suggestion.mechanism.value}"
    repeated = [span for span in suggestion.evidence if span.decides == decides and span.cue == "SFT"]
    assert len(repeated) == 3
    listed = strongest(suggestion)
    assert [span.cue for span in listed].count("SFT") == 1
    assert [span.contribution for span in listed] == sorted((span.contribution for span in listed), reverse=True)
    assert listed[0].cue == "We fine-tune"
    # A phrase too light to have decided anything is highlighted, not listed.
    light = [span.cue for span in suggestion.evidence if span.decides == decides and 0 < span.contribution < 0.05]
    assert light and not set(light) & {span.cue for span in listed}


def test_a_weight_is_written_with_its_sign() -> None:
    assert (signed_weight(0.374), signed_weight(-0.04), signed_weight(1.0)) == ("+0.37", "\u22120.04", "+1.00")


def test_a_cue_of_another_mechanism_says_which_mechanism_its_weight_counts_towards() -> None:
    text = "We propose a prompting framework that evolves the harness of a frozen agent; it does not use reinforcement learning."
    suggestion = classify(text)
    assert suggestion.mechanism.value == "harness"
    with translation.override("en"):
        titles = re.findall(r'title="([^"]*)"', str(highlight(text, suggestion)))
    assert any(re.fullmatch(r"A cue of Policy gradient \(weight [+\u2212]\d\.\d\d towards Harness[^)]*\)", line)
               for title in titles for line in title.split("&#10;"))
    with translation.override("zh-hans"):
        titles = re.findall(r'title="([^"]*)"', str(highlight(text, suggestion)))
    assert any(re.fullmatch(r"“策略梯度”的线索（对“harness/脚手架”的权重为 [+\u2212]\d\.\d\d）", line)
               for title in titles for line in title.split("&#10;"))
    # Text is escaped, and only the marks are markup.
    assert "<script>" not in str(highlight("<script>x</script> " + text, classify("<script>x</script> " + text)))


def test_a_phrase_inside_a_longer_one_is_listed_as_part_of_it_with_its_weight_added() -> None:
    text = "我们提出了一个基于强化学习的智能体框架，在真实网页环境中进行多轮交互，使用GRPO算法根据任务完成奖励更新策略模型参数。"
    suggestion = classify(text)
    decides = f"mechanism:{suggestion.mechanism.value}"
    whole = text.index("强化学习"), text.index("强化学习") + 4
    inside = [span for span in suggestion.evidence
              if span.decides == decides and span.contribution > 0 and whole[0] <= span.start and span.end <= whole[1]]
    assert {span.cue for span in inside} >= {"强化学习", "化学"}
    listed = {span.cue: span.contribution for span in strongest(suggestion)}
    assert "化学" not in listed and "强化" not in listed
    assert listed["强化学习"] == sum(span.contribution for span in inside)


def _marked(text: str, suggestion: Suggestion) -> list[str]:
    return re.findall(r"<mark[^>]*>([^<]*)</mark>", str(highlight(text, suggestion)))


def test_of_two_overlapping_phrases_the_one_that_weighed_more_is_highlighted() -> None:
    text = "多 seed 与真正未见 harness 的验证。"
    suggestion = classify(text)
    pair = text.index("的验")

    def span(start: int, end: int, weight: float, decides: str = "mechanism:harness") -> Span:
        return Span(start, end, text[start:end], decides, False, weight)

    for pair_weight, word_weight, shown in ((0.02, 0.14, "验证"), (0.14, 0.02, "的验")):
        pairs = (span(pair, pair + 2, pair_weight), span(pair + 1, pair + 3, word_weight))
        assert _marked(text, replace(suggestion, evidence=pairs)) == [shown]

    # A phrase wins over the character pairs inside it however they weighed, and a negation over what it overlaps.
    whole, negation = text.index("harness"), text.index("未见")
    evidence = (span(whole, whole + 7, 0.1), span(whole + 1, whole + 3, 0.9),
                span(negation, negation + 2, 0.0, "negation"), span(negation - 1, negation + 1, 0.5))
    assert _marked(text, replace(suggestion, evidence=evidence)) == ["未见", "harness"]


@pytest.mark.django_db
def test_every_highlighted_phrase_is_listed_with_what_it_weighed_for_readers_who_cannot_hover(client: Client) -> None:
    source = make_source(slug="webwalker", short_name="WebWalker",
                         abstract="We train the web agent with GRPO on WebArena using the task success reward.")

    html = client.get(source.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()

    listed = re.search(r'<details class="evidence-list"><summary>各高亮词句的权重</summary><ul>(.*?)</ul></details>', html, re.S)
    assert listed is not None
    titles = [t.replace("&#10;", "；") for t in re.findall(r'<mark class="[^"]*" title="([^"]*)">', html)]
    items = re.findall(r"<li><mark[^>]*>[^<]*</mark> — (.*?)</li>", listed.group(1))
    assert titles and items == titles


def _claims(count: int) -> str:
    """What the classifier reads about a work that ``count`` claims cite, a line each."""
    return "\n".join(f"第 {n} 条：该工作用 GRPO 在浏览器环境中多步训练 agent，以任务成功为回报更新策略，而非 SFT。" for n in range(count))


def test_highlighting_what_twice_the_claims_say_takes_twice_the_work() -> None:
    small, large = _claims(150), _claims(300)
    small_suggestion, large_suggestion = classify(small), classify(large)
    assert len(large_suggestion.evidence) >= len(small_suggestion.evidence) > 1000
    small_calls = python_calls(lambda: highlight(small, small_suggestion))
    large_calls = python_calls(lambda: highlight(large, large_suggestion))
    # Each phrase was checked against every phrase kept before it: a work cited by 2,000 claims took 20 s to show.
    assert large_calls < 2.2 * small_calls, (small_calls, large_calls)
    assert highlight(large, large_suggestion).count("<mark") > highlight(small, small_suggestion).count("<mark") > 300


def _strongest_by_definition(suggestion: Suggestion, limit: int = 6) -> list[Span]:
    """What ``strongest`` means, read the slow way: each span taken longest first, then earliest, into the first
    phrase taken that holds it."""
    decides = f"mechanism:{suggestion.mechanism.value}"
    phrases: list[Span] = []
    spans = [span for span in suggestion.evidence if span.decides == decides and span.contribution > 0]
    for span in sorted(spans, key=lambda span: (span.start - span.end, span.start)):
        within = [i for i, p in enumerate(phrases) if p.start <= span.start and span.end <= p.end]
        if within:
            first = phrases[within[0]]
            phrases[within[0]] = first._replace(contribution=first.contribution + span.contribution)
        else:
            phrases.append(span)
    listed: dict[str, Span] = {}
    for phrase in sorted(phrases, key=lambda span: -span.contribution):
        if phrase.contribution >= 0.05:
            listed.setdefault(phrase.cue.casefold(), phrase)
    return list(listed.values())[:limit]


def test_a_phrase_held_by_two_goes_to_the_longer_then_the_earlier_and_equal_weights_keep_that_order() -> None:
    text = "abcdefghijklmnopqrstuvwxyz"
    suggestion = classify("We train the agent with GRPO.")
    decides = f"mechanism:{suggestion.mechanism.value}"

    def span(start: int, end: int, weight: float, cue: str = "") -> Span:
        return Span(start, end, cue or text[start:end], decides, False, weight)

    evidence = (
        span(2, 6, 0.10),  # cdef: held by bcdefg (longer) and cdefgh (as long, later): goes to bcdefg
        span(1, 7, 0.20), span(2, 8, 0.20), span(0, 5, 0.25),
        span(3, 5, 0.05),  # de: held by all three; bcdefg is the longest, then the earliest
        span(1, 7, 0.05),  # bcdefg again: part of the first
        span(10, 14, 0.25, "CUE"), span(16, 20, 0.25, "cue"),  # the same cue twice, as heavy as abcde: by length
        span(20, 22, 0.55), span(22, 24, 0.55), span(19, 25, 0.01),  # a light phrase holding two heavier ones
        span(23, 24, 0.3),  # x: held by wx and by tuvwxy, the longer
    )
    chosen = replace(suggestion, evidence=evidence)
    expected = _strongest_by_definition(chosen)
    assert [(s.start, s.end) for s in expected] == [(19, 25), (1, 7), (0, 5), (10, 14), (2, 8)]
    assert strongest(chosen) == expected
    assert expected[1].contribution == pytest.approx(0.2 + 0.1 + 0.05 + 0.05)


def test_the_strongest_phrases_of_a_long_text_are_those_of_their_definition() -> None:
    text = _claims(120)
    suggestion = classify(text)
    assert strongest(suggestion) == _strongest_by_definition(suggestion)
    assert strongest(suggestion, limit=50) == _strongest_by_definition(suggestion, limit=50)


def test_listing_the_strongest_phrases_of_twice_the_claims_takes_twice_the_work() -> None:
    small, large = classify(_claims(100)), classify(_claims(200))
    small_steps = python_steps(lambda: strongest(small))
    large_steps = python_steps(lambda: strongest(large))
    # Each span was checked against every phrase taken before it: a work cited by 2,000 claims took 2 s to list them.
    assert large_steps < 2.3 * small_steps, (small_steps, large_steps)
