from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from wiki.models.sources import Source


class SourceImportQuerySet(models.QuerySet["SourceImport"]):
    def for_history(self) -> SourceImportQuerySet:
        """Newest first, with who imported and who undid each joined; prefetches nothing."""
        return self.select_related("user", "undone_by").order_by("-created_at", "-id")


class SourceImport(models.Model):
    """One reference file imported: who, when, how, what came of its entries, and the works it created, so that the
    import can be undone as a whole while nothing else uses them."""

    class Via(models.TextChoices):
        WEB = "web", _("the web form")
        API = "api", _("the API")
        COMMAND = "command", _("the command line")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("User"))
    via = models.CharField(_("Imported through"), max_length=20, choices=Via.choices)
    format = models.CharField(_("Format"), max_length=20)
    file_name = models.CharField(_("File name"), max_length=255, blank=True)
    entries = models.PositiveIntegerField(_("Entries"))
    created_count = models.PositiveIntegerField(_("Works created"))
    duplicate_count = models.PositiveIntegerField(_("Already in the wiki"))
    refused_count = models.PositiveIntegerField(_("Refused"))
    created_ids = models.JSONField(_("Works created"), default=list, blank=True,
                                   help_text=_("The ids of the works the import created, deleted when it is undone."))
    # {"<work id>": {"<field>": [before, after]}}, by the names wiki.references.updates offers them.
    updated_fields = models.JSONField(
        _("Fields taken"), default=dict, blank=True,
        help_text=_("The fields taken from the file into works already in the wiki, each with its value before and "
                    "after; given back when the import is undone."))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True, db_index=True)
    undone_at = models.DateTimeField(_("Undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("Undone by"))

    objects = SourceImportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("Import of references")
        verbose_name_plural = _("Imports of references")

    def __str__(self) -> str:
        return f"{self.format} {self.created_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("wiki:import-detail", kwargs={"pk": self.pk})

    @property
    def format_label(self) -> str:
        from wiki.references.formats import ReferenceFormat

        return ReferenceFormat(self.format).label if self.format in {f.value for f in ReferenceFormat} else self.format

    @property
    def is_undone(self) -> bool:
        return self.undone_at is not None

    @property
    def updated_ids(self) -> list[int]:
        """The works already in the wiki that took fields from the file."""
        return [int(pk) for pk in self.updated_fields]

    def works_created(self) -> models.QuerySet[Source]:
        """The works it created still in the wiki, deleted ones included, by name."""
        return self._works(self.created_ids)

    def works_updated(self, ids: list[int] | None = None) -> models.QuerySet[Source]:
        """The works it gave fields (those of ``ids`` among them), deleted ones included, by name."""
        return self._works(self.updated_ids if ids is None else ids)

    @staticmethod
    def _works(ids: list[int]) -> models.QuerySet[Source]:
        from wiki.models.sources import Source

        return Source.all_objects.filter(pk__in=ids).order_by("name_sort", "pk")

    @property
    def updated_count(self) -> int:
        return len(self.updated_fields)

    @property
    def has_changes(self) -> bool:
        """Whether the import created a work or gave one fields: whether undoing it would change anything."""
        return bool(self.created_ids or self.updated_fields)
