"""Tables as GitHub writes them: pipes in cells, escaped or inside code, and the columns' alignment."""

from __future__ import annotations

from wiki import markdown as wiki_markdown


def _html(text: str) -> str:
    return wiki_markdown.render(text, sources={}, existing_pages=frozenset()).html


def test_an_escaped_pipe_in_a_cells_code_shows_as_a_pipe_and_keeps_the_row_whole() -> None:
    html = _html("| 写法 | 含义 |\n|:--|--:|\n| `a \\| b` | 或 |\n| `x|y` | 管道 |\n| 甲 \\| 乙 | 文字 |")
    assert '<td align="left"><code>a | b</code></td>\n<td align="right">或</td>' in html
    assert '<td align="left"><code>x|y</code></td>\n<td align="right">管道</td>' in html
    assert '<td align="left">甲 | 乙</td>\n<td align="right">文字</td>' in html
    assert "\\|" not in html


def test_an_escaped_pipe_in_code_outside_a_table_stays_as_typed() -> None:
    assert _html("命令 `a \\| b`") == "<p>命令 <code>a \\| b</code></p>"
