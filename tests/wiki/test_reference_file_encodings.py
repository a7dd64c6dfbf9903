"""Reference files without a byte-order mark that are not UTF-8: Chinese in GB 18030/GBK or Big5 is read as Chinese,
Western text in Windows-1252 as Western text, even where the bytes of one could be read as the other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wiki.references.encoding import LEGACY_ENCODING, decode_reference_file
from wiki.references.errors import ReferencesRefused

# A thesis and an article as a Taiwanese reference manager exports them, in Big5.
BIG5_LIBRARY = """@mastersthesis{chen2019,
  author = {陳志明},
  title = {基於強化學習之對話代理人研究},
  school = {國立臺灣大學資訊工程學系},
  address = {臺北},
  year = {2019}
}

@article{lin2021,
  author = {林, 美華 and Chen, Wei},
  title = {大型語言模型的工具使用：以網頁代理為例},
  journal = {資訊管理學報},
  volume = {28},
  number = {3},
  pages = {201--230},
  year = {2021}
}
"""

# Traditional characters in GBK, whose second bytes are mostly ASCII ones: no four bytes above ASCII in a row.
GBK_TRADITIONAL = """@article{huang2020,
  author = {黃華 and 鄭東},
  title = {臺灣網路體系與環境},
  journal = {資訊學報},
  year = {2020}
}
"""

# Names as Zotero writes them, family and given apart, each one character alone between ASCII.
GB2312_NAMES = """@inproceedings{wang2024,
  author = {王, 明 and Smith, John},
  title = {Tool-Using Agents Trained with GRPO},
  booktitle = {Proceedings of ACL},
  year = {2024}
}
"""


def _reads_whole_as_chinese(data: bytes) -> bool:
    for encoding in ("gb18030", "cp950"):
        try:
            data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return True
    return False


@pytest.mark.parametrize(("text", "encoding"), [
    (BIG5_LIBRARY, "big5"),
    (BIG5_LIBRARY, "cp950"),
    (GBK_TRADITIONAL, "gbk"),
    (GB2312_NAMES, "gb2312"),
])
def test_chinese_in_a_legacy_encoding_is_read_as_chinese(text: str, encoding: str) -> None:
    assert decode_reference_file(text.encode(encoding), fallback=LEGACY_ENCODING) == text


def test_traditional_characters_in_gbk_need_not_stand_four_bytes_in_a_row() -> None:
    data = GBK_TRADITIONAL.encode("gbk")
    assert not re.search(rb"[\x80-\xff]{4}", data)
    assert decode_reference_file(data, fallback=LEGACY_ENCODING) == GBK_TRADITIONAL


@pytest.mark.parametrize("text", [
    "@inproceedings{bonet2001,\n  author = {Blai Bonet and H\u00e9ctor Geffner},\n"
    "  title = {Planning as Heuristic Search},\n  year = {2001}\n}\n",
    "@article{nunez2019,\n  author = {\u00d1\u00fa\u00f1ez, \u00cd\u00f1igo and Sch\u00f6lkopf, Bernhard},\n"
    "  title = {Informa\u00e7\u00e3o e comunica\u00e7\u00e3o},\n  year = {2019}\n}\n",
    "@book{mehlhorn1999,\n  author = {Kurt Mehlhorn and Stefan N\u00e4her},\n  title = {{LEDA}},\n  year = {1999}\n}\n",
    "@misc{torralba2015,\n  author = {\u00c1lvaro Torralba},\n  title = {G\u00e9n\u00e9rale},\n  year = {2015}\n}\n",
    "@book{zola1886,\n  author = {\u00c9MILE ZOLA},\n  title = {L\u2019\u0152UVRE},\n  year = {1886}\n}\n",
    "@article{stahlberg2022,\n  author = {Simon St\u00e5hlberg and Guillem Franc\u00e8s},\n  title = {Muninn},\n}\n",
])
def test_western_names_gb18030_or_big5_could_read_stay_windows_1252(text: str) -> None:
    data = text.encode("cp1252")
    assert _reads_whole_as_chinese(data)
    assert decode_reference_file(data, fallback=LEGACY_ENCODING) == text


@pytest.mark.parametrize(("utf8", "other", "encoding"), [
    ("@article{a, title={强化学习综述}, year={2024}}\n", "@article{b, title={強化學習}, year={2024}}\n", "big5"),
    ("@article{a, title={Müller und Jörg}, year={2024}}\n", "@article{b, title={Jörg}, year={2024}}\n", "latin-1"),
    ("@article{a, title={强化学习综述}, year={2024}}\n", "@article{b, title={工具学习}, year={2024}}\n", "gbk"),
])
def test_a_file_part_utf8_and_part_another_encoding_is_refused_naming_a_line_of_each(
        utf8: str, other: str, encoding: str) -> None:
    # as two exports pasted into one file: either reading would change the other part's letters
    with pytest.raises(ReferencesRefused) as refused:
        decode_reference_file(("% two files\n" + utf8).encode() + other.encode(encoding), fallback=LEGACY_ENCODING)
    assert refused.value.code == "mixed_encodings"
    assert "line 2 is UTF-8, line 3 is not" in str(refused.value)


@pytest.mark.parametrize("encoding", ["gb18030", "big5"])
def test_a_whole_chinese_wiki_page_in_a_legacy_encoding_is_not_taken_for_mixed(encoding: str) -> None:
    for page in (Path(__file__).parents[2] / "fixtures" / "pages").glob("*.md"):
        data = page.read_text(encoding="utf-8").encode(encoding, errors="replace")
        assert decode_reference_file(data, fallback=LEGACY_ENCODING)
