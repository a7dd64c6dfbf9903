from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import (
    make_claim,
    make_classification,
    make_page,
    make_reader,
    make_source,
)
from wiki.models import ChangeEvent, Claim, Classification, Contrast, Page, SearchDocument, Source, WikiLink
from wiki.roles import Account
from wiki.services.deletion import page_delete, page_restore, source_delete
from wiki.services.page_moves import page_move
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


def _row(model: Any, pk: int) -> dict[str, Any]:
    obj = model.all_objects.get(pk=pk)
    return {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields}


def _linked_pages() -> tuple[Page, Page]:
    target = make_page(slug="doomed", title="Doomed", body="- 一个断言（来源：Doomed Study，§1）\n")
    linking = make_page(slug="linking", title="Linking", body="See [[Doomed]].")
    return target, linking


@pytest.mark.parametrize("view", ["wiki:page-history", "wiki:page-diff", "wiki:page-claims", "wiki:page-info",
                                  "wiki:page-cite"])
def test_every_view_of_a_deleted_page_says_it_was_deleted_and_why(client: Client, staff: Account, view: str) -> None:
    page, _ = _linked_pages()
    page_delete(page=page, user=staff, reason="Spam page")

    response = client.get(reverse(view, kwargs={"slug": "doomed"}))

    # a bookmark to its history or its claims says what became of it, as its own address does, not "not found"
    assert response.status_code == 410
    assert "Spam page" in response.content.decode() and "This page was deleted" in response.content.decode()
    assert client.get(reverse(view, kwargs={"slug": "never-was"})).status_code == 404


def test_staff_delete_a_page_with_a_reason_and_readers_no_longer_find_it(staff_client: Client, staff: Account) -> None:
    page, linking = _linked_pages()
    claim_ids = list(page.claims.values_list("id", flat=True))
    url = reverse("wiki:page-delete", kwargs={"slug": "doomed"})
    assert staff_client.get(url).status_code == 200

    response = staff_client.post(url, {"reason": "Spam page"})

    assert response.status_code == 302 and response["Location"] == reverse("wiki:deleted-list")
    anonymous = Client()
    gone = anonymous.get(page.get_absolute_url())
    assert gone.status_code == 410 and "Spam page" in gone.content.decode() and "Restore" not in gone.content.decode()
    assert "Doomed" not in anonymous.get(reverse("wiki:page-list")).content.decode()
    assert anonymous.get("/api/v1/pages/doomed/").status_code == 410
    assert not SearchDocument.objects.filter(kind="page", object_id=page.pk).exists()
    assert not SearchDocument.objects.filter(kind="claim", object_id__in=claim_ids).exists()
    assert "doomed" in {row["target_slug"] for row in WikiLink.objects.wanted()}
    assert "wikilink wanted" in Page.objects.get(pk=linking.pk).rendered_html
    event = ChangeEvent.objects.get(kind="page", object_id=page.pk, action="deleted")
    assert event.user == staff and event.summary == "Spam page"
    listed = staff_client.get(reverse("wiki:deleted-list")).content.decode()
    assert "Doomed" in listed and "Spam page" in listed and "curator" in listed
    assert "Restore" in staff_client.get(page.get_absolute_url()).content.decode()


def test_a_restored_page_is_exactly_what_was_deleted(staff_client: Client) -> None:
    page, linking = _linked_pages()
    before = _row(Page, page.pk)
    html_before = Page.objects.get(pk=linking.pk).rendered_html
    assert "wikilink wanted" not in html_before
    staff_client.post(reverse("wiki:page-delete", kwargs={"slug": "doomed"}), {"reason": "By mistake"})

    response = staff_client.post(reverse("wiki:page-restore", kwargs={"slug": "doomed"}))

    assert response.status_code == 302 and response["Location"] == page.get_absolute_url()
    assert _row(Page, page.pk) == before
    assert Page.objects.get(pk=linking.pk).rendered_html == html_before
    assert SearchDocument.objects.filter(kind="page", object_id=page.pk).exists()
    assert Client().get(page.get_absolute_url()).status_code == 200
    assert ChangeEvent.objects.filter(kind="page", object_id=page.pk, action="restored").exists()


def test_only_staff_delete_or_restore(editor_client: Client) -> None:
    page = make_page(slug="kept", title="Kept")
    url = reverse("wiki:page-delete", kwargs={"slug": "kept"})
    assert editor_client.get(url).status_code == 403
    assert editor_client.post(url, {"reason": "x"}).status_code == 403
    assert Client().post(url, {"reason": "x"}).status_code == 403  # the session ended: the reason is shown to copy
    assert Client().get(url)["Location"].startswith(reverse("login"))
    assert Page.objects.filter(pk=page.pk).exists()
    assert editor_client.get(reverse("wiki:deleted-list")).status_code == 403


def test_a_deletion_without_a_reason_is_refused(staff_client: Client) -> None:
    page = make_page(slug="kept", title="Kept")
    response = staff_client.post(reverse("wiki:page-delete", kwargs={"slug": "kept"}), {"reason": "  "})
    assert response.status_code == 400
    assert Page.objects.filter(pk=page.pk).exists()
    with pytest.raises(ValidationError):
        page_delete(page=page, user=None, reason="")


def test_a_deleted_pages_address_is_not_taken_by_a_new_page(staff: Account, editor_client: Client) -> None:
    page = make_page(slug="doomed", title="Doomed")
    page_delete(page=page, user=staff, reason="Spam")
    with pytest.raises(ValidationError, match="deleted page"):
        page_save_revision(slug="doomed", title="Doomed", body="Again.")
    response = editor_client.post(reverse("wiki:page-create"), {"title": "Doomed", "slug": "doomed", "body": "Again."})
    assert "deleted page" in response.content.decode()
    assert Page.all_objects.filter(slug="doomed").count() == 1


def test_a_cited_work_cannot_be_deleted(staff_client: Client) -> None:
    cited = make_source()
    make_claim("SkillLoop 用 GRPO 更新策略。", cites=[cited])
    response = staff_client.post(reverse("wiki:source-delete", kwargs={"slug": cited.slug}), {"reason": "dup"})
    assert response.status_code == 400 and "cite" in response.content.decode()
    assert Source.objects.filter(pk=cited.pk).exists()


def test_a_deleted_work_takes_its_classifications_and_contrasts_out_of_sight_and_back(staff_client: Client, staff: Account) -> None:
    work = make_source(short_name="Lonely Work", slug="lonely-work")
    make_classification(work)
    other = make_source(short_name="Other Work")
    Contrast.objects.create(left=work, right=other, axis="nothing much")
    before = _row(Source, work.pk)

    response = staff_client.post(reverse("wiki:source-delete", kwargs={"slug": "lonely-work"}), {"reason": "Not a real work"})

    assert response.status_code == 302
    reader = Client()
    assert reader.get(work.get_absolute_url()).status_code == 410
    assert "Lonely Work" not in reader.get(reverse("wiki:source-list")).content.decode()
    assert "Lonely Work" not in reader.get(other.get_absolute_url()).content.decode()
    assert "lonely-work" not in reader.get("/api/v1/sources/?page_size=100").content.decode()
    assert "Lonely Work" not in reader.get(reverse("wiki:graph-map")).content.decode()
    assert not Classification.objects.filter(source=work).exists() and not Contrast.objects.filter(left=work).exists()
    assert not SearchDocument.objects.filter(kind="source", object_id=work.pk).exists()

    staff_client.post(reverse("wiki:source-restore", kwargs={"slug": "lonely-work"}))

    assert _row(Source, work.pk) == before
    assert Classification.objects.filter(source=work).exists() and Contrast.objects.filter(left=work).exists()
    assert "Lonely Work" in reader.get(other.get_absolute_url()).content.decode()


def test_the_deleted_list_runs_the_same_queries_for_one_or_many(staff_client: Client, staff: Account) -> None:
    def count() -> int:
        staff_client.get(reverse("wiki:deleted-list"))
        with CaptureQueriesContext(connection) as queries:
            assert staff_client.get(reverse("wiki:deleted-list")).status_code == 200
        return len(queries)

    page_delete(page=make_page(), user=staff, reason="one")
    source_delete(source=make_source(), user=staff, reason="one")
    one = count()
    for n in range(8):
        page_delete(page=make_page(), user=staff, reason=f"more {n}")
        source_delete(source=make_source(), user=staff, reason=f"more {n}")
    assert count() == one


def test_the_claims_of_a_deleted_page_are_gone_from_readers_and_come_back(staff: Account) -> None:
    page, _ = _linked_pages()
    claim = page.claims.get()
    reader = Client()
    assert reader.get(claim.get_detail_url()).status_code == 200
    page_delete(page=page, user=staff, reason="spam")

    assert reader.get(claim.get_detail_url()).status_code == 404
    assert reader.get(f"/api/v1/claims/{claim.pk}/").status_code == 404
    assert not Claim.objects.current().filter(pk=claim.pk).exists()
    page_restore(page=page, user=staff)
    assert reader.get(f"/api/v1/claims/{claim.pk}/").status_code == 200


STAFF_MESSAGES = {
    "en": "only staff can. Ask a member of staff to do it for you.",
    "zh-CN": "只有管理员可以。请让一位管理员替你操作。",
}
EDITOR_MESSAGES = {"en": "only editors can", "zh-CN": "只有编辑者可以"}


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_a_refusal_says_whether_the_page_needs_an_editor_or_staff(editor_client: Client, language: str) -> None:
    make_page(slug="kept", title="Kept")
    make_source(slug="kept-work", short_name="Kept work")
    for url in (reverse("wiki:deleted-list"), reverse("wiki:page-delete", kwargs={"slug": "kept"}),
                reverse("wiki:source-delete", kwargs={"slug": "kept-work"})):
        response = editor_client.get(url, headers={"accept-language": language})
        assert response.status_code == 403
        html = response.content.decode()
        assert STAFF_MESSAGES[language] in html, url
        assert EDITOR_MESSAGES[language] not in html, url

    reader = Client()
    reader.force_login(make_reader("onlooker"))
    response = reader.get(reverse("wiki:page-edit", kwargs={"slug": "kept"}), headers={"accept-language": language})
    assert response.status_code == 403
    assert EDITOR_MESSAGES[language] in response.content.decode()
    assert STAFF_MESSAGES[language] not in response.content.decode()


@pytest.mark.parametrize("typed", ["Reward Shaping Pitfalls", "reward-shaping-pitfalls"])
def test_links_naming_a_deleted_pages_former_title_or_address_are_wanted_until_it_is_restored(staff: Account, typed: str) -> None:
    page = page_save_revision(slug="", title="Reward Shaping Pitfalls", body="正文。").page
    page_move(page=page, slug="reward-pitfalls", user=staff)
    page_save_revision(slug="reward-pitfalls", title="Pitfalls of reward shaping", body="正文。")
    linking = make_page(slug="linking", title="Linking", body=f"见 [[{typed}]]。")
    reader = Client()

    def shown() -> tuple[str, set[str], list[str], str]:
        return (Page.objects.get(pk=linking.pk).rendered_html,
                {row["target_slug"] for row in WikiLink.objects.wanted()},
                [link.source_page.slug for link in WikiLink.objects.backlinks_to("reward-pitfalls")],
                reader.get(reverse("wiki:wanted-pages")).content.decode())

    html, wanted, backlinks, _listed = shown()
    assert 'class="wikilink" href="/wiki/reward-pitfalls/"' in html and not wanted and backlinks == ["linking"]

    page_delete(page=Page.objects.get(pk=page.pk), user=staff, reason="重复")

    html, wanted, backlinks, listed = shown()
    assert 'class="wikilink wanted" href="/wiki/reward-shaping-pitfalls/"' in html
    assert wanted == {"reward-shaping-pitfalls"} and backlinks == [] and "/wiki/reward-shaping-pitfalls/" in listed
    assert [link.source_page.slug for link in WikiLink.objects.backlinks_to("reward-shaping-pitfalls")] == ["linking"]

    page_restore(page=Page.all_objects.get(pk=page.pk), user=staff)

    html, wanted, backlinks, listed = shown()
    assert 'class="wikilink" href="/wiki/reward-pitfalls/"' in html and "wanted" not in html
    assert not wanted and backlinks == ["linking"] and "/wiki/reward-shaping-pitfalls/" not in listed
    assert not WikiLink.objects.backlinks_to("reward-shaping-pitfalls").exists()


def test_restoring_a_moved_page_relinks_its_former_names_in_a_fixed_number_of_queries(staff: Account) -> None:
    def queries(n: int, slug: str) -> int:
        page = page_save_revision(slug=slug, title=f"{slug} notes", body="x").page
        page_move(page=page, slug=f"{slug}-moved", user=staff)
        for i in range(n):
            make_page(slug=f"{slug}-linking-{i}", title=f"{slug} linking {i}", body=f"[[{slug}]]")
        page_delete(page=Page.objects.get(pk=page.pk), user=staff, reason="test")
        with CaptureQueriesContext(connection) as restored:
            page_restore(page=Page.all_objects.get(pk=page.pk), user=staff)
        assert set(WikiLink.objects.filter(target_slug=slug).values_list("source_page__slug", flat=True)) == set()
        assert WikiLink.objects.filter(target_slug=f"{slug}-moved").count() == n
        return len(restored.captured_queries)

    assert queries(2, "few") == queries(12, "many")


def test_a_deleted_works_address_offers_to_search_for_it(client: Client, staff: Account) -> None:
    # a reader who followed an old link is told what to do next, not only that the work is gone
    source_delete(source=make_source(slug="gone-work", short_name="Gone Work"), user=staff, reason="Duplicate")

    response = client.get(reverse("wiki:source-detail", kwargs={"slug": "gone-work"}), HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 410
    assert f'<a href="{reverse("wiki:search")}?q=Gone%20Work">在本 wiki 中搜索“Gone Work”</a>' in response.content.decode()
