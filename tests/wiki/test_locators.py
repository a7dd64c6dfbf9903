import pytest

from wiki.references.locators import distinct_locators, is_valid_locator, locator_key


@pytest.mark.parametrize(
    "locator",
    ["p.3", "pp.3-4", "pp. 9-16", "§3.1", "§3.1 / §5", "§2.4、§3", "§4.3", "Table 2", "Fig. 3", "Fig. 3a",
     "Appendix B", "Appendix B.2", "Table 2, Fig. 3", "table 2", "fig. 3", "appendix b", "第3页",
     "表 2", "表2", "图3", "图 3a", "附录 B", "附录B.1", "算法 1", "pp.3-4, 7", "p.3, 5-6, Table 2", "表 2、图 3"],
)
def test_locators_the_wiki_uses_are_accepted(locator: str) -> None:
    assert is_valid_locator(locator)


@pytest.mark.parametrize("text", ["", "   ", "Table", "p.", "3", "SkillForge", "Table 2 and stuff", "chapter three",
                                  "表", "图三", "p.3, seven", "附录"])
def test_text_that_names_no_place_is_not_a_locator(text: str) -> None:
    assert not is_valid_locator(text)


@pytest.mark.parametrize("typed", ["pp.3-4", "pp. 3-4", "pp. 3–4", "p. 3–4", "第3-4页", "第 3–4 页", "ＰＰ．３－４"])
def test_one_range_of_pages_however_typed_is_one_locator(typed: str) -> None:
    assert locator_key(typed) == locator_key("pp.3-4")


@pytest.mark.parametrize(("typed", "same"), [
    ("§3.1", "Sec. 3.1"), ("§ 3-§4", "§3-4"), ("Table 2", "表 2"), ("Fig. 3a", "图3a"), ("Appendix B", "附录 B"),
    ("第3章", "Chapter 3"), ("pp.3-4, 7", "p.3-4; p.7"), ("§2.4、§3", "§2.4, §3"), ("Eq. 2", "公式 2"),
])
def test_a_place_named_in_english_or_chinese_is_one_locator(typed: str, same: str) -> None:
    assert locator_key(typed) == locator_key(same)


@pytest.mark.parametrize(("one", "other"), [
    ("p.3", "p.13"), ("pp.3-4", "pp.3-5"), ("Table 2", "Fig. 2"), ("第3页", "第3章"), ("§3", "p.3"), ("p.3, 7", "p.7, 3"),
])
def test_other_places_are_other_locators(one: str, other: str) -> None:
    assert locator_key(one) != locator_key(other)


def test_the_locators_a_work_is_cited_at_are_listed_once_each_as_first_typed() -> None:
    assert distinct_locators(["pp. 3–4", "", "§5", "pp.3-4", "第 3–4 页", "Sec. 5"]) == ["pp. 3–4", "§5"]
