from __future__ import annotations

import errno
import gzip
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from classifier.model import current_weights
from tests.factories import SmallWiki, make_editor, make_page, make_reader, make_source
from tests.wiki.wikistate import wiki_state
from wiki import suggestions
from wiki.devtools.generate import wiki_generate
from wiki.models import Claim, ClaimStatus, Classification, Page, Revision, SearchDocument, Source, StoredSuggestion
from wiki.roles import Account
from wiki.search.index import search_reindex_all
from wiki.services import backup
from wiki.services.backup import FORMAT_NAME, FORMAT_VERSION, wiki_is_empty
from wiki.services.claims import claim_set_status
from wiki.services.classifications import classification_save, classification_snapshot
from wiki.services.contrasts import contrast_create
from wiki.services.deletion import page_delete
from wiki.services.merges import source_merge
from wiki.services.pages import page_save_revision, pages_rerender
from wiki.services.questions import question_create
from wiki.services.readers import reader_profile_save
from wiki.text.sort_keys import sort_key

pytestmark = pytest.mark.django_db


def _wipe() -> None:
    """Empties the wiki as a freshly migrated database is (the editors group stays); rolled back with the test."""
    tables = {m._meta.db_table for m in apps.get_app_config("wiki").get_models(include_auto_created=True)}
    tables |= {"auth_user", "auth_user_groups", "auth_user_user_permissions"}
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # TRUNCATE refuses tables with checks still pending
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        cursor.execute("TRUNCATE " + ", ".join(connection.ops.quote_name(t) for t in sorted(tables)) + " CASCADE")


def _edits_by_people(page: Page) -> None:
    """History that names its authors: page revisions, a classification's changes, a claim's status, a question, a contrast."""
    alice, bob = make_editor("alice"), make_reader("bob")
    reader_profile_save(user=bob, language="en", time_zone="Europe/Paris")
    staff = make_editor("root")
    staff.is_staff = True
    staff.save()
    page_save_revision(slug=page.slug, title=page.title, summary=page.summary, user=alice, comment="typo",
                       body=page.body.replace("Agentic RL", "Agentic RL ", 1))
    page_save_revision(slug="backup-notes", title="Backup notes", body="见 [[Agentic RL]]。\n\n- 一个断言（来源：A Brand New Work，§2）\n",
                       user=alice, comment="new")
    classification = Classification.objects.filter(component__isnull=True).select_related("source").first()
    assert classification is not None
    fields = {**classification_snapshot(classification), "algorithm": "GRPO-variant", "rationale": "Because."}
    fields.pop("evidence_claim")
    classification_save(source=classification.source, fields=fields, classification=classification, user=alice)
    claim = Claim.objects.current().filter(page=page).first()
    assert claim is not None
    claim_set_status(claim=claim, status=ClaimStatus.DISPUTED, user=alice)
    question_create(fields={"title": "Does the backup keep everything?", "priority": "high"}, claims=[claim],
                    sources=list(Source.objects.order_by("pk")[:2]), user=alice)
    left, right = Source.objects.order_by("-pk")[:2]
    evidence = Claim.objects.current().about_or_citing([left.pk, right.pk]).first()  # "A Brand New Work" is cited
    assert evidence is not None
    contrast_create(left=left, right=right, axis="backup axis", claim=evidence, user=alice)
    page_delete(page=make_page(title="Deleted before the backup"), user=staff, reason="spam")
    source_merge(merged=make_source(short_name="Twin", title="A Twin Work"), kept=right, user=alice)


@pytest.fixture
def wiki(tmp_path: Path, small_wiki: SmallWiki) -> dict[str, Any]:
    """A small wiki with a row in every table, a generated one and edits by named people, indexed; its state and its
    backup."""
    wiki_generate(works=20, claims=50, pages=5, seed=12)
    _edits_by_people(small_wiki.page)
    pages_rerender()  # the generator renders without the glossary, so its HTML is what an import would correct
    search_reindex_all()
    suggestions.suggestions_refresh(limit=None)  # as a wiki in use has them: the import's refresh then writes none
    path = tmp_path / "wiki.jsonl.gz"
    call_command("export_wiki", str(path), verbosity=0)
    return {"state": wiki_state(), "path": path, "page": small_wiki.page.slug}


def test_export_wipe_import_gives_back_the_same_wiki_field_by_field(wiki: dict[str, Any]) -> None:
    before = wiki["state"]
    assert before["wiki.classificationchange"] and before["wiki.readerprofile"] and len(before["users"]) == 4
    assert before["wiki.sourcemerge"] and any(r["deleted_at"] for r in before["wiki.page"])
    assert any(r["author_id"] for r in before["wiki.revision"])
    _wipe()
    assert wiki_is_empty() and wiki_state()["wiki.page"] == []

    call_command("import_wiki", str(wiki["path"]), verbosity=0)

    after = wiki_state()
    assert after.keys() == before.keys()
    for table in before:
        assert after[table] == before[table], table


def test_imported_accounts_keep_their_groups_but_no_password(wiki: dict[str, Any]) -> None:
    text = gzip.decompress(wiki["path"].read_bytes()).decode()
    assert "pbkdf2" not in text and '"password"' not in text
    _wipe()
    call_command("import_wiki", str(wiki["path"]), verbosity=0)

    alice = Account.objects.get(username="alice")
    assert not alice.has_usable_password()
    assert alice.groups.filter(name="editors").exists() and alice.has_perm("wiki.change_page")
    assert Account.objects.get(username="root").is_staff
    assert Group.objects.filter(name="editors").count() == 1


def test_the_wiki_works_after_an_import(wiki: dict[str, Any], client: Client) -> None:
    highest = max(r["id"] for r in wiki["state"]["wiki.page"])
    _wipe()
    call_command("import_wiki", str(wiki["path"]), verbosity=0)

    page = make_page(title="After the restore", body="- 新断言（来源：Another New Work，§1）")
    assert page.pk > highest  # the id sequences were moved past the restored rows
    response = client.get("/wiki/backup-notes/")
    assert response.status_code == 200 and "Backup notes" in response.content.decode()
    assert client.get("/search/?q=backup").status_code == 200
    assert SearchDocument.objects.filter(kind="page", object_id=Page.objects.get(slug="backup-notes").pk).exists()
    assert Revision.objects.filter(page__slug=wiki["page"], author__username="alice").exists()


def test_an_import_stores_every_works_suggestion_and_leaves_none_marked_stale(wiki: dict[str, Any], tmp_path: Path) -> None:
    StoredSuggestion.objects.all().delete()
    path = tmp_path / "unsuggested.jsonl"
    call_command("export_wiki", str(path), verbosity=0)
    _wipe()
    call_command("import_wiki", str(path), verbosity=0)

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {suggestions.STALE_TABLE}")
        assert cursor.fetchone() == (0,)
    version = current_weights().version
    stored = StoredSuggestion.objects.filter(component=None, weights_version=version)
    assert set(stored.values_list("source_id", flat=True)) == set(Source.objects.values_list("pk", flat=True))


def test_import_into_a_wiki_with_content_is_refused_and_changes_nothing(wiki: dict[str, Any]) -> None:
    with pytest.raises(CommandError, match="not empty"):
        call_command("import_wiki", str(wiki["path"]), verbosity=0)
    assert wiki_state() == wiki["state"]


def _write(path: Path, lines: list[Any]) -> None:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")


def test_another_format_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.jsonl"
    _write(path, [{"format": FORMAT_NAME, "version": FORMAT_VERSION + 1}])
    _wipe()
    with pytest.raises(CommandError, match=f"version {FORMAT_VERSION + 1}.*reads version {FORMAT_VERSION}"):
        call_command("import_wiki", str(path), verbosity=0)
    assert wiki_is_empty()


def test_a_file_that_is_not_a_backup_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text("@article{x, title={Not a backup}}\n", encoding="utf-8")
    _wipe()
    with pytest.raises(CommandError, match="not a backup"):
        call_command("import_wiki", str(path), verbosity=0)
    assert wiki_is_empty()


def test_a_bad_row_late_in_the_file_leaves_the_database_empty(wiki: dict[str, Any], tmp_path: Path) -> None:
    lines = gzip.decompress(wiki["path"].read_bytes()).decode().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([*lines, '{"model": "wiki.page", "pk": 1, "fields": {"slug": "agentic-rl"}}']) + "\n")
    _wipe()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_wiki", str(broken), verbosity=0)
    assert wiki_is_empty()


def test_a_row_with_a_password_hash_or_of_another_table_is_refused(tmp_path: Path) -> None:
    header = {"format": FORMAT_NAME, "version": FORMAT_VERSION}
    path = tmp_path / "x.jsonl"
    _write(path, [header, {"model": "auth.user", "pk": 1, "fields": {"username": "x", "password": "pbkdf2_sha256$1$a$b"}}])
    _wipe()
    with pytest.raises(CommandError, match="no password"):
        call_command("import_wiki", str(path), verbosity=0)
    _write(path, [header, {"model": "authtoken.token", "pk": "k", "fields": {"user": 1}}])
    with pytest.raises(CommandError, match="not part of a backup"):
        call_command("import_wiki", str(path), verbosity=0)
    assert wiki_is_empty()


def test_a_backup_holds_no_api_token_nor_its_hash(tmp_path: Path) -> None:
    from tests.factories import make_api_token
    from wiki.models import ApiToken

    key = make_api_token(make_editor("scripted"), name="Nightly import")
    token = ApiToken.objects.get()
    path = tmp_path / "wiki.jsonl"

    backup.wiki_export(path=path)

    text = path.read_text()
    assert '"model": "auth.user"' in text and "scripted" in text
    assert not any(secret in text for secret in (key, token.digest, token.hint, "Nightly import", "wiki.apitoken"))
    _wipe()
    backup.wiki_import(path=path)
    assert Account.objects.filter(username="scripted").exists() and not ApiToken.objects.exists()
    header = {"format": FORMAT_NAME, "version": FORMAT_VERSION}
    _wipe()
    _write(path, [header, {"model": "wiki.apitoken", "pk": 1, "fields": {"user": 1, "digest": "0" * 64}}])
    with pytest.raises(CommandError, match="not part of a backup"):
        call_command("import_wiki", str(path), verbosity=0)


@pytest.mark.parametrize("name", ["wiki.jsonl", "wiki.jsonl.gz"])
@pytest.mark.parametrize("failure, refusal", [
    (RuntimeError("a row that cannot be serialised"), RuntimeError),
    (OSError(errno.ENOSPC, "No space left on device"), CommandError),
], ids=["an exception", "a full disk"])
def test_an_export_failing_midway_leaves_the_previous_file_and_no_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, failure: Exception, refusal: type[Exception],
) -> None:
    make_page(title="Exported before the failure", body="- 一个断言（来源：Some Study，§1）\n")
    path = tmp_path / name
    path.write_bytes(b"the previous backup\n")
    records = backup._records

    def failing_midway() -> Any:
        yield from itertools.islice(records(), 3)
        raise failure

    monkeypatch.setattr(backup, "_records", failing_midway)

    with pytest.raises(refusal):
        call_command("export_wiki", str(path), verbosity=0)

    assert path.read_bytes() == b"the previous backup\n"
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_an_export_replaces_a_previous_file_keeping_its_permissions_and_links(tmp_path: Path) -> None:
    kept = tmp_path / "backups" / "latest.jsonl.gz"
    kept.parent.mkdir()
    kept.write_bytes(b"the previous backup\n")
    kept.chmod(0o600)
    link = tmp_path / "wiki.jsonl.gz"
    link.symlink_to(kept)

    call_command("export_wiki", str(link), verbosity=0)

    assert link.is_symlink() and link.resolve() == kept
    assert json.loads(gzip.decompress(kept.read_bytes()).splitlines()[0])["format"] == FORMAT_NAME
    assert kept.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["backups", "latest.jsonl.gz", "wiki.jsonl.gz"]


def test_a_backup_written_before_titles_were_link_targets_restores_the_links_by_title(tmp_path: Path) -> None:
    survey = "Agentic AI 03: Agentic RL Survey Reading Notes"
    page_save_revision(slug="agentic-rl-survey-notes", title=survey, body="笔记。")
    page_save_revision(slug="linker", title="Linker", body=f"[[{survey}]]")
    path = tmp_path / "wiki.jsonl"
    backup.wiki_export(path=path)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for record in records:
        record.get("fields", {}).pop("title_key", None)
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records))
    _wipe()

    backup.wiki_import(path=path)

    assert Page.objects.get(slug="agentic-rl-survey-notes").title_key == "agentic-ai-03-agentic-rl-survey-reading-notes"
    assert 'href="/wiki/agentic-rl-survey-notes/"' in Page.objects.get(slug="linker").rendered_html
    assert list(Page.objects.get(slug="linker").outgoing_links.values_list("target_slug", flat=True)) == ["agentic-rl-survey-notes"]


def test_a_backup_without_sort_keys_restores_the_names_in_pinyin_order(tmp_path: Path) -> None:
    for slug, title in (("zhong-wen", "中文"), ("grpo", "GRPO"), ("ce-lue", "策略梯度")):
        page_save_revision(slug=slug, title=title, body="正文。")
        make_source(slug=slug, short_name=title, title=f"{title}: a study")
    path = tmp_path / "wiki.jsonl"
    backup.wiki_export(path=path)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for record in records:
        for key in ("title_sort", "name_sort"):
            record.get("fields", {}).pop(key, None)
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records))
    _wipe()

    backup.wiki_import(path=path)

    assert list(Page.objects.for_listing().values_list("slug", flat=True)) == ["ce-lue", "grpo", "zhong-wen"]
    assert list(Source.objects.for_listing().values_list("slug", flat=True)) == ["ce-lue", "grpo", "zhong-wen"]
    assert Source.objects.get(slug="ce-lue").title_sort == sort_key("策略梯度: a study")
