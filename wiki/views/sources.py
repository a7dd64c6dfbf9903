from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode

from wiki.caching import versions
from wiki.caching.responses import cached_for_readers
from wiki.caching.values import cached_value
from wiki.filters import SOURCE_SORT_CHOICES, SourceListFilter
from wiki.forms.rendering import without_controls
from wiki.graph.context import local_graph_for
from wiki.graph.forms import LocalGraphForm
from wiki.models import Claim, Classification, Contrast, OpenQuestion, Source, SourceMerge
from wiki.paginator import Paginator
from wiki.references.exports import EXPORTS
from wiki.search.close import close_names
from wiki.suggestions import SuggestionView, suggestions_for_source
from wiki.views.listing import IN_PAGE, PER_PAGE, Bounded, render_filtered_list


@cached_for_readers(*SourceListFilter.base_filters, "p", "format")
def source_list(request: HttpRequest) -> HttpResponse:
    """The works, filtered and sorted; with ``format=bib`` or ``format=csl``, the whole filtered list as BibTeX or
    CSL-JSON (another format is refused, 400, like a filter value that is not one)."""
    export = EXPORTS.get(request.GET.get("format", ""))
    query = request.GET.copy()
    query.pop("p", None)
    if export is not None:
        filterset = SourceListFilter(query, queryset=Source.objects.for_export())
        if filterset.is_valid():
            response = HttpResponse(export.write(filterset.qs), content_type=f"{export.media_type}; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="agentic-rl-sources.{export.extension}"'
            return response
    filterset = SourceListFilter(query or None, queryset=Source.objects.for_listing())
    filters = query.copy()  # the filter set reads ``query`` when it is validated, format included
    filters.pop("format", None)
    words = without_controls(query.get("q", "")).strip()
    return render_filtered_list(request, "wiki/source_list.html", filterset, {
        "export_query": _export_query(filters),
        "filtered": any(value for name, value in filters.items() if name != "sort"),
        "sort": filters.get("sort", ""),
        "sorts": SOURCE_SORT_CHOICES,
        # words the list's filter (a plain "contains") found nowhere may name a term search knows by its other names
        "search_words": words,
        "search_instead": f"{reverse('wiki:search')}?{urlencode({'kind': 'source', 'q': words})}" if words else "",
    })


def _export_query(query: QueryDict) -> str:
    """The filters of the list as a query string to which ``format=`` is added."""
    return query.urlencode() + "&" if query else ""


@dataclass(frozen=True)
class Cards:
    """Each classification of a work beside the classifier's suggestion, or the suggestion alone."""

    pairs: list[tuple[Classification, SuggestionView]]
    unclassified_suggestion: SuggestionView | None


def _cards(source: Source) -> Cards:
    classifications = list(Classification.objects.for_cards().filter(source=source))
    suggestions = suggestions_for_source(source, classifications)
    # With no classification, the one suggestion stands alone.
    return Cards(list(zip(classifications, suggestions, strict=False)), None if classifications else suggestions[0])


@cached_for_readers(*LocalGraphForm.base_fields)
def source_detail(request: HttpRequest, slug: str) -> HttpResponse:
    source = cached_value(request, "source", slug, build=lambda: Source.objects.filter(slug=slug).first())
    if source is None and (deleted := Source.all_objects.gone(slug)) is not None:
        if deleted.merged_into is not None:
            return redirect(deleted.merged_into, permanent=True)
        return render(request, "wiki/deleted.html", {"object": deleted, "kind": "source"}, status=410)
    if source is None:
        # A mistyped address: the works and pages named close to it.
        close = close_names(slug, version=versions.for_request(request).number)
        return render(request, "wiki/source_missing.html", {"slug": slug, "close": close}, status=404)
    # Everything below is read only when the template's cached fragment is missing.
    return render(
        request,
        "wiki/source_detail.html",
        {
            "source": source,
            "cards": SimpleLazyObject(lambda: _cards(source)),
            "claims": Bounded(Claim.objects.concerning(source.pk), IN_PAGE),
            "contrasts": Bounded(Contrast.objects.with_related().involving([source.pk]), IN_PAGE),
            "questions": Bounded(OpenQuestion.objects.queue().filter(sources=source), IN_PAGE),
            "merges": Bounded(SourceMerge.objects.active_into(source.pk), IN_PAGE),
            "local_graph": SimpleLazyObject(lambda: local_graph_for(request, f"source:{slug}")),
        },
    )


@cached_for_readers("p")
def source_claims(request: HttpRequest, slug: str) -> HttpResponse:
    """Every current claim citing the work or about it, paginated."""
    source = get_object_or_404(Source.objects.only("id", "slug", "short_name"), slug=slug)
    page_obj = Paginator(Claim.objects.concerning(source.pk).in_page_order(), PER_PAGE).get_page(
        request.GET.get("p"))
    return render(request, "wiki/source_claims.html", {"source": source, "page_obj": page_obj})
