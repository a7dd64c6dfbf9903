import pytest

from wiki.references.locators import is_valid_locator


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
