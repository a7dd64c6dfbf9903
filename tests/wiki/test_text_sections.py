"""A page's sections in its Markdown: found as the renderer finds its headings, and spliced back one at a time."""

from __future__ import annotations

import pytest

from wiki import markdown as wiki_markdown
from wiki.markdown.section_links import section_ids, with_section_links
from wiki.text.sections import SectionNotFound, section, section_splice, sections

PAGE = """# Title of the page

Lead.

## Definition

A definition.

```python
## a comment in code, not a heading
x = 1
```

### Details #

Deeper, then deeper still:

##### Footnote heading

## Key points

- one
- two

Scope
-----

> ## Quoted heading

~~~~
unclosed fence: the renderer reads on as Markdown
## After the fence
"""


def _titles(text: str) -> list[tuple[int, str]]:
    return [(part.level, part.title) for part in sections(text)]


def test_each_heading_of_the_contents_starts_a_section_and_fenced_lines_are_no_headings() -> None:
    assert _titles(PAGE) == [(2, "Definition"), (3, "Details"), (2, "Key points"), (2, "Scope"), (2, "Quoted heading"),
                             (2, "After the fence")]


def test_the_sections_are_the_headings_of_the_rendered_contents() -> None:
    toc = wiki_markdown.render(PAGE, sources={}, existing_pages=frozenset()).toc
    assert [(entry["level"], entry["title"]) for entry in toc] == _titles(PAGE)
    assert section_ids(body=PAGE, toc=toc) == ["definition", "details", "key-points", "scope", "quoted-heading",
                                               "after-the-fence"]


def test_a_section_runs_to_the_next_heading_of_its_level_or_higher_its_deeper_headings_inside() -> None:
    definition = section(PAGE, 1)
    text = PAGE[definition.start:definition.end]
    assert text.startswith("## Definition\n") and text.endswith("##### Footnote heading\n\n")
    assert "## a comment in code" in text and "### Details #" in text
    details = section(PAGE, 2)
    assert PAGE[details.start:details.end].startswith("### Details #") and details.end == definition.end
    last = section(PAGE, 6)
    assert PAGE[last.start:last.end] == "## After the fence\n"


def test_a_heading_of_a_higher_level_ends_a_section() -> None:
    text = "## Two\n\nunder two\n\n# One\n\nunder one\n"
    assert text[section(text, 1).start:section(text, 1).end] == "## Two\n\nunder two\n\n"


def test_a_fence_in_code_opened_with_backticks_is_closed_only_by_the_same_fence() -> None:
    text = "## A\n\n````\n```\n## inside\n```\n````\n\n## B\n"
    assert _titles(text) == [(2, "A"), (2, "B")]


def test_splicing_a_section_back_changes_only_that_section() -> None:
    edited = section_splice(PAGE, 3, "## Key points\n\n- one\n- two\n- three\n\n")
    assert edited == PAGE.replace("- two\n", "- two\n- three\n")


def test_a_spliced_section_that_lost_its_last_line_breaks_gets_them_back() -> None:
    text = "## A\n\nfirst\n\nB\n-\n\nsecond\n"
    assert section_splice(text, 1, "## A\n\nchanged") == "## A\n\nchanged\n\nB\n-\n\nsecond\n"
    assert _titles(section_splice(text, 1, "## A\n\nchanged")) == [(2, "A"), (2, "B")]


def test_a_section_emptied_is_taken_out() -> None:
    assert section_splice("## A\n\na\n\n## B\n\nb\n", 1, "") == "## B\n\nb\n"


@pytest.mark.parametrize("number", [0, 7, 100])
def test_a_section_the_text_does_not_have_is_refused(number: int) -> None:
    with pytest.raises(SectionNotFound) as refused:
        section_splice(PAGE, number, "anything")
    assert refused.value.count == 6


def test_edit_links_go_into_each_sections_heading_in_order() -> None:
    rendered = wiki_markdown.render(PAGE, sources={}, existing_pages=frozenset())
    html = with_section_links(rendered.html, body=PAGE, toc=rendered.toc, link=lambda n, title: f"[{n}:{title}]")
    assert '<h2 id="definition">Definition[1:Definition]</h2>' in html
    assert '<h3 id="details">Details[2:Details]</h3>' in html
    assert '<h2 id="after-the-fence">After the fence[6:After the fence]</h2>' in html
    assert "## a comment in code, not a heading\n" in html and "Footnote heading</h5>" in html


def test_no_edit_links_when_the_text_and_its_rendering_disagree_on_the_sections() -> None:
    text = "## A\n\n<div>\n## Inside raw HTML\n</div>\n\n## B\n"
    rendered = wiki_markdown.render(text, sources={}, existing_pages=frozenset())
    assert section_ids(body=text, toc=rendered.toc) == []
    assert with_section_links(rendered.html, body=text, toc=rendered.toc, link=lambda n, t: "[edit]") == rendered.html
