from typing import Any

from django.urls import include, path, re_path
from django.utils.translation import gettext_lazy
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import APIRootView, DefaultRouter

from wiki.api.filters import reject_unreadable_parameters
from wiki.api.views import (
    changes,
    claims,
    classifications,
    classify,
    contrasts,
    fallback,
    findings,
    glossary,
    graphs,
    imports,
    pages,
    questions,
    search,
    sources,
    watchlist,
)
from wiki.api.views.base import WikiAPIView

app_name = "api"

# Addresses a script starts from besides the collections the router lists, by their URL names.
ROOT_EXTRAS = {"search": "api:search", "search-names": "api:search-names", "classify": "api:classify",
               "graph-contrast": "api:graph-contrast", "graph-local": "api:graph-local", "graph-map": "api:graph-map",
               "graph-contrast-graphml": "api:graph-contrast-graphml", "graph-local-graphml": "api:graph-local-graphml",
               "graph-map-graphml": "api:graph-map-graphml",
               "findings": "api:finding-list", "changes": "api:changes", "watchlist": "api:watchlist",
               "schema": "api-schema", "docs": "api-docs"}


class WikiAPIRootView(WikiAPIView, APIRootView):
    """Every address of the API a script starts from: its collections, search, classify, the graphs (as JSON, and as
    GraphML alone), the consistency findings and recent changes, with the OpenAPI schema and its documentation."""

    browsable_name = gettext_lazy("API root")  # the schema leaves the root out: no summary names its page

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # As every other read: a parameter it does not read (it reads none but the format) is a 400, not ignored.
        reject_unreadable_parameters(request, frozenset())
        response = super().get(request, *args, **kwargs)
        response.data.update({name: reverse(url_name, request=request) for name, url_name in ROOT_EXTRAS.items()})
        return response


class WikiRouter(DefaultRouter):
    APIRootView = WikiAPIRootView


router = WikiRouter()
router.register("pages", pages.PageViewSet, basename="page")
router.register("sources", sources.SourceViewSet, basename="source")
router.register("claims", claims.ClaimViewSet, basename="claim")
router.register("classifications", classifications.ClassificationViewSet, basename="classification")
router.register("contrasts", contrasts.ContrastViewSet, basename="contrast")
router.register("questions", questions.QuestionViewSet, basename="question")
router.register("glossary", glossary.GlossaryTermViewSet, basename="glossary-term")
router.register("imports", imports.SourceImportViewSet, basename="import")

urlpatterns = [
    path("v1/search/", search.SearchView.as_view(), name="search"),
    path("v1/search/names/", search.SearchNamesView.as_view(), name="search-names"),
    path("v1/classify/", classify.ClassifyView.as_view(), name="classify"),
    path("v1/graph/contrast/", graphs.ContrastGraphView.as_view(), name="graph-contrast"),
    path("v1/graph/local/", graphs.LocalGraphView.as_view(), name="graph-local"),
    path("v1/graph/map/", graphs.MapGraphView.as_view(), name="graph-map"),
    path("v1/graph/contrast/graphml/", graphs.ContrastGraphMLView.as_view(), name="graph-contrast-graphml"),
    path("v1/graph/local/graphml/", graphs.LocalGraphMLView.as_view(), name="graph-local-graphml"),
    path("v1/graph/map/graphml/", graphs.MapGraphMLView.as_view(), name="graph-map-graphml"),
    path("v1/findings/", findings.FindingListView.as_view(), name="finding-list"),
    path("v1/findings/dismiss/", findings.FindingDismissView.as_view(), name="finding-dismiss"),
    path("v1/findings/reopen/", findings.FindingReopenView.as_view(), name="finding-reopen"),
    path("v1/changes/", changes.RecentChangesView.as_view(), name="changes"),
    path("v1/watchlist/", watchlist.WatchlistView.as_view(), name="watchlist"),
    re_path(r"^v1/watchlist/pages/(?P<slug>[^/]+)/$", watchlist.PageWatchView.as_view(), name="watch-page"),
    re_path(r"^v1/watchlist/sources/(?P<slug>[-a-zA-Z0-9_]+)/$", watchlist.SourceWatchView.as_view(), name="watch-source"),
    path("v1/watchlist/questions/<int:id>/", watchlist.QuestionWatchView.as_view(), name="watch-question"),
    path("v1/", include(router.urls)),
    re_path(r"^v1/", fallback.not_found),
]
