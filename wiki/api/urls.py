from django.urls import include, path
from rest_framework.routers import DefaultRouter

from wiki.api.views import claims, pages, search, sources

app_name = "api"

router = DefaultRouter()
router.register("pages", pages.PageViewSet, basename="page")
router.register("sources", sources.SourceViewSet, basename="source")
router.register("claims", claims.ClaimViewSet, basename="claim")
router.register("classifications", sources.ClassificationViewSet, basename="classification")
router.register("contrasts", sources.ContrastViewSet, basename="contrast")
router.register("questions", claims.QuestionViewSet, basename="question")

urlpatterns = [
    path("v1/search/", search.SearchView.as_view(), name="search"),
    path("v1/", include(router.urls)),
]
