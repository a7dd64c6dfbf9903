from django.urls import path, register_converter

from wiki.views import (
    claims,
    compare,
    glossary,
    graphs,
    home,
    page_tools,
    pages,
    preferences,
    questions,
    reports,
    search,
    source_tools,
    sources,
    special_pages,
    tokens,
    watchlist,
)
from wiki.views.editing import changes as edit_changes
from wiki.views.editing import claims as edit_claims
from wiki.views.editing import classifications as edit_classifications
from wiki.views.editing import contrasts as edit_contrasts
from wiki.views.editing import deletion as edit_deletion
from wiki.views.editing import glossary as edit_glossary
from wiki.views.editing import history as edit_history
from wiki.views.editing import merges as edit_merges
from wiki.views.editing import moves as edit_moves
from wiki.views.editing import pages as edit_pages
from wiki.views.editing import questions as edit_questions
from wiki.views.editing import source_imports, triage
from wiki.views.editing import sources as edit_sources
from wiki.views.feeds import RecentChangesFeed, WatchlistFeed


class PageSlugConverter:
    """Any page slug (Chinese included) but no control characters: PostgreSQL refuses NUL in text."""

    regex = r"[^/\x00-\x1f\x7f]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class GraphKeyConverter(PageSlugConverter):
    regex = r"[^\x00-\x1f\x7f]+"


register_converter(PageSlugConverter, "pageslug")
register_converter(GraphKeyConverter, "graphkey")

app_name = "wiki"

urlpatterns = [
    path("", home.home, name="home"),
    path("wiki/", pages.page_list, name="page-list"),
    path("random/", pages.random_page, name="random-page"),
    path("wiki/new/", edit_pages.page_create, name="page-create"),
    path("wiki/wanted/", pages.wanted_pages, name="wanted-pages"),
    path("wiki/orphaned/", special_pages.page_report, {"report": special_pages.ORPHANED}, name="orphaned-pages"),
    path("wiki/dead-ends/", special_pages.page_report, {"report": special_pages.DEAD_ENDS}, name="dead-end-pages"),
    path("wiki/uncited/", special_pages.page_report, {"report": special_pages.WITHOUT_CITATIONS},
         name="pages-without-citations"),
    path("markdown/preview/", edit_pages.page_preview_fragment, name="page-preview"),
    path("wiki/<pageslug:slug>/", pages.page_detail, name="page-detail"),
    path("wiki/<pageslug:slug>/backlinks/", pages.page_backlinks, name="page-backlinks"),
    path("wiki/<pageslug:slug>/info/", page_tools.page_information, name="page-info"),
    path("wiki/<pageslug:slug>/cite/", page_tools.page_cite, name="page-cite"),
    path("wiki/<pageslug:slug>/export.md", pages.page_export_markdown, name="page-export-markdown"),
    path("wiki/<pageslug:slug>/edit/", edit_pages.page_edit, name="page-edit"),
    path("wiki/<pageslug:slug>/history/", edit_history.page_history, name="page-history"),
    path("wiki/<pageslug:slug>/revisions/<int:number>/", pages.page_revision, name="page-revision"),
    path("wiki/<pageslug:slug>/diff/", edit_history.page_diff, name="page-diff"),
    path("wiki/<pageslug:slug>/revert/<int:number>/", edit_history.page_revert_view, name="page-revert"),
    path("wiki/<pageslug:slug>/rollback/", edit_history.page_rollback_view, name="page-rollback"),
    path("wiki/<pageslug:slug>/move/", edit_moves.page_move_view, name="page-move"),
    path("wiki/<pageslug:slug>/delete/", edit_deletion.page_delete_view, name="page-delete"),
    path("wiki/<pageslug:slug>/restore/", edit_deletion.page_restore_view, name="page-restore"),
    path("sources/", sources.source_list, name="source-list"),
    path("sources/new/", edit_sources.source_create_view, name="source-create"),
    path("sources/<slug:slug>/", sources.source_detail, name="source-detail"),
    path("sources/<slug:slug>/claims/", sources.source_claims, name="source-claims"),
    path("sources/<slug:slug>/cite/", source_tools.source_cite, name="source-cite"),
    path("sources/<slug:slug>/edit/", edit_sources.source_edit, name="source-edit"),
    path("sources/<slug:slug>/identifiers/", edit_sources.source_add_identifiers, name="source-add-identifiers"),
    path("sources/<slug:slug>/take-updates/", edit_sources.source_take_updates_view, name="source-take-updates"),
    path("sources/<slug:slug>/delete/", edit_deletion.source_delete_view, name="source-delete"),
    path("sources/<slug:slug>/restore/", edit_deletion.source_restore_view, name="source-restore"),
    path("deleted/", edit_deletion.deleted_list, name="deleted-list"),
    path("imports/", source_imports.import_list, name="import-list"),
    path("imports/<int:pk>/", source_imports.import_detail, name="import-detail"),
    path("imports/<int:pk>/undo/", source_imports.import_undo, name="import-undo"),
    path("sources/<slug:slug>/merge/", edit_merges.source_merge_view, name="source-merge"),
    path("merges/<int:pk>/undo/", edit_merges.source_merge_undo_view, name="source-merge-undo"),
    path("triage/", triage.triage_queue, name="triage"),
    path("triage/<slug:slug>/accept/", triage.triage_accept, name="triage-accept"),
    path("classifications/new/<slug:slug>/", edit_classifications.classification_create, name="classification-create"),
    path("classifications/<int:pk>/edit/", edit_classifications.classification_edit, name="classification-edit"),
    path("classifications/<int:pk>/history/", edit_classifications.classification_history, name="classification-history"),
    path("wiki/<pageslug:slug>/claims/", claims.page_claims, name="page-claims"),
    path("claims/<int:pk>/", claims.claim_detail, name="claim-detail"),
    path("claims/<int:pk>/edit/", edit_claims.claim_edit, name="claim-edit"),
    path("claims/<int:pk>/reattach/", edit_claims.claim_reattach_view, name="claim-reattach"),
    path("claims/<int:pk>/retire/", edit_claims.claim_retire_view, name="claim-retire"),
    path("contrasts/new/", edit_contrasts.contrast_create_view, name="contrast-create"),
    path("contrasts/<int:pk>/edit/", edit_contrasts.contrast_edit_view, name="contrast-edit"),
    path("contrasts/<int:pk>/delete/", edit_contrasts.contrast_delete_view, name="contrast-delete"),
    path("changes/", edit_changes.changes, name="changes"),
    path("changes/feed/", RecentChangesFeed(), name="changes-feed"),
    path("watchlist/", watchlist.watchlist, name="watchlist"),
    path("watchlist/edit/", watchlist.watchlist_edit, name="watchlist-edit"),
    path("watchlist/feed/<int:user_id>/<str:token>/", WatchlistFeed(), name="watchlist-feed"),
    path("watchlist/<str:kind>/<int:pk>/", watchlist.watch_toggle, name="watch"),
    path("questions/", questions.question_list, name="question-list"),
    path("questions/new/", edit_questions.question_create_view, name="question-create"),
    path("questions/<int:pk>/", questions.question_detail, name="question-detail"),
    path("questions/<int:pk>/edit/", edit_questions.question_edit, name="question-edit"),
    path("reports/consistency/", reports.consistency, name="consistency-report"),
    path("reports/consistency/dismiss/", reports.finding_dismiss_view, name="finding-dismiss"),
    path("reports/consistency/reopen/", reports.finding_reopen_view, name="finding-reopen"),
    path("reports/classifier/", reports.classifier_agreement, name="classifier-agreement"),
    path("search/", search.search_results, name="search"),
    path("opensearch.xml", search.opensearch_description, name="opensearch"),
    path("glossary/", glossary.glossary_list, name="glossary-list"),
    path("glossary/new/", edit_glossary.glossary_create, name="glossary-create"),
    path("glossary/<slug:slug>/", glossary.glossary_detail, name="glossary-detail"),
    path("glossary/<slug:slug>/edit/", edit_glossary.glossary_edit, name="glossary-edit"),
    path("account/token/", tokens.api_token, name="api-token"),
    path("account/token/<int:pk>/revoke/", tokens.api_token_revoke, name="api-token-revoke"),
    path("account/preferences/", preferences.preferences, name="preferences"),
    path("account/language/", preferences.set_language, name="set-language"),
    path("graph/", graphs.graph_map, name="graph-map"),
    path("graph/local/<str:kind>/<graphkey:key>/", graphs.graph_local, name="graph-local"),
    path("contrast/", graphs.contrast_multi, name="contrast-multi"),
    path("contrast/<str:left>/<str:right>/", graphs.contrast, name="contrast"),
    path("compare/", compare.compare, name="compare"),
]
