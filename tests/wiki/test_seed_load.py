"""Loading the seed wiki again: what did not change is not written again, what changed is saved with its history."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import Model

from tests.conftest import FIXTURES
from wiki.models import (
    ChangeEvent,
    Claim,
    ClaimRevision,
    Classification,
    ClassificationChange,
    GlossaryTerm,
    OpenQuestion,
    Page,
    Revision,
    Source,
)
from wiki.services.seed import seed_load

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seed")]

TIMESTAMPED: list[type[Model]] = [Source, Classification, Page, Claim, OpenQuestion, GlossaryTerm]
HISTORY: list[type[Model]] = [ChangeEvent, Revision, ClaimRevision, ClassificationChange]


def _updated_at() -> dict[str, dict[int, Any]]:
    return {model.__name__: dict(model._base_manager.values_list("pk", "updated_at")) for model in TIMESTAMPED}


def _history() -> dict[str, int]:
    return {model.__name__: model._base_manager.count() for model in HISTORY}


def test_loading_the_unchanged_seed_again_writes_nothing() -> None:
    updated_at, history = _updated_at(), _history()

    call_command("load_wiki", stdout=StringIO())

    assert _updated_at() == updated_at
    assert _history() == history


def test_a_work_and_a_classification_changed_in_the_fixtures_are_saved_with_their_history(tmp_path: Path) -> None:
    directory = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, directory)
    sources = json.loads((directory / "sources.json").read_text(encoding="utf-8"))
    sources[0]["notes"] = "Read again for the seed."
    (directory / "sources.json").write_text(json.dumps(sources, ensure_ascii=False), encoding="utf-8")
    classifications = json.loads((directory / "classifications.json").read_text(encoding="utf-8"))
    classifications[0]["rationale"] = "Checked again."
    (directory / "classifications.json").write_text(json.dumps(classifications, ensure_ascii=False), encoding="utf-8")
    updated_at, events = _updated_at(), ChangeEvent.objects.count()

    seed_load(directory=directory)

    after = _updated_at()
    work = Source.objects.get(slug=sources[0]["slug"])
    classification = Classification.objects.get(source__slug=classifications[0]["source"],
                                                component__slug=classifications[0].get("component"))
    assert work.notes == "Read again for the seed." and classification.rationale == "Checked again."
    assert [pk for pk, at in after["Source"].items() if at != updated_at["Source"][pk]] == [work.pk]
    assert [pk for pk, at in after["Classification"].items() if at != updated_at["Classification"][pk]] == [classification.pk]
    assert ChangeEvent.objects.count() == events + 2
    assert ClassificationChange.objects.filter(classification=classification).latest("id").after["rationale"] == "Checked again."


def _edit_page(slug: str, body: str, user: Any) -> None:
    from wiki.services.pages import page_save

    page = Page.objects.get(slug=slug)
    page_save(slug=slug, title=page.title, summary=page.summary, body=body, comment="editor's rewrite", user=user,
              base_revision=page.revisions.count())


def test_what_the_editors_changed_survives_loading_the_seed_again_which_every_server_start_does() -> None:
    from tests.factories import make_editor
    from wiki.services.sources import source_save

    editor = make_editor()
    page = Page.objects.get(slug="agentic-rl")
    # the editor drops the sentence that the first classification's evidence is, and rewrites a work's notes
    lines = page.body.splitlines()
    line = next(n for n, text in enumerate(lines) if "Agentic ESOpt 用轨迹回报更新完整参数" in text)
    body = "\n".join([*lines[:line], "- Agentic ESOpt 的说法待核实。", *lines[line + 1:]]) + "\n"
    _edit_page("agentic-rl", body, editor)
    work = Source.objects.get(slug="agentic-esopt")
    source_save(source=work, fields={"notes": "Checked against the paper by an editor."}, user=editor)
    revisions = Revision.objects.count()
    out = StringIO()

    call_command("load_wiki", stdout=out)

    assert Page.objects.get(slug="agentic-rl").body == body
    assert Source.objects.get(slug="agentic-esopt").notes == "Checked against the paper by an editor."
    assert Revision.objects.count() == revisions
    assert "page agentic-rl: kept as edited in the wiki" in out.getvalue()
    assert "work agentic-esopt: kept as edited in the wiki" in out.getvalue()

    call_command("load_wiki", "--overwrite", stdout=StringIO())

    assert Page.objects.get(slug="agentic-rl").body != body
    assert Source.objects.get(slug="agentic-esopt").notes != "Checked against the paper by an editor."
    assert Page.objects.get(slug="agentic-rl").revisions.filter(comment="editor's rewrite").exists()


def test_a_work_merged_away_in_the_wiki_is_not_loaded_again() -> None:
    from tests.factories import make_editor
    from wiki.services.merges import source_merge

    merged, kept = Source.objects.get(slug="agentic-esopt"), Source.objects.get(slug="skillforge")
    source_merge(merged=merged, kept=kept, user=make_editor())
    out = StringIO()

    call_command("load_wiki", stdout=out)

    assert not Source.objects.filter(slug="agentic-esopt").exists()
    assert "work agentic-esopt: deleted in the wiki, not loaded again" in out.getvalue()


def test_loading_the_unchanged_seed_again_moves_no_cached_page() -> None:
    """Every server start loads the seed and migrates: a statement that writes to a wiki table, even one changing no
    row, moves the content version and so empties every server's cache."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from wiki.caching.versions import _WRITE
    from wiki.roles import ensure_editor_group

    call_command("load_wiki", stdout=StringIO())  # as a start does: the works' suggestions stored too
    with CaptureQueriesContext(connection) as captured:
        call_command("load_wiki", stdout=StringIO())
        ensure_editor_group()

    assert [q["sql"][:80] for q in captured.captured_queries if _WRITE.match(q["sql"])] == []
