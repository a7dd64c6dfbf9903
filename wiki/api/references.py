"""Reference files as request bodies (BibTeX, CSL-JSON, RIS), and the per-entry report of an import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.http import parse_header_parameters
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser

from wiki.api.parsers import refuse_content_coding
from wiki.api.serializers.links import absolute
from wiki.references.encoding import decode_reference_file
from wiki.references.errors import ReferencesRefused
from wiki.references.formats import MAX_IMPORT_BYTES, MEDIA_TYPES, ReferenceFormat
from wiki.services.source_import import ImportReport, ImportResult, ImportStatus


class BodyTooLarge(APIException):
    """413: the request body is larger than the endpoint takes."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "too_large"


class _ReferenceFileParser(BaseParser):
    """The body as text, at most ``MAX_IMPORT_BYTES``: by its byte-order mark, else the ``charset`` of its media
    type, else UTF-8."""

    # The body is the file's text: a string where DRF's parsers give a mapping.
    def parse(self, stream: Any, media_type: str | None = None,  # type: ignore[override]
              parser_context: Mapping[str, Any] | None = None) -> str:
        refuse_content_coding(parser_context)
        data = stream.read(MAX_IMPORT_BYTES + 1) if stream is not None else b""
        if len(data) > MAX_IMPORT_BYTES:
            raise BodyTooLarge(gettext("The file is larger than %(size)s MB; import it in parts.")
                               % {"size": MAX_IMPORT_BYTES // (1024 * 1024)})
        sent_as, parameters = parse_header_parameters(media_type or "")
        try:
            return decode_reference_file(data, charset=parameters.get("charset", "").strip(),
                                         media_type=sent_as or "application/x-bibtex")
        except ReferencesRefused as refused:
            raise ParseError(str(refused), code=refused.code) from None


class BibTeXParser(_ReferenceFileParser):
    media_type = MEDIA_TYPES[ReferenceFormat.BIBTEX]


class CSLJSONParser(_ReferenceFileParser):
    media_type = MEDIA_TYPES[ReferenceFormat.CSL_JSON]


class RISParser(_ReferenceFileParser):
    media_type = MEDIA_TYPES[ReferenceFormat.RIS]


class WebOfScienceParser(_ReferenceFileParser):
    media_type = MEDIA_TYPES[ReferenceFormat.WOS]


# The other names tools send the same formats under (JabRef's text/x-bibtex, citeproc-js's application/citeproc+json).
class BibTeXTextParser(_ReferenceFileParser):
    media_type = "text/x-bibtex"


class BibLaTeXParser(_ReferenceFileParser):
    media_type = "application/x-biblatex"


class CiteprocJSONParser(_ReferenceFileParser):
    media_type = "application/citeproc+json"


class RISShortParser(_ReferenceFileParser):
    media_type = "application/x-ris"


REFERENCE_PARSERS = [BibTeXParser, CSLJSONParser, RISParser, WebOfScienceParser, BibTeXTextParser, BibLaTeXParser,
                     CiteprocJSONParser, RISShortParser]


class FieldUpdateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    field = serializers.CharField(source="name", help_text=gettext_lazy(
        "The work's field, a bibliographic detail by BibTeX's name, or extra_fields.<name> for one of its other fields "
        "(keywords, language, urldate, editor…)."))
    current = serializers.CharField(help_text=gettext_lazy("What the work has (empty when it has nothing)."))
    offered = serializers.CharField(help_text=gettext_lazy("What the entry gives."))


class ImportedEntrySerializer(serializers.Serializer):  # type: ignore[type-arg]
    line = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Where the entry starts in the file."))
    key = serializers.CharField(source="label", help_text=gettext_lazy("The entry's citation key (or item id)."))
    slug = serializers.CharField(allow_null=True, help_text=gettext_lazy("The work created, or the one already in the wiki."))
    title = serializers.CharField(allow_null=True)
    reason = serializers.CharField(source="message", help_text=gettext_lazy("Why it is a duplicate, why it was refused, or a note on what was created (a BibTeX key made usable)."))
    missing = serializers.DictField(child=serializers.CharField(), help_text=gettext_lazy(
        "For a duplicate that is another version of the work: identifiers it has and the work lacks "
        "(arxiv_id, doi), to add with a PATCH of the work if you judge them the same work."))
    warnings = serializers.ListField(child=serializers.CharField(), help_text=gettext_lazy(
        "What was mended or left out to read the entry (a DOI that is no DOI, a second URL, control characters)."))
    updates = FieldUpdateSerializer(many=True, help_text=gettext_lazy(
        "For a duplicate: each field the entry gives otherwise than the work in the wiki, to take with a PATCH of "
        "the work if you judge so (a bibliographic detail, such as volume or pages, in its bibliographic object; one "
        "of its other fields, named extra_fields.<name>, in its extra_fields object)."))
    possible_duplicate = serializers.CharField(allow_null=True, help_text=gettext_lazy(
        "For a work created: the slug of another it may be the same as (one title is the other's with a subtitle, or "
        "the same title by a first author of the same family name), to merge them if it is."))


class ImportReportSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(help_text=gettext_lazy("The import's record: read it, and undo the import as a whole, at api_url."))
    api_url = serializers.URLField(help_text=gettext_lazy("The import in the API (an absolute URL)."))
    html_url = serializers.URLField(help_text=gettext_lazy("The import's page in the browser (an absolute URL)."))
    format = serializers.ChoiceField(choices=[f.value for f in ReferenceFormat])
    created = ImportedEntrySerializer(many=True)
    duplicate = ImportedEntrySerializer(many=True, help_text=gettext_lazy("Already in the wiki (or earlier in the file): linked, not added."))
    refused = ImportedEntrySerializer(many=True)


def _entry(result: ImportResult) -> dict[str, Any]:
    source = result.source
    return {"line": result.line, "label": result.label, "slug": source.slug if source else None,
            "title": source.title if source else None, "message": result.message, "missing": result.missing,
            "warnings": result.warnings, "updates": result.updates,
            "possible_duplicate": result.possible.slug if result.possible is not None else None}


def report_entries_data(report: ImportReport) -> dict[str, Any]:
    """The format and each entry of a report, by outcome: all of an import's report but its record, and the whole
    of the answer for a file whose every entry was refused (no import recorded)."""
    data: dict[str, Any] = {"format": report.format.value}
    for outcome in ImportStatus:
        data[outcome.value] = ImportedEntrySerializer([_entry(r) for r in report.of(outcome)], many=True).data
    return data


def report_data(report: ImportReport, context: Mapping[str, Any]) -> dict[str, Any]:
    """The report of an import made (``report.record`` is its record), its addresses absolute for the request in
    ``context``."""
    record = report.record
    assert record is not None  # an import made, not a preview
    return {"id": record.pk, "api_url": absolute(context, reverse("api:import-detail", kwargs={"pk": record.pk})),
            "html_url": absolute(context, record.get_absolute_url()), **report_entries_data(report)}
