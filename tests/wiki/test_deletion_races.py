"""Deleting and restoring hold up when staff act at once, or on a form shown before someone else acted.

Two clicks on "Restore" (or two confirmed deletions) of one page or work: the second finds it restored (deleted)
already once it gets the row, changes nothing and says so, never a server error. A work's deletion form and restore
buttons name the work they were shown for (``source_id``), as a page's name their page: never another work that took
its address meanwhile (an undone import frees the addresses of the works it added); the work itself wherever it is
now; nothing done, saying so, when it was deleted, restored or merged since, or is gone."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_page, make_source, make_staff
from tests.wiki.htmltext import posted_form
from wiki.models import ChangeEvent, Page, Source, SourceImport
from wiki.roles import Account
from wiki.services.deletion import ChangedMeanwhile, page_delete, page_restore, source_delete, source_restore
from wiki.services.merges import source_merge
from wiki.services.source_import import sources_import
from wiki.services.source_import_undo import source_import_undo


def _said(response: Any) -> str:
    return unescape(response.content.decode())


def _deleted(*works: Source | Page) -> list[bool]:
    return [type(work).all_objects.get(pk=work.pk).is_deleted for work in works]


def _while_held(first: Callable[[], object], second: Callable[[], Any]) -> Any:
    """What ``second`` gives, run in another connection while ``first``'s transaction is open: ``first`` commits
    only once ``second`` waits for a lock it holds (or is done), as when two staff click at the same moment and the
    second click reads the row before the first commits."""
    started, done = threading.Event(), threading.Event()
    waiting_pid: list[int] = []
    outcome: dict[str, Any] = {}

    def run_second() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                waiting_pid.append(cursor.fetchone()[0])
            started.wait(timeout=10)
            outcome["second"] = second()
        except Exception as error:  # noqa: BLE001 - raised again in the test's thread
            outcome["error"] = error
        finally:
            done.set()
            connection.close()

    def run_first() -> None:
        try:
            with transaction.atomic():
                first()
                started.set()
                for _ in range(200):
                    with connection.cursor() as cursor:
                        cursor.execute("SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted", waiting_pid)
                        if done.is_set() or cursor.fetchone() is not None:
                            break
                    time.sleep(0.025)
        finally:
            started.set()
            connection.close()

    threads = [threading.Thread(target=run_second), threading.Thread(target=run_first)]
    threads[0].start()
    while not waiting_pid and threads[0].is_alive():
        time.sleep(0.01)
    threads[1].start()
    for thread in threads:
        thread.join(timeout=30)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["second"]


# Two staff at once: the second click waits for the first's lock, then finds it done.


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("shown_on", ["/deleted/", "/wiki/doomed/"])
def test_two_restores_of_a_page_at_once_restore_it_once_and_the_second_says_it_was_restored(shown_on: str) -> None:
    staff = make_staff()
    page = make_page(slug="doomed", title="Doomed notes")
    page_delete(page=page, user=staff, reason="重复")
    client = Client()
    client.force_login(staff)
    url, values = posted_form(client.get(shown_on).content.decode(), action="/restore/")

    second = _while_held(lambda: page_restore(page=page, user=make_staff("other")),
                         lambda: client.post(url, values))

    assert second.status_code == 302 and second["Location"] == "/wiki/doomed/"
    assert _deleted(page) == [False]
    said = _said(client.get(second["Location"]))
    assert "“Doomed notes” was restored by someone else after this form was opened: nothing was changed." in said
    assert ChangeEvent.objects.filter(kind="page", object_id=page.pk, action="restored").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_deletions_of_a_page_at_once_delete_it_once_and_the_second_says_it_was_deleted() -> None:
    staff = make_staff()
    page = make_page(slug="doomed", title="Doomed notes")
    client = Client()
    client.force_login(staff)
    url, values = posted_form(client.get("/wiki/doomed/delete/").content.decode(), action="/delete/")

    second = _while_held(lambda: page_delete(page=page, user=make_staff("other"), reason="另一个理由"),
                         lambda: client.post(url, {**values, "reason": "重复"}))

    assert second.status_code == 302 and second["Location"] == "/wiki/doomed/"
    assert Page.all_objects.get(pk=page.pk).deleted_reason == "另一个理由"
    said = _said(client.get(second["Location"]))
    assert "“Doomed notes” was deleted by someone else after this form was opened: nothing was changed." in said


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("shown_on", ["/deleted/", "/sources/lonely-work/"])
def test_two_restores_of_a_work_at_once_restore_it_once_and_the_second_says_it_was_restored(shown_on: str) -> None:
    staff = make_staff()
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    source_delete(source=work, user=staff, reason="Not a real work")
    client = Client()
    client.force_login(staff)
    url, values = posted_form(client.get(shown_on).content.decode(), action="/restore/")
    assert url == "/sources/lonely-work/restore/" and values["source_id"] == str(work.pk)

    second = _while_held(lambda: source_restore(source=work, user=make_staff("other")),
                         lambda: client.post(url, values))

    assert second.status_code == 302 and second["Location"] == "/sources/lonely-work/"
    assert _deleted(work) == [False]
    said = _said(client.get(second["Location"]))
    assert "“Lonely Work” was restored by someone else after this form was opened: nothing was changed." in said


@pytest.mark.django_db(transaction=True)
def test_two_deletions_of_a_work_at_once_delete_it_once_and_the_second_says_it_was_deleted() -> None:
    staff = make_staff()
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    client = Client()
    client.force_login(staff)
    url, values = posted_form(client.get("/sources/lonely-work/delete/").content.decode(), action="/delete/")

    second = _while_held(lambda: source_delete(source=work, user=make_staff("other"), reason="另一个理由"),
                         lambda: client.post(url, {**values, "reason": "重复"}))

    assert second.status_code == 302 and second["Location"] == "/sources/lonely-work/"
    assert Source.all_objects.get(pk=work.pk).deleted_reason == "另一个理由"
    said = _said(client.get(second["Location"]))
    assert "“Lonely Work” was deleted by someone else after this form was opened: nothing was changed." in said


@pytest.mark.parametrize("kind", ["page", "source"])
def test_restoring_what_someone_restored_already_raises_with_the_row_as_it_is_now(db: None, staff: Account,
                                                                                  kind: str) -> None:
    obj: Page | Source = make_page(slug="doomed", title="Doomed notes") if kind == "page" else make_source()
    deleting: Callable[..., Any] = page_delete if kind == "page" else source_delete
    restoring: Callable[..., Any] = page_restore if kind == "page" else source_restore
    deleting(user=staff, reason="重复", **{kind: obj})
    stale = type(obj).all_objects.get(pk=obj.pk)
    restoring(user=staff, **{kind: obj})

    with pytest.raises(ChangedMeanwhile) as changed:
        restoring(user=make_staff("other"), **{kind: stale})

    assert changed.value.code == "not_deleted" and not changed.value.obj.is_deleted
    assert ChangeEvent.objects.filter(kind=kind, object_id=obj.pk, action="restored").count() == 1


# A work's forms name the work they were shown for.


IMPORTED = "@article{lonely, title={Lonely Work: A Study}, year={2024}}\n"


def _imported() -> tuple[Source, SourceImport]:
    """A work added by an import, at lonely-work, and the import's record."""
    report = sources_import(text=IMPORTED)
    assert report.record is not None
    work = Source.objects.get(pk=report.record.created_ids[0])
    assert work.slug == "lonely-work"
    return work, report.record


def _newcomer() -> Source:
    """Another work, added at lonely-work once the first left it."""
    return make_source(short_name="Lonely Work", title="Another study altogether", slug="lonely-work")


def _delete_form(client: Client, slug: str = "lonely-work") -> tuple[str, dict[str, str]]:
    url, values = posted_form(client.get(f"/sources/{slug}/delete/").content.decode(), action="/delete/")
    assert url == f"/sources/{slug}/delete/" and values.keys() == {"csrfmiddlewaretoken", "source_id"}
    return url, {**values, "reason": "重复的工作"}


def test_a_deletion_confirmed_after_an_import_was_undone_does_not_delete_the_work_added_at_its_address(
    db: None, staff_client: Client
) -> None:
    work, record = _imported()
    url, values = _delete_form(staff_client)
    source_import_undo(record=record, user=None)
    newcomer = _newcomer()

    refused = staff_client.post(url, values, follow=True)

    assert _deleted(newcomer) == [False]
    assert not Source.all_objects.filter(pk=work.pk).exists()
    assert "The work this form was opened on no longer exists: nothing was deleted." in _said(refused)


def test_a_deletion_confirmed_before_the_works_address_changed_deletes_it_at_its_new_address(
    db: None, staff_client: Client
) -> None:
    """No screen gives a work another address today; one given in the database is followed as a page's move is."""
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    url, values = _delete_form(staff_client)
    Source.all_objects.filter(pk=work.pk).update(slug="lonely-work-2024")
    newcomer = _newcomer()

    deleted = staff_client.post(url, values, follow=True)

    assert deleted.redirect_chain[-1][0] == "/deleted/"
    assert _deleted(work, newcomer) == [True, False]
    assert Source.all_objects.get(pk=work.pk).deleted_reason == "重复的工作"
    assert "“Lonely Work” moved from /sources/lonely-work/ to /sources/lonely-work-2024/ after this form was opened: " \
           "it was deleted at its new address." in _said(deleted)


def test_a_deletion_of_a_work_moved_since_asks_again_at_its_new_address_when_the_reason_is_missing(
    db: None, staff_client: Client
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    url, values = _delete_form(staff_client)
    Source.all_objects.filter(pk=work.pk).update(slug="lonely-work-2024")

    asked = staff_client.post(url, {**values, "reason": ""})

    assert asked.status_code == 400 and _deleted(work) == [False]
    again, shown = posted_form(asked.content.decode(), action="/delete/")
    assert again == "/sources/lonely-work-2024/delete/" and shown["source_id"] == str(work.pk)


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_a_deletion_of_a_work_deleted_since_changes_nothing_and_says_so(
    db: None, staff_client: Client, language: str
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    url, values = _delete_form(staff_client)
    source_delete(source=work, user=make_staff("other"), reason="另一个理由")

    refused = staff_client.post(url, values, follow=True, headers={"accept-language": language})

    assert refused.redirect_chain[0][0] == "/sources/lonely-work/"
    assert Source.all_objects.get(pk=work.pk).deleted_reason == "另一个理由"
    said = {"en": "“Lonely Work” was deleted by someone else after this form was opened: nothing was changed.",
            "zh-CN": "“Lonely Work”在此表单打开之后已被他人删除：没有做任何改动。"}
    assert said[language] in _said(refused)


def test_a_deletion_of_a_work_merged_since_changes_nothing_and_names_the_work_it_was_merged_into(
    db: None, staff: Account, staff_client: Client
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    kept = make_source(slug="kept-work", short_name="Kept Work")
    url, values = _delete_form(staff_client)
    source_merge(merged=work, kept=kept, user=staff)

    refused = staff_client.post(url, values, follow=True)

    assert refused.redirect_chain[-1][0] == "/sources/kept-work/"
    assert _deleted(kept) == [False] and Source.all_objects.get(pk=work.pk).merged_into == kept
    assert "“Lonely Work” was merged into “Kept Work” after this form was opened: nothing was deleted." in _said(refused)


def test_a_deletion_form_naming_no_work_deletes_the_work_at_its_address(db: None, staff_client: Client) -> None:
    """A form rendered before forms named their work: the work it is posted to, as before."""
    work = make_source(slug="lonely-work", short_name="Lonely Work")

    deleted = staff_client.post("/sources/lonely-work/delete/", {"reason": "重复"})

    assert deleted.status_code == 302 and _deleted(work) == [True]


def _restore_form(client: Client, shown_on: str) -> tuple[str, dict[str, str]]:
    url, values = posted_form(client.get(shown_on).content.decode(), action="/sources/")
    assert url == "/sources/lonely-work/restore/" and "source_id" in values
    return url, values


@pytest.mark.parametrize("shown_on", ["/deleted/", "/sources/lonely-work/"])
def test_a_restore_offered_before_an_import_was_undone_does_not_restore_the_work_added_at_its_address(
    db: None, staff: Account, staff_client: Client, shown_on: str
) -> None:
    """The work was restored and its import undone; a work added at its address was deleted: the button offered
    for the first does not bring back the second."""
    work, record = _imported()
    source_delete(source=work, user=staff, reason="重复")
    url, values = _restore_form(staff_client, shown_on)
    source_restore(source=work, user=staff)
    source_import_undo(record=record, user=None)
    newcomer = _newcomer()
    source_delete(source=newcomer, user=staff, reason="测试")

    refused = staff_client.post(url, values, follow=True)

    assert _deleted(newcomer) == [True]
    assert "The work this form was opened on no longer exists: nothing was restored." in _said(refused)


def test_a_restore_offered_before_the_works_address_changed_restores_it_at_its_new_address(
    db: None, staff: Account, staff_client: Client
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    source_delete(source=work, user=staff, reason="重复")
    url, values = _restore_form(staff_client, "/deleted/")
    Source.all_objects.filter(pk=work.pk).update(slug="lonely-work-2024")
    newcomer = _newcomer()
    source_delete(source=newcomer, user=staff, reason="测试")

    restored = staff_client.post(url, values, follow=True)

    assert restored.redirect_chain[-1][0] == "/sources/lonely-work-2024/"
    assert _deleted(work, newcomer) == [False, True]
    assert "“Lonely Work” moved from /sources/lonely-work/ to /sources/lonely-work-2024/ after this form was opened: " \
           "it was restored at its new address." in _said(restored)


def test_a_restore_of_a_work_restored_since_changes_nothing_and_says_so(
    db: None, staff: Account, staff_client: Client
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    source_delete(source=work, user=staff, reason="重复")
    url, values = _restore_form(staff_client, "/deleted/")
    source_restore(source=work, user=staff)

    refused = staff_client.post(url, values, follow=True)

    assert refused.redirect_chain[0][0] == "/sources/lonely-work/" and _deleted(work) == [False]
    assert "“Lonely Work” was restored by someone else after this form was opened: nothing was changed." in _said(refused)


def test_a_restore_of_a_work_merged_since_changes_nothing_and_names_the_work_it_was_merged_into(
    db: None, staff: Account, staff_client: Client
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    kept = make_source(slug="kept-work", short_name="Kept Work")
    source_delete(source=work, user=staff, reason="重复")
    url, values = _restore_form(staff_client, "/deleted/")
    source_restore(source=work, user=staff)
    source_merge(merged=Source.objects.get(pk=work.pk), kept=kept, user=staff)

    refused = staff_client.post(url, values, follow=True)

    assert refused.redirect_chain[-1][0] == "/sources/kept-work/"
    assert Source.all_objects.get(pk=work.pk).merged_into == kept
    assert "“Lonely Work” was merged into “Kept Work” after this form was opened: nothing was restored." in _said(refused)


def test_the_restore_offered_after_a_clash_names_the_work_too(db: None, staff: Account, staff_client: Client) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work", title="A lonely title")
    source_delete(source=work, user=staff, reason="重复")
    make_source(slug="lonely-again", short_name="Lonely Again", title="A lonely title")

    clash = staff_client.post("/sources/lonely-work/restore/", {"source_id": str(work.pk)})

    assert clash.status_code == 409
    url, values = posted_form(clash.content.decode(), action="/restore/")
    assert url == "/sources/lonely-work/restore/" and values["source_id"] == str(work.pk)
    assert values["merge_into"] == "lonely-again"


def test_a_form_sent_with_an_expired_token_opens_again_for_the_work_it_was_shown_for(db: None, staff: Account) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    url, values = posted_form(client.get("/sources/lonely-work/delete/").content.decode(), action="/delete/")
    Source.all_objects.filter(pk=work.pk).update(slug="lonely-work-2024")
    _newcomer()

    expired = client.post(url, {**values, "csrfmiddlewaretoken": "x" * 64, "reason": "重复的工作"},
                          headers={"referer": f"http://testserver{url}"})

    assert expired.status_code == 403
    html = expired.content.decode()
    assert 'href="/sources/lonely-work-2024/delete/"' in html and "重复的工作" in html
    assert "source_id" not in html  # the form's own bookkeeping is not shown as typed


def test_deleting_a_work_by_its_id_makes_as_many_queries_as_by_its_address(
    db: None, staff_client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    make_source(slug="lonely-work", short_name="Lonely Work")
    url, values = _delete_form(staff_client)
    with django_assert_num_queries(DELETE_QUERIES):
        assert staff_client.post(url, values).status_code == 302


DELETE_QUERIES = 14


def test_restoring_a_work_by_its_id_makes_as_many_queries_as_by_its_address(
    db: None, staff: Account, staff_client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    work = make_source(slug="lonely-work", short_name="Lonely Work")
    source_delete(source=work, user=staff, reason="重复")
    url, values = _restore_form(staff_client, "/deleted/")
    with django_assert_num_queries(RESTORE_QUERIES):
        assert staff_client.post(url, values).status_code == 302


RESTORE_QUERIES = 17
