"""One kind's search results a page at a time (``/search/?q=…&kind=claim&p=2``).

The totals a search gives are exact up to a cap and "N+" beyond it (``wiki.search.query.SearchPlan``), so a page
knows whether another follows without knowing how many pages there are.
"""

from __future__ import annotations

from dataclasses import dataclass

PAGE_PARAM = "p"
RESULTS_PER_KIND_PAGE = 50


def page_number(value: str | None) -> int:
    """The page asked for: the first for a missing, unreadable or too small number."""
    try:
        return max(1, int(value or 1))
    except ValueError:
        return 1


@dataclass(frozen=True)
class KindPage:
    """Page ``number`` of one kind's ``total`` results (``capped``: more than ``total``), ``per_page`` a page."""

    number: int
    per_page: int
    total: int
    capped: bool = False

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.per_page

    @property
    def first(self) -> int:
        return self.offset + 1

    @property
    def last(self) -> int:
        return min(self.offset + self.per_page, self.total)

    @property
    def last_page(self) -> int:
        """The last page holding results, as far as the total tells."""
        return max(1, -(-self.total // self.per_page))

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def previous_page_number(self) -> int:
        """The page before, or the last one holding results when this one is past them."""
        return min(self.number - 1, self.last_page)

    @property
    def has_next(self) -> bool:
        # a capped total counts at least up to this page's end: more follow it
        return self.capped or self.offset + self.per_page < self.total

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next
