"""A large reference file is matched against the wiki and against itself in work that grows with its entries, not
with their square: a reference manager's library of a thousand entries is previewed and imported in seconds."""

from __future__ import annotations

import pytest

from tests.calls import python_calls
from tests.factories import make_source
from wiki.models import Source
from wiki.services.source_import import sources_import, sources_import_preview
from wiki.services.sources import taken_source_slugs, unique_source_slug

pytestmark = pytest.mark.django_db


def _library(entries: int, *, start: int = 0) -> str:
    """A reference manager's export: articles, papers and preprints with authors, identifiers and abstracts."""
    written = []
    for n in range(start, start + entries):
        fields = [f"title = {{Training Web Agents with Outcome Rewards: Study {n}}}",
                  f"author = {{Zhang, Wei and Garcia, Sofia and Kim, Hao{n}}}", f"year = {{{2019 + n % 7}}}",
                  f"doi = {{10.5555/scale.{n}}}", "abstract = {We update the agent's policy from the task reward.}"]
        if n % 2:
            fields.append(f"eprint = {{2501.{10000 + n}}}")
        written.append(f"@article{{scale{n},\n  " + ",\n  ".join(fields) + "\n}\n")
    return "\n".join(written)


def test_previewing_a_file_twice_as_long_takes_twice_the_work() -> None:
    for n in range(5):
        make_source(slug=f"known-{n}", short_name=f"Known {n}", title=f"Training Web Agents with Outcome Rewards: Study {n}")
    small, large = _library(150), _library(300)
    sources_import_preview(text=small)  # what is read once per process (tables, patterns) is not the file's work
    small_calls = python_calls(lambda: sources_import_preview(text=small))
    large_calls = python_calls(lambda: sources_import_preview(text=large))
    report = sources_import_preview(text=large)
    assert report.counts == {"created": 295, "duplicate": 5, "refused": 0}
    # Each entry was compared with every entry before it, and each work found with every candidate of the file: twice
    # the entries took over three times the work.
    assert large_calls < 2.2 * small_calls, (small_calls, large_calls)


def test_importing_a_library_again_takes_work_in_proportion_to_it() -> None:
    small, large = _library(150), _library(300, start=1000)
    sources_import(text=small)
    sources_import(text=large)
    small_calls = python_calls(lambda: sources_import_preview(text=small))
    large_calls = python_calls(lambda: sources_import_preview(text=large))
    assert sources_import_preview(text=large).counts == {"created": 0, "duplicate": 300, "refused": 0}
    assert large_calls < 2.2 * small_calls, (small_calls, large_calls)


def test_the_slugs_taken_are_found_for_the_longest_file_of_long_names() -> None:
    # Read as one regular expression of every name, 2,000 names of a hundred characters were "too complex" for
    # PostgreSQL, and the import failed.
    names = [f"Towards Tool-Use Agents with Group Relative Policy Optimization and Curriculum Rewards Study {n}"
             for n in range(2000)]
    first = make_source(slug=unique_source_slug(names[0]), short_name=names[0], title="A first study")
    numbered = make_source(slug=f"{first.slug}-2", short_name="The same name, numbered", title="A second study")
    make_source(slug=f"{first.slug}-2-1", short_name="Another name", title="A third study")
    taken = taken_source_slugs(names)
    assert taken == {first.slug, numbered.slug}
    assert Source.objects.filter(slug__in=taken).count() == 2
