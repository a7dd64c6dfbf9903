from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpResponseBase, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from wiki.api.errors import Gone, Refusal
from wiki.api.filters import ORDERING, reject_unreadable_parameters
from wiki.api.references import REFERENCE_PARSERS, ImportReportSerializer, report_data, report_entries_data
from wiki.api.renderers import EXPORT_RENDERERS
from wiki.api.schema import DuplicateSerializer, ErrorSerializer
from wiki.api.serializers.sources import SourceSerializer, SourceWriteSerializer
from wiki.api.views.writes import (
    IF_MATCH_REQUIRED,
    PRECONDITIONS,
    PUT_KEEPS,
    ServiceCreateMixin,
    ServiceUpdateMixin,
    ServiceViewSet,
    saved_serializer,
)
from wiki.filters import SourceFilter
from wiki.models import Component, Source, SourceImport
from wiki.models.etags import Validator
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import csl_items
from wiki.references.draft import SourceDraft
from wiki.references.formats import (
    FORMAT_BY_MEDIA_TYPE,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_ENTRIES,
    MEDIA_TYPES,
    ReferenceFormat,
)
from wiki.references.ris_export import dump_ris
from wiki.services.source_import import sources_import
from wiki.services.sources import source_create, source_update

_DUPLICATE = {status.HTTP_409_CONFLICT: OpenApiResponse(DuplicateSerializer, description=gettext_lazy("The source exists already."))}


_GONE = {410: OpenApiResponse(ErrorSerializer, description=gettext_lazy("The work was deleted, or merged into another."))}

# A file whose every entry was refused answers the error shape with the report's entries (wiki.api.schema_hooks); a
# file that cannot be read, the error shape alone. The first is an error too, hence either, not one of the two.
_IMPORT_REFUSED = {"anyOf": [{"$ref": "#/components/schemas/ImportRefusedError"}, {"$ref": "#/components/schemas/Error"}]}


@extend_schema_view(
    list=extend_schema(summary=gettext_lazy("List sources with their classifications")),
    retrieve=extend_schema(summary=gettext_lazy("A source with its classifications"), responses={
        200: SourceSerializer,
        301: OpenApiResponse(description=gettext_lazy("The work was merged into another: `Location` is the kept work's address.")),
        410: OpenApiResponse(ErrorSerializer, description=gettext_lazy("The work was deleted.")),
    }),
    create=extend_schema(summary=gettext_lazy("Add a source"), request=SourceWriteSerializer, responses={201: SourceSerializer, **_DUPLICATE}),
    update=extend_schema(summary=gettext_lazy("Change a source"), description=PUT_KEEPS, request=SourceWriteSerializer, parameters=[IF_MATCH_REQUIRED],
                         responses={200: saved_serializer(SourceSerializer), **_DUPLICATE, **PRECONDITIONS, **_GONE}),
    partial_update=extend_schema(summary=gettext_lazy("Change some fields of a source"), request=SourceWriteSerializer,
                                 parameters=[IF_MATCH_REQUIRED],
                                 responses={200: saved_serializer(SourceSerializer), **_DUPLICATE, **PRECONDITIONS, **_GONE}),
)
class SourceViewSet(ServiceCreateMixin, ServiceUpdateMixin, ServiceViewSet):
    """Cited works by slug, each with its components and classifications. Duplicates (arXiv ID, DOI, title) answer 409."""

    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    filterset_class = SourceFilter
    serializer_class = SourceSerializer
    write_serializer_class = SourceWriteSerializer
    ordering_fields = ["short_name", "year", "title", "created_at", "updated_at"]
    ordering = ["short_name"]
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Source]:
        sources = Source.objects.with_classification().prefetch_related(
            Prefetch("components", queryset=Component.objects.in_name_order())
        )
        if self.action == "export":
            return Source.objects.for_export()
        return sources if self.action == "list" else sources.with_validator()

    def retrieve(self, request: Request, *args: object, **kwargs: object) -> HttpResponseBase:
        """The work; a work merged into another answers 301 with the kept work's address (as its page does), a
        deleted one 410."""
        try:
            return super().retrieve(request, *args, **kwargs)
        except Http404:
            gone = Source.all_objects.gone(str(kwargs.get(self.lookup_field, "")))
            if gone is None:
                raise
            if gone.merged_into is None:
                raise Gone(gettext("The work “%(name)s” was deleted.") % {"name": gone.short_name}) from None
            kept = reverse("api:source-detail", kwargs={self.lookup_field: gone.merged_into.slug})
            return HttpResponsePermanentRedirect(request.build_absolute_uri(kept))

    def gone(self) -> Gone | None:
        """410 for an edit of a deleted work, and of one merged into another, naming the work it lives on as."""
        gone = Source.all_objects.gone(str(self.kwargs.get(self.lookup_field, "")))
        if gone is None or gone.merged_into is None:
            return super().gone()
        return Gone(gettext("The work “%(name)s” was merged into “%(kept)s”: edit that one.")
                    % {"name": gone.short_name, "kept": gone.merged_into.short_name})

    def validator_of(self, instance: Source, data: Any = None) -> Validator:
        return instance.validator

    def list_validator(self, queryset: QuerySet[Source]) -> Validator:
        return queryset.validator()  # type: ignore[attr-defined,no-any-return]

    def service_create(self, data: dict[str, Any]) -> Source:
        return source_create(draft=SourceDraft(**data), user=self.request.user)

    def service_update(self, instance: Source, data: dict[str, Any]) -> Source:
        # The service refuses (412) a save made between the If-Match check and its lock.
        return source_update(source=instance, fields=data, user=self.request.user, loaded_at=self.loaded_at)

    @extend_schema(
        summary=gettext_lazy("Import a reference file (BibTeX/biblatex, CSL-JSON or RIS)"),
        description=(
            "The request body is the file itself, with its media type. Every entry is created, reported as already in "
            "the wiki (`duplicate`, with the work it is) or refused with its reason and line; the import is one "
            "transaction, recorded: the answer's `id` and `api_url` name the import, to read and undo as a whole at "
            f"/api/v1/imports/<id>/. At most {MAX_IMPORT_BYTES // (1024 * 1024)} MB and {MAX_IMPORT_ENTRIES:,} entries. "
            "The other names of these media types are read too: text/x-bibtex, application/x-biblatex, "
            "application/citeproc+json, application/x-ris. Web of Science's plain-text export is read from its content, "
            "sent as application/x-inst-for-scientific-info or as RIS."
        ),
        request={
            MEDIA_TYPES[ReferenceFormat.BIBTEX]: {"type": "string"},
            # An array of CSL items; one item alone, or Zotero's {"items": [...]}, is read too.
            MEDIA_TYPES[ReferenceFormat.CSL_JSON]: {"oneOf": [{"type": "array", "items": {"type": "object"}, "minItems": 1}, {"type": "object"}]},
            MEDIA_TYPES[ReferenceFormat.RIS]: {"type": "string"},
            MEDIA_TYPES[ReferenceFormat.WOS]: {"type": "string"},
        },
        responses={200: ImportReportSerializer,
                   400: OpenApiResponse(_IMPORT_REFUSED, description=gettext_lazy("The file cannot be read (its encoding, its "
                                        "format: the error shape), or every entry of it was refused (`all_refused`, "
                                        "with `format`, `created`, `duplicate` and `refused` as in the report: each "
                                        "entry's line and why); nothing is imported and no import is recorded.")),
                   413: OpenApiResponse(ErrorSerializer, description=format_lazy(
                       gettext_lazy("The body is larger than {size} MB."), size=MAX_IMPORT_BYTES // (1024 * 1024))),
                   415: OpenApiResponse(ErrorSerializer, description=gettext_lazy("The body's media type is none of the reference formats."))},
        examples=[OpenApiExample("BibTeX", request_only=True, media_type=MEDIA_TYPES[ReferenceFormat.BIBTEX],
                                 value="@article{yao2023react, title={ReAct}, eprint={2210.03629}, archivePrefix={arXiv}}")],
    )
    @action(detail=False, methods=["post"], url_path="import", parser_classes=REFERENCE_PARSERS)
    def import_references(self, request: Request) -> Response:
        # The file's text; the parser refuses (415) a media type that is not one of the three. An empty body is
        # parsed by no parser, and DRF then gives an empty form instead of a text.
        text = request.data
        if not isinstance(text, str) or not text.strip():
            raise ValidationError({"body": [gettext("The request body is empty: send the reference file itself.")]}, code="empty")
        fmt = FORMAT_BY_MEDIA_TYPE[request.content_type.split(";")[0].strip().lower()]
        report = sources_import(text=text, fmt=fmt, user=request.user, via=SourceImport.Via.API)
        if report.refuses_all:  # nothing imported, no import recorded
            raise Refusal(report.nothing_imported, code="all_refused", extra=report_entries_data(report))
        return Response(report_data(report, self.get_serializer_context()))

    @extend_schema(
        summary=gettext_lazy("Export sources as BibTeX, CSL-JSON or RIS"),
        description=(
            "Every source matching the filters (the same as the list's; not paginated) as a reference file: BibTeX "
            "with `?format=bib` or `Accept: application/x-bibtex`, CSL-JSON with `?format=csl` or "
            "`Accept: application/vnd.citationstyles.csl+json` (`application/json` gives the same items), RIS with "
            "`?format=ris` or `Accept: application/x-research-info-systems`. "
            "Citation keys are stable: the work's BibTeX key when it has one, else its slug. "
            "`?cited_on=<page slug>` exports the works a page cites."
        ),
        parameters=[OpenApiParameter("format", str, enum=["bib", "csl", "ris", "json"], required=False,
                                     description=gettext_lazy("The format, instead of an Accept header."))],
        responses={
            (200, MEDIA_TYPES[ReferenceFormat.BIBTEX]): OpenApiResponse(OpenApiTypes.STR, description=gettext_lazy("A BibTeX file.")),
            (200, MEDIA_TYPES[ReferenceFormat.RIS]): OpenApiResponse(OpenApiTypes.STR, description="A RIS file."),
            (200, MEDIA_TYPES[ReferenceFormat.CSL_JSON]): OpenApiResponse(
                {"type": "array", "items": {"type": "object", "required": ["id", "type", "title"]}},
                description="CSL-JSON items."),
            (200, "application/json"): OpenApiResponse(
                {"type": "array", "items": {"type": "object", "required": ["id", "type", "title"]}},
                description="CSL-JSON items."),
        },
        filters=True,
    )
    @action(detail=False, methods=["get"], renderer_classes=EXPORT_RENDERERS, pagination_class=None)
    def export(self, request: Request) -> HttpResponseBase:
        reject_unreadable_parameters(request, set(SourceFilter.base_filters) | {ORDERING})

        def build() -> Response:
            sources = list(self.filter_queryset(self.get_queryset()))
            if request.accepted_renderer.format == "bib":
                return Response(dump_bibtex(sources))
            if request.accepted_renderer.format == "ris":
                return Response(dump_ris(sources))
            return Response(csl_items(sources))

        return self._cached_read(request, "export", build)
