"""Hostile Markdown: inputs past the renderer's limits (refused) and the worst just inside them (rendered).

Shared by the tests, which check that each is refused with a message or renders, and by
``benchmarks/markdown_bench.py``, which times them.
"""

from __future__ import annotations

REFUSED = {
    "200k [": "[" * 200_000,
    "200k backslashes": "\\" * 200_000,
    "paragraph of 40k <div>": "<div>" * 40_000,
    "50k headings": "# h\n" * 40_000,
    "28k list items": "- item\n" * 28_000,
    "3000 citations": "".join(f"x（来源：T{i}，p.3）\n\n" for i in range(3000)),
    "40 deep nested lists": "\n".join("    " * i + "- x" for i in range(40)),
    "deep quotes": "> " * 500 + "x",
    "10 [ in a 200k paragraph beyond the scan budget": "[" * 11 + "word " * 39_000,
    "60 paragraphs of 1k with 40 unclosed [": "\n\n".join("[" * 40 + "字" * 960 for _ in range(60)),
    "990 unclosed code fences before 100k": "\n\n".join(["```x"] * 990) + "\n" + "b" * 100_000,
}
# The worst inputs just inside the limits (see wiki/markdown/limits.py).
ACCEPTED = {
    "999 [ in one paragraph": "[" * 999 + "a" * 1002,
    "1 paragraph: 10 [ in 199k chars": "[" * 10 + "word " * 39_000,
    "5000 list items": "\n".join(f"- item {i} " + "word " * 6 for i in range(5000))[:200_000],
    "2000 citations": "\n\n".join("（来源：X，p.3）" * 1000 for _ in range(2)),
    "1000 headings": "\n".join(f"## heading {i}\n" + "text " * 30 for i in range(1000))[:200_000],
    "lists 32 deep": "\n".join("    " * (i % 32) + "- x" for i in range(2500)),
    "20 paragraphs of 1000 &amp;": "\n\n".join("&amp;" * 1000 for _ in range(20)),
    "45 paragraphs of 1k with 40 unclosed [": "\n\n".join("[" * 40 + "字" * 960 for _ in range(45)),
    "200 paragraphs of 1k with 20 wiki links": "\n\n".join(
        " ".join(f"这是一段普通的文字，讨论第{i}个主题与 [[页面{i}]] 的关系，并说明其意义。" for i in range(20))
        for _ in range(200)
    ),
    "a 17k paragraph with 400 wiki links": " ".join(f"第{i}个主题见 [[页面 {i}]] 一节，" + "字" * 20 for i in range(400)),
    "3920 unclosed $$ before 100k": "\n".join((["$$x"] * 490 + [""]) * 8) + "\n" + "a" * 100_000,
    "999 unclosed \\( in a 190k line": "\\(" * 999 + "a" * 190_000,
    "100 unclosed code fences before 190k": "\n\n".join(["```x"] * 100) + "\n" + "b" * 190_000,
}
