from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils.translation import gettext_lazy as _

from wiki.models.labels import field_label


class SearchDocument(models.Model):
    """One searchable object (page, claim, source or question), its text and its search vector.

    The vector holds CJK bigrams and lower-cased Latin words (the embedded PostgreSQL has no
    pg_trgm), and is rebuilt whenever the object is saved. ``importance`` is a static order within a
    kind (see ``wiki.search.index``); the vector marks the most important documents of each kind, so
    that a search reads those first and a word found in half the documents costs no more than a rare one.
    """

    class Kind(models.TextChoices):
        PAGE = "page", _("Page")
        CLAIM = "claim", _("Claim")
        SOURCE = "source", _("Source")
        QUESTION = "question", _("Open question")

    kind = models.CharField(field_label("kind"), max_length=20, choices=Kind.choices)
    object_id = models.BigIntegerField(_("Object ID"))
    title = models.CharField(field_label("title"), max_length=500)
    body = models.TextField(field_label("body"), blank=True)
    url = models.CharField(field_label("url"), max_length=500)
    # A work's classifications, the work's own first, then its components' by name: mechanisms[i] with verdicts[i].
    mechanisms = ArrayField(models.CharField(max_length=40), verbose_name=_("Mechanisms"), default=list, blank=True)
    verdicts = ArrayField(models.CharField(max_length=20), verbose_name=_("Verdicts"), default=list, blank=True)
    vector = SearchVectorField(_("Search vector"), null=True)
    importance = models.IntegerField(_("Importance"), default=0, help_text=_("Higher first among the documents of the same kind."))
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    class Meta:
        verbose_name = _("Search document")
        verbose_name_plural = _("Search documents")
        constraints = [models.UniqueConstraint(fields=["kind", "object_id"], name="searchdocument_unique_object")]
        indexes = [
            GinIndex(fields=["vector"], name="searchdocument_vector_gin"),
            # the most important documents of a kind, read when their tier markers are refreshed
            models.Index(fields=["kind", "-importance", "id"], name="searchdocument_importance"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.title}"
