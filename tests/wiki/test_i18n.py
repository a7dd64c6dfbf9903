"""The interface in Chinese first and English beside it, times in the reader's zone, sizes in characters."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from config import settings as production
from tests.factories import make_editor, make_page
from wiki.models import ReaderProfile, Revision
from wiki.services.pages import page_save_revision

pytestmark = pytest.mark.django_db


@pytest.fixture
def wiki_defaults(settings):  # type: ignore[no-untyped-def]
    """The wiki's own defaults (the test suite otherwise reads the English interface)."""
    settings.LANGUAGE_CODE = production.LANGUAGE_CODE
    settings.TIME_ZONE = production.TIME_ZONE
    return settings


def _html(response) -> str:  # type: ignore[no-untyped-def]
    return str(response.content.decode())


def test_the_wiki_defaults_to_chinese_and_shanghai_time() -> None:
    assert production.LANGUAGE_CODE == "zh-hans"
    assert production.TIME_ZONE == "Asia/Shanghai"
    assert [code for code, _ in production.LANGUAGES] == ["zh-hans", "en"]


def test_a_browser_asking_for_nothing_reads_chinese(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    response = Client().get(reverse("wiki:home"))
    html = _html(response)
    assert response["Content-Language"] == "zh-hans"
    assert '<html lang="zh-Hans">' in html
    assert ">登录<" in html and ">来源<" in html
    assert ">Log in<" not in html and ">Sources<" not in html


def test_accept_language_chooses_english_and_chinese(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    english = Client(headers={"accept-language": "en-GB,en;q=0.9"}).get(reverse("wiki:home"))
    assert '<html lang="en">' in _html(english) and ">Log in<" in _html(english)
    chinese = Client(headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.5"}).get(reverse("wiki:home"))
    assert '<html lang="zh-Hans">' in _html(chinese) and ">登录<" in _html(chinese)


def test_the_switch_in_the_header_keeps_the_choice_in_a_cookie(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    client = Client(enforce_csrf_checks=True)
    home = _html(client.get(reverse("wiki:home")))
    assert 'name="language" value="en"' in home and f'action="{reverse("wiki:set-language")}"' in home
    response = client.post(reverse("wiki:set-language"), {"language": "en", "next": reverse("wiki:source-list")})
    assert response.status_code == 302 and response["Location"] == reverse("wiki:source-list") + "#switch-language"
    assert response.cookies[production.LANGUAGE_COOKIE_NAME].value == "en"
    html = _html(client.get(reverse("wiki:source-list"), headers={"accept-language": "zh-CN"}))
    assert '<html lang="en">' in html and ">Sources<" in html
    assert 'name="language" value="zh-hans"' in html  # the switch now offers Chinese back


def test_the_switch_comes_back_to_itself_or_to_the_readers_place_in_the_page(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    """Without a fragment, the page the switch returns to is at its button (the browser focuses it: a keyboard reader
    goes on from the header, not from the top of the page); the place in the page a fragment names is kept."""
    client = Client()
    response = client.post(reverse("wiki:set-language"), {"language": "en", "next": reverse("wiki:question-list")})
    address, fragment = response["Location"].split("#")
    assert address == reverse("wiki:question-list")
    assert f'id="{fragment}"' in re.search(r'<form [^>]*class="inline-form language-switch".*?</form>',
                                           _html(client.get(address)), re.S)[0]  # type: ignore[index]
    kept = client.post(reverse("wiki:set-language"), {"language": "zh-hans", "next": "/wiki/agentic-rl/#claim-3e6bf01357"})
    assert kept["Location"] == "/wiki/agentic-rl/#claim-3e6bf01357"


def test_anonymous_pages_hold_no_csrf_token_and_stay_cached(wiki_defaults, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    first = client.get(reverse("wiki:home"))
    assert "csrfmiddlewaretoken" not in _html(first) and not first.cookies
    with django_assert_num_queries(0):
        again = client.get(reverse("wiki:home"))
    assert again.content == first.content


def test_the_cache_keeps_each_language_and_time_zone_apart(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    url = reverse("wiki:home")
    chinese = Client().get(url)
    english = Client(headers={"accept-language": "en"}).get(url)
    assert ">登录<" in _html(chinese) and ">Log in<" in _html(english)
    assert chinese["ETag"] != english["ETag"]
    assert "Accept-Language" in chinese["Vary"] and "Cookie" in chinese["Vary"]
    paris = Client()
    paris.cookies[production.TIME_ZONE_COOKIE_NAME] = "Europe/Paris"
    in_paris = paris.get(url)
    assert "Europe/Paris" in _html(in_paris) and in_paris["ETag"] != chinese["ETag"]
    assert "Asia/Shanghai" in _html(Client().get(url))


def test_a_logged_in_readers_choice_is_kept_in_the_profile_and_comes_back_at_login(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    editor = make_editor("lang-editor")
    client = Client()
    assert client.login(username="lang-editor", password="correct horse battery")
    assert ">退出登录<" in _html(client.get(reverse("wiki:home")))
    client.post(reverse("wiki:set-language"), {"language": "en", "next": "/"})
    assert ReaderProfile.objects.get(user=editor).language == "en"
    # Another browser, whose language says Chinese: the profile wins once logged in.
    other = Client(headers={"accept-language": "zh-CN"})
    assert ">登录<" in _html(other.get(reverse("wiki:home")))
    assert other.login(username="lang-editor", password="correct horse battery")
    assert ">Log out<" in _html(other.get(reverse("wiki:home")))


def test_a_logged_in_switch_needs_its_csrf_token(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    editor = make_editor()
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    assert client.post(reverse("wiki:set-language"), {"language": "en", "next": "/"}).status_code == 403
    assert not ReaderProfile.objects.filter(user=editor).exists()
    home = _html(client.get(reverse("wiki:home")))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', home)
    assert token is not None
    response = client.post(reverse("wiki:set-language"), {"language": "en", "next": "/", "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302 and ReaderProfile.objects.get(user=editor).language == "en"


def test_times_are_shown_in_shanghai_time_with_the_zone_and_machine_readable_markup(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    page = make_page(slug="timed", title="Timed", body="Text.")
    created = Revision.objects.get(page=page).created_at
    html = _html(Client().get(reverse("wiki:page-history", kwargs={"slug": "timed"})))
    utc = created.astimezone(__import__("datetime").UTC)
    shanghai = created.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Shanghai"))
    assert f'<time datetime="{utc.strftime("%Y-%m-%dT%H:%M:%S")}Z" title="Asia/Shanghai">{shanghai:%Y-%m-%d %H:%M} UTC+8</time>' in html
    assert "时间按 Asia/Shanghai（UTC+8）显示" in html


def test_a_reader_chooses_a_time_zone_kept_in_a_cookie_and_in_the_profile(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    editor = make_editor()
    client = Client()
    client.force_login(editor)
    assert 'value="America/New_York"' in _html(client.get(reverse("wiki:preferences")))
    response = client.post(reverse("wiki:preferences"), {"language": "zh-hans", "time_zone": "America/New_York"})
    assert response.status_code == 302
    assert response.cookies[production.TIME_ZONE_COOKIE_NAME].value == "America/New_York"
    profile = ReaderProfile.objects.get(user=editor)
    assert (profile.language, profile.time_zone) == ("zh-hans", "America/New_York")
    assert "时间按 America/New_York" in _html(client.get(reverse("wiki:home")))
    assert client.post(reverse("wiki:preferences"), {"language": "zh-hans", "time_zone": "Mars/Olympus"}).status_code == 200


def test_the_time_zones_are_named_by_their_place_in_the_readers_language(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(make_editor())
    chinese = _html(client.get(reverse("wiki:preferences"), headers={"accept-language": "zh-Hans"}))
    english = _html(client.get(reverse("wiki:preferences"), headers={"accept-language": "en"}))

    assert re.search(r'value="Asia/Shanghai"[^>]*>中国（上海）时间（Asia/Shanghai，UTC\+08:00）<', chinese)
    assert re.search(r'value="Asia/Shanghai"[^>]*>China \(Shanghai\) Time \(Asia/Shanghai, UTC\+08:00\)<', english)
    # a zone naming no place keeps its own name
    assert re.search(r'value="UTC"[^>]*>UTC（UTC\+00:00）<', chinese)


def _zone_select(html: str) -> str:
    start = html.index('name="time_zone"')
    return html[start:html.index("</select>", start)]


def test_the_zones_offered_are_the_current_ones_grouped_by_region(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    """Old names kept for compatibility and the Etc/ zones are traps in a long list: PRC or Etc/GMT+8 (eight hours
    behind UTC) are easily picked for Beijing."""
    select = _zone_select(_html(Client().get(reverse("wiki:preferences"))))
    offered = set(re.findall(r'<option value="([^"]*)"', select))
    assert not offered & {"PRC", "ROC", "Cuba", "Eire", "Etc/GMT+8", "Etc/UTC", "US/Eastern", "Asia/Calcutta", "Europe/Kiev", "GMT"}
    assert {"UTC", "Asia/Shanghai", "Asia/Taipei", "America/Havana", "Europe/Dublin", "Asia/Kolkata", "Europe/Kyiv"} <= offered
    assert re.search(r'<optgroup label="亚洲">(?:(?!</optgroup>).)*value="Asia/Shanghai"', select, re.DOTALL)
    assert re.search(r'<optgroup label="美洲">(?:(?!</optgroup>).)*value="America/Havana"', select, re.DOTALL)
    assert select.index('value="UTC"') < select.index("<optgroup")


def test_a_reader_who_chose_an_old_zone_name_keeps_it(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    editor = make_editor()
    ReaderProfile.objects.create(user=editor, time_zone="PRC")
    client = Client()
    client.force_login(editor)
    assert '<option value="PRC" selected>' in _zone_select(_html(client.get(reverse("wiki:preferences"))))
    assert client.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "PRC"}).status_code == 302
    assert ReaderProfile.objects.get(user=editor).time_zone == "PRC"

    # a reader kept by a cookie alone keeps it too
    anonymous = Client()
    anonymous.cookies[production.TIME_ZONE_COOKIE_NAME] = "Etc/GMT+8"
    assert '<option value="Etc/GMT+8" selected>' in _zone_select(_html(anonymous.get(reverse("wiki:preferences"))))

    # another reader is not offered it
    other = Client()
    other.force_login(make_editor())
    assert 'value="PRC"' not in _zone_select(_html(other.get(reverse("wiki:preferences"))))
    assert other.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "PRC"}).status_code == 200


def test_history_sizes_count_characters_not_bytes(client) -> None:  # type: ignore[no-untyped-def]
    make_page(slug="sized", title="Sized", body="策略梯度")
    page_save_revision(slug="sized", title="Sized", body="策略梯度与进化策略", base_revision=1)
    assert list(Revision.objects.filter(page__slug="sized").order_by("number").values_list("size", "size_delta")) == [(4, 4), (9, 5)]
    html = _html(client.get(reverse("wiki:page-history", kwargs={"slug": "sized"})))
    assert "9 characters (+5)" in html and " B (" not in html


def test_history_sizes_are_grouped_as_the_readers_language_groups_numbers(client) -> None:  # type: ignore[no-untyped-def]
    make_page(slug="long", title="Long", body="策" * 12047)

    english = _html(client.get(reverse("wiki:page-history", kwargs={"slug": "long"}), headers={"accept-language": "en"}))
    chinese = _html(client.get(reverse("wiki:page-history", kwargs={"slug": "long"}), headers={"accept-language": "zh-CN"}))

    assert "12,047 characters (+12,047)" in english
    assert "12047 个字符（+12047）" in chinese


def test_the_api_speaks_utc_and_the_clients_language(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    make_page(slug="utc-page", title="UTC page")
    page = Client().get("/api/v1/pages/utc-page/").json()
    assert page["updated_at"].endswith(("Z", "+00:00"))
    chinese = Client(headers={"accept-language": "zh-CN"}).get("/api/v1/sources/?colour=blue")
    assert chinese.status_code == 400 and chinese.json()["errors"]["colour"][0].startswith("未知参数")
    english = Client(headers={"accept-language": "en"}).get("/api/v1/sources/?colour=blue")
    assert english.json()["errors"]["colour"][0].startswith("Unknown parameter")


def test_taxonomy_labels_read_in_the_readers_language(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    chinese = _html(Client().get(reverse("wiki:source-list")))
    assert ">策略梯度<" in chinese and ">严格 Agentic RL<" in chinese
    english = _html(Client(headers={"accept-language": "en"}).get(reverse("wiki:source-list")))
    assert ">Policy gradient<" in english and ">Strict Agentic RL<" in english


def test_a_choice_made_in_one_session_reaches_the_readers_other_sessions_and_is_not_written_back(wiki_defaults) -> None:  # type: ignore[no-untyped-def]
    reader = make_editor("two-devices")
    first, second = Client(), Client()
    for client in (first, second):
        assert client.login(username="two-devices", password="correct horse battery")
    assert ">退出登录<" in _html(second.get(reverse("wiki:home")))
    first.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "Europe/Paris"})
    # The other session reads the profile on its next request: English, Paris time, both preselected.
    home = _html(second.get(reverse("wiki:home")))
    assert ">Log out<" in home and "Times are shown in Europe/Paris" in home
    form = _html(second.get(reverse("wiki:preferences")))
    assert re.search(r'<option value="en"[^>]*selected', form) and re.search(r'<option value="Europe/Paris"[^>]*selected', form)
    # Changing only the time zone there keeps the language chosen elsewhere.
    second.post(reverse("wiki:preferences"), {"language": "en", "time_zone": "Asia/Tokyo"})
    profile = ReaderProfile.objects.get(user=reader)
    assert (profile.language, profile.time_zone) == ("en", "Asia/Tokyo")
    assert "Times are shown in Asia/Tokyo" in _html(first.get(reverse("wiki:home")))


def test_the_chinese_interface_calls_a_work_gong_zuo_throughout() -> None:
    from pathlib import Path

    from babel.messages.pofile import read_po
    from django.conf import settings as django_settings

    with (Path(django_settings.BASE_DIR) / "locale/zh_Hans/LC_MESSAGES/django.po").open("rb") as po:
        catalogue = read_po(po)
    other_words = []
    for message in catalogue:
        for text in [message.string] if isinstance(message.string, str) else list(message.string or ()):
            rest = text.replace("参考文献", "").replace("文献信息", "")
            if "作品" in rest or "文献" in rest:
                other_words.append(text)

    assert other_words == []


def test_the_chinese_interface_calls_a_contrast_dui_bi_throughout() -> None:
    """对比 is the agreed term: 对照 (a control, in an experiment) beside it read as a second kind of thing."""
    from pathlib import Path

    from babel.messages.pofile import read_po
    from django.conf import settings as django_settings

    base = Path(django_settings.BASE_DIR)
    with (base / "locale/zh_Hans/LC_MESSAGES/django.po").open("rb") as po:
        catalogue = read_po(po)
    other_word = [text for message in catalogue
                  for text in ([message.string] if isinstance(message.string, str) else list(message.string or ()))
                  if "对照" in text]
    contrast = next(m.string for m in catalogue if m.id == "Contrast graph")
    written = [path.name for folder in ("templates", "static/js") for path in (base / folder).rglob("*.*")
               if path.suffix in {".html", ".js", ".txt"} and "对照" in path.read_text(encoding="utf-8")]

    assert other_word == [] and written == []
    assert contrast == "对比图"


def test_chinese_screens_word_what_they_say_as_chinese_writes_it(editor_client: Client) -> None:
    from tests.factories import make_wiki
    from wiki.models import Claim

    wiki = make_wiki()
    page, sentence = wiki.page, wiki.claims[0]
    body = "\n".join(line for line in page.body.splitlines() if "SkillLoop 用 GRPO" not in line)
    page_save_revision(slug=page.slug, title=page.title, body=body, summary=page.summary, user=wiki.editor)
    assert Claim.objects.get(pk=sentence.pk).is_orphaned
    card = wiki.strict.classifications.order_by("pk").first()
    assert card is not None

    orphan = _html(editor_client.get(reverse("wiki:claim-detail", args=[sentence.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans"))
    edit = _html(editor_client.get(reverse("wiki:page-edit", args=[page.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans"))
    classify = _html(editor_client.get(reverse("wiki:classification-edit", args=[card.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans"))
    token = _html(editor_client.get(reverse("wiki:api-token"), HTTP_ACCEPT_LANGUAGE="zh-hans"))
    changes = _html(editor_client.get(reverse("wiki:changes"), HTTP_ACCEPT_LANGUAGE="zh-hans"))

    # A claim's history says what each step did (操作); recent changes name what was changed (对象).
    assert '<th scope="col">页面修订版本</th><th scope="col">操作</th>' in orphan
    assert '<th scope="col" class="nowrap">对象</th>' in changes
    assert "该句子现有的论断将被本论断取代，其问题和对比会转移到本论断。" in orphan and "让位" not in orphan
    assert "仅修正错别字、格式或个别措辞，无需他人复核；读者可在最近更改和关注列表中隐藏小编辑。" in edit
    assert "按判定标准应为：<output" in classify
    assert "本 wiki 只保存每个密钥的指纹" in token and "维基" not in token
