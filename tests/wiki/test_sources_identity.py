"""A work is one work: found by the identifier its URL names, by its short name, on restore; its identifiers, key and
slug are ones the wiki can use."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import make_editor, make_source, make_staff
from wiki.models import Source
from wiki.references.draft import SourceDraft
from wiki.references.identifiers import find_arxiv_id, identifiers_from_url, normalize_arxiv_id
from wiki.roles import Account
from wiki.services.deletion import SourceRestoreClash, source_delete, source_restore
from wiki.services.sources import SourceNameTaken, source_create, source_update

pytestmark = pytest.mark.django_db

ADD = reverse("wiki:source-create")


def _add(client: Client, **fields: str) -> tuple[int, str]:
    response = client.post(ADD, {"kind": "paper", "save": "1", **fields})
    return response.status_code, response.content.decode()


@pytest.fixture
def webarena() -> Source:
    return make_source(slug="webarena", short_name="WebArena", title="WebArena: A Realistic Web Environment",
                       arxiv_id="2307.13854", doi="10.1145/abc.def")


@pytest.mark.parametrize("url", ["https://arxiv.org/abs/2307.13854", "https://arxiv.org/pdf/2307.13854v3.pdf",
                                 "https://doi.org/10.1145/abc.def", "https://doi.org/10.48550/arXiv.2307.13854"])
def test_the_hand_form_finds_the_work_its_url_names(editor_client: Client, webarena: Source, url: str) -> None:
    count = Source.all_objects.count()

    status, html = _add(editor_client, short_name="Case9", title="A title of its own", url=url)

    assert status == 200 and "This source exists already (same" in html
    assert f'href="{webarena.get_absolute_url()}"' in html
    assert Source.all_objects.count() == count


def test_the_identifier_a_url_names_is_saved_with_the_work(editor_client: Client) -> None:
    _add(editor_client, short_name="Fresh", title="Fresh: A Work", url="https://arxiv.org/abs/2401.01234v2")
    _add(editor_client, short_name="Printed", title="Printed: A Work", url="https://dx.doi.org/10.9999/Printed")

    assert Source.objects.get(short_name="Fresh").arxiv_id == "2401.01234"
    assert Source.objects.get(short_name="Printed").doi == "10.9999/printed"
    assert identifiers_from_url("https://example.org/10.1145/abc") == ("", "")


def test_an_edit_to_a_url_naming_another_work_is_refused(editor_client: Client, webarena: Source) -> None:
    other = make_source(slug="other", short_name="Other", title="Other: A Work")
    data = {"short_name": "Other", "title": other.title, "kind": "paper", "url": "https://arxiv.org/abs/2307.13854"}

    response = editor_client.post(reverse("wiki:source-edit", kwargs={"slug": "other"}), data)

    assert response.status_code == 200 and response.context["duplicate"] == webarena
    other.refresh_from_db()
    assert other.url == "" and other.arxiv_id == ""


@pytest.mark.parametrize("name", ["WebArena", "webarena", "WEBARENA ", "ＷｅｂＡｒｅｎａ"])
def test_a_second_work_cannot_take_a_short_name(editor_client: Client, webarena: Source, name: str) -> None:
    count = Source.all_objects.count()

    status, html = _add(editor_client, short_name=name, title="Another Benchmark Entirely")

    assert status == 200
    assert "Another work is called “WebArena” already" in html
    assert f'<a href="{webarena.get_absolute_url()}">WebArena</a>' in html
    assert Source.all_objects.count() == count


def test_renaming_a_work_to_a_taken_short_name_is_refused_and_its_own_name_is_kept(editor_client: Client, webarena: Source) -> None:
    other = make_source(slug="other", short_name="Other", title="Other: A Work")
    edit = reverse("wiki:source-edit", kwargs={"slug": "other"})

    refused = editor_client.post(edit, {"short_name": "WEBARENA!", "title": other.title, "kind": "paper"})
    kept = editor_client.post(edit, {"short_name": "other", "title": other.title, "kind": "paper", "year": "2024"})

    assert refused.status_code == 200 and refused.context["name_taken"] == webarena
    assert kept.status_code == 302
    other.refresh_from_db()
    assert other.short_name == "other" and other.year == 2024


def test_the_service_and_the_api_refuse_a_taken_short_name_as_a_duplicate(webarena: Source, editor: Account) -> None:
    other = make_source(slug="other", short_name="Other", title="Other: A Work")
    with pytest.raises(SourceNameTaken) as taken:
        source_create(draft=SourceDraft(short_name="webArena", title="Something Else"), user=editor)
    assert taken.value.source == webarena
    with pytest.raises(SourceNameTaken):
        source_update(source=other, fields={"short_name": "WebArena"}, user=editor)
    api = APIClient()
    api.force_authenticate(make_editor("scripted"))

    response = api.post("/api/v1/sources/", {"short_name": "WebArena", "title": "Something Else"}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "duplicate" and response.json()["existing"] == "webarena"


def test_a_short_name_made_from_the_title_avoids_a_taken_one(webarena: Source, editor: Account) -> None:
    source = source_create(draft=SourceDraft(title="WebArena: Revisited by Others"), user=editor)

    assert source.short_name == "WebArena: Revisited by Others"


@pytest.fixture
def staff_client(client: Client) -> Client:
    client.force_login(make_staff())
    return client


def test_restoring_a_work_added_again_meanwhile_is_refused_and_offers_the_merge(staff_client: Client, editor: Account) -> None:
    old = make_source(slug="case18", short_name="Case18", title="Unique title number 18 zz")
    source_delete(source=old, user=editor, reason="Added by mistake")
    live = source_create(draft=SourceDraft(short_name="Case18 again", title="Unique title number 18 zz"), user=editor)
    restore = reverse("wiki:source-restore", kwargs={"slug": "case18"})

    refused = staff_client.post(restore)

    html = refused.content.decode()
    assert refused.status_code == 409
    assert f'<a href="{live.get_absolute_url()}">Case18 again</a>' in html and "merged into" in html
    assert f'name="merge_into" value="{live.slug}"' in html
    assert Source.all_objects.get(pk=old.pk).is_deleted

    merged = staff_client.post(restore, {"merge_into": live.slug})

    assert merged.status_code == 302 and merged["Location"] == live.get_absolute_url()
    assert Source.all_objects.get(pk=old.pk).merged_into == live
    assert Client().get("/sources/case18/")["Location"] == live.get_absolute_url()


def test_restoring_is_refused_when_a_live_work_has_the_short_name(editor: Account) -> None:
    old = make_source(slug="case19", short_name="Case19", title="A first title")
    source_delete(source=old, user=editor, reason="Added by mistake")
    live = make_source(slug="case19-2", short_name="case19", title="A second title")

    with pytest.raises(SourceRestoreClash) as clash:
        source_restore(source=old, user=editor)

    assert clash.value.live == live and "Case19" in clash.value.messages[0]
    assert Source.all_objects.get(pk=old.pk).is_deleted
    source_update(source=live, fields={"short_name": "Case19 (second)"}, user=editor)

    assert not source_restore(source=old, user=editor).is_deleted


def _yymm(when: datetime) -> str:
    return f"{when.year % 100:02d}{when.month:02d}"


def test_an_arxiv_id_of_a_month_not_yet_begun_or_before_new_style_ids_is_refused(editor_client: Client) -> None:
    later = _yymm(datetime.now(UTC) + timedelta(days=62))
    assert normalize_arxiv_id(f"{later}.00001") is None
    assert normalize_arxiv_id("9912.99999") is None and normalize_arxiv_id("0612.00001") is None
    assert normalize_arxiv_id("cs/0801001") is None and normalize_arxiv_id("cs/9912001") == "cs/9912001"
    assert normalize_arxiv_id(f"{_yymm(datetime.now(UTC))}.00001") is not None
    assert find_arxiv_id("arXiv preprint arXiv:9912.99999, see arXiv:2307.13854") == "2307.13854"

    status, html = _add(editor_client, short_name="Case13", title="Case 13", arxiv_id="9912.99999")

    assert status == 200 and "is not an arXiv ID" in html
    assert not Source.objects.filter(short_name="Case13").exists()


def test_a_bibtex_key_the_exports_cannot_use_is_refused(editor_client: Client, editor: Account) -> None:
    status, html = _add(editor_client, short_name="Keyed", title="Keyed", bibtex_key="a b{c}")
    assert status == 200 and "cannot be a BibTeX key" in html and not Source.objects.filter(short_name="Keyed").exists()

    _add(editor_client, short_name="Keyed", title="Keyed", bibtex_key="yao2023:react-v2.1/x")
    source = Source.objects.get(short_name="Keyed")
    assert source.bibtex_key == "yao2023:react-v2.1/x"
    with pytest.raises(ValidationError) as refused:
        source_update(source=source, fields={"bibtex_key": "{oops}"}, user=editor)
    assert refused.value.error_dict["bibtex_key"][0].code == "invalid_bibtex_key"
    api = APIClient()
    api.force_authenticate(editor)
    response = api.post("/api/v1/sources/", {"title": "Via the API", "bibtex_key": "has space"}, format="json")
    assert response.status_code == 400 and "bibtex_key" in response.json()["errors"]


@pytest.mark.parametrize(("fields", "slug"), [
    ({"short_name": "中文名字", "title": "Agentic Reinforcement Learning: A Survey of Its Methods"},
     "agentic-reinforcement-learning-a-survey-of-its-methods"),
    ({"short_name": "通义深度研究", "title": "通义深度研究：面向长程任务的智能体", "arxiv_id": "2401.01234"},
     "tong-yi-shen-du-yan-jiu"),
    ({"short_name": "🙂🙂", "title": "智能体强化学习", "arxiv_id": "2401.01234"}, "zhi-neng-ti-qiang-hua-xue-xi"),
    ({"short_name": "？？", "title": "只有中文"}, "zhi-you-zhong-wen"),
    ({"short_name": "🙂🙂", "title": "🙂", "arxiv_id": "2401.01234"}, "arxiv-2401-01234"),
    ({"short_name": "!!!", "title": "？", "doi": "10.1145/ABC.def"}, "doi-10-1145-abc-def"),
    ({"short_name": "？？", "title": "🙂"}, "source"),
    ({"short_name": "MiMo-V2.6", "title": "中文"}, "mimo-v2-6"),
])
def test_a_short_name_without_ascii_takes_its_slug_from_the_title_its_pinyin_or_an_identifier(
        editor: Account, fields: dict[str, str], slug: str) -> None:
    assert source_create(draft=SourceDraft(**fields), user=editor).slug == slug  # type: ignore[arg-type]


def test_a_long_title_gives_a_slug_cut_at_a_word_and_a_slug_never_changes(editor: Account) -> None:
    title = "Learning to Act in Long Horizons with Verifiable Rewards and Tools for Many Agents at Once"
    source = source_create(draft=SourceDraft(short_name="长程", title=title), user=editor)
    assert source.slug == "learning-to-act-in-long-horizons-with-verifiable-rewards-and"
    second = source_create(draft=SourceDraft(short_name="无名", title="只有中文"), user=editor)
    third = source_create(draft=SourceDraft(short_name="無名", title="也只有中文"), user=editor)
    assert (second.slug, third.slug) == ("wu-ming", "wu-ming-2")

    renamed = source_update(source=source, fields={"short_name": "Horizons"}, user=editor)

    assert renamed.slug == source.slug
