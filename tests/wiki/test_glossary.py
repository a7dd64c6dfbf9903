"""The bilingual glossary: loaded with the wiki, shown as a list and entries, extended by editors (form and admin)
with no name shared by two terms, and what term links on pages lead to."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from classifier.taxonomy import Fact, Mechanism, Verdict
from tests.factories import make_page
from tests.wiki.htmltext import html_text
from wiki.models import ChangeEvent, GlossaryTerm, Page
from wiki.roles import Account
from wiki.services.glossary import glossary_load, glossary_term_create, glossary_term_update
from wiki.services.seed import seed_load

pytestmark = pytest.mark.django_db

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


@pytest.fixture
def terms(editor: Account) -> list[GlossaryTerm]:
    """Four terms, one defined by a page that links to the others by their names."""
    created = [
        glossary_term_create(fields={"slug": "credit-assignment", "name_zh": "信用分配", "name_en": "credit assignment",
                                     "definition_zh": "把终局回报分给各步动作。"}, user=editor),
        glossary_term_create(fields={"slug": "belief-state", "name_zh": "信念状态", "name_en": "belief state"}, user=editor),
        glossary_term_create(fields={"slug": "evolution-strategies", "name_zh": "演化策略", "name_en": "evolution strategies",
                                     "aliases_en": ["ES"], "mechanism": "evolution_strategies"}, user=editor),
    ]
    page = make_page(slug="agentic-rl", title="Agentic RL", body=(
        "[[Policy Gradient|策略梯度]]、[[Credit Assignment|信用分配]] 与 [[Belief State|belief state]] 是 Agentic RL 的基本概念。"))
    created.append(glossary_term_create(fields={
        "slug": "policy-gradient", "name_zh": "策略梯度", "name_en": "policy gradient", "aliases_en": ["PG"],
        "definition_zh": "用 REINFORCE、PPO、GRPO 等按回报的梯度更新策略。", "mechanism": "policy_gradient", "page": page,
    }, user=editor))
    return created


def _form(**fields: str) -> dict[str, str]:
    data = {"slug": "", "name_zh": "", "name_en": "", "aliases_zh": "", "aliases_en": "", "definition_zh": "",
            "definition_en": "", "mechanism": "", "verdict": "", "fact": "", "page_slug": ""}
    return data | fields


def test_the_seed_glossary_names_every_taxonomy_label_and_the_key_terms(seed: None) -> None:
    assert GlossaryTerm.objects.count() >= 40
    assert {m.value for m in Mechanism} <= set(GlossaryTerm.objects.values_list("mechanism", flat=True))
    assert {v.value for v in Verdict} <= set(GlossaryTerm.objects.values_list("verdict", flat=True))
    assert {f.value for f in Fact} <= set(GlossaryTerm.objects.values_list("fact", flat=True))
    pg = GlossaryTerm.objects.get(slug="policy-gradient")
    assert {"策略梯度", "policy gradient", "PG"} <= set(pg.names)
    assert {"进化策略", "演化策略", "evolution strategies", "ES"} <= set(GlossaryTerm.objects.get(slug="evolution-strategies").names)
    assert GlossaryTerm.objects.get(name_zh="信用分配").name_en == "credit assignment"
    assert GlossaryTerm.objects.get(name_zh="奖励黑客").name_en == "reward hacking"
    assert pg.mechanism == "policy_gradient" and pg.page is not None and pg.page.slug == "agentic-rl"


def test_loading_the_wiki_again_writes_no_glossary_term(seed: None) -> None:
    stamps = dict(GlossaryTerm.objects.values_list("slug", "updated_at"))
    rows = json.loads((FIXTURES / "glossary.json").read_text(encoding="utf-8"))
    assert glossary_load(rows=rows) == 0
    seed_load(directory=FIXTURES)
    assert dict(GlossaryTerm.objects.values_list("slug", "updated_at")) == stamps


def test_a_fixture_giving_one_name_to_two_terms_is_refused_and_changes_nothing(seed: None) -> None:
    rows = [{"slug": "pg-again", "zh": "另一个", "en": "another", "aliases_en": ["pg"]}]
    with pytest.raises(ValidationError, match="policy gradient"):
        glossary_load(rows=rows)
    assert not GlossaryTerm.objects.filter(slug="pg-again").exists()


def test_every_wiki_link_on_the_seed_pages_leads_to_a_page_or_a_glossary_entry(seed: None) -> None:
    for page in Page.objects.filter(slug__in=["agentic-rl", "agentic-rl-survey-notes"]):
        assert "wikilink wanted" not in page.rendered_html, page.slug
    html = Page.objects.get(slug="agentic-rl").rendered_html
    assert re.search(r'<a class="wikilink term" href="/glossary/policy-gradient/"[^>]*>策略梯度</a>', html)
    assert re.search(r'<a class="wikilink term" href="/glossary/credit-assignment/"[^>]*>信用分配</a>', html)


@pytest.mark.usefixtures("terms")
def test_a_missing_page_named_by_a_term_redirects_to_its_entry(client: Client) -> None:
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": "policy-gradient"}))
    assert response.status_code == 302
    assert response["Location"] == reverse("wiki:glossary-detail", kwargs={"slug": "policy-gradient"})
    # by any of its names, as a link would slugify them
    response = client.get(reverse("wiki:page-detail", kwargs={"slug": "策略梯度"}))
    assert response["Location"] == reverse("wiki:glossary-detail", kwargs={"slug": "policy-gradient"})
    assert client.get(reverse("wiki:page-detail", kwargs={"slug": "no-such-term"})).status_code == 404


@pytest.mark.usefixtures("terms")
def test_a_page_written_for_a_term_takes_its_links_back(client: Client) -> None:
    make_page(slug="credit-assignment", title="Credit Assignment", body="信用分配。")
    html = Page.objects.get(slug="agentic-rl").rendered_html
    assert re.search(r'<a class="wikilink" href="/wiki/credit-assignment/"[^>]*>信用分配</a>', html)
    assert client.get(reverse("wiki:page-detail", kwargs={"slug": "credit-assignment"})).status_code == 200


@pytest.mark.usefixtures("terms")
def test_the_glossary_lists_every_term_in_both_languages(client: Client) -> None:
    content = client.get(reverse("wiki:glossary-list")).content.decode()
    for term in GlossaryTerm.objects.all():
        assert term.get_absolute_url() in content
    assert "策略梯度" in content and "policy gradient" in content and "PG" in content


@pytest.mark.usefixtures("terms")
def test_an_entry_shows_names_definition_taxonomy_and_who_links_to_it(client: Client) -> None:
    content = client.get(reverse("wiki:glossary-detail", kwargs={"slug": "policy-gradient"})).content.decode()
    assert "策略梯度" in content and "policy gradient" in content and "PG" in content
    assert "REINFORCE、PPO、GRPO" in content
    two = glossary_term_create(fields={"slug": "value-function", "name_zh": "价值函数", "name_en": "value function",
                                       "aliases_en": ["V", "critic"]}, user=None)
    english = client.get(two.get_absolute_url(), headers={"accept-language": "en"}).content.decode()
    chinese = client.get(two.get_absolute_url(), headers={"accept-language": "zh-CN"}).content.decode()
    assert re.search(r'<strong>Also called: </strong><span lang="\w+">V</span>, <span lang="\w+">critic</span>', english)
    assert re.search(r'<strong>又称：</strong><span lang="\w+">V</span>、<span lang="\w+">critic</span>', chinese)
    assert '<p class="page-meta">' not in english and "—" not in html_text(english.split("<h1", 1)[1].split("</header>", 1)[0])
    assert f'{reverse("wiki:source-list")}?mechanism=policy_gradient' in content
    assert 'href="/wiki/agentic-rl/"' in content
    assert client.get(reverse("wiki:glossary-detail", kwargs={"slug": "nothing"})).status_code == 404


def test_an_editor_adds_a_term_and_a_wanted_link_now_leads_to_it(editor_client: Client) -> None:
    make_page(slug="tools", title="Tools", body="See [[Tool Routing]].")
    assert "wikilink wanted" in Page.objects.get(slug="tools").rendered_html

    response = editor_client.post(reverse("wiki:glossary-create"), _form(
        slug="tool-routing", name_zh="工具路由", name_en="tool routing", aliases_zh="工具选择、路由",
        aliases_en="tool router\nrouting", definition_zh="选择调用哪个工具。", page_slug="Tools",
    ))

    term = GlossaryTerm.objects.get(slug="tool-routing")
    assert response.status_code == 302 and response["Location"] == term.get_absolute_url()
    assert term.aliases_zh == ["工具选择", "路由"] and term.aliases_en == ["tool router", "routing"]
    assert term.page is not None and term.page.slug == "tools"
    assert '<a class="wikilink term" href="/glossary/tool-routing/"' in Page.objects.get(slug="tools").rendered_html
    assert ChangeEvent.objects.filter(kind=ChangeEvent.Kind.GLOSSARY, object_id=term.pk).exists()
    wanted = editor_client.get(reverse("wiki:wanted-pages")).content.decode()
    assert "tool-routing" not in wanted and "Tool Routing" not in wanted


def test_a_terms_defining_page_is_typed_as_its_title_even_one_its_slug_was_not_made_from(editor_client: Client) -> None:
    make_page(slug="survey-notes", title="Agentic AI 03: Survey Notes")

    response = editor_client.post(reverse("wiki:glossary-create"), _form(
        slug="rollout", name_zh="轨迹采样", name_en="rollout", page_slug="agentic ai 03: survey notes"))
    unknown = editor_client.post(reverse("wiki:glossary-create"), _form(
        slug="rollout-2", name_zh="轨迹采样二", name_en="rollout two", page_slug="Survey"))

    assert response.status_code == 302 and GlossaryTerm.objects.get(slug="rollout").page.slug == "survey-notes"  # type: ignore[union-attr]
    assert unknown.status_code == 200 and "There is no page “Survey”." in unknown.content.decode()
    assert not GlossaryTerm.objects.filter(slug="rollout-2").exists()


def test_a_term_added_without_an_address_takes_it_from_its_english_or_chinese_name(editor_client: Client) -> None:
    url = reverse("wiki:glossary-create")

    english = editor_client.post(url, _form(slug="", name_zh="信用分配", name_en="Credit Assignment"))
    again = editor_client.post(url, _form(slug="", name_zh="信用分配问题", name_en="credit assignment!"))
    chinese = editor_client.post(url, _form(slug="", name_zh="奖励塑形", name_en="—"))
    nothing = editor_client.post(url, _form(slug="", name_zh="？", name_en="!"))

    assert (english.status_code, again.status_code, chinese.status_code) == (302, 302, 302)
    assert GlossaryTerm.objects.get(name_zh="信用分配").slug == "credit-assignment"
    assert GlossaryTerm.objects.get(name_zh="信用分配问题").slug == "credit-assignment-2"
    assert GlossaryTerm.objects.get(name_zh="奖励塑形").slug == "jiang-li-su-xing"
    assert nothing.status_code == 200
    assert [e.code for e in nothing.context["form"].errors.as_data()["slug"]] == ["required"]
    assert not GlossaryTerm.objects.filter(name_zh="？").exists()


@pytest.mark.parametrize("typed", ["-", "__", "_-"])
def test_an_address_of_hyphens_and_underscores_alone_is_refused(editor_client: Client, typed: str) -> None:
    response = editor_client.post(reverse("wiki:glossary-create"), _form(slug=typed, name_zh="信用分配", name_en="credit assignment"))

    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["slug"]] == ["invalid_slug"]
    assert "at least one letter or digit" in str(response.context["form"].errors["slug"])
    assert not GlossaryTerm.objects.exists()


@pytest.mark.usefixtures("terms")
def test_a_name_another_term_has_is_refused_on_its_field_and_nothing_is_saved(editor_client: Client) -> None:
    response = editor_client.post(reverse("wiki:glossary-create"), _form(
        slug="pg-2", name_zh="策略梯度 2", name_en="pg again", aliases_en="ｐｇ, Policy  Gradient"))

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert [e.code for e in errors.as_data()["aliases_en"]] == ["name_taken", "name_taken"]
    assert "policy gradient" in str(errors["aliases_en"])
    assert not GlossaryTerm.objects.filter(slug="pg-2").exists()


@pytest.mark.usefixtures("terms")
def test_the_service_checks_names_too(editor: Account) -> None:
    with pytest.raises(ValidationError) as raised:
        glossary_term_create(fields={"slug": "es-2", "name_zh": "演化策略", "name_en": "es two"}, user=editor)
    assert raised.value.error_dict["name_zh"][0].code == "name_taken"


@pytest.mark.usefixtures("terms")
def test_editing_keeps_the_terms_own_names_and_refuses_a_stale_form(editor_client: Client) -> None:
    term = GlossaryTerm.objects.get(slug="credit-assignment")
    url = reverse("wiki:glossary-edit", kwargs={"slug": term.slug})
    stamp = term.updated_at.isoformat()
    form = _form(name_zh="信用分配", name_en="credit assignment", aliases_zh="信用分配问题\n归因",
                 aliases_en="credit-assignment problem", definition_en="Which step deserves the credit.", loaded_at=stamp)

    assert editor_client.post(url, form).status_code == 302
    term.refresh_from_db()
    assert term.aliases_zh == ["信用分配问题", "归因"] and term.slug == "credit-assignment"

    stale = editor_client.post(url, form | {"definition_en": "Lost?"})
    assert stale.status_code == 409
    term.refresh_from_db()
    assert term.definition_en == "Which step deserves the credit."


@pytest.mark.usefixtures("terms")
def test_a_stale_form_sent_again_keeps_the_aliases_and_definition_saved_meanwhile(editor_client: Client, editor: Account) -> None:
    term = GlossaryTerm.objects.get(slug="credit-assignment")
    url = reverse("wiki:glossary-edit", kwargs={"slug": term.slug})
    opened = editor_client.get(url).context["form"]
    shown = {name: opened[name].value() for name in opened.fields if not opened.fields[name].disabled}
    sent = _form(**{name: "" if value is None else str(value) for name, value in shown.items()})
    glossary_term_update(term=term, fields={"aliases_en": ["CA"], "definition_zh": "哪一步应得到回报。"}, user=editor)

    refused = editor_client.post(url, sent | {"definition_en": "Which step deserves the credit."})
    assert refused.status_code == 409
    assert editor_client.post(url, refused.context["form"].data).status_code == 302
    term.refresh_from_db()
    assert (term.aliases_en, term.definition_zh, term.definition_en) == (
        ["CA"], "哪一步应得到回报。", "Which step deserves the credit.")


def test_readers_cannot_add_terms(client: Client) -> None:
    reader = get_user_model().objects.create_user(username="r", password="pw-pw-pw-pw")
    client.force_login(reader)
    assert client.get(reverse("wiki:glossary-create")).status_code == 403


@pytest.mark.usefixtures("terms")
def test_renaming_a_term_releases_its_old_links(editor: Account) -> None:
    term = GlossaryTerm.objects.get(slug="belief-state")
    glossary_term_update(term=term, fields={"name_en": "belief", "aliases_en": []}, user=editor)
    html = Page.objects.get(slug="agentic-rl").rendered_html
    # [[Belief State|belief state]] still names the term by its slug
    assert re.search(r'<a class="wikilink term" href="/glossary/belief-state/"[^>]*>belief state</a>', html)


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-pw-pw-pw"))
    return client


@pytest.mark.usefixtures("terms")
def test_the_admin_adds_terms_through_the_same_checks(admin_client: Client) -> None:
    url = reverse("admin:wiki_glossaryterm_add")
    refused = admin_client.post(url, _form(slug="x-pg", name_zh="某", name_en="some", aliases_en="PG"))
    assert refused.status_code == 200 and not GlossaryTerm.objects.filter(slug="x-pg").exists()
    assert "policy gradient" in refused.content.decode()

    added = admin_client.post(url, _form(slug="kl-penalty", name_zh="KL 惩罚", name_en="KL penalty", aliases_en="KL"))
    assert added.status_code == 302
    assert GlossaryTerm.objects.get(slug="kl-penalty").name_keys == ["kl 惩罚", "kl penalty", "kl"]
    term = GlossaryTerm.objects.get(slug="kl-penalty")
    assert admin_client.get(reverse("admin:wiki_glossaryterm_change", args=[term.pk])).status_code == 200


@pytest.mark.usefixtures("terms")
def test_a_deleted_defining_page_is_neither_shown_nor_counted_as_linking(client: Client, editor: Account) -> None:
    from wiki.services.deletion import page_delete

    make_page(slug="ca-notes", title="Credit notes", body="See [[Credit Assignment]].")
    term = GlossaryTerm.objects.get(slug="credit-assignment")
    glossary_term_update(term=term, fields={"page": Page.objects.get(slug="ca-notes")}, user=editor)
    url = reverse("wiki:glossary-detail", kwargs={"slug": "credit-assignment"})
    assert 'href="/wiki/ca-notes/"' in client.get(url).content.decode()

    page_delete(page=Page.objects.get(slug="ca-notes"), user=editor, reason="Merged into the survey notes.")

    assert 'href="/wiki/ca-notes/"' not in client.get(url).content.decode()


@pytest.mark.usefixtures("terms")
def test_the_api_lists_and_reads_terms(client: Client) -> None:
    listed = client.get("/api/v1/glossary/", {"page_size": 100}).json()
    by_slug = {term["slug"]: term for term in listed["results"]}
    assert len(by_slug) == GlossaryTerm.objects.count()
    pg = client.get("/api/v1/glossary/policy-gradient/").json()
    assert pg == by_slug["policy-gradient"]
    assert (pg["name_zh"], pg["name_en"], pg["mechanism"], pg["page"], pg["url"]) == (
        "策略梯度", "policy gradient", "policy_gradient", "agentic-rl", "/glossary/policy-gradient/")
    assert "PG" in pg["aliases_en"]
    assert client.get("/api/v1/glossary/nothing/").status_code == 404
    assert client.post("/api/v1/glossary/", {"slug": "x"}).status_code in (401, 403, 405)


def test_every_mechanism_and_verdict_label_in_either_language_is_a_name_of_its_term(seed: None) -> None:
    from django.utils import translation

    from wiki.models.glossary import name_key
    from wiki.taxonomy import mechanism_label, verdict_label

    for language in ("zh-hans", "en"):
        with translation.override(language):
            for mechanism in Mechanism:
                names = {name_key(n) for t in GlossaryTerm.objects.filter(mechanism=mechanism.value) for n in t.names}
                assert name_key(mechanism_label(mechanism)) in names, (language, mechanism)
            for verdict in Verdict:
                names = {name_key(n) for t in GlossaryTerm.objects.filter(verdict=verdict.value) for n in t.names}
                assert name_key(verdict_label(verdict)) in names, (language, verdict)


@pytest.mark.usefixtures("terms")
def test_a_term_deleted_in_the_admin_leaves_its_links_wanted_not_broken(admin_client: Client) -> None:
    term = GlossaryTerm.objects.get(slug="belief-state")
    response = admin_client.post(reverse("admin:wiki_glossaryterm_delete", args=[term.pk]), {"post": "yes"})

    assert response.status_code == 302 and not GlossaryTerm.objects.filter(slug="belief-state").exists()
    html = Page.objects.get(slug="agentic-rl").rendered_html
    assert "/glossary/belief-state/" not in html
    assert '<a class="wikilink wanted" href="/wiki/belief-state/"' in html
    assert ChangeEvent.objects.filter(kind=ChangeEvent.Kind.GLOSSARY, action=ChangeEvent.Action.DELETED).exists()


def test_the_glossary_is_listed_by_english_name_whatever_the_case_in_the_browser_the_api_and_the_admin(
    client: Client, admin_client: Client,
) -> None:
    names = ["ReAct", "actor-critic", "REINFORCE", "adjacent", "Zeta", "beta"]
    for n, name in enumerate(names):
        GlossaryTerm.objects.create(slug=f"order-{n}", name_zh=f"顺序{n}", name_en=name)
    expected = sorted(names, key=str.lower)

    def order(content: str, mark: str = "order-{n}/") -> list[str]:
        found = {name: content.find(mark.format(n=n)) for n, name in enumerate(names)}
        assert all(position >= 0 for position in found.values())
        return sorted(found, key=found.__getitem__)

    api = client.get("/api/v1/glossary/", {"page_size": 100}).json()["results"]

    assert [term["name_en"] for term in api if term["slug"].startswith("order-")] == expected
    assert order(client.get(reverse("wiki:glossary-list")).content.decode()) == expected
    assert [t.name_en for t in GlossaryTerm.objects.filter(slug__startswith="order-")] == expected
    assert order(admin_client.get(reverse("admin:wiki_glossaryterm_changelist")).content.decode(), "顺序{n} / ") == expected


def test_the_list_separates_a_term_s_other_names_as_each_language_does(client: Client) -> None:
    glossary_term_create(fields={"slug": "value-function", "name_zh": "价值函数", "name_en": "value function",
                                 "aliases_en": ["V", "critic"]}, user=None)

    english = client.get(reverse("wiki:glossary-list"), headers={"accept-language": "en"}).content.decode()
    chinese = client.get(reverse("wiki:glossary-list"), headers={"accept-language": "zh-CN"}).content.decode()

    assert re.search(r'<span lang="\w+">V</span>, <span lang="\w+">critic</span>', english)
    assert re.search(r'<span lang="\w+">V</span>、<span lang="\w+">critic</span>', chinese)


def test_the_glossary_is_in_pinyin_order_for_chinese_readers_and_in_english_order_for_others(client: Client) -> None:
    for slug, zh, en in (("advantage", "优势函数", "Advantage function"), ("policy-gradient-t", "策略梯度", "Policy gradient"),
                         ("actor-critic-t", "演员-评论家", "Actor-critic"), ("environment-t", "环境", "Environment")):
        glossary_term_create(fields={"slug": slug, "name_zh": zh, "name_en": en}, user=None)

    def order(language: str, names: str) -> list[str]:
        html = client.get(reverse("wiki:glossary-list"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        return sorted(names.split(), key=html.index)

    assert order("zh-Hans", "优势函数 策略梯度 演员-评论家 环境") == ["策略梯度", "环境", "演员-评论家", "优势函数"]
    assert order("en", "Advantage Policy Actor-critic Environment") == ["Actor-critic", "Advantage", "Environment", "Policy"]
    assert GlossaryTerm.objects.get(slug="environment-t").name_zh_sort.startswith("huan2 jing4")
