"""Every reader view runs the queries named here, the same on a small wiki and on one ten times larger."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import SmallWiki, cite, make_classification, make_question, make_source
from tests.queries import query_names
from wiki.caching import versions
from wiki.devtools.generate import wiki_generate
from wiki.models import ChangeEvent, Claim, Component, Contrast, OpenQuestion, Page, Revision, Source
from wiki.roles import Account
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db

WANTED = "tool-routing"

# What each view reads, in order, when the content changed since its response was cached.
ANONYMOUS: dict[str, list[str]] = {
    "home": ["SELECT wiki_page", "SELECT wiki_classification", "SELECT wiki_openquestion", "SELECT wiki_changeevent"],
    "page list": ["COUNT wiki_page", "SELECT wiki_page"],
    "page list page 2": ["COUNT wiki_page", "SELECT wiki_page"],
    "page detail": [
        "SELECT wiki_revision", "SELECT wiki_source", "SELECT wiki_wikilink", "SELECT wiki_openquestion",
        "SELECT wiki_page", "SELECT wiki_citation", "SELECT wiki_claim_about", "SELECT wiki_contrast",
        "SELECT wiki_wikilink", "SELECT wiki_page", "SELECT wiki_wikilink", "SELECT wiki_openquestion",
        "SELECT wiki_classification",
    ],
    # No page at the address: none a wiki link or a title there would name either (two), no glossary term; the works'
    # and pages' names (once per content version) for those named close to it.
    # The page, the revision and the latest number; rendering the revision's text resolves its citations and links.
    "page revision": ["SELECT wiki_page", "SELECT wiki_revision", "SELECT wiki_revision", "SELECT wiki_source", "SELECT wiki_page"],
    "missing page": [
        "SELECT wiki_revision", "SELECT wiki_page", "SELECT wiki_page", "SELECT wiki_page", "SELECT wiki_glossaryterm",
        # The links to it, for the title they give it (its heading), then the names close to its address.
        "SELECT wiki_wikilink", "SELECT wiki_source", "SELECT wiki_page",
    ],
    "source list": ["COUNT wiki_source", "SELECT wiki_source", "SELECT wiki_classification"],
    "source list filtered": ["COUNT wiki_source", "SELECT wiki_source", "SELECT wiki_classification"],
    "source list page 2": ["COUNT wiki_source", "SELECT wiki_source", "SELECT wiki_classification"],
    # The cards' suggestions: the texts the classifier reads (three queries), then the work's stored suggestions, shown
    # when they were made from those texts (classifying a much-cited work's text took most of its page's time).
    "source detail": [
        "SELECT wiki_source", "SELECT wiki_classification", "SELECT wiki_source", "SELECT wiki_citation",
        "SELECT wiki_claim_about", "SELECT wiki_storedsuggestion", "SELECT wiki_claim", "SELECT wiki_citation",
        "SELECT wiki_contrast", "SELECT wiki_openquestion", "SELECT wiki_sourcemerge", "SELECT wiki_source",
        "SELECT wiki_classification", "SELECT wiki_contrast", "SELECT wiki_component", "SELECT wiki_citation",
        "SELECT wiki_claim_about", "SELECT wiki_openquestion_sources", "SELECT wiki_classification",
    ],
    # The filter form's assignee choices are read through a cursor; the pages it offers are the few with most questions.
    "question list": ["COUNT wiki_openquestion", "DECLARE auth_user", "SELECT wiki_page", "SELECT wiki_openquestion"],
    "question list filtered": [
        "SELECT wiki_page", "COUNT wiki_openquestion", "DECLARE auth_user", "SELECT wiki_page",
        "SELECT wiki_openquestion",
    ],
    # Unresolved, unassigned, recently changed first: the status, assignment and sort cost nothing more.
    "question list sorted": ["COUNT wiki_openquestion", "DECLARE auth_user", "SELECT wiki_page", "SELECT wiki_openquestion"],
    # The question and, in a subquery named first, when it was last answered and by whom.
    "question detail": ["SELECT wiki_changeevent", "SELECT wiki_claim", "SELECT wiki_source"],
    "source list as BibTeX": ["SELECT wiki_source"],
    "source list as CSL-JSON": ["SELECT wiki_source"],
    "page as Markdown": ["SELECT wiki_page", "SELECT wiki_source"],
    "glossary": ["COUNT wiki_glossaryterm", "SELECT wiki_glossaryterm"],
    "glossary term": ["SELECT wiki_glossaryterm", "SELECT wiki_glossaryterm", "SELECT wiki_wikilink"],
    # The glossary, read once per content version, then one statement for every kind of result, and one look-up of the
    # works and pages named exactly as the search, by their stored forms (whatever the size of the wiki).
    "search finding works": ["SELECT wiki_glossaryterm", "WITH wiki_searchdocument", "(SELECT wiki_source"],
    # Nothing found (no page or claim of this wiki is indexed): every work's and page's name (once per content version)
    # offers those named close.
    "search naming a term": ["SELECT wiki_glossaryterm", "WITH wiki_searchdocument", "(SELECT wiki_source", "SELECT wiki_source",
                             "SELECT wiki_page"],
    "search by a misspelt term": ["SELECT wiki_glossaryterm", "WITH wiki_searchdocument", "(SELECT wiki_source",
                                  "SELECT wiki_source", "SELECT wiki_page"],
}
# An editor's account comes from the cache; its permissions (its own, then its groups') are read once a request.
PERMISSIONS = ["SELECT auth_permission", "SELECT auth_permission"]
EXPECTED: dict[bool, dict[str, list[str]]] = {
    False: ANONYMOUS,
    True: {name: PERMISSIONS + names for name, names in ANONYMOUS.items()},
}
# An editor's "Create this page" starts from the title the backlinks name, read before the names close to it.
EXPECTED[True]["missing page"] = [
    *PERMISSIONS, "SELECT wiki_revision", "SELECT wiki_page", "SELECT wiki_page", "SELECT wiki_page", "SELECT wiki_glossaryterm",
    "SELECT wiki_wikilink", "SELECT wiki_source", "SELECT wiki_page",
]


def _urls(wiki: SmallWiki) -> dict[str, str]:
    page, work = wiki.page.slug, wiki.strict.slug
    return {
        "home": reverse("wiki:home"),
        "page list": reverse("wiki:page-list"),
        "page list page 2": reverse("wiki:page-list") + "?p=2",
        "page detail": reverse("wiki:page-detail", kwargs={"slug": page}),
        "missing page": reverse("wiki:page-detail", kwargs={"slug": WANTED}),
        "page revision": reverse("wiki:page-revision", kwargs={"slug": page, "number": 1}),
        "source list": reverse("wiki:source-list"),
        "source list filtered": reverse("wiki:source-list") + "?mechanism=policy_gradient&verdict=strict&kind=paper",
        "source list page 2": reverse("wiki:source-list") + "?p=2",
        "source detail": reverse("wiki:source-detail", kwargs={"slug": work}),
        "question list": reverse("wiki:question-list"),
        "question list filtered": reverse("wiki:question-list") + f"?status=open&page_slug={page}",
        "question list sorted": reverse("wiki:question-list") + "?status=unresolved&assigned=nobody&sort=changed",
        "question detail": wiki.question.get_absolute_url(),
        "source list as BibTeX": reverse("wiki:source-list") + "?mechanism=policy_gradient&format=bib",
        "source list as CSL-JSON": reverse("wiki:source-list") + "?format=csl",
        "page as Markdown": reverse("wiki:page-export-markdown", kwargs={"slug": page}),
        "glossary": reverse("wiki:glossary-list"),
        "glossary term": wiki.term.get_absolute_url(),
        "search naming a term": reverse("wiki:search") + "?q=loop+credit+share",
        "search by a misspelt term": reverse("wiki:search") + "?q=loop+credti",
        "search finding works": reverse("wiki:search") + "?q=SkillLoop",
    }


def _queries(client: Client, wiki: SmallWiki) -> dict[str, list[str]]:
    named = {}
    for name, url in _urls(wiki).items():
        client.get(url)  # warm caches that are filled once per process, not per request
        versions.bump()  # then count what a response costs when the content changed: cached responses are stale
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        # Only the wanted page is missing; a 404 anywhere else would count the queries of an error page.
        assert response.status_code == (404 if name == "missing page" else 200), (name, response.status_code)
        named[name] = query_names(queries)
    return named


def _grow_tenfold(wiki: SmallWiki) -> None:
    """Adds more than ten times the small wiki's rows, many of them touching the very objects the views show."""
    wiki_generate(works=450, claims=250, pages=25, seed=11)
    skillforge = wiki.strict
    agentic_rl = wiki.page
    others = [make_source(short_name=f"Contrasted {n}") for n in range(40)]
    for n, other in enumerate(others):
        make_classification(other, mechanism="harness", verdict="not_strict", rl_update=False)
        if n % 2:
            Contrast.objects.create(left=skillforge, right=other, axis=f"axis {n}")
        else:
            Contrast.objects.create(left=other, right=skillforge, axis=f"axis {n}")
    for n in range(10):
        component = Component.objects.create(source=skillforge, slug=f"part-{n}", name=f"Part {n}")
        make_classification(skillforge, component=component, algorithm="PPO")
    for n in range(20):
        bullets = "\n".join(
            f"- 第 {n}-{k} 条论断，引用 SkillLoop{cite(skillforge, locator=f'p.{k}')}。"
            for k in range(10)
        )
        page_save_revision(slug=f"grown-{n}", title=f"Grown page {n}", body=f"See [[{agentic_rl.slug}]] and [[{WANTED}]].\n\n{bullets}")
    grown_claims = list(Claim.objects.filter(page__slug__startswith="grown-")[:60])
    question = wiki.question
    question.claims.add(*grown_claims)
    question.sources.add(*others)
    for n in range(60):
        extra = make_question(page=agentic_rl, title=f"Grown question {n}", priority=("high", "normal", "low")[n % 3])
        extra.claims.add(*grown_claims[:3])
        extra.sources.add(*others[:3])
    latest = agentic_rl.revisions.order_by("-number").first()
    assert latest is not None
    Revision.objects.bulk_create(
        Revision(page=agentic_rl, number=latest.number + n, title=agentic_rl.title, body=agentic_rl.body)
        for n in range(1, 21)
    )
    ChangeEvent.objects.bulk_create(
        ChangeEvent(kind=ChangeEvent.Kind.SOURCE, action=ChangeEvent.Action.EDITED, object_id=s.pk, label=s.short_name)
        for s in others
    )


def _assert_grown(wiki: SmallWiki) -> None:
    skillforge = wiki.strict
    assert Source.objects.count() >= 450
    assert Claim.objects.citing(skillforge.pk).count() > 200
    assert Contrast.objects.involving([skillforge.pk]).count() > 40
    assert skillforge.classifications.count() > 10
    assert OpenQuestion.objects.filter(page=wiki.page).count() > 60
    assert Page.objects.filter(outgoing_links__target_slug=WANTED).count() >= 20


@pytest.mark.parametrize("login", [False, True], ids=["anonymous", "editor"])
def test_every_reader_view_runs_the_named_queries_on_ten_times_the_data(
    client: Client, editor: Account, small_wiki: SmallWiki, login: bool
) -> None:
    if login:
        client.force_login(editor)
    small = _queries(client, small_wiki)
    _grow_tenfold(small_wiki)
    _assert_grown(small_wiki)
    large = _queries(client, small_wiki)
    print(f"queries ({'editor' if login else 'anonymous'}):", small)
    assert large == small
    assert small == EXPECTED[login]

