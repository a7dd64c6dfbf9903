from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.contrib.postgres.aggregates import ArrayAgg, StringAgg
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Prefetch
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.models.deletion import Deletable
from wiki.models.etags import Validator, latest, make_validator
from wiki.models.labels import field_label
from wiki.models.rules import (
    MAX_ABSTRACT_CHARS,
    MAX_NOTES_CHARS,
    MAX_TEXT_CHARS,
    YEAR_MAX,
    YEAR_MIN,
    LinkURLField,
    YearFromValidator,
    YearToValidator,
    percent_encode_url,
    text_limit,
    validate_arxiv_id,
    validate_doi,
    validate_line,
    validate_optional_line,
    validate_source_slug,
)
from wiki.models.sort_keys import NameFormField, SortKeyed, SortKeyedQuerySet, SortKeyField
from wiki.references.locators import distinct_locators


class SourceKind(models.TextChoices):
    PAPER = "paper", _("Paper")
    PREPRINT = "preprint", _("Preprint")
    PROJECT = "project", _("Project / repository")
    BLOG = "blog", _("Blog post")
    NOTE = "note", _("Internal audit note")
    SURVEY = "survey", _("Survey")
    ENVIRONMENT = "environment", _("Benchmark / environment")
    FRAMEWORK = "framework", _("Framework")


class SourceQuerySet(SortKeyedQuerySet["Source"]):
    def live(self) -> SourceQuerySet:
        return self.filter(deleted_at__isnull=True)

    def in_name_order(self) -> SourceQuerySet:
        """By short name as Chinese readers sort names: case aside, a Chinese name by its pinyin, among the Latin ones
        (``wiki.text.sort_keys``: 阿里巴巴通义 among the A's)."""
        return self.order_by(*NAME_ORDER)

    def in_title_order(self) -> SourceQuerySet:
        """By full title, sorted as :meth:`in_name_order` sorts short names."""
        return self.order_by(*TITLE_ORDER)

    def deleted(self) -> SourceQuerySet:
        """Deleted works, the latest deleted first, with who deleted them joined."""
        return self.filter(deleted_at__isnull=False).select_related("deleted_by").order_by("-deleted_at", "-id")

    def merged_slugs(self, slugs: Iterable[str]) -> dict[str, str]:
        """Those of ``slugs`` that name a work merged into another, each with the slug of the work it lives on as (one
        query): an old address of a comparison or a graph leads there."""
        return dict(self.deleted().filter(slug__in=list(slugs), merged_into__isnull=False, merged_into__deleted_at__isnull=True)
                    .order_by().values_list("slug", "merged_into__slug"))

    def gone(self, slug: str) -> Source | None:
        """The deleted work that was called ``slug``, with the work it was merged into (if any) joined; None when
        no deleted work was."""
        return self.deleted().select_related("merged_into").filter(slug=slug).first()

    def classified(self, yes: bool = True) -> SourceQuerySet:
        """Works with a classification (of the work or a component); with ``yes`` false, those with none yet."""
        from wiki.models.classifications import Classification

        some = models.Exists(Classification.all_objects.filter(source=models.OuterRef("pk")))
        return self.filter(some) if yes else self.exclude(some)

    def unclassified(self) -> SourceQuerySet:
        """Works with no classification at all (neither the work nor a component), oldest first; prefetches nothing."""
        return self.classified(False).order_by("pk")

    def by_suggestion_confidence(self, *, least_first: bool = False) -> SourceQuerySet:
        """Ordered by the confidence of the work's stored suggestion (see ``wiki.models.suggestions``), the surest
        first or last, a work with nothing to read below any; oldest first among equals, a work with no stored
        suggestion yet after all. Annotates ``suggested_confidence``; prefetches nothing."""
        from wiki.models.suggestions import StoredSuggestion

        stored = StoredSuggestion.objects.filter(source=models.OuterRef("pk"), component__isnull=True)
        confidence = models.F("suggested_confidence")
        return self.annotate(suggested_confidence=models.Subquery(stored.values("confidence")[:1])).order_by(
            confidence.asc(nulls_last=True) if least_first else confidence.desc(nulls_last=True), "pk",
        )

    def with_classification(self) -> SourceQuerySet:
        """Prefetches each source's classifications (work-level and per component) with their components."""
        from wiki.models.classifications import Classification

        return self.prefetch_related(
            Prefetch(
                "classifications",
                queryset=Classification.objects.select_related("component").order_by(
                    models.F("component__name_sort").asc(nulls_first=True), "pk"),
            )
        )

    def classified_as(self, *, mechanism: str | None = None, verdict: str | None = None) -> SourceQuerySet:
        """Sources with one classification (of the work or a component) having both the mechanism and the verdict given."""
        from wiki.models.classifications import Classification

        conditions = {k: v for k, v in {"mechanism": mechanism, "verdict": verdict}.items() if v}
        if not conditions:
            return self
        # Through ``all_objects``: the live manager would join the work a second time, which the planner estimated
        # at one row and answered with millions of scans.
        return self.filter(models.Exists(Classification.all_objects.filter(source=models.OuterRef("pk"), **conditions)))

    def changed_after(self, moment: datetime) -> SourceQuerySet:
        """Works edited after ``moment``, or one of whose classifications was: what a work shows changed, as its
        Last-Modified says."""
        from wiki.models.classifications import Classification

        reclassified = Classification.all_objects.filter(source=models.OuterRef("pk"), updated_at__gt=moment)
        return self.filter(models.Q(updated_at__gt=moment) | models.Exists(reclassified))

    def with_validator(self) -> SourceQuerySet:
        """Annotates what :attr:`Source.validator` reads: when its classifications last changed, and how many it
        has of them and of components."""
        from wiki.models.classifications import Classification

        def per_source(model: type[models.Model], value: models.Aggregate) -> models.Subquery:
            rows = model.objects.filter(source=models.OuterRef("pk")).order_by().values("source")  # type: ignore[attr-defined]
            return models.Subquery(rows.annotate(v=value).values("v")[:1])

        return self.annotate(
            classifications_changed_at=per_source(Classification, models.Max("updated_at")),
            classification_count=per_source(Classification, models.Count("id")),
            component_names=per_source(Component, StringAgg("name", "|", order_by="id")),
        )

    def validator(self) -> Validator:
        """The validator of a list of these sources with their classifications (one query). An ETag alone: no date tells
        that a work left the list (edited out of a filter), so no Last-Modified is given."""
        summary = self.order_by().aggregate(
            n=models.Count("id", distinct=True), ids=models.Sum("id", distinct=True), changed=models.Max("updated_at"),
            classified=models.Max("classifications__updated_at"),
            classifications=models.Count("classifications", distinct=True),
            components=models.Count("components", distinct=True),
        )
        return make_validator("sources", *summary.values(), last_modified=None)

    def cited_on(self, page_id: int) -> SourceQuerySet:
        """The works the page's current claims cite, in the order first cited, each once, annotated with
        ``cited_locators`` (every locator in the order cited; see :attr:`Source.locators_cited`), ``plainly_cited``
        (its citations as 来源 rather than 综合) and ``claims_citing_here`` (how many of the page's claims cite it). One
        query; prefetches nothing."""
        from wiki.models.claims import CitationKind

        citations = self.filter(citations__claim__page_id=page_id, citations__claim__is_orphaned=False)
        return citations.annotate(
            # A claim holds at most a few thousand citations: its position first, then the citation's within it.
            first_cited=models.Min(models.F("citations__claim__position") * 10_000 + models.F("citations__position")),
            cited_locators=ArrayAgg("citations__locator", order_by=("citations__claim__position", "citations__position")),
            plainly_cited=models.Count("citations", filter=models.Q(citations__kind=CitationKind.CITED)),
            claims_citing_here=models.Count("citations__claim", distinct=True),
        ).only("id", "slug", "short_name", "title", "year", "authors").order_by("first_cited", *NAME_ORDER)

    def for_export(self) -> SourceQuerySet:
        """Every field a reference file holds, in the list's order (:meth:`in_name_order`); prefetches nothing."""
        return self.in_name_order()

    def for_listing(self) -> SourceQuerySet:
        """Sources for the list view: classifications prefetched, in :meth:`in_name_order`."""
        return self.with_classification().in_name_order()


# Short names and titles as Chinese readers sort them (``wiki.text.sort_keys``), the older work first among equals.
NAME_ORDER = ("name_sort", "pk")
TITLE_ORDER = ("title_sort", "pk")

_SourceQuerySetManager = models.Manager.from_queryset(SourceQuerySet)


class LiveSourceManager(_SourceQuerySetManager["Source"]):
    """Works not deleted: what readers, lists, search, graphs and the API see."""

    def get_queryset(self) -> SourceQuerySet:
        return SourceQuerySet(self.model, using=self._db).live()


class Source(SortKeyed, Deletable):
    """A cited work: paper, preprint, project, blog post, audit note, benchmark or framework."""

    slug = models.SlugField(field_label("slug"), max_length=120, unique=True, validators=[validate_source_slug])
    short_name = models.CharField(field_label("short_name"), max_length=200, validators=[validate_line])
    title = models.CharField(field_label("title"), max_length=500, validators=[validate_line])
    normalized_title = models.CharField(_("Normalised title"), max_length=500, db_index=True, editable=False)
    # The short name with case, width, spacing and punctuation folded: what a typed name is looked up by.
    name_key = models.TextField(_("Folded short name"), db_index=True, editable=False, default="")
    # The short name and the title as lists sort them: a Chinese name read in pinyin (阿里巴巴通义 among the A's).
    name_sort = SortKeyField(_("Short name as sorted"), source="short_name")
    title_sort = SortKeyField(_("Title as sorted"), source="title")
    # The short name as searches compare it: a search named so offers the work (wiki.search.close).
    name_form = NameFormField(_("Short name as searched"), source="short_name")
    kind = models.CharField(field_label("kind"), max_length=20, choices=SourceKind.choices, default=SourceKind.PAPER)
    authors = models.TextField(field_label("authors"), blank=True, validators=text_limit(MAX_TEXT_CHARS))
    year = models.PositiveSmallIntegerField(field_label("year"), null=True, blank=True,
                                            validators=[YearFromValidator(YEAR_MIN), YearToValidator(YEAR_MAX)])
    venue = models.CharField(field_label("venue"), max_length=300, blank=True, validators=[validate_optional_line])
    url = LinkURLField(field_label("url"), max_length=500, blank=True, help_text=_("Stored percent-encoded."))
    arxiv_id = models.CharField(field_label("arxiv_id"), max_length=40, blank=True,
                                validators=[validate_optional_line, validate_arxiv_id],
                                help_text=_("Normalised, without version (2307.13854)."))
    doi = models.CharField(field_label("doi"), max_length=200, blank=True, validators=[validate_optional_line, validate_doi],
                           help_text=_("Normalised, lower case, without https://doi.org/."))
    bibtex_key = models.CharField(field_label("bibtex_key"), max_length=200, blank=True, validators=[validate_optional_line])
    # What a reference file said of the work beyond the fields above, for writing it back as it came: its BibTeX entry
    # type (inproceedings, phdthesis…) and fields such as pages, volume, number, publisher (BIBLIOGRAPHIC_FIELDS).
    entry_type = models.CharField(field_label("entry_type"), max_length=30, blank=True, validators=[validate_optional_line],
                                  help_text=_("The BibTeX entry type it was imported as (inproceedings, phdthesis…)."))
    bibliographic = models.JSONField(_("Bibliographic details"), default=dict, blank=True,
                                     help_text=_("Pages, volume, number, publisher and the like, as imported."))
    # The reference file's fields the wiki has no place for (keywords, language, an editor…), by their BibTeX names,
    # for the exports to give back (wiki.references.extra_fields).
    extra_fields = models.JSONField(field_label("extra_fields"), default=dict, blank=True,
                                    help_text=_("Fields of the reference file the wiki has no place for (keywords, "
                                                "language…), by their BibTeX names; written back in the exports."))
    abstract = models.TextField(field_label("abstract"), blank=True, validators=text_limit(MAX_ABSTRACT_CHARS))
    notes = models.TextField(field_label("notes"), blank=True, validators=text_limit(MAX_NOTES_CHARS))
    merged_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged_from",
                                    editable=False, verbose_name=_("Merged into"),
                                    help_text=_("The work this one was merged into; its address leads there."))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = LiveSourceManager()
    all_objects = SourceQuerySet.as_manager()

    class Meta:
        ordering = NAME_ORDER
        default_manager_name = "all_objects"
        verbose_name = _("Source")
        verbose_name_plural = _("Sources")
        indexes = [
            models.Index(fields=["name_sort", "id"], name="source_name_sort"),
            models.Index(fields=["title_sort", "id"], name="source_title_sort"),
            models.Index(fields=["name_form", "id"], name="source_name_form"),
            # a search that is a work's BibTeX key offers the work (wiki.search.close), case aside
            models.Index(Lower("bibtex_key"), name="source_bibtex_key_folded"),
            # the live works' ids alone: what the map's counts and every join to live works read, without the rows
            models.Index(fields=["id"], condition=models.Q(deleted_at__isnull=True), name="source_live"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["arxiv_id"], condition=~models.Q(arxiv_id=""), name="source_unique_arxiv_id"),
            models.UniqueConstraint(fields=["doi"], condition=~models.Q(doi=""), name="source_unique_doi"),
            models.CheckConstraint(
                condition=models.Q(year__isnull=True) | models.Q(year__gte=YEAR_MIN, year__lte=YEAR_MAX),
                name="source_year_plausible",
            ),
        ]

    def __str__(self) -> str:
        return self.short_name

    def clean(self) -> None:
        """Identifiers in their normal form (any version, URL or prefix is accepted), the URL percent-encoded, the entry
        type one the exports write, the bibliographic details and other fields one line each
        (:func:`clean_bibliographic`, :func:`~wiki.references.extra_fields.clean_extra_fields`) and the
        authors separated as the wiki keeps them (:func:`separated_authors`)."""
        from wiki.references.draft import ENTRY_TYPE_LABELS, clean_bibliographic, separated_authors
        from wiki.references.extra_fields import clean_extra_fields
        from wiki.references.identifiers import normalize_arxiv_id, normalize_doi

        if self.entry_type and self.entry_type not in ENTRY_TYPE_LABELS:
            raise ValidationError({"entry_type": ValidationError(
                _("“%(type)s” is no entry type the wiki writes; choose one of %(types)s, or none."),
                code="invalid_choice", params={"type": self.entry_type, "types": ", ".join(ENTRY_TYPE_LABELS)})})
        try:
            self.bibliographic = clean_bibliographic(self.bibliographic)
        except ValidationError as error:
            raise ValidationError({"bibliographic": error}) from None
        try:
            self.extra_fields = clean_extra_fields(self.extra_fields)
        except ValidationError as error:
            raise ValidationError({"extra_fields": error}) from None
        self.authors = separated_authors(self.authors)
        # The field validators have refused what cannot be normalised.
        self.arxiv_id = normalize_arxiv_id(self.arxiv_id) or "" if self.arxiv_id.strip() else ""
        self.doi = normalize_doi(self.doi) or "" if self.doi.strip() else ""
        self.url = percent_encode_url(self.url)
        if len(self.url) > 500:
            raise ValidationError({"url": ValidationError(_("The URL is longer than 500 characters once percent-encoded."),
                                                          code="max_length")})

    def derive_keys(self) -> None:
        """Sets the title and short name as they are looked up, folded; ``save()`` does, ``bulk_create`` does not
        (the sort keys are set by both)."""
        from wiki.references.identifiers import normalize_title, short_name_key

        self.normalized_title = normalize_title(self.title)
        self.name_key = short_name_key(self.short_name)

    def save(self, *args: object, **kwargs: object) -> None:
        self.derive_keys()
        written = kwargs.get("update_fields")
        if isinstance(written, (list, tuple, set, frozenset)):
            # A save of the title or short name alone writes what is derived from them too.
            derived = {"title": ["normalized_title"], "short_name": ["name_key"]}
            kwargs["update_fields"] = [*written, *(field for name in derived if name in written for field in derived[name])]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("wiki:source-detail", kwargs={"slug": self.slug})

    @property
    def locators_cited(self) -> list[str]:
        """The locators a page cites the work at, each once, in the order cited; needs :meth:`SourceQuerySet.cited_on`."""
        return distinct_locators(getattr(self, "cited_locators"))

    @property
    def only_synthesised(self) -> bool:
        """The page synthesises from the work (综合) and never cites it plainly; needs :meth:`SourceQuerySet.cited_on`."""
        return not getattr(self, "plainly_cited")

    @property
    def validator(self) -> Validator:
        """ETag and Last-Modified of the source with its classifications; needs :meth:`SourceQuerySet.with_validator`."""
        changed = getattr(self, "classifications_changed_at")
        parts = (self.pk, self.updated_at, changed, getattr(self, "classification_count"), getattr(self, "component_names"))
        return make_validator("s", *parts, last_modified=latest(self.updated_at, changed))


class ComponentQuerySet(SortKeyedQuerySet["Component"]):
    def in_name_order(self) -> ComponentQuerySet:
        """By name as Chinese readers sort names (监督器, jian4…, after CRO and before Tree-GRPO)."""
        return self.order_by("name_sort", "pk")


class Component(SortKeyed):
    """A separately classified part of a work (Shepherd's Tree-GRPO vs its supervisor and CRO)."""

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="components", verbose_name=field_label("source"))
    slug = models.SlugField(field_label("slug"), max_length=120, validators=[validate_source_slug])
    name = models.CharField(_("Name"), max_length=200, validators=[validate_line])
    name_sort = SortKeyField(_("Name as sorted"), source="name")
    # A search naming the component (``Tree-GRPO``, ``Shepherd Tree-GRPO``) leads to it as a work's name does.
    name_form = NameFormField(_("Name as searched"), source="name")

    objects = ComponentQuerySet.as_manager()

    class Meta:
        ordering = ["source", "name_sort", "id"]
        verbose_name = _("Component")
        verbose_name_plural = _("Components")
        constraints = [models.UniqueConstraint(fields=["source", "slug"], name="component_unique_slug_per_source")]
        indexes = [models.Index(fields=["name_form", "id"], name="component_name_form")]

    def __str__(self) -> str:
        return f"{self.source} {self.name}" if self.source_id else self.name
