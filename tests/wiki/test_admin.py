"""Every model of the wiki is in the admin, and each changelist opens for a superuser."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.factories import SmallWiki, make_page
from wiki.forms.sources import SOURCE_FIELDS
from wiki.models import ChangeEvent, Classification, Page, SearchDocument, Source
from wiki.reports.consistency import FINDING_KINDS
from wiki.services.deletion import page_delete, source_delete
from wiki.taxonomy import verdict_label

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


# Rows the wiki derives or records itself: a write here would leave the page, its history or the feed disagreeing.
DERIVED = ["claim", "citation", "revision", "wikilink", "changeevent", "classificationchange", "contrast", "claimrevision"]


@pytest.mark.parametrize("model_name", [name for name in DERIVED if name != "contrast"])
def test_derived_rows_are_neither_added_changed_nor_deleted_in_the_admin(small_wiki: SmallWiki, admin_client: Client,
                                                                         model_name: str) -> None:
    model = apps.get_model("wiki", model_name)
    obj = model._default_manager.order_by("pk").first()
    before = model._default_manager.count()

    assert admin_client.get(reverse(f"admin:wiki_{model_name}_add")).status_code == 403
    assert admin_client.post(reverse(f"admin:wiki_{model_name}_change", args=[obj.pk]), {"text": "ZQX", "label": "ZQX"}).status_code == 403
    assert admin_client.get(reverse(f"admin:wiki_{model_name}_delete", args=[obj.pk])).status_code == 403
    changelist = reverse(f"admin:wiki_{model_name}_changelist")
    admin_client.post(changelist, {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"})

    assert model._default_manager.count() == before
    assert admin_client.get(reverse(f"admin:wiki_{model_name}_change", args=[obj.pk])).status_code == 200


def test_a_contrast_is_neither_added_nor_changed_in_the_admin_but_a_wrong_one_is_deleted_there(
        small_wiki: SmallWiki, admin_client: Client) -> None:
    from wiki.models import Claim, Contrast

    contrast = Contrast.objects.order_by("pk").first()
    assert contrast is not None
    claims = Claim.objects.count()
    assert admin_client.get(reverse("admin:wiki_contrast_add")).status_code == 403
    assert admin_client.post(reverse("admin:wiki_contrast_change", args=[contrast.pk]), {"axis": "ZQX"}).status_code == 403

    admin_client.post(reverse("admin:wiki_contrast_delete", args=[contrast.pk]), {"post": "yes"})

    assert not Contrast.objects.filter(pk=contrast.pk).exists()
    assert Claim.objects.count() == claims  # the claim that stated it stays on its page


def test_a_claim_is_edited_in_the_wiki_and_its_page_keeps_its_text(small_wiki: SmallWiki, admin_client: Client) -> None:
    claim = small_wiki.claims[0]
    url = reverse("admin:wiki_claim_change", args=[claim.pk])

    refused = admin_client.post(url, {"page": claim.page_id, "text": "ZQXCLAIM rewritten", "status": "disputed", "key": claim.key})

    assert refused.status_code == 403
    claim.refresh_from_db()
    assert (claim.text, claim.status) != ("ZQXCLAIM rewritten", "disputed")
    assert reverse("wiki:claim-edit", kwargs={"pk": claim.pk}) in admin_client.get(url).content.decode()


@pytest.mark.parametrize("kind", ["page", "source"])
def test_pages_and_works_are_deleted_in_the_wiki_with_a_reason_not_in_the_admin(small_wiki: SmallWiki, admin_client: Client,
                                                                                 kind: str) -> None:
    obj: Page | Source = small_wiki.notes if kind == "page" else small_wiki.unclassified
    model = type(obj)

    assert admin_client.get(reverse(f"admin:wiki_{kind}_delete", args=[obj.pk])).status_code == 403
    admin_client.post(reverse(f"admin:wiki_{kind}_changelist"),
                      {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"})

    assert model.all_objects.filter(pk=obj.pk, deleted_at__isnull=True).exists()
    change_page = admin_client.get(reverse(f"admin:wiki_{kind}_change", args=[obj.pk])).content.decode()
    assert reverse(f"wiki:{kind}-delete", kwargs={"slug": obj.slug}) in change_page
    assert "delete_selected" not in admin_client.get(reverse(f"admin:wiki_{kind}_changelist")).content.decode()


def test_a_deleted_page_links_to_where_it_is_restored(small_wiki: SmallWiki, admin_client: Client) -> None:
    page_delete(page=small_wiki.notes, user=None, reason="Spam")

    change_page = admin_client.get(reverse("admin:wiki_page_change", args=[small_wiki.notes.pk])).content.decode()

    assert reverse("wiki:deleted-list") in change_page
    assert reverse("wiki:page-delete", kwargs={"slug": small_wiki.notes.slug}) not in change_page


def _source_form(source: Source | None = None, **fields: object) -> dict[str, object]:
    data: dict[str, object] = {name: getattr(source, name) if source else "" for name in SOURCE_FIELDS}
    data["year"] = data["year"] or ""
    data["slug"] = source.slug if source else "zqx-typed-slug"  # read-only here: the service makes the slug
    data.update({"kind": data["kind"] or "paper", "components-TOTAL_FORMS": 0, "components-INITIAL_FORMS": 0,
                 "components-MIN_NUM_FORMS": 0, "components-MAX_NUM_FORMS": 1000, **fields})
    return data


def _source_document(source: Source) -> SearchDocument:
    return SearchDocument.objects.get(kind=SearchDocument.Kind.SOURCE, object_id=source.pk)


def test_a_work_edited_in_the_admin_is_saved_through_the_service(small_wiki: SmallWiki, admin_client: Client) -> None:
    source = small_wiki.harness
    url = reverse("admin:wiki_source_change", args=[source.pk])

    saved = admin_client.post(url, _source_form(source, title="HarnessKit ZQXTITLE renamed", short_name="HarnessX",
                                                abstract="ZQXABSTRACT about harnesses", arxiv_id="arXiv:2509.21240v2"))

    assert saved.status_code == 302, saved.content.decode()[:2000]
    source.refresh_from_db()
    assert (source.short_name, source.arxiv_id) == ("HarnessX", "2509.21240")
    assert source.normalized_title == "harnesskit zqxtitle renamed"
    document = _source_document(source)
    assert "ZQXTITLE" in document.title and "ZQXABSTRACT" in document.body
    event = ChangeEvent.objects.filter(kind=ChangeEvent.Kind.SOURCE, object_id=source.pk).first()
    assert event is not None and (event.action, event.label) == (ChangeEvent.Action.EDITED, "HarnessX")


def test_a_work_added_in_the_admin_is_saved_through_the_service_and_a_duplicate_is_refused(
    small_wiki: SmallWiki, admin_client: Client,
) -> None:
    url = reverse("admin:wiki_source_add")

    added = admin_client.post(url, _source_form(short_name="ZQXNEW", title="ZQXNEW: A Work Added in the Admin", year=2025,
                                                doi="https://doi.org/10.5555/ZQX"))
    duplicate = admin_client.post(url, _source_form(short_name="Again", title="Another title", doi="10.5555/zqx"))

    assert added.status_code == 302
    source = Source.objects.get(short_name="ZQXNEW")
    assert (source.slug, source.doi) == ("zqxnew", "10.5555/zqx")
    assert "ZQXNEW" in _source_document(source).title
    assert ChangeEvent.objects.filter(kind=ChangeEvent.Kind.SOURCE, object_id=source.pk, action=ChangeEvent.Action.CREATED).exists()
    assert duplicate.status_code == 200
    assert "ZQXNEW" in duplicate.content.decode()
    assert not Source.all_objects.filter(short_name="Again").exists()


def test_a_deleted_work_is_not_edited_in_the_admin(small_wiki: SmallWiki, admin_client: Client) -> None:
    source = small_wiki.unclassified
    source_delete(source=source, user=None, reason="Not a work")

    refused = admin_client.post(reverse("admin:wiki_source_change", args=[source.pk]), _source_form(source, notes="ZQX"))

    assert refused.status_code == 403
    source.refresh_from_db()
    assert source.notes != "ZQX"


@pytest.mark.parametrize("model_name", ["claim", "openquestion", "wikilink", "claimrevision"])
def test_changelists_of_rows_on_pages_read_no_page_text_and_list_no_pages(small_wiki: SmallWiki, admin_client: Client,
                                                                          model_name: str) -> None:
    url = reverse(f"admin:wiki_{model_name}_changelist")

    def read() -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as queries:
            response = admin_client.get(url)
        assert response.status_code == 200
        return [q["sql"] for q in queries.captured_queries], len(response.content)

    read()  # the session's user is read once, then cached
    few_queries, few_bytes = read()
    for n in range(25):
        make_page(slug=f"zqx-more-{n}", title=f"ZQX more {n}", body="A page with nothing on it. " * 20)
    many_queries, many_bytes = read()

    assert len(many_queries) == len(few_queries)
    assert abs(many_bytes - few_bytes) < 100
    page_text = ('"wiki_page"."body"', '"wiki_page"."rendered_html"', '"wiki_revision"."body"')
    assert [sql for sql in many_queries if any(column in sql for column in page_text)] == []


def test_the_revisions_changelist_reads_no_text(small_wiki: SmallWiki, admin_client: Client) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert admin_client.get(reverse("admin:wiki_revision_changelist")).status_code == 200

    assert [q["sql"] for q in queries.captured_queries if '"wiki_page"."body"' in q["sql"] or '"wiki_revision"."body"' in q["sql"]] == []


def test_claims_and_questions_are_found_by_their_pages_title(small_wiki: SmallWiki, admin_client: Client) -> None:
    for model_name in ("claim", "openquestion"):
        found = admin_client.get(reverse(f"admin:wiki_{model_name}_changelist"), {"q": "Loop Wiki"})

        on_the_page = apps.get_model("wiki", model_name)._default_manager.filter(page=small_wiki.page)
        assert found.context["cl"].result_count == on_the_page.count() > 0


def test_the_admin_reads_in_chinese_with_the_wikis_name(small_wiki: SmallWiki, admin_client: Client) -> None:
    chinese = {"accept-language": "zh-hans"}

    index = admin_client.get(reverse("admin:index"), headers=chinese).content.decode()
    claims = admin_client.get(reverse("admin:wiki_claim_changelist"), headers=chinese).content.decode()
    source = admin_client.get(reverse("admin:wiki_source_change", args=[small_wiki.strict.pk]), headers=chinese).content.decode()

    assert "Agentic RL Wiki 管理" in index and "Django" not in index
    # the table's headings for screen readers, which Django's own Chinese catalogue lacks
    assert "模型名称" in index and "Model name" not in index and "Add link" not in index
    for name in ("论断", "来源", "修订版本", "最近更改", "分类变更", "Wiki 链接", "待核实问题"):
        assert name in index, name
    assert re.search(r"<title>[^<]*论断[^<]*\| Agentic RL Wiki 管理</title>", claims)
    for label in ("简称", "类型", "规范化标题", "创建时间"):
        assert f"{label}:" in source or f"{label}：" in source, label
    assert "Short name" not in source and "Normalized title" not in source


def test_every_model_and_field_of_the_wiki_has_a_chinese_name() -> None:
    names = {}
    with translation.override("zh-hans"):
        for model in WIKI_MODELS:
            names[model.__name__] = str(model._meta.verbose_name_plural)
            for field in model._meta.get_fields():
                if not field.auto_created and (field.concrete or field.many_to_many):
                    names[f"{model.__name__}.{field.name}"] = str(field.verbose_name)  # type: ignore[union-attr]
    notations = {"URL", "DOI", "arXiv ID"}
    assert {where: name for where, name in names.items() if name not in notations and not re.search(r"[\u4e00-\u9fff]", name)} == {}


def test_objects_are_named_with_labels_not_codes(small_wiki: SmallWiki) -> None:
    classification = Classification.objects.select_related("source").get(source=small_wiki.harness, component=None)
    event = ChangeEvent(kind="page", action="deleted", label="Loop Notes")

    with translation.override("en"):
        assert str(classification) == "HarnessKit: Not strict"
        assert str(event) == "Page Loop Notes deleted"
    with translation.override("zh-hans"):
        assert str(classification) == f"HarnessKit: {verdict_label('not_strict')}" != "HarnessKit: not_strict"


_HEADER = re.compile(r'<th scope="col"[^>]*>.*?<div class="text">(?:<a [^>]*>|<span>)(.*?)</(?:a|span)>', re.S)
_LABEL = re.compile(r"<label\b[^>]*>([^<]*)</label>")
_NOTATIONS = {"URL", "DOI", "arXiv ID", "ID", ""}


def _not_chinese(texts: list[str]) -> list[str]:
    named = [re.sub(r"<[^>]+>", "", text) for text in texts]  # arXiv ID's column is marked as English
    return [text for text in named if text.strip().rstrip(":：") not in _NOTATIONS and not re.search(r"[\u4e00-\u9fff]", text)]


def test_every_changelist_and_change_form_names_its_columns_filters_and_fields_in_chinese(small_wiki: SmallWiki,
                                                                                          admin_client: Client) -> None:
    """The columns, the filters and the fields: the wiki's names for them, never a method's or a field's own name
    (``subject_name``, ``sources``)."""
    from wiki.models import FindingDismissal, OpenQuestion

    FindingDismissal.objects.create(kind="one_sided_contrast", key="contrast-1-claim-2", subject="A vs B", reason="Both named.")
    OpenQuestion.objects.create(title="Does it hold?", page=small_wiki.page)
    chinese = {"accept-language": "zh-hans"}
    english = {}
    for model in WIKI_MODELS:
        html = admin_client.get(reverse(f"admin:wiki_{model._meta.model_name}_changelist"), headers=chinese).content.decode()
        english[f"{model.__name__} columns"] = _not_chinese(_HEADER.findall(html))
        english[f"{model.__name__} filters"] = _not_chinese(re.findall(r'<details data-filter-title="([^"]*)"', html))
        row = model._default_manager.first()
        if row is not None:
            url = reverse(f"admin:wiki_{model._meta.model_name}_change", args=[row.pk])
            english[f"{model.__name__} fields"] = _not_chinese(_LABEL.findall(admin_client.get(url, headers=chinese).content.decode()))
    assert {where: texts for where, texts in english.items() if texts} == {}


def test_a_dismissed_findings_kind_is_shown_and_chosen_by_its_sections_name(admin_client: Client) -> None:
    from wiki.models import FindingDismissal

    dismissal = FindingDismissal.objects.create(kind="one_sided_contrast", key="contrast-1-claim-2", subject="A vs B",
                                                reason="Both named.")
    chinese = {"accept-language": "zh-hans"}
    with translation.override("zh-hans"):
        name = escape(dict(FINDING_KINDS)["one_sided_contrast"])
    listed = admin_client.get(reverse("admin:wiki_findingdismissal_changelist"), headers=chinese).content.decode()
    assert f'<td class="field-kind_name">{name}</td>' in listed and ">one_sided_contrast<" not in listed
    kinds = re.search(r'<details data-filter-title="[^"]*" open>(.*?)</details>', listed, re.S)
    assert kinds is not None and f'<a href="?kind=one_sided_contrast">{name}</a>' in kinds.group(1)
    form = admin_client.get(reverse("admin:wiki_findingdismissal_change", args=[dismissal.pk]), headers=chinese).content.decode()
    assert f'<option value="one_sided_contrast" selected>{name}</option>' in form


def test_a_questions_help_texts_read_as_text_in_the_admin(small_wiki: SmallWiki, admin_client: Client) -> None:
    """The admin shows a help text as markup: a page's address, /wiki/<slug>/, would lose its ``<slug>``."""
    from wiki.models import OpenQuestion

    question = OpenQuestion.objects.create(title="Does it hold?", page=small_wiki.page)
    for language, address in (("zh-hans", "地址 /wiki/&lt;slug&gt;/ 中"), ("en", "(/wiki/&lt;slug&gt;/)")):
        html = admin_client.get(reverse("admin:wiki_openquestion_change", args=[question.pk]),
                                headers={"accept-language": language}).content.decode()
        assert address in html and "/wiki/<slug>/" not in html and "/wiki//" not in html


def test_a_chinese_label_ends_with_a_full_width_colon_and_an_english_one_with_a_colon(small_wiki: SmallWiki,
                                                                                       admin_client: Client) -> None:
    """Chinese writes a label's colon full width (标题：); Django's own catalogue gives it as ``:``."""
    from django import forms

    url = reverse("admin:wiki_source_change", args=[small_wiki.harness.pk])
    chinese = _LABEL.findall(admin_client.get(url, headers={"accept-language": "zh-hans"}).content.decode())
    english = _LABEL.findall(admin_client.get(url, headers={"accept-language": "en"}).content.decode())
    assert "标题：" in chinese and [label for label in chinese if label.endswith(":")] == []
    assert "Title:" in english and [label for label in english if label.endswith("：")] == []
    with translation.override("zh-hans"):
        assert forms.Form().label_suffix == "："


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_admin_writes_arxiv_with_a_small_a(small_wiki: SmallWiki, admin_client: Client, language: str) -> None:
    """The admin gives a column's or a read-only field's name a capital, which arXiv does not take."""
    source = small_wiki.unclassified
    source_delete(source=source, user=None, reason="Not a work")
    headers = {"accept-language": language}

    listed = admin_client.get(reverse("admin:wiki_source_changelist"), headers=headers).content.decode()
    editable = admin_client.get(reverse("admin:wiki_source_change", args=[small_wiki.harness.pk]), headers=headers)
    shown = admin_client.get(reverse("admin:wiki_source_change", args=[source.pk]), headers=headers).content.decode()

    columns = [re.sub(r"<[^>]+>", "", header) for header in _HEADER.findall(listed)]
    assert "arXiv ID" in columns
    assert "arXiv ID" in re.sub(r"<[^>]+>", "", editable.content.decode()) and ">arXiv ID<" in shown
    assert "ArXiv" not in listed + editable.content.decode() + shown


def test_a_dismissal_and_a_stored_suggestion_are_named_by_their_labels(small_wiki: SmallWiki, admin_client: Client) -> None:
    """An admin page's title and list name a dismissed finding by its kind and what it concerns, a suggestion by its
    work (or component) and the mechanism it suggests: never by the codes stored."""
    from wiki.models import FindingDismissal, StoredSuggestion
    from wiki.taxonomy import mechanism_label

    dismissal = FindingDismissal.objects.create(kind="one_sided_contrast", key="contrast-1-claim-2", subject="A vs B",
                                                reason="Both named.")
    suggestion = StoredSuggestion(source=small_wiki.strict, component=small_wiki.part, mechanism="policy_gradient")

    with translation.override("en"):
        assert str(dismissal) == "Contrasts whose evidence claim does not name both sides: A vs B"
        assert str(suggestion) == f"Suggestion for {small_wiki.strict.short_name} {small_wiki.part.name}: Policy gradient"
    with translation.override("zh-hans"):
        kind, mechanism = dict(FINDING_KINDS)["one_sided_contrast"], mechanism_label("policy_gradient")
        assert str(dismissal) == f"{kind}：A vs B"
        assert str(suggestion) == f"{small_wiki.strict.short_name} {small_wiki.part.name} 的分类建议：{mechanism}"
        assert mechanism != "Policy gradient"
    stored = StoredSuggestion.objects.filter(component=None).select_related("source").first()
    assert stored is not None
    chinese = {"accept-language": "zh-hans"}
    shown = admin_client.get(reverse("admin:wiki_storedsuggestion_change", args=[stored.pk]), headers=chinese)
    changed = admin_client.get(reverse("admin:wiki_findingdismissal_change", args=[dismissal.pk]), headers=chinese)
    with translation.override("zh-hans"):
        assert f"<h2>{escape(str(stored))}</h2>" in shown.content.decode()
        assert f"<h2>{escape(str(dismissal))}</h2>" in changed.content.decode()
        assert str(stored).startswith(f"{stored.source.short_name} 的分类建议：")
