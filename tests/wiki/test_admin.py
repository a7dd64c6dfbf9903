"""Every model of the wiki is in the admin, and each changelist opens for a superuser."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from wiki.models import SearchDocument

pytestmark = pytest.mark.django_db

WIKI_MODELS = list(apps.get_app_config("wiki").get_models())


def test_every_wiki_model_is_registered() -> None:
    assert len(WIKI_MODELS) >= 13
    assert [m.__name__ for m in WIKI_MODELS if not admin.site.is_registered(m)] == []


@pytest.fixture
def admin_client(client):  # type: ignore[no-untyped-def]
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "pw-long-enough"))
    return client


@pytest.mark.usefixtures("small_wiki")
@pytest.mark.parametrize("model", WIKI_MODELS, ids=lambda m: m.__name__)
def test_changelist_loads_for_a_superuser(admin_client: Client, model: type[Model]) -> None:
    url = reverse(f"admin:wiki_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "agentic"}).status_code == 200


@pytest.mark.usefixtures("small_wiki")
def test_change_pages_of_every_model_load(admin_client: Client) -> None:
    for model in WIKI_MODELS:
        obj = model._default_manager.first()
        assert obj is not None, f"tests.factories.make_wiki makes no {model.__name__}"
        url = reverse(f"admin:wiki_{model._meta.model_name}_change", args=[obj.pk])
        assert admin_client.get(url).status_code == 200, model.__name__


def test_search_documents_are_read_only(admin_client: Client) -> None:
    assert admin_client.get(reverse("admin:wiki_searchdocument_add")).status_code == 403
    model_admin = admin.site._registry[SearchDocument]
    assert not model_admin.has_change_permission(None)  # type: ignore[arg-type]


@pytest.mark.usefixtures("small_wiki")
def test_pages_and_classifications_are_edited_in_the_wiki_not_the_admin(admin_client: Client) -> None:
    from wiki.models import Classification, Page

    page = Page.objects.first()
    classification = Classification.objects.first()
    assert page is not None and classification is not None
    page_url = reverse("admin:wiki_page_change", args=[page.pk])
    classification_url = reverse("admin:wiki_classification_change", args=[classification.pk])

    refused = admin_client.post(page_url, {"title": "Changed", "slug": page.slug, "body": "Changed."})

    assert refused.status_code == 403
    page.refresh_from_db()
    assert page.title != "Changed"
    assert reverse("wiki:page-edit", kwargs={"slug": page.slug}) in admin_client.get(page_url).content.decode()
    assert admin_client.post(classification_url, {"verdict": "not_strict"}).status_code == 403
    assert reverse("wiki:classification-edit", kwargs={"pk": classification.pk}) in admin_client.get(classification_url).content.decode()
    assert admin_client.get(reverse("admin:wiki_page_add")).status_code == 403
    assert admin_client.get(reverse("admin:wiki_classification_add")).status_code == 403
