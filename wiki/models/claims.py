from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.db import models
from django.db.models import Case, OuterRef, Prefetch, When
from django.db.models.functions import JSONObject
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.models.labels import field_label


class ClaimStatus(models.TextChoices):
    VERIFIED = "verified", _("Verified")
    NEEDS_VERIFICATION = "needs_verification", _("Needs verification")
    DISPUTED = "disputed", _("Disputed")


class CitationKind(models.TextChoices):
    CITED = "cited", _("来源 (cited)")
    SYNTHESISED = "synthesised", _("综合 (synthesised from)")


# How many entries of an orphan's history a save reads for the texts it had.
HISTORY_FOR_MATCHING = 30


# Claims page by page in the pages' title order (``Page.title_sort``), each page's in the order of its text.
PAGE_ORDER = ("page__title_sort", "page_id", "position", "id")


class _AnyOf(models.Func):
    """``value = ANY(ARRAY(subquery))``."""

    arg_joiner = " = ANY("
    template = "%(expressions)s)"
    output_field = models.BooleanField()


class ClaimQuerySet(models.QuerySet["Claim"]):
    def in_page_order(self) -> ClaimQuerySet:
        """Page by page, the pages in title order as Chinese readers sort names, each page's claims in the order of
        its text."""
        return self.order_by(*PAGE_ORDER)

    def current(self) -> ClaimQuerySet:
        """Claims still present in their page's text, on a page not deleted."""
        return self.filter(is_orphaned=False, page__deleted_at__isnull=True)

    def answering(self, *, page_id: int | None, claim_ids: Iterable[int]) -> ClaimQuerySet:
        """The claims that may answer a question on page ``page_id`` linked to ``claim_ids``: the current claims of
        its page and the current ones among those it is linked to (a claim on another page that it concerns)."""
        near = models.Q(pk__in=list(claim_ids))
        if page_id is not None:
            near |= models.Q(page_id=page_id)
        return self.current().filter(near)

    def on_live_pages(self) -> ClaimQuerySet:
        """Claims of pages not deleted (orphans and retired claims included)."""
        return self.filter(page__deleted_at__isnull=True)

    def awaiting_decision(self) -> ClaimQuerySet:
        """Orphaned claims nobody has re-attached or retired yet."""
        return self.filter(is_orphaned=True, retired_at__isnull=True)

    def for_matching(self) -> ClaimQuerySet:
        """A page's claims a save can match its sentences to: current ones and orphans not retired (no bodies, no joins).

        Each orphan has ``history``, the latest :data:`HISTORY_FOR_MATCHING` entries of its history, most recent first,
        each a dict of ``text``, ``status``, ``previous_text`` and ``previous_status`` (a sentence coming back as one of
        its earlier texts is that orphan), and ``cites``, its citations in the order its text writes them, each a dict of
        ``source``, ``locator``, ``kind`` and ``position`` (the work each title it cites named, which the page's latest
        text may no longer name); a current claim has ``None`` for both. Still one query.
        """
        entries = ClaimRevision.objects.filter(claim=OuterRef("pk")).order_by("-id").values(
            entry=JSONObject(text="text", status="status", previous_text="previous_text", previous_status="previous_status")
        )[:HISTORY_FOR_MATCHING]
        cites = Citation.objects.filter(claim=OuterRef("pk")).order_by("position", "id").values(
            entry=JSONObject(source="source_id", locator="locator", kind="kind", position="position"))
        return self.filter(retired_at__isnull=True).only(
            "id", "page_id", "text", "key", "anchor", "section", "position", "status", "is_orphaned", "updated_at"
        ).annotate(history=Case(When(is_orphaned=True, then=ArraySubquery(entries))),
                   cites=Case(When(is_orphaned=True, then=ArraySubquery(cites)))).order_by("position", "id")

    def with_citations(self) -> ClaimQuerySet:
        """Prefetches citations in order with their sources (slug, short name, title only), and the page."""
        from wiki.models.sources import Source

        return self.select_related("page").prefetch_related(
            Prefetch(
                "citations",
                queryset=Citation.objects.select_related("source")
                .only("id", "claim_id", "locator", "kind", "position", "source__slug", "source__short_name", "source__title")
                .order_by("position"),
            ),
            Prefetch("about", queryset=Source.objects.only("id", "slug", "short_name")),
        )

    def for_detail(self) -> ClaimQuerySet:
        """:meth:`with_citations` plus the questions it answers, its open questions (a deleted page's left out) and its
        contrasts with both sides."""
        from wiki.models.classifications import Contrast
        from wiki.models.questions import OpenQuestion

        return self.with_citations().prefetch_related(
            Prefetch("questions", queryset=OpenQuestion.objects.live().only("id", "title", "status", "answer_claim_id").in_title_order()),
            Prefetch("answers", queryset=OpenQuestion.objects.live().only("id", "title", "status", "answer_claim_id").in_title_order()),
            Prefetch("contrasts", queryset=Contrast.objects.select_related(
                "left", "left_component", "right", "right_component").order_by("id")),
        )

    def sentences_of(self, page_id: int) -> ClaimQuerySet:
        """The current claims of a page in page order, text and section only: sentences to re-attach a claim to."""
        return self.current().filter(page_id=page_id).only("id", "text", "section", "position").order_by("position")

    def citing(self, source_id: int) -> ClaimQuerySet:
        """Current claims citing a source, with their page; their citations of that source in ``source_citations``."""
        return self._with_citations_of(
            self.current().filter(models.Exists(Citation.objects.filter(claim=models.OuterRef("pk"), source_id=source_id))),
            source_id,
        )

    def about_or_citing(self, source_ids: list[int]) -> ClaimQuerySet:
        """Claims that cite any of ``source_ids`` or are about one of them."""
        # The ids first, from the citation and about indexes, then the claims by primary key: an OR of two EXISTS was
        # asked of every claim (PostgreSQL cannot drive it from either index), and an IN (subquery) is estimated from
        # the whole table, which has the planner scan it or walk every page for a work cited a few times.
        cites = Citation.objects.filter(source_id__in=source_ids).order_by().values("claim_id")
        about = Claim.about.through.objects.filter(source_id__in=source_ids).order_by().values("claim_id")
        return self.filter(_AnyOf(models.F("pk"), ArraySubquery(cites.union(about))))

    def concerning(self, source_id: int) -> ClaimQuerySet:
        """Current claims citing a source or about it (a claim about a work often cites a survey or a page of its
        own), as :meth:`citing` has them: a claim only about it has no ``source_citations``."""
        return self._with_citations_of(self.current().about_or_citing([source_id]), source_id)

    @staticmethod
    def _with_citations_of(claims: ClaimQuerySet, source_id: int) -> ClaimQuerySet:
        return (
            claims
            .select_related("page")
            .only("id", "text", "section", "anchor", "page__slug", "page__title")
            .prefetch_related(
                Prefetch(
                    "citations",
                    queryset=Citation.objects.filter(source_id=source_id).only("id", "claim_id", "locator", "kind"),
                    to_attr="source_citations",
                )
            )
            .in_page_order()
        )


class Claim(models.Model):
    """One statement on a page (typically one key-point bullet) with its citations.

    A claim keeps its identity (status, citations set by editors, questions, contrasts) while its
    sentence is reworded: each save matches the page's sentences to its claims by similarity
    (``wiki.text.claim_matching``) and records what changed in :class:`ClaimRevision`. ``key`` is a hash of
    the sentence, which gives it its anchor on the page.
    """

    page = models.ForeignKey("wiki.Page", on_delete=models.CASCADE, related_name="claims", verbose_name=field_label("page"))
    section = models.CharField(_("Section"), max_length=300, blank=True)
    anchor = models.CharField(_("Anchor"), max_length=40, blank=True, help_text=_("HTML id of the claim on its page."))
    text = models.TextField(field_label("text"))
    key = models.CharField(_("Sentence key"), max_length=64, db_index=True)
    position = models.PositiveIntegerField(_("Position"), default=0)
    status = models.CharField(field_label("status"), max_length=20, choices=ClaimStatus.choices,
                              default=ClaimStatus.NEEDS_VERIFICATION)
    is_orphaned = models.BooleanField(_("orphaned"), default=False, help_text=_("The sentence was removed from the page."))
    retired_at = models.DateTimeField(_("Retired at"), null=True, blank=True,
                                      help_text=_("An orphaned claim an editor decided not to keep."))
    retired_reason = models.CharField(_("Why it was retired"), max_length=500, blank=True)
    sources = models.ManyToManyField("wiki.Source", through="Citation", related_name="citing_claims",
                                     verbose_name=field_label("sources"))
    about = models.ManyToManyField("wiki.Source", blank=True, related_name="claims_about", verbose_name=field_label("about"))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = ClaimQuerySet.as_manager()

    class Meta:
        ordering = ["page", "position"]
        verbose_name = _("Claim")
        verbose_name_plural = _("Claims")

    def __str__(self) -> str:
        return self.text[:80]

    def get_absolute_url(self) -> str:
        return f"{reverse('wiki:page-detail', kwargs={'slug': self.page.slug})}#{self.anchor or f'claim-{self.pk}'}"

    def get_detail_url(self) -> str:
        return reverse("wiki:claim-detail", kwargs={"pk": self.pk})

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None


class Citation(models.Model):
    """A claim citing a source, with the locator as typed (``pp.3-4``, ``§3.1 / §5``)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="citations", verbose_name=field_label("claim"))
    source = models.ForeignKey("wiki.Source", on_delete=models.PROTECT, related_name="citations",
                               verbose_name=field_label("source"))
    locator = models.CharField(field_label("locator"), max_length=200, blank=True)
    kind = models.CharField(field_label("kind"), max_length=20, choices=CitationKind.choices, default=CitationKind.CITED)
    position = models.PositiveIntegerField(_("Position"), default=0)

    class Meta:
        ordering = ["claim", "position"]
        verbose_name = _("Citation")
        verbose_name_plural = _("Citations")
        constraints = [
            models.UniqueConstraint(fields=["claim", "source", "locator"], name="citation_unique_per_claim"),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} {self.locator}".strip()


def merge_that_orphaned(newest_first: Iterable[ClaimRevision]) -> ClaimRevision | None:
    """Of an orphan's history entries, newest first, the one that merged its sentence into another claim's, when that
    is how it left its page's text last (not by its sentence being removed)."""
    gone = (ClaimRevision.Kind.MERGED, ClaimRevision.Kind.ORPHANED)
    last = next((entry for entry in newest_first if entry.kind in gone), None)
    return last if last is not None and last.kind == ClaimRevision.Kind.MERGED else None


class ClaimRevisionQuerySet(models.QuerySet["ClaimRevision"]):
    def history(self) -> ClaimRevisionQuerySet:
        """Oldest first, with the page revision's number, the user's name and the related claim's text joined."""
        return self.select_related("page_revision", "user", "related_claim").only(
            "id", "claim_id", "kind", "text", "previous_text", "status", "previous_status", "reason", "reason_parts",
            "similarity",
            "created_at", "page_revision__number", "user__username", "related_claim__id", "related_claim__text",
        ).order_by("created_at", "id")

    def merged_away(self, claim: Claim | None) -> ClaimRevision | None:
        """The entry that merged orphan ``claim``'s sentence into another claim's (that claim joined), when that is how
        it left its page's text last, not by its sentence being removed; none, with no query, for a claim in its
        page's text."""
        if claim is None or not claim.is_orphaned:
            return None
        return merge_that_orphaned(
            self.filter(claim_id=claim.pk, kind__in=[ClaimRevision.Kind.MERGED, ClaimRevision.Kind.ORPHANED])
            .select_related("related_claim").only("id", "claim_id", "kind", "related_claim__id")
            .order_by("-created_at", "-id")[:1]
        )

    def replacing(self, claim_id: int) -> ClaimRevisionQuerySet:
        """The re-attachment in which claim ``claim_id`` (now deleted) gave its sentence to the claim re-attached."""
        return self.filter(kind=ClaimRevision.Kind.REATTACHED, replaced_claim_id=claim_id).only("id", "claim_id")

    def between(self, page_id: int, after: int, upto: int) -> ClaimRevisionQuerySet:
        """What the page's saves after revision ``after`` up to ``upto`` did to its claims, in page order."""
        return self.history().filter(
            page_revision__page_id=page_id, page_revision__number__gt=after, page_revision__number__lte=upto
        ).order_by("page_revision__number", "id")


class ClaimRevision(models.Model):
    """One step of a claim's life: its sentence after a page save (or an editor's decision, or a status an editor
    set), and what changed."""

    class Kind(models.TextChoices):
        CREATED = "created", _("created")
        REWORDED = "reworded", _("reworded")
        SPLIT = "split", _("split")
        MERGED = "merged", _("merged into another")
        ORPHANED = "orphaned", _("orphaned")
        RESTORED = "restored", _("restored")
        REATTACHED = "reattached", _("re-attached")
        RETIRED = "retired", _("retired")
        STATUS = "status", _("status set")
        CITED = "cited", _("citations edited")

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="revisions", verbose_name=field_label("claim"))
    page_revision = models.ForeignKey(
        "wiki.Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="claim_revisions",
        verbose_name=_("Page revision"),
    )
    kind = models.CharField(field_label("kind"), max_length=20, choices=Kind.choices)
    text = models.TextField(field_label("text"))
    previous_text = models.TextField(_("Previous text"), blank=True)
    status = models.CharField(field_label("status"), max_length=20, choices=ClaimStatus.choices)
    previous_status = models.CharField(_("Previous status"), max_length=20, choices=ClaimStatus.choices, blank=True)
    reason = models.CharField(field_label("reason"), max_length=500, blank=True)
    # When the wiki wrote the reason itself: its messages (wiki/change_summaries.py) as [{"key": …, "values": {…}}], so
    # that it reads in each reader's language; ``reason`` holds it in English.
    reason_parts = models.JSONField(_("Reason's messages"), default=list, blank=True)
    related_claim = models.ForeignKey(Claim, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                      verbose_name=_("Related claim"), help_text=_("The other claim of a split or merge."))
    similarity = models.FloatField(_("Similarity"), null=True, blank=True)
    replaced_claim_id = models.PositiveIntegerField(
        _("Replaced claim"), null=True, blank=True, db_index=True,
        help_text=_("A re-attachment: the claim that held the sentence and gave way (deleted); its address leads here."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("User"))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)

    objects = ClaimRevisionQuerySet.as_manager()

    class Meta:
        ordering = ["claim", "created_at", "id"]
        verbose_name = _("Claim history entry")
        verbose_name_plural = _("Claim history")

    def __str__(self) -> str:
        return f"#{self.claim_id} {self.get_kind_display()}"

    @property
    def status_changed(self) -> bool:
        return bool(self.previous_status) and self.previous_status != self.status

    @property
    def reason_for_reader(self) -> str:
        """The reason in the active language when the wiki wrote it, else as stored."""
        from wiki.change_summaries import reasons_for_reader

        return reasons_for_reader(self.reason_parts, self.reason)
