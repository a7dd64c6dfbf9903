"""The record of every reference file imported, for editors: read, and undone as a whole as on the import's page."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.conditional import check_preconditions
from wiki.api.errors import import_undo_conflict
from wiki.api.schema import ErrorSerializer
from wiki.api.serializers.imports import SourceImportDetailSerializer, SourceImportSerializer, UndoConflictSerializer
from wiki.api.views.writes import IF_MATCH, PRECONDITION_FAILED, ServiceViewSet
from wiki.field_labels import field_label_of
from wiki.models import SourceImport
from wiki.services.source_import_undo import source_import_undo, source_import_undo_refusal
from wiki.services.source_updates import fields_taken

_EDITORS_ONLY = {
    status.HTTP_403_FORBIDDEN: OpenApiResponse(
        ErrorSerializer, description=gettext_lazy("Logged in without the permission (editors only).")
    )
}
_WORK_FIELDS = ("id", "slug", "short_name", "title", "year", "deleted_at")


class ImportEditors(BasePermission):
    """Imports are the editors' (who may add works), to read as to undo, as their pages are."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.has_perm("wiki.add_source"))


def _with_details(record: SourceImport) -> SourceImport:
    """``record`` with the works it created (those still in the wiki, by name) and those it gave fields, each with
    the fields taken, and why it cannot be undone now (None when it can): a fixed number of queries."""
    record.created_works = list(record.works_created().only(*_WORK_FIELDS))  # type: ignore[attr-defined]
    updated = list(record.works_updated().only(*_WORK_FIELDS))
    for work in updated:
        work.fields_taken = [  # type: ignore[attr-defined]
            {"field": name, "field_label": field_label_of(name), "before": "" if before is None else str(before),
             "after": "" if after is None else str(after)}
            for name, before, after in fields_taken(record, work.pk)
        ]
    record.updated_works = updated  # type: ignore[attr-defined]
    refusal = source_import_undo_refusal(record=record)
    why: dict[str, Any] | None = None
    if refusal is not None:
        conflict = import_undo_conflict(refusal)
        why = {"detail": str(conflict.detail), "code": conflict.get_codes(), **conflict.extra}
    record.can_undo = why is None  # type: ignore[attr-defined]
    record.undo_refusal = why  # type: ignore[attr-defined]
    return record


@extend_schema_view(
    list=extend_schema(
        summary=gettext_lazy("List imports of reference files, newest first"),
        responses={200: SourceImportSerializer(many=True), **_EDITORS_ONLY},
    ),
    retrieve=extend_schema(
        summary=gettext_lazy("An import: the works it created or gave fields, and whether it can be undone"),
        responses={200: SourceImportDetailSerializer, **_EDITORS_ONLY},
    ),
)
class SourceImportViewSet(ServiceViewSet):
    """Every reference file imported (web form, API, command line), newest first, by id: who, when, the file, what
    came of its entries; one import with the works it created and those it gave fields. Editors only."""

    lookup_value_regex = "[0-9]+"
    permission_classes = [IsAuthenticated, ImportEditors]
    serializer_class = SourceImportSerializer
    ordering_fields = ["created_at"]
    ordering = ["-created_at", "-id"]
    http_method_names = ["get", "post", "head", "options"]

    def get_queryset(self) -> QuerySet[SourceImport]:
        return SourceImport.objects.for_history()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return SourceImportSerializer if self.action == "list" else SourceImportDetailSerializer

    def read_serializer(self, instance: Any) -> serializers.BaseSerializer[Any]:
        return SourceImportDetailSerializer(_with_details(instance), context=self.get_serializer_context())

    @extend_schema(
        summary=gettext_lazy("Undo an import: delete the works it created and give back the fields it changed"),
        description=(
            "As the import's page undoes it: the works it created are deleted for good, and the fields taken "
            "from the file into works already in the wiki get back the values they had, each unless edited "
            "since. Refused (409, nothing changed) when something else uses a work it created, when it is "
            "undone already, or when it changed nothing."
        ),
        request=None,
        filters=False,
        parameters=[IF_MATCH],
        responses={
            200: SourceImportDetailSerializer,
            **_EDITORS_ONLY,
            **PRECONDITION_FAILED,
            status.HTTP_409_CONFLICT: OpenApiResponse(
                UndoConflictSerializer,
                description=gettext_lazy("Not undone (`in_use`, with the uses; `already_undone`; `nothing_to_undo`)."),
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str) -> Response:
        record = self.get_object()

        def unchanged_since_read(locked: SourceImport) -> None:
            # read again under the service's locks: a save between a check here and those locks would be lost to it
            check_preconditions(request, lambda: self.validator_of(self.get_queryset().get(pk=locked.pk)))

        return self.answer(source_import_undo(record=record, user=request.user, precondition=unchanged_since_read))
