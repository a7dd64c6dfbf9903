"""Which works a cited title is close to: a letter, a plural or a subtitle apart, never a different number."""

from __future__ import annotations

import pytest

from wiki.references.citation_matching import CloseMatcher, WorkRef
from wiki.references.matching import main_title

REACT = WorkRef("react", "ReAct", "ReAct: Synergizing Reasoning and Acting in Language Models")
GPT4 = WorkRef("gpt-4", "GPT-4", "GPT-4 Technical Report")
STUB = WorkRef("starharness", "StarHarness", "StarHarness")
VOYAGER = WorkRef("voyager", "Voyager", "Voyager")
CHINESE = WorkRef("cua-audit", "2026-10-22 CUA 开源项目审计", "2026-10-22 CUA 开源项目审计")
REFLEXION = WorkRef("reflexion", "Shinn 2023", "Reflexion: Language Agents with Verbal Reinforcement Learning")
WORKS = [REACT, GPT4, STUB, VOYAGER, CHINESE, REFLEXION]


@pytest.mark.parametrize(("cited", "expected"), [
    ("ReAct: Synergizing Reasoning and Acting in Language Model", REACT),    # a letter missing
    ("ReAct: Synergising Reasoning and Acting in Language Models", REACT),   # spelt otherwise
    ("Reflexion", REFLEXION),                                                 # the subtitle dropped
    ("ReAct: Reasoning and Acting", REACT),                                   # another subtitle
    ("StarHarness: Harness Evolution", STUB),                                 # a subtitle added to a work cited bare
    ("GPT-4 Technical Reports", GPT4),                                        # a plural
    ("Voyagers", VOYAGER),
    ("2026-10-22 CUA 开源项目审核", CHINESE),                                  # one character apart
])
def test_a_title_a_little_off_is_close_to_its_work(cited: str, expected: WorkRef) -> None:
    assert CloseMatcher(WORKS).close(cited)[:1] == [expected]


@pytest.mark.parametrize("cited", [
    "ReAct: Synergizing Reasoning and Acting in Language Models",   # the same title: a match, not a suggestion
    "react — synergizing reasoning and acting in language models",  # the same once normalised
    "GPT-3 Technical Report",                                       # another number: another work
    "2025-10-22 CUA 开源项目审计",
    "ReAct",                                                        # its short name: a match
    "Toolformer: Language Models Can Teach Themselves to Use Tools",
    "",
])
def test_the_same_title_a_different_number_or_another_work_is_not_close(cited: str) -> None:
    assert CloseMatcher(WORKS).close(cited) == []


def test_main_part_is_the_title_before_its_subtitle() -> None:
    assert main_title("ReAct: Synergizing") == "react"
    assert main_title("ReAct：Synergizing") == "react"  # a full-width colon too
    assert main_title("No subtitle") == ""


def test_close_works_are_ranked_most_alike_first_and_limited() -> None:
    works = [WorkRef(f"w{n}", f"W{n}", f"Scaling Agents With Tools Part {n}") for n in range(3)] + [
        WorkRef("a", "A", "Learning to Act in Web Environments"),
        WorkRef("b", "B", "Learning to Act in Web Environment Suites"),
    ]
    assert [w.slug for w in CloseMatcher(works).close("Learning to Act in Web Environment")] == ["a", "b"]
    assert len(CloseMatcher(works * 3).close("Learning to Act in Web Environment", limit=2)) == 2


def test_ten_thousand_works_are_searched_quickly() -> None:
    import time

    works = [WorkRef(f"w{n}", f"W{n}", f"Generated Work Number {n} on Agent Training With Environment {n % 97}")
             for n in range(10_000)] + [REACT]
    matcher = CloseMatcher(works)
    started = time.perf_counter()
    for n in range(50):
        matcher.close(f"A Brand New Title {n} About Something Else Entirely")
    close = matcher.close("ReAct: Synergizing Reasoning and Acting in Language Model")
    assert close == [REACT]
    assert time.perf_counter() - started < 5


def test_a_piece_many_works_share_bounds_the_comparisons_not_the_match() -> None:
    from wiki.references.citation_matching import PIECE_HITS, PIECES
    from wiki.references.identifiers import normalize_title

    series = [WorkRef(f"s{n}", f"S{n}", f"Title number {n} of the agent benchmark series, volume {n}")
              for n in range(1_000)]
    matcher = CloseMatcher([*series, REACT])
    # Every piece but the last is in a thousand titles: each is looked for in PIECE_HITS of them at most.
    cited = "Title number 1 of the agent benchmark series, volume 1 yxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    assert len(list(matcher._candidates(normalize_title(cited)))) <= PIECES * PIECE_HITS
    # A title of its own kind among them is still found by its distinctive pieces.
    assert matcher.close("ReAct: Synergizing Reasoning and Acting in Language Model") == [REACT]
    assert matcher.close("Title number 777 of the agent benchmark serie, volume 777")[:1] == [series[777]]
