from django.urls import path

from wiki.views import home, pages, questions, reports, search, sources
from wiki.views import compare, graphs
from wiki.views.editing import history as edit_history
from wiki.views.editing import pages as edit_pages

app_name = "wiki"

urlpatterns = [
    path("", home.home, name="home"),
    path("wiki/new/", edit_pages.page_create, name="page-create"),
    path("markdown/preview/", edit_pages.page_preview_fragment, name="page-preview"),
    path("wiki/<str:slug>/", pages.page_detail, name="page-detail"),
    path("wiki/<str:slug>/edit/", edit_pages.page_edit, name="page-edit"),
    path("wiki/<str:slug>/history/", edit_history.page_history, name="page-history"),
    path("wiki/<str:slug>/diff/", edit_history.page_diff, name="page-diff"),
    path("wiki/<str:slug>/revert/<int:number>/", edit_history.page_revert_view, name="page-revert"),
    path("sources/", sources.source_list, name="source-list"),
    path("sources/<slug:slug>/", sources.source_detail, name="source-detail"),
    path("questions/", questions.question_list, name="question-list"),
    path("questions/<int:pk>/", questions.question_detail, name="question-detail"),
    path("reports/consistency/", reports.consistency, name="consistency-report"),
    path("search/", search.search_results, name="search"),
    path("graph/", graphs.graph_map, name="graph-map"),
    path("graph/local/<str:kind>/<path:key>/", graphs.graph_local, name="graph-local"),
    path("contrast/", graphs.contrast_multi, name="contrast-multi"),
    path("contrast/<str:left>/<str:right>/", graphs.contrast, name="contrast"),
    path("compare/", compare.compare, name="compare"),
]
