from django.urls import path

from wiki.views import home, pages, questions, reports, sources

app_name = "wiki"

urlpatterns = [
    path("", home.home, name="home"),
    path("wiki/<str:slug>/", pages.page_detail, name="page-detail"),
    path("sources/", sources.source_list, name="source-list"),
    path("sources/<slug:slug>/", sources.source_detail, name="source-detail"),
    path("questions/", questions.question_list, name="question-list"),
    path("questions/<int:pk>/", questions.question_detail, name="question-detail"),
    path("reports/consistency/", reports.consistency, name="consistency-report"),
]
