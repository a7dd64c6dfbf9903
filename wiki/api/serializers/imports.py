"""Imports of reference files as the API reads them: who, when, what came of the file's entries, the works each created
or gave fields, and whether it can still be undone."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.links import BrowserURLField, absolute
from wiki.models import Source, SourceImport
from wiki.references.formats import ReferenceFormat


class APIURLField(serializers.URLField):
    """The import in the API (an absolute URL)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="pk", read_only=True, help_text=gettext_lazy("The import in the API (an absolute URL)."), **kwargs)

    def to_representation(self, value: Any) -> str:
        return absolute(self.context, reverse("api:import-detail", kwargs={"pk": value}))


class SourceImportSerializer(serializers.ModelSerializer):
    """One reference file imported (through the web form, the API or the command line)."""

    user = serializers.CharField(
        source="user.username",
        allow_null=True,
        default=None,
        help_text=gettext_lazy("Who imported it (null for the command line, or an account deleted since)."),
    )
    format = serializers.ChoiceField(choices=[f.value for f in ReferenceFormat], read_only=True)
    updated_count = serializers.IntegerField(
        read_only=True, help_text=gettext_lazy("Works already in the wiki that took fields from the file.")
    )
    undone_by = serializers.CharField(source="undone_by.username", allow_null=True, default=None)
    api_url = APIURLField()
    html_url = BrowserURLField(help_text=gettext_lazy("The import's page in the browser, where it is undone too (an absolute URL)."))

    class Meta:
        model = SourceImport
        fields = [
            "id",
            "user",
            "via",
            "format",
            "file_name",
            "created_at",
            "entries",
            "created_count",
            "duplicate_count",
            "refused_count",
            "updated_count",
            "undone_at",
            "undone_by",
            "api_url",
            "html_url",
        ]
        read_only_fields = fields


class ImportedWorkSerializer(serializers.ModelSerializer):
    """A work an import created, while it is in the wiki."""

    deleted = serializers.BooleanField(source="is_deleted", read_only=True, help_text=gettext_lazy("Deleted since the import."))
    html_url = BrowserURLField()

    class Meta:
        model = Source
        fields = ["slug", "short_name", "title", "year", "deleted", "html_url"]
        read_only_fields = fields


class TakenFieldSerializer(serializers.Serializer):
    field = serializers.CharField(
        help_text=gettext_lazy(
            "The work's field, a bibliographic detail by BibTeX's name, or extra_fields.<name> for one of its other fields."
        )
    )
    field_label = serializers.CharField(help_text=gettext_lazy("The field in the reader's language."))
    before = serializers.CharField(help_text=gettext_lazy("What the work had (empty when it had nothing); given back by the undo."))
    after = serializers.CharField(help_text=gettext_lazy("What the file gave it."))


class UpdatedWorkSerializer(ImportedWorkSerializer):
    """A work already in the wiki that took fields from the file, each with its value before and after."""

    fields_taken = TakenFieldSerializer(many=True, read_only=True)

    class Meta(ImportedWorkSerializer.Meta):
        fields = [*ImportedWorkSerializer.Meta.fields, "fields_taken"]
        read_only_fields = fields


class WorkUseSerializer(serializers.Serializer):
    work = serializers.CharField(help_text=gettext_lazy("The short name of a work the import created."))
    use = serializers.CharField(help_text=gettext_lazy("What uses it, as a sentence in the reader's language."))


class UndoRefusalSerializer(serializers.Serializer):
    """Why an import cannot be undone: undone already (`already_undone`), nothing to undo (`nothing_to_undo`), or
    other parts of the wiki use the works it created (`in_use`, each use in `uses`)."""

    detail = serializers.CharField()
    code = serializers.ChoiceField(choices=["already_undone", "nothing_to_undo", "in_use"])
    uses = WorkUseSerializer(many=True, help_text=gettext_lazy("For `in_use`: what uses the works, up to ten."))
    more = serializers.BooleanField(help_text=gettext_lazy("For `in_use`: there are more uses than those listed."))


class UndoConflictSerializer(ErrorSerializer):
    """409: the import was not undone, and nothing was changed."""

    uses = WorkUseSerializer(many=True, help_text=gettext_lazy("For `in_use`: what uses the works, up to ten."))
    more = serializers.BooleanField(help_text=gettext_lazy("For `in_use`: there are more uses than those listed."))


class SourceImportDetailSerializer(SourceImportSerializer):
    """An import with the works it created (those still in the wiki), the works it gave fields, and whether it can be
    undone now."""

    created_works = ImportedWorkSerializer(many=True, read_only=True)
    updated_works = UpdatedWorkSerializer(many=True, read_only=True)
    can_undo = serializers.BooleanField(read_only=True, help_text=gettext_lazy("Whether POST …/undo/ would undo it now."))
    undo_refusal = UndoRefusalSerializer(
        allow_null=True, read_only=True, help_text=gettext_lazy("Why it cannot be undone now; null when it can.")
    )

    class Meta(SourceImportSerializer.Meta):
        fields = [*SourceImportSerializer.Meta.fields, "created_works", "updated_works", "can_undo", "undo_refusal"]
        read_only_fields = fields
