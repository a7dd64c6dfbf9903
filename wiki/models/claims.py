from __future__ import annotations

from django.db import models
from django.db.models import Prefetch
from django.urls import reverse


class ClaimStatus(models.TextChoices):
    VERIFIED = "verified", "Verified"
    NEEDS_VERIFICATION = "needs_verification", "Needs verification"
    DISPUTED = "disputed", "Disputed"


class CitationKind(models.TextChoices):
    CITED = "cited", "来源 (cited)"
    SYNTHESISED = "synthesised", "综合 (synthesised from)"


class ClaimQuerySet(models.QuerySet["Claim"]):
    def current(self) -> ClaimQuerySet:
        """Claims still present in their page's text."""
        return self.filter(is_orphaned=False)

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

    def citing(self, source_id: int) -> ClaimQuerySet:
        """Current claims citing a source, with their page; their citations of that source in ``source_citations``."""
        return (
            self.current()
            .filter(models.Exists(Citation.objects.filter(claim=models.OuterRef("pk"), source_id=source_id)))
            .select_related("page")
            .only("id", "text", "section", "anchor", "page__slug", "page__title")
            .prefetch_related(
                Prefetch(
                    "citations",
                    queryset=Citation.objects.filter(source_id=source_id).only("id", "claim_id", "locator", "kind"),
                    to_attr="source_citations",
                )
            )
            .order_by("page__title", "position")
        )


class Claim(models.Model):
    """One statement on a page (typically one key-point bullet) with its citations.

    ``key`` is a hash of the normalised sentence: a claim whose sentence does not change
    keeps its identity, status and classifications across edits.
    """

    page = models.ForeignKey("wiki.Page", on_delete=models.CASCADE, related_name="claims")
    section = models.CharField(max_length=300, blank=True)
    anchor = models.CharField(max_length=40, blank=True, help_text="HTML id of the claim on its page.")
    text = models.TextField()
    key = models.CharField(max_length=64, db_index=True)
    position = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=ClaimStatus.choices, default=ClaimStatus.NEEDS_VERIFICATION)
    is_orphaned = models.BooleanField(default=False, help_text="The sentence was removed from the page.")
    sources = models.ManyToManyField("wiki.Source", through="Citation", related_name="citing_claims")
    about = models.ManyToManyField("wiki.Source", blank=True, related_name="claims_about")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ClaimQuerySet.as_manager()

    class Meta:
        ordering = ["page", "position"]
        constraints = [models.UniqueConstraint(fields=["page", "key"], name="claim_unique_key_per_page")]

    def __str__(self) -> str:
        return self.text[:80]

    def get_absolute_url(self) -> str:
        return f"{reverse('wiki:page-detail', kwargs={'slug': self.page.slug})}#{self.anchor or f'claim-{self.pk}'}"


class Citation(models.Model):
    """A claim citing a source, with the locator as typed (``pp.3-4``, ``§3.1 / §5``)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="citations")
    source = models.ForeignKey("wiki.Source", on_delete=models.PROTECT, related_name="citations")
    locator = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=20, choices=CitationKind.choices, default=CitationKind.CITED)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["claim", "position"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "source", "locator"], name="citation_unique_per_claim"),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} {self.locator}".strip()
