from __future__ import annotations

from django.db import models
from django.db.models import Prefetch
from django.db.models.functions import Lower
from django.urls import reverse

# The classifier reads the abstract and notes on every source page and classification form: a pasted book
# would make those pages take seconds. An abstract is a few thousand characters; notes may be longer.
MAX_ABSTRACT_CHARS = 20_000
MAX_NOTES_CHARS = 50_000


class SourceKind(models.TextChoices):
    PAPER = "paper", "Paper"
    PREPRINT = "preprint", "Preprint"
    PROJECT = "project", "Project / repository"
    BLOG = "blog", "Blog post"
    NOTE = "note", "Internal audit note"
    SURVEY = "survey", "Survey"
    ENVIRONMENT = "environment", "Benchmark / environment"
    FRAMEWORK = "framework", "Framework"


class SourceQuerySet(models.QuerySet["Source"]):
    def unclassified(self) -> SourceQuerySet:
        """Works with no classification at all (neither the work nor a component), oldest first; prefetches nothing."""
        return self.filter(classifications__isnull=True).order_by("pk")

    def with_classification(self) -> SourceQuerySet:
        """Prefetches each source's classifications (work-level and per component) with their components."""
        from wiki.models.classifications import Classification

        return self.prefetch_related(
            Prefetch(
                "classifications",
                queryset=Classification.objects.select_related("component").order_by("component__name"),
            )
        )

    def classified_as(self, *, mechanism: str | None = None, verdict: str | None = None) -> SourceQuerySet:
        """Sources with one classification (of the work or a component) having both the mechanism and the verdict given."""
        from wiki.models.classifications import Classification

        conditions = {k: v for k, v in {"mechanism": mechanism, "verdict": verdict}.items() if v}
        if not conditions:
            return self
        return self.filter(models.Exists(Classification.objects.filter(source=models.OuterRef("pk"), **conditions)))

    def for_listing(self) -> SourceQuerySet:
        """Sources for the list view: classifications prefetched, ordered by short name ignoring case."""
        return self.with_classification().order_by(Lower("short_name"), "short_name")


class Source(models.Model):
    """A cited work: paper, preprint, project, blog post, audit note, benchmark or framework."""

    slug = models.SlugField(max_length=120, unique=True)
    short_name = models.CharField(max_length=200)
    title = models.CharField(max_length=500)
    normalized_title = models.CharField(max_length=500, db_index=True, editable=False)
    kind = models.CharField(max_length=20, choices=SourceKind.choices, default=SourceKind.PAPER)
    authors = models.TextField(blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True)
    venue = models.CharField(max_length=300, blank=True)
    url = models.URLField(max_length=500, blank=True)
    arxiv_id = models.CharField(max_length=40, blank=True, help_text="Normalised, without version (2307.13854).")
    doi = models.CharField(max_length=200, blank=True, help_text="Normalised, lower case, without https://doi.org/.")
    bibtex_key = models.CharField(max_length=200, blank=True)
    abstract = models.TextField(blank=True)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = SourceQuerySet.as_manager()

    class Meta:
        ordering = ["short_name"]
        constraints = [
            models.UniqueConstraint(fields=["arxiv_id"], condition=~models.Q(arxiv_id=""), name="source_unique_arxiv_id"),
            models.UniqueConstraint(fields=["doi"], condition=~models.Q(doi=""), name="source_unique_doi"),
            models.CheckConstraint(
                condition=models.Q(year__isnull=True) | models.Q(year__gte=1900, year__lte=2100),
                name="source_year_plausible",
            ),
        ]

    def __str__(self) -> str:
        return self.short_name

    def save(self, *args: object, **kwargs: object) -> None:
        from wiki.references.identifiers import normalize_title

        self.normalized_title = normalize_title(self.title)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def get_absolute_url(self) -> str:
        return reverse("wiki:source-detail", kwargs={"slug": self.slug})


class Component(models.Model):
    """A separately classified part of a work (Shepherd's Tree-GRPO vs its supervisor and CRO)."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="components")
    slug = models.SlugField(max_length=120)
    name = models.CharField(max_length=200)

    class Meta:
        ordering = ["source", "name"]
        constraints = [models.UniqueConstraint(fields=["source", "slug"], name="component_unique_slug_per_source")]

    def __str__(self) -> str:
        return f"{self.source} {self.name}" if self.source_id else self.name
