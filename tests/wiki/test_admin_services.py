"""Open questions, components and readers' profiles saved in the admin as the wiki's own forms save them."""

from __future__ import annotations

from contextlib import nullcontext
from unittest import mock

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse

from tests.factories import SmallWiki, make_reader
from wiki.forms.sources import SOURCE_FIELDS
from wiki.models import ChangeEvent, Classification, Component, Contrast, OpenQuestion, ReaderProfile, Source

pytestmark = pytest.mark.django_db


def _question_form(question: OpenQuestion | None = None, **fields: object) -> dict[str, object]:
    data: dict[str, object] = {"title": "", "text": "", "page": "", "status": "open", "priority": "normal", "assignee": "",
                               "resolution_criteria": "", "answer_claim": ""}
    if question is not None:
        data.update({
            "title": question.title, "text": question.text, "page": question.page.slug if question.page else "", "status": question.status,
            "priority": question.priority, "assignee": question.assignee_id or "",
            "resolution_criteria": question.resolution_criteria, "answer_claim": question.answer_claim_id or "",
            "claims": [claim.pk for claim in question.claims.all()], "sources": ", ".join(source.slug for source in question.sources.all()),
        })
    data.update(fields)
    return {name: value for name, value in data.items() if value != []}


def _shown(client: Client, url: str, **query: str) -> str:
    response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def test_a_question_triaged_in_the_admin_is_in_recent_changes_search_and_its_page_at_once(
    small_wiki: SmallWiki, admin_client: Client, admin_user: AbstractBaseUser, client: Client,
) -> None:
    question = small_wiki.question
    page_url = question.get_absolute_url()
    assert "status-open" in _shown(client, page_url)  # the reader's copy is cached now

    saved = admin_client.post(reverse("admin:wiki_openquestion_change", args=[question.pk]), _question_form(
        question, title="多 seed 的验证 ZQXRETITLED", status="investigating", assignee=small_wiki.editor.pk))

    assert saved.status_code == 302, saved.content.decode()[:3000]
    event = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.QUESTION, object_id=question.pk).order_by("-pk").first()
    assert event is not None
    assert (event.action, event.label, event.user_id) == (ChangeEvent.Action.EDITED, "多 seed 的验证 ZQXRETITLED", admin_user.pk)
    assert "ZQXRETITLED" in _shown(client, reverse("wiki:changes"))
    assert f'href="{page_url}"' in _shown(client, reverse("wiki:search"), q="ZQXRETITLED")
    assert "status-investigating" in _shown(client, page_url)
    assert question.sources.get() == small_wiki.strict  # the claims and works linked are kept


def test_a_question_added_in_the_admin_is_recorded_and_found_and_sending_it_again_adds_nothing(
    small_wiki: SmallWiki, admin_client: Client, client: Client,
) -> None:
    url = reverse("admin:wiki_openquestion_add")
    form = _question_form(title="ZQXNEWQUESTION 是否需要五个 seed", text="待核实。", page=small_wiki.page.slug,
                          sources=small_wiki.harness.slug, priority="high")

    added = admin_client.post(url, form)
    again = admin_client.post(url, form, follow=True)

    question = OpenQuestion.objects.get(title__startswith="ZQXNEWQUESTION")
    assert added.status_code == 302
    assert (question.priority, list(question.sources.all())) == ("high", [small_wiki.harness])
    assert ChangeEvent.objects.filter(kind=ChangeEvent.Kind.QUESTION, object_id=question.pk,
                                      action=ChangeEvent.Action.CREATED).exists()
    assert f'href="{question.get_absolute_url()}"' in _shown(client, reverse("wiki:search"), q="ZQXNEWQUESTION")
    assert again.status_code == 200
    assert again.redirect_chain[-1][0] == reverse("admin:wiki_openquestion_change", args=[question.pk])
    assert OpenQuestion.objects.filter(title__startswith="ZQXNEWQUESTION").count() == 1


@pytest.mark.parametrize("raced", [False, True])
def test_renaming_a_question_in_the_admin_to_ask_what_another_asks_shows_the_form_again_with_what_was_typed(
    small_wiki: SmallWiki, admin_client: Client, raced: bool,
) -> None:
    """As the wiki's edit form does: the form comes back with the error and the values typed, and nothing is saved.
    ``raced``: the other question came to ask it after the form's check and before the save, which the service
    refuses; the form sent again says so the same way."""
    question = small_wiki.question
    twin = OpenQuestion.objects.create(title="ZQXTWIN 要问的问题", text=question.text, page=question.page)
    question.refresh_from_db()
    before = (question.title, question.priority, question.updated_at)
    url = reverse("admin:wiki_openquestion_change", args=[question.pk])
    form = _question_form(question, title=twin.title, priority="high", resolution_criteria="ZQXTYPED 复现实验")

    with mock.patch("wiki.admin.questions.question_asked_already", side_effect=[None, twin]) if raced else nullcontext():
        response = admin_client.post(url, form)

    assert response.status_code == 200
    errors = response.context["adminform"].form.non_field_errors().as_data()
    assert [error.code for error in errors] == ["duplicate"] and f"#{twin.pk}" in errors[0].message % errors[0].params
    html = response.content.decode()
    assert f'value="{twin.title}"' in html and "ZQXTYPED 复现实验" in html and '<option value="high" selected>' in html
    question.refresh_from_db()
    assert (question.title, question.priority, question.updated_at) == before
    assert not ChangeEvent.objects.filter(kind=ChangeEvent.Kind.QUESTION, object_id=question.pk,
                                          action=ChangeEvent.Action.EDITED).exists()


def test_a_question_is_dropped_not_deleted_in_the_admin(small_wiki: SmallWiki, admin_client: Client, client: Client) -> None:
    question = small_wiki.question

    assert admin_client.get(reverse("admin:wiki_openquestion_delete", args=[question.pk])).status_code == 403
    admin_client.post(reverse("admin:wiki_openquestion_delete", args=[question.pk]), {"post": "yes"})
    admin_client.post(reverse("admin:wiki_openquestion_changelist"),
                      {"action": "delete_selected", "_selected_action": [question.pk], "post": "yes"})

    assert OpenQuestion.objects.filter(pk=question.pk).exists()
    # What search and recent changes link to is still there.
    assert client.get(question.get_absolute_url()).status_code == 200
    assert "delete_selected" not in _shown(admin_client, reverse("admin:wiki_openquestion_changelist"))


def _source_form(source: Source, **fields: object) -> dict[str, object]:
    data: dict[str, object] = {name: getattr(source, name) for name in SOURCE_FIELDS}
    data["year"] = data["year"] or ""
    data["slug"] = source.slug
    return {**data, "components-MIN_NUM_FORMS": 0, "components-MAX_NUM_FORMS": 1000, **fields}


def test_a_component_is_neither_deleted_nor_moved_to_another_work_in_the_admin(small_wiki: SmallWiki,
                                                                              admin_client: Client) -> None:
    part = small_wiki.part
    classified = Classification.objects.filter(component=part)
    contrasted = Contrast.objects.filter(left_component=part)
    assert classified.exists() and contrasted.exists()

    assert admin_client.get(reverse("admin:wiki_component_delete", args=[part.pk])).status_code == 403
    admin_client.post(reverse("admin:wiki_component_delete", args=[part.pk]), {"post": "yes"})
    admin_client.post(reverse("admin:wiki_component_changelist"),
                      {"action": "delete_selected", "_selected_action": [part.pk], "post": "yes"})
    admin_client.post(reverse("admin:wiki_source_change", args=[part.source_id]), _source_form(
        small_wiki.strict, **{"components-TOTAL_FORMS": 1, "components-INITIAL_FORMS": 1, "components-0-id": part.pk,
                              "components-0-source": part.source_id, "components-0-slug": part.slug,
                              "components-0-name": part.name, "components-0-DELETE": "on"}))
    moved = admin_client.post(reverse("admin:wiki_component_change", args=[part.pk]),
                              {"source": small_wiki.harness.pk, "slug": part.slug, "name": "Loop-GRPO ZQXRENAMED"})

    assert moved.status_code == 302, moved.content.decode()[:3000]
    part.refresh_from_db()
    assert (part.source, part.name) == (small_wiki.strict, "Loop-GRPO ZQXRENAMED")
    assert classified.exists() and contrasted.exists()
    for classification in classified:
        classification.full_clean()  # still a component of the work it classifies


def test_a_component_is_added_in_the_admin(small_wiki: SmallWiki, admin_client: Client) -> None:
    added = admin_client.post(reverse("admin:wiki_component_add"),
                              {"source": small_wiki.harness.pk, "slug": "zqx-evolver", "name": "ZQX evolver"})

    assert added.status_code == 302
    assert Component.objects.get(slug="zqx-evolver").source == small_wiki.harness


def _profile_form(user: AbstractBaseUser, **fields: str) -> dict[str, object]:
    return {"user": user.pk, "language": "", "time_zone": "", **fields}


def test_a_readers_preferences_set_in_the_admin_are_theirs_on_their_next_page(admin_client: Client, client: Client) -> None:
    reader = make_reader("reader")
    profile = ReaderProfile.objects.create(user=reader, language="en", time_zone="UTC")
    client.force_login(reader)
    assert '<html lang="en">' in _shown(client, reverse("wiki:preferences"))  # the reader's account is cached now
    url = reverse("admin:wiki_readerprofile_change", args=[profile.pk])

    refused = admin_client.post(url, _profile_form(reader, language="zh-hans", time_zone="Europe/Pariss"))
    profile.refresh_from_db()
    assert refused.status_code == 200
    assert (profile.language, profile.time_zone) == ("en", "UTC")

    other = make_reader("other")
    saved = admin_client.post(url, _profile_form(other, language="zh-hans", time_zone="Europe/Paris"))

    assert saved.status_code == 302
    profile.refresh_from_db()
    assert (profile.user, profile.language, profile.time_zone) == (reader, "zh-hans", "Europe/Paris")
    preferences = _shown(client, reverse("wiki:preferences"))
    assert '<html lang="zh-Hans">' in preferences
    assert '<option value="Europe/Paris" selected>' in preferences
    assert not ReaderProfile.objects.filter(user=other).exists()


def test_a_profile_added_in_the_admin_takes_a_known_time_zone(admin_client: Client) -> None:
    reader = make_reader("newcomer")
    url = reverse("admin:wiki_readerprofile_add")

    refused = admin_client.post(url, _profile_form(reader, language="en", time_zone="Mars/Olympus_Mons"))
    added = admin_client.post(url, _profile_form(reader, language="en", time_zone="Europe/Berlin"))

    assert refused.status_code == 200
    assert added.status_code == 302
    profile = ReaderProfile.objects.get(user=reader)
    assert (profile.language, profile.time_zone) == ("en", "Europe/Berlin")


def test_a_profiles_old_zone_name_stays_a_choice_in_the_admin(admin_client: Client) -> None:
    reader = make_reader("old-timer")
    profile = ReaderProfile.objects.create(user=reader, language="en", time_zone="PRC")
    url = reverse("admin:wiki_readerprofile_change", args=[profile.pk])
    assert '<option value="PRC" selected>' in admin_client.get(url).content.decode()

    assert admin_client.post(url, _profile_form(reader, language="zh-hans", time_zone="PRC")).status_code == 302
    profile.refresh_from_db()
    assert (profile.language, profile.time_zone) == ("zh-hans", "PRC")
    assert 'value="PRC"' not in admin_client.get(reverse("admin:wiki_readerprofile_add")).content.decode()


@pytest.mark.parametrize("model_name", ["openquestion", "component", "readerprofile"])
def test_the_admin_pages_of_rows_saved_through_services_load(small_wiki: SmallWiki, admin_client: Client,
                                                             model_name: str) -> None:
    obj = {"openquestion": small_wiki.question, "component": small_wiki.part,
           "readerprofile": ReaderProfile.objects.get(user=small_wiki.editor)}[model_name]

    _shown(admin_client, reverse(f"admin:wiki_{model_name}_changelist"))
    _shown(admin_client, reverse(f"admin:wiki_{model_name}_add"))
    _shown(admin_client, reverse(f"admin:wiki_{model_name}_change", args=[obj.pk]))
