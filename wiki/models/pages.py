from __future__ import annotations

import html
from collections.abc import Iterator
from functools import cache
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import MD5, Lag
from django.urls import reverse
from django.utils.html import strip_tags
from django.utils.translation import gettext_lazy as _

from wiki.models.deletion import Deletable
from wiki.models.etags import Validator, latest, make_validator
from wiki.models.labels import field_label
from wiki.models.rules import (
    MAX_PAGE_SUMMARY_CHARS,
    is_control_free,
    text_limit,
    validate_line,
    validate_lowercase,
    validate_no_conflict_markers,
    validate_optional_line,
    validate_page_slug,
    validate_text,
)
from wiki.models.sort_keys import NameFormField, SortKeyed, SortKeyedQuerySet, SortKeyField


@cache
def _fixed_routes_under_pages() -> frozenset[str]:
    """The first segment of every route under the pages' prefix that is not a page's address (``new``, ``wanted``):
    a page saved at one could never be shown. Read from the URLconf, so that a route added later is reserved too."""
    from django.urls import URLResolver, get_resolver

    prefix = reverse("wiki:page-list").lstrip("/")
    found: set[str] = set()

    def walk(patterns: list[Any], route: str) -> None:
        for pattern in patterns:
            full = route + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, full)
            elif full.startswith(prefix):
                first = full[len(prefix):].split("/", 1)[0]
                if first and "<" not in first:
                    found.add(first.lower())

    walk(get_resolver().url_patterns, "")
    return frozenset(found)


class ReservedSlugs:
    """Slugs no page may take: the fixed routes under ``/wiki/`` (editor screens and lists), read on first use."""

    def __contains__(self, slug: object) -> bool:
        return slug in _fixed_routes_under_pages()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(_fixed_routes_under_pages()))


RESERVED_SLUGS = ReservedSlugs()

# A Chinese character, as wiki.text.lang reads one: PostgreSQL's regular expressions take the same ranges.
_CHINESE = "[\u3400-\u9fff\uf900-\ufaff]"


def holds_chinese(*fields: str) -> models.ExpressionWrapper[Any]:
    """Whether any of the text ``fields`` of the row holds a Chinese character (the language its content is read
    in, as ``wiki.text.lang.content_lang`` says), without reading the text out of the database."""
    found = models.Q()
    for field in fields:
        found |= models.Q(**{f"{field}__regex": _CHINESE})
    return models.ExpressionWrapper(found, output_field=models.BooleanField())


# Titles as Chinese readers sort them (``Page.title_sort``), the older page first among equal titles.
TITLE_ORDER = ("title_sort", "id")


class _Count(models.Subquery):
    template = "(SELECT COUNT(*) FROM (%(subquery)s) AS counted)"
    output_field = models.IntegerField()


def _count_of(rows: models.QuerySet[Any, Any], distinct: str = "") -> models.Subquery:
    """How many of ``rows`` there are (with ``distinct``, how many different non-null values of that column), as a
    subquery of the outer query's row: 0 when none."""
    if distinct:
        return _Count(rows.order_by().filter(**{f"{distinct}__isnull": False}).values(distinct).distinct())
    return _Count(rows.order_by().values("pk"))


class PageQuerySet(SortKeyedQuerySet["Page"]):
    def live(self) -> PageQuerySet:
        return self.filter(deleted_at__isnull=True)

    def in_title_order(self) -> PageQuerySet:
        """By title as Chinese readers sort names: a Chinese title by its pinyin, among the Latin ones
        (``wiki.text.sort_keys``)."""
        return self.order_by(*TITLE_ORDER)

    def created_as(self, *, slug: str, title: str, body: str, author: Any) -> Page | None:
        """The page at ``slug`` that ``author`` created with ``title`` and ``body`` and nobody has saved since: what
        a new-page form sent twice (a double click, the back button) made the first time."""
        return (self.filter(slug=slug, title=title, body=body, revisions__number=1, revisions__author=author)
                .exclude(revisions__number__gt=1).first())

    def deleted(self) -> PageQuerySet:
        """Deleted pages, the latest deleted first, with who deleted them joined."""
        return self.filter(deleted_at__isnull=False).select_related("deleted_by").order_by("-deleted_at", "-id")

    def named(self, typed: str) -> list[Page]:
        """Those of these pages that ``typed`` names (id, slug and title read): the page of that slug or that a wiki
        link of that text leads to (``Agentic RL``: ``agentic-rl``), else the page that had that address before it was
        moved, else those of that title in any case, or of the title a wiki link of that text is known by (a title
        typed in Traditional characters, as ``[[論斷測試]]`` leads to 论断测试), a title written so first; one query, two
        when no address matches. An address typed in Traditional characters finds the page at the one in Simplified
        characters."""
        from wiki.markdown.wikilinks import link_key, target_slug

        typed = typed.strip()
        if not typed or not is_control_free(typed):  # no page is named with a control character; PostgreSQL refuses NUL
            return []
        keys = {typed, target_slug(typed), link_key(typed)}
        pages = self.select_related(None).only("id", "slug", "title")
        by_slug = sorted(pages.filter(models.Q(slug__in=keys) | models.Q(redirects__slug__in=keys)).distinct(),
                         key=lambda page: (page.slug not in keys, page.slug != typed))
        if by_slug:
            return by_slug[:1]
        written = models.Q(title__iexact=typed)
        titled = list(pages.filter(written | models.Q(title_key=link_key(typed)) if link_key(typed) else written)
                      .order_by(models.Case(models.When(written, then=0), default=1), "pk")[:2])
        return [page for page in titled if page.title.casefold() == typed.casefold()] or titled

    def for_listing(self) -> PageQuerySet:
        """Pages without their bodies, for lists, in :meth:`in_title_order`."""
        return self.only("id", "slug", "title", "summary", "updated_at").in_title_order()

    def most_questioned(self, limit: int) -> PageQuerySet:
        """The ``limit`` live pages with the most unresolved questions (those without any left out), the most first;
        only slug and title read, ``unresolved_questions`` annotated."""
        from wiki.models.questions import QuestionStatus

        unresolved = models.Q(questions__status__in=[QuestionStatus.OPEN, QuestionStatus.INVESTIGATING])
        return (
            self.live().annotate(unresolved_questions=models.Count("questions", filter=unresolved))
            .filter(unresolved_questions__gt=0).only("id", "slug", "title").order_by("-unresolved_questions", *TITLE_ORDER)[:limit]
        )

    def orphaned(self) -> PageQuerySet:
        """:meth:`for_listing` of the live pages no other live page links to, by their address or by one they had
        before a move or a new title (a link naming it leads to the page as a redirect does), by title."""
        by_address = WikiLink.objects.from_live_pages().filter(target_slug=models.OuterRef("slug"))
        # each of its former addresses (a few at most), looked up among the links' targets by its index
        by_former = PageRedirect.objects.filter(page=models.OuterRef("pk")).filter(models.Exists(
            WikiLink.objects.from_live_pages().filter(target_slug=models.OuterRef("slug"))
            .exclude(source_page=models.OuterRef("page_id"))
        ))
        return self.live().for_listing().exclude(
            models.Exists(by_address.exclude(source_page=models.OuterRef("pk")))
        ).exclude(models.Exists(by_former))

    def dead_ends(self) -> PageQuerySet:
        """:meth:`for_listing` of the live pages that link to no other live page (by its address or a former one): a
        link to a page not written yet, a deleted one or a glossary term leads to no page. By title."""
        # A page's links to itself, by any of its names, are never stored (wiki.services.pages._link_rows).
        to_page = (models.Q(target_slug__in=Page.objects.values("slug"))
                   | models.Q(target_slug__in=PageRedirect.objects.live().values("slug")))
        return self.live().for_listing().exclude(
            models.Exists(WikiLink.objects.filter(to_page, source_page=models.OuterRef("pk")))
        )

    def without_citations(self) -> PageQuerySet:
        """:meth:`for_listing` of the live pages none of whose claims in their text cites a work, by title;
        ``claim_count`` annotated (their claims in the text, citing nothing)."""
        from wiki.models.claims import Citation, Claim

        current = Claim.objects.filter(page=models.OuterRef("pk"), is_orphaned=False)
        cited = Citation.objects.filter(claim__page=models.OuterRef("pk"), claim__is_orphaned=False)
        return self.live().for_listing().exclude(models.Exists(cited)).annotate(
            claim_count=_count_of(current),
        )

    def with_info(self) -> PageQuerySet:
        """:meth:`with_meta` with, in the same query, what the page's information tells (no body read): the current
        revision's ``current_revision`` and ``size``; the first one's ``created_first_at`` and ``creator`` (a username
        or None); ``author_count`` (accounts that saved a revision) and ``unattributed_revisions`` (saved by none:
        imported); ``watcher_count``; ``holds_chinese``; ``backlink_count`` (other live pages linking to it, by its
        address or a former one); ``page_link_count`` (pages it links to) and ``wanted_link_count`` (pages not
        written yet it links to); its claims in the text by status (``verified_claims``, ``unverified_claims``,
        ``disputed_claims``) and ``orphan_claims`` (out of the text, awaiting a decision); ``cited_work_count``;
        ``unresolved_questions`` and ``question_count``."""
        from wiki.models.claims import Citation, Claim, ClaimStatus
        from wiki.models.glossary import GlossaryTerm
        from wiki.models.questions import UNRESOLVED, OpenQuestion
        from wiki.models.watches import Watch

        pk = models.OuterRef("pk")
        revisions = Revision.objects.filter(page=pk)
        first, latest = revisions.order_by("number"), revisions.order_by("-number")
        linking = WikiLink.objects.from_live_pages().exclude(source_page=pk)
        names = models.Q(target_slug=models.OuterRef("slug")) | models.Q(
            target_slug__in=PageRedirect.objects.filter(page=models.OuterRef(pk)).values("slug"))
        links = WikiLink.objects.filter(source_page=pk)
        to_page = (models.Q(target_slug__in=Page.objects.values("slug"))
                   | models.Q(target_slug__in=PageRedirect.objects.live().values("slug")))
        terms = GlossaryTerm.objects.annotate(
            target=models.Func(models.F("link_keys"), function="unnest", output_field=models.CharField())).values("target")
        claims = Claim.objects.filter(page=pk, is_orphaned=False)
        questions = OpenQuestion.objects.filter(page=pk)
        return self.with_meta().annotate(
            current_revision=models.Subquery(latest.values("number")[:1]),
            size=models.Subquery(latest.values("size")[:1]),
            created_first_at=models.Subquery(first.values("created_at")[:1]),
            creator=models.Subquery(first.values("author__username")[:1]),
            author_count=_count_of(revisions.filter(author__isnull=False), "author_id"),
            unattributed_revisions=_count_of(revisions.filter(author__isnull=True)),
            watcher_count=_count_of(Watch.objects.filter(page=pk)),
            holds_chinese=holds_chinese("title", "body"),
            backlink_count=_count_of(linking.filter(names), "source_page_id"),
            page_link_count=_count_of(links.filter(to_page)),
            wanted_link_count=_count_of(links.exclude(to_page).exclude(target_slug__in=terms)),
            verified_claims=_count_of(claims.filter(status=ClaimStatus.VERIFIED)),
            unverified_claims=_count_of(claims.filter(status=ClaimStatus.NEEDS_VERIFICATION)),
            disputed_claims=_count_of(claims.filter(status=ClaimStatus.DISPUTED)),
            orphan_claims=_count_of(Claim.objects.filter(page=pk).awaiting_decision()),
            cited_work_count=_count_of(Citation.objects.filter(claim__page=pk, claim__is_orphaned=False), "source_id"),
            unresolved_questions=_count_of(questions.filter(status__in=UNRESOLVED)),
            question_count=_count_of(questions),
        )

    def recently_updated(self) -> PageQuerySet:
        """``for_listing``, the most recently updated first."""
        return self.for_listing().order_by("-updated_at", "-id")

    def with_validator(self) -> PageQuerySet:
        """Annotates what :attr:`Page.validator` reads: the latest revision number, a hash of the rendered HTML
        (which changes without a revision when a linked page is created), and the pages linking here."""
        latest_revision = Revision.objects.filter(page=models.OuterRef("pk")).order_by("-number").values("number")[:1]
        linking = Page.objects.filter(outgoing_links__target_slug=models.OuterRef("slug")).order_by().values("outgoing_links__target_slug")
        return self.annotate(
            current_revision=models.Subquery(latest_revision),
            html_md5=MD5("rendered_html"),
            backlinks_changed_at=models.Subquery(linking.annotate(at=models.Max("updated_at")).values("at")[:1]),
            backlink_count=models.Subquery(
                linking.annotate(n=models.Count("id")).values("n")[:1], output_field=models.IntegerField()
            ),
        )

    def validator(self) -> Validator:
        """The validator of a list of these pages (one query): it changes when any of them is saved, or one comes or goes.
        An ETag alone: no date tells that a page left the list (edited out of a filter), so no Last-Modified is given."""
        summary = self.order_by().aggregate(n=models.Count("id"), changed=models.Max("updated_at"), ids=models.Sum("id"))
        return make_validator("pages", summary["n"], summary["ids"], summary["changed"], last_modified=None)

    def with_meta(self) -> PageQuerySet:
        """Annotates ``revision_count``, ``last_edited_at`` and ``last_editor`` (a username or None) in the same query."""
        revisions = Revision.objects.filter(page=models.OuterRef("pk"))
        latest = revisions.order_by("-number")
        return self.annotate(
            revision_count=models.Subquery(
                revisions.order_by().values("page").annotate(n=models.Count("id")).values("n")[:1],
                output_field=models.IntegerField(),
            ),
            last_edited_at=models.Subquery(latest.values("created_at")[:1]),
            last_editor=models.Subquery(latest.values("author__username")[:1]),
        )


_PageQuerySetManager = models.Manager.from_queryset(PageQuerySet)


class LivePageManager(_PageQuerySetManager["Page"]):
    """Pages not deleted: what readers, lists, search, graphs and the API see."""

    def get_queryset(self) -> PageQuerySet:
        return PageQuerySet(self.model, using=self._db).live()


class Page(SortKeyed, Deletable):
    # A CharField: SlugField would add its own \w pattern, which means ASCII only to the API's clients.
    slug = models.CharField(field_label("slug"), max_length=200, unique=True, validators=[validate_page_slug, validate_lowercase])
    title = models.CharField(field_label("title"), max_length=300, validators=[validate_line])
    # Where a wiki link of the title would lead (``Agentic AI 03: …`` → ``agentic-ai-03-…``, ``強化學習`` → ``强化学习``:
    # wiki.markdown.wikilinks.link_key): a link that names no page's address finds the page by its title through this.
    title_key = models.CharField(_("Title as a link target"), max_length=200, db_index=True, editable=False, default="")
    title_sort = SortKeyField(_("Title as sorted"), source="title")
    # The title as searches compare it: a search named so offers the page (wiki.search.close).
    title_form = NameFormField(_("Title as searched"), source="title")
    summary = models.TextField(field_label("summary"), blank=True, validators=text_limit(MAX_PAGE_SUMMARY_CHARS))
    body = models.TextField(field_label("body"), blank=True, validators=[validate_text, validate_no_conflict_markers],
                            help_text=_("Markdown with [[wiki links]] and （来源：Title，locator） citations."))
    rendered_html = models.TextField(_("Rendered HTML"), blank=True, editable=False)
    toc = models.JSONField(_("Contents"), default=list, blank=True, editable=False, help_text=_("Sections as [{level, id, title}]."))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = LivePageManager()
    all_objects = PageQuerySet.as_manager()

    class Meta:
        ordering = TITLE_ORDER
        default_manager_name = "all_objects"
        verbose_name = _("Page")
        verbose_name_plural = _("Pages")
        indexes = [
            # the home page and the recent-changes lists read the newest pages without sorting them all
            models.Index(fields=["-updated_at", "-id"], name="page_updated_at"),
            models.Index(fields=["title_sort", "id"], name="page_title_sort"),
            models.Index(fields=["title_form", "id"], name="page_title_form"),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("wiki:page-detail", kwargs={"slug": self.slug})

    def derive_keys(self) -> None:
        """Sets the title as a wiki link of it is looked up; ``save()`` does, ``bulk_create`` does not."""
        from wiki.markdown.wikilinks import link_key

        self.title_key = link_key(self.title)

    def save(self, *args: object, **kwargs: object) -> None:
        self.derive_keys()
        written = kwargs.get("update_fields")
        if isinstance(written, (list, tuple, set, frozenset)) and "title" in written:
            kwargs["update_fields"] = [*written, "title_key"]
        super().save(*args, **kwargs)

    @property
    def body_opens_with_summary(self) -> bool:
        """Whether the opening of the body already says the summary, once its markup and wiki links are read as
        text (a lead quote "> Insights ：[[Agentic RL]] 不是…", a 摘要 section): then the page shows it once."""
        if not self.summary.strip():
            return False
        opening = self.rendered_html[: 3 * len(self.summary) + 2_000]
        return " ".join(self.summary.split()) in " ".join(html.unescape(strip_tags(opening)).split())

    @property
    def validator(self) -> Validator:
        """ETag (``"r<revision>-…"``) and Last-Modified of the page as shown; needs :meth:`PageQuerySet.with_validator`."""
        annotated = self  # the annotations are not model fields
        parts = (self.pk, getattr(annotated, "current_revision"), self.updated_at, getattr(annotated, "html_md5"),
                 getattr(annotated, "backlinks_changed_at"), getattr(annotated, "backlink_count"))
        return make_validator(f"r{parts[1]}", *parts, last_modified=latest(self.updated_at, parts[4]))


class RevisionQuerySet(models.QuerySet["Revision"]):
    def for_history(self) -> RevisionQuerySet:
        """These revisions (of one page) for its history, the latest first: who saved each, when, its summary and
        size, its title and ``previous_title``, the title of the revision before it (None for the first), read in the
        same query, so that a title change is shown whether or not a summary says it."""
        return (
            self.select_related("author")
            .only("id", "page_id", "number", "title", "comment", "size", "size_delta", "minor", "created_at", "author__username")
            .annotate(previous_title=models.Window(Lag("title"), order_by=models.F("number").asc()))
            .order_by("-number")
        )

    def for_citation(self) -> RevisionQuerySet:
        """These revisions without their text, with who saved each joined and ``holds_chinese`` (whether its title or
        text holds Chinese, the language a citation gives it) annotated, in one query."""
        return (
            self.select_related("author")
            .only("id", "page_id", "number", "title", "created_at", "author__username")
            .annotate(holds_chinese=holds_chinese("title", "body"))
        )

    def before_run_of(self, latest: Revision) -> RevisionQuerySet:
        """The revisions of ``latest``'s page before the run of consecutive revisions its author saved (an import's
        run being those with no author), the latest first: the first is where a rollback of that run leads."""
        return self.filter(page_id=latest.page_id, number__lt=latest.number).exclude(author_id=latest.author_id).order_by("-number")


class Revision(models.Model):
    """One saved state of a page; revisions are numbered from 1 per page and never change."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="revisions", verbose_name=field_label("page"))
    number = models.PositiveIntegerField(_("Number"))
    title = models.CharField(field_label("title"), max_length=300)
    summary = models.TextField(field_label("summary"), blank=True)
    body = models.TextField(field_label("body"), blank=True)
    comment = models.CharField(_("Edit summary"), max_length=500, blank=True, validators=[validate_optional_line])
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("Author"))
    size = models.PositiveIntegerField(_("Size"), default=0)
    size_delta = models.IntegerField(_("Size change"), default=0)
    # Marked by its editor as a typo, formatting or a small rewording, which readers may hide from recent changes and
    # their watchlist; a page's creation never is.
    minor = models.BooleanField(_("Minor edit"), default=False)
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)

    objects = RevisionQuerySet.as_manager()

    class Meta:
        ordering = ["page", "-number"]
        verbose_name = _("Revision")
        verbose_name_plural = _("Revisions")
        constraints = [
            models.UniqueConstraint(fields=["page", "number"], name="revision_unique_number_per_page"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="revision_number_positive"),
            models.CheckConstraint(condition=models.Q(minor=False) | models.Q(number__gt=1), name="revision_first_not_minor"),
        ]

    def __str__(self) -> str:
        return f"{self.title} r{self.number}"

    @property
    def retitled_from(self) -> str:
        """The title the page had before this revision gave it another, else ""; needs
        :meth:`RevisionQuerySet.for_history`."""
        previous = getattr(self, "previous_title", None)
        return previous if previous is not None and previous != self.title else ""


class WikiLinkQuerySet(models.QuerySet["WikiLink"]):
    def from_live_pages(self) -> WikiLinkQuerySet:
        """Links of pages not deleted: a deleted page's links count for nothing (backlinks, wanted pages, graphs,
        search importance) until it is restored."""
        return self.filter(source_page__deleted_at__isnull=True)

    def wanted(self) -> models.QuerySet[Any, Any]:
        """Link targets no page has yet and no glossary term answers, one row each (``target_slug``, ``title``,
        ``links``), most linked first."""
        from wiki.models.glossary import GlossaryTerm

        glossary_targets = GlossaryTerm.objects.annotate(
            target=models.Func(models.F("link_keys"), function="unnest", output_field=models.CharField())
        ).values("target")
        return (
            self.from_live_pages()
            .exclude(target_slug__in=Page.objects.values("slug"))
            .exclude(target_slug__in=glossary_targets)
            .values("target_slug")
            .annotate(title=models.Min("target_title"), links=models.Count("source_page", distinct=True))
            .order_by("-links", "target_slug")
        )

    def linking_to_any(self, slugs: list[str]) -> WikiLinkQuerySet:
        """One link per page linking to any of ``slugs``, with the page's slug and title, in title order."""
        return (
            self.from_live_pages().filter(target_slug__in=slugs)
            .select_related("source_page")
            .only("target_slug", "label", "source_page__slug", "source_page__title")
            .order_by("source_page__title_sort", "source_page_id")
            .distinct("source_page__title_sort", "source_page_id")
        )

    def backlinks_to(self, slug: str) -> WikiLinkQuerySet:
        """Links pointing at ``slug`` from pages not deleted, with the title each typed and their source page's slug
        and title, in the linking pages' title order."""
        return (
            self.from_live_pages().filter(target_slug=slug)
            .select_related("source_page")
            .only("target_slug", "target_title", "label", "source_page__slug", "source_page__title")
            .order_by("source_page__title_sort", "source_page_id")
            .distinct("source_page__title_sort", "source_page_id")
        )


class WikiLink(models.Model):
    """An outgoing ``[[Target]]`` link of a page; the target page may not exist yet (a wanted page)."""

    source_page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="outgoing_links", verbose_name=_("Linking page"))
    target_slug = models.SlugField(_("Target address"), max_length=200, allow_unicode=True, db_index=True)
    target_title = models.CharField(_("Target title"), max_length=300)
    label = models.CharField(_("Link text"), max_length=300, blank=True)

    objects = WikiLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("Wiki link")
        verbose_name_plural = _("Wiki links")
        constraints = [
            models.UniqueConstraint(fields=["source_page", "target_slug"], name="wikilink_unique_target_per_page"),
        ]

    def __str__(self) -> str:
        return f"{self.source_page_id} → {self.target_slug}"


class PageRedirectQuerySet(models.QuerySet["PageRedirect"]):
    def live(self) -> PageRedirectQuerySet:
        """Former addresses of pages not deleted: the only ones that lead anywhere."""
        return self.filter(page__deleted_at__isnull=True)

    def page_slug_at(self, slug: str) -> str | None:
        """Where the live page that had the address ``slug`` is now, or None; one query."""
        return self.live().filter(slug=slug).values_list("page__slug", flat=True).first()


class PageRedirect(models.Model):
    """An address a page had before it was moved: it leads to the page, and so do wiki links naming it, until a page
    is created there."""

    slug = models.CharField(_("Former address"), max_length=200, unique=True)
    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="redirects", verbose_name=field_label("page"))
    created_at = models.DateTimeField(_("Moved at"), auto_now_add=True)

    objects = PageRedirectQuerySet.as_manager()

    class Meta:
        ordering = ["slug"]
        verbose_name = _("Former page address")
        verbose_name_plural = _("Former page addresses")

    def __str__(self) -> str:
        return f"{self.slug} → {self.page_id}"
