"""Every reader view runs the same number of queries on the seed wiki and on one ten times larger."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.client import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_classification, make_question, make_source
from wiki.models import ChangeEvent, Claim, Component, Contrast, OpenQuestion, Page, Revision, Source
from wiki.devtools.generate import wiki_generate
from wiki.services.pages import page_save_revision
from django.test import Client
from wiki.roles import Account

pytestmark = pytest.mark.django_db

SEED_QUESTION = "多 harness 结果的验证"
WANTED = "tool-routing"


def _urls() -> dict[str, str]:
    question = OpenQuestion.objects.get(title=SEED_QUESTION)
    return {
        "home": reverse("wiki:home"),
        "page list": reverse("wiki:page-list"),
        "page list page 2": reverse("wiki:page-list") + "?p=2",
        "page detail": reverse("wiki:page-detail", kwargs={"slug": "agentic-rl"}),
        "missing page": reverse("wiki:page-detail", kwargs={"slug": WANTED}),
        "source list": reverse("wiki:source-list"),
        "source list filtered": reverse("wiki:source-list") + "?mechanism=policy_gradient&verdict=strict&kind=paper",
        "source list page 2": reverse("wiki:source-list") + "?p=2",
        "source list as BibTeX": reverse("wiki:source-list") + "?mechanism=policy_gradient&format=bib",
        "source list as CSL-JSON": reverse("wiki:source-list") + "?format=csl",
        "page as Markdown": reverse("wiki:page-export-markdown", kwargs={"slug": "agentic-rl"}),
        "source detail": reverse("wiki:source-detail", kwargs={"slug": "skillforge"}),
        "question list": reverse("wiki:question-list"),
        "question list filtered": reverse("wiki:question-list") + "?status=open&page_slug=agentic-rl",
        "question detail": question.get_absolute_url(),
        "glossary": reverse("wiki:glossary-list"),
        "glossary term": reverse("wiki:glossary-detail", kwargs={"slug": "credit-assignment"}),
    }


def _query_counts(client: Client) -> dict[str, int]:
    counts = {}
    for name, url in _urls().items():
        client.get(url)  # warm caches that are filled once per process, not per request
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        # Only the wanted page is missing; a 404 anywhere else would count the queries of an error page.
        assert response.status_code == (404 if name == "missing page" else 200), (name, response.status_code)
        counts[name] = len(queries)
    return counts


def _grow_tenfold() -> None:
    """Adds ten times the seed's rows, many of them touching the very objects the views show."""
    wiki_generate(works=450, claims=250, pages=25, seed=11)
    skillforge = Source.objects.get(slug="skillforge")
    agentic_rl = Page.objects.get(slug="agentic-rl")
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
            f"- 第 {n}-{k} 条论断，引用 SkillForge（来源：SkillForge: Evolving Verifiable Skills for Reinforcement Learning Agents，p.{k}）。"
            for k in range(10)
        )
        page_save_revision(slug=f"grown-{n}", title=f"Grown page {n}", body=f"See [[agentic-rl]] and [[{WANTED}]].\n\n{bullets}")
    grown_claims = list(Claim.objects.filter(page__slug__startswith="grown-")[:60])
    question = OpenQuestion.objects.get(title=SEED_QUESTION)
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


def _assert_grown() -> None:
    skillforge = Source.objects.get(slug="skillforge")
    assert Source.objects.count() >= 450
    assert Claim.objects.citing(skillforge.pk).count() > 200
    assert Contrast.objects.involving([skillforge.pk]).count() > 40
    assert skillforge.classifications.count() > 10
    assert OpenQuestion.objects.filter(page__slug="agentic-rl").count() > 60
    assert Page.objects.filter(outgoing_links__target_slug=WANTED).count() >= 20


@pytest.mark.parametrize("login", [False, True], ids=["anonymous", "editor"])
def test_every_reader_view_runs_as_many_queries_on_ten_times_the_data(client: Client, editor: Account, seed: None, login: bool) -> None:
    if login:
        client.force_login(editor)
    small = _query_counts(client)
    _grow_tenfold()
    _assert_grown()
    large = _query_counts(client)
    print(f"query counts ({'editor' if login else 'anonymous'}):", small)
    assert large == small


