"""What a wiki tells of one page besides its text ("Page information"): its names, its history in figures, who
watches it, what links to it and from it, its claims, the works it cites and its questions.

Three queries whatever the page's size or history: the page with its figures (:meth:`PageQuerySet.with_info`), the
addresses it had and the titles it had.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max

from wiki.models import Page, PageRedirect, Revision

# Below this many watchers the number is not told, only that it is small: a count of one or two would let a reader
# guess who watches a page (MediaWiki's $wgUnwatchedPageThreshold).
WATCHERS_SHOWN_FROM = 3
# How many former addresses and titles the information lists (the history lists the addresses too).
FORMER_NAMES_SHOWN = 20


@dataclass(frozen=True)
class ClaimCounts:
    """The page's claims in its text by status, and those out of it awaiting an editor's decision."""

    verified: int
    needs_verification: int
    disputed: int
    orphaned: int

    @property
    def total(self) -> int:
        return self.verified + self.needs_verification + self.disputed


@dataclass(frozen=True)
class PageInfo:
    page: Page
    revision: int
    revision_count: int
    author_count: int
    unattributed_revisions: int
    created_at: datetime | None
    creator: str | None
    last_edited_at: datetime | None
    last_editor: str | None
    size: int
    content_language: str
    watcher_count: int
    former_addresses: tuple[PageRedirect, ...]
    more_former_addresses: bool
    former_titles: tuple[str, ...]
    more_former_titles: bool
    backlink_count: int
    page_link_count: int
    wanted_link_count: int
    claims: ClaimCounts
    cited_work_count: int
    unresolved_questions: int
    question_count: int

    @property
    def watchers_shown(self) -> int | None:
        """The number of watchers, or None when there are fewer than :data:`WATCHERS_SHOWN_FROM`."""
        return self.watcher_count if self.watcher_count >= WATCHERS_SHOWN_FROM else None

    @property
    def watchers_shown_from(self) -> int:
        return WATCHERS_SHOWN_FROM


def page_info(slug: str) -> PageInfo | None:
    """The information of the live page at ``slug``, or None when there is none (three queries, one when none)."""
    page = Page.objects.with_info().only("id", "slug", "title", "created_at", "updated_at").filter(slug=slug).first()
    if page is None:
        return None
    addresses = list(
        page.redirects.only("id", "slug", "created_at", "page_id").order_by("-created_at", "-id")[
            : FORMER_NAMES_SHOWN + 1
        ]
    )
    titles = list(
        Revision.objects.filter(page=page)
        .exclude(title=page.title)
        .values("title")
        .annotate(last=Max("number"))
        .order_by("-last")
        .values_list("title", flat=True)[: FORMER_NAMES_SHOWN + 1]
    )

    def count(name: str) -> int:
        return int(getattr(page, name) or 0)

    return PageInfo(
        page=page,
        revision=count("current_revision"),
        revision_count=count("revision_count"),
        author_count=count("author_count"),
        unattributed_revisions=count("unattributed_revisions"),
        created_at=getattr(page, "created_first_at"),
        creator=getattr(page, "creator"),
        last_edited_at=getattr(page, "last_edited_at"),
        last_editor=getattr(page, "last_editor"),
        size=count("size"),
        content_language="zh-Hans" if getattr(page, "holds_chinese") else "en",
        watcher_count=count("watcher_count"),
        former_addresses=tuple(addresses[:FORMER_NAMES_SHOWN]),
        more_former_addresses=len(addresses) > FORMER_NAMES_SHOWN,
        former_titles=tuple(titles[:FORMER_NAMES_SHOWN]),
        more_former_titles=len(titles) > FORMER_NAMES_SHOWN,
        backlink_count=count("backlink_count"),
        page_link_count=count("page_link_count"),
        wanted_link_count=count("wanted_link_count"),
        claims=ClaimCounts(
            verified=count("verified_claims"),
            needs_verification=count("unverified_claims"),
            disputed=count("disputed_claims"),
            orphaned=count("orphan_claims"),
        ),
        cited_work_count=count("cited_work_count"),
        unresolved_questions=count("unresolved_questions"),
        question_count=count("question_count"),
    )
