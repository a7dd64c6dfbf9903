from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from wiki.api.views import (
    claims,
    classifications,
    classify,
    contrasts,
    fallback,
    findings,
    glossary,
    graphs,
    pages,
    questions,
    search,
    sources,
)

app_name = "api"

router = DefaultRouter()
router.register("pages", pages.PageViewSet, basename="page")
router.register("sources", sources.SourceViewSet, basename="source")
router.register("claims", claims.ClaimViewSet, basename="claim")
router.register("classifications", classifications.ClassificationViewSet, basename="classification")
router.register("contrasts", contrasts.ContrastViewSet, basename="contrast")
router.register("questions", questions.QuestionViewSet, basename="question")
router.register("glossary", glossary.GlossaryTermViewSet, basename="glossary-term")

urlpatterns = [
    path("v1/search/", search.SearchView.as_view(), name="search"),
    path("v1/search/names/", search.SearchNamesView.as_view(), name="search-names"),
    path("v1/classify/", classify.ClassifyView.as_view(), name="classify"),
    path("v1/graph/contrast/", graphs.ContrastGraphView.as_view(), name="graph-contrast"),
    path("v1/graph/local/", graphs.LocalGraphView.as_view(), name="graph-local"),
    path("v1/findings/", findings.FindingListView.as_view(), name="finding-list"),
    path("v1/findings/dismiss/", findings.FindingDismissView.as_view(), name="finding-dismiss"),
    path("v1/findings/reopen/", findings.FindingReopenView.as_view(), name="finding-reopen"),
    path("v1/", include(router.urls)),
    re_path(r"^v1/", fallback.not_found),
]
