from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.factories import make_classification, make_source
from wiki.graph.compare import PICK_LIMIT
from wiki.models import Claim, Classification, Source

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("contrast_wiki")]


def test_compare_table_has_a_column_per_work_and_marks_the_differing_fact(client: Client) -> None:
    response = client.get(reverse("wiki:compare") + "?works=tasksmith,gripforge")

    html = response.content.decode()
    assert response.status_code == 200
    assert [c.name for c in response.context["comparison"].columns] == ["TaskSmith", "GripForge"]
    assert '<tr class="differs row-rubric" data-row="rl_update">' in html
    assert '<tr class=" row-rubric" data-row="interactive_env">' in html


def test_compare_accepts_repeated_and_comma_separated_works(client: Client) -> None:
    response = client.get(reverse("wiki:compare") + "?works=tasksmith&works=gripforge,herder")

    names = [c.name for c in response.context["comparison"].columns]
    assert names[:2] == ["TaskSmith", "GripForge"] and len(names) == 4


def test_compare_form_offers_checkboxes_and_keeps_the_chosen_ones_ticked(client: Client) -> None:
    html = client.get(reverse("wiki:compare") + "?works=tasksmith&q=grip").content.decode()

    assert '<input type="checkbox" name="works" value="tasksmith" checked>' in html
    assert '<input type="checkbox" name="works" value="gripforge">' in html
    assert 'value="shopworld"' not in html


def test_compare_csv_is_utf8_with_bom_and_a_filename(client: Client) -> None:
    response = client.get(reverse("wiki:compare") + "?works=tasksmith,gripforge&format=csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="agentic-rl-comparison.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Property", "TaskSmith", "GripForge"]
    by_label = {row[0]: row[1:] for row in rows}
    assert by_label["RL optimisation updates the policy/parameters from the interaction outcome"] == ["no", "yes"]
    assert by_label["Mechanism"] == ["SFT / distillation", "Policy gradient"]
    assert "论文没有用环境回报更新 agent policy" in by_label["Evidence"][0]


def test_a_fact_the_wiki_does_not_state_is_unknown_in_the_table_and_the_csv(client: Client) -> None:
    html = client.get(reverse("wiki:compare") + "?works=gripforge,polarharness").content.decode()
    row = html.split('data-row="interactive_env">')[1].split("</tr>")[0]
    assert '<td class="fact-yes">' in row and '<td class="fact-unknown"><span aria-hidden="true">? </span>unknown</td>' in row
    assert '<tr class="differs row-rubric" data-row="multi_step">' in html

    csv_text = client.get(reverse("wiki:compare") + "?works=gripforge,polarharness&format=csv").content.decode("utf-8-sig")
    by_label = {row[0]: row[1:] for row in csv.reader(io.StringIO(csv_text))}
    assert by_label["Verifiable or scalar reward"] == ["yes", "unknown"]
    assert by_label["RL optimisation updates the policy/parameters from the interaction outcome"] == ["yes", "no"]


def test_compare_with_unknown_work_is_404_and_names_it(client: Client) -> None:
    response = client.get(reverse("wiki:compare") + "?works=tasksmith,atlantis")

    assert response.status_code == 404
    assert "“atlantis”" in response.content.decode()
    # given back in the field to correct, marked as what the message is about
    assert re.search(r'<input type="text" name="works" id="id_works" value="atlantis" '
                     r'aria-describedby="works-help works-unknown" aria-invalid="true">', response.content.decode())
    assert client.get(reverse("wiki:compare") + "?works=tasksmith,atlantis&format=csv").status_code == 404


def test_compare_rejects_malformed_slugs_next_to_the_field(client: Client) -> None:
    response = client.get(reverse("wiki:compare") + "?works=tasksmith,<script>")

    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="works-error"' in html and "No work has this slug or short name: &lt;script&gt;" in html
    assert "<script>" not in html.split("<main", 1)[1]


def test_compare_without_works_shows_the_form(client: Client) -> None:
    response = client.get(reverse("wiki:compare"))

    assert response.status_code == 200
    assert 'name="works"' in response.content.decode()


def test_compare_csv_keeps_formula_like_text_as_text(client: Client) -> None:
    Classification.objects.filter(source__slug="tasksmith", component=None).update(updated='=HYPERLINK("http://evil","x")', algorithm="@SUM(A1)")

    response = client.get(reverse("wiki:compare") + "?works=tasksmith,gripforge&format=csv")

    by_label = {row[0]: row[1:] for row in csv.reader(io.StringIO(response.content.decode("utf-8-sig")))}
    assert by_label["What is updated"][0] == "'=HYPERLINK(\"http://evil\",\"x\")"
    assert by_label["Algorithm"] == ["'@SUM(A1)", "GRPO"]


def test_the_filter_comes_before_the_list_of_works_it_filters(client: Client) -> None:
    html = client.get(reverse("wiki:compare")).content.decode()

    assert 'class="work-choices"' in html
    assert html.index('id="id_q"') < html.index('class="work-choices"')


def test_the_compare_page_leads_to_the_latest_contrasts_in_one_query_however_many(client: Client) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import make_contrast, make_source
    from wiki.models import Contrast
    from wiki.views.compare import LATEST_CONTRASTS

    html = client.get(reverse("wiki:compare"), headers={"accept-language": "en"}).content.decode()
    assert '<a href="/contrast/gripforge/polarharness/">GripForge vs PolarHarness</a>' in html
    # a work's components set against each other are named as such, not "Herder vs Herder"
    assert '">Herder Branch-GRPO vs Herder overseer and CRO</a>' in html

    hub = make_source(slug="hub", short_name="Hub")
    for i in range(LATEST_CONTRASTS + 5):
        make_contrast(hub, make_source(slug=f"spoke-{i}", short_name=f"Spoke {i}"), axis=f"axis {i}")
    with CaptureQueriesContext(connection) as queries:
        html = client.get(reverse("wiki:compare"), {"q": "x"}).content.decode()

    assert html.count('href="/contrast/') == LATEST_CONTRASTS
    assert f'href="/contrast/hub/spoke-{LATEST_CONTRASTS + 4}/"' in html and 'href="/contrast/hub/spoke-0/"' not in html
    assert sum("wiki_contrast" in query["sql"] for query in queries.captured_queries) == 1
    assert Contrast.objects.count() > LATEST_CONTRASTS


def test_the_csv_gives_a_long_evidence_claim_whole(client: Client) -> None:
    classification = Classification.objects.filter(evidence_claim__isnull=False).select_related("evidence_claim", "source").first()
    assert classification is not None and classification.evidence_claim is not None
    claim = classification.evidence_claim
    long_text = claim.text + " 这一点在附录里有更长的论证，" * 12
    Claim.objects.filter(pk=claim.pk).update(text=long_text)
    other = Source.objects.exclude(pk=classification.source_id).filter(classifications__isnull=False).first()
    assert other is not None
    works = f"{classification.source.slug},{other.slug}"

    rows = {row[0]: row[1:] for row in csv.reader(io.StringIO(
        client.get(reverse("wiki:compare"), {"works": works, "format": "csv"}).content.decode("utf-8-sig")))}

    assert long_text in rows["Evidence"][0]


def test_the_works_to_tick_say_when_more_match_than_are_listed(client: Client) -> None:
    few = client.get(reverse("wiki:compare"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for n in range(PICK_LIMIT):
        Source.objects.create(slug=f"filler-{n:02}", short_name=f"Filler {n:02}", title=f"Filler work {n:02}")

    many = client.get(reverse("wiki:compare"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    searched = client.get(reverse("wiki:compare"), {"q": "Filler 07"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "matching works by name are listed" not in few
    assert f"Only the first {PICK_LIMIT} matching works by name are listed: search for the others above." in many
    assert many.count('name="works" value="filler-') <= PICK_LIMIT
    assert 'value="filler-07"' in searched and "matching work" not in searched


def test_works_are_compared_by_their_short_names_as_typed_too(client: Client) -> None:
    Source.objects.create(slug="tong-yi-shen-du-yan-jiu", short_name="通义深度研究", title="通义深度研究")
    Source.objects.create(slug="reward-placebo-trial", short_name="Reward Placebo Trial", title="Reward Placebo Trial")
    Source.objects.create(slug="twin-a", short_name="Twin", title="Twin A")
    Source.objects.create(slug="twin-b", short_name="twin", title="Twin B")

    named = client.get(reverse("wiki:compare"), {"works": "通义深度研究, Reward Placebo Trial, tasksmith"})
    spaced = client.get(reverse("wiki:compare"), {"works": "tasksmith gripforge"})
    twins = client.get(reverse("wiki:compare"), {"works": "Twin,tasksmith"}, HTTP_ACCEPT_LANGUAGE="en")

    assert named.status_code == 200
    assert [str(column.ref) for column in named.context["comparison"].columns] == [
        "tong-yi-shen-du-yan-jiu", "reward-placebo-trial", "tasksmith"]
    assert [str(column.ref) for column in spaced.context["comparison"].columns] == ["tasksmith", "gripforge"]
    assert twins.status_code == 400
    assert "More than one work is called Twin: type the slug of the one you mean." in twins.content.decode()


def test_the_table_says_what_each_work_is_and_why_it_is_judged_so(client: Client) -> None:
    tasksmith = Source.objects.get(slug="tasksmith")
    tasksmith.venue, tasksmith.authors = "NeurIPS 2025", "Ada Lovelace; Alan Turing; Grace Hopper; Barbara Liskov"
    tasksmith.save()
    Classification.objects.filter(source=tasksmith).update(rationale="SFT on filtered rollouts: no RL update.")

    html = client.get(reverse("wiki:compare") + "?works=tasksmith,gripforge", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    for key in ("rationale", "kind", "venue", "authors", "title"):
        assert f'data-row="{key}"' in html, key
    assert "NeurIPS 2025" in html and "SFT on filtered rollouts: no RL update." in html
    assert "Ada Lovelace; Alan Turing; Grace Hopper et al." in html
    # a title or a rationale is each work's own: never marked as a difference
    assert '<tr class=" row-describes" data-row="title">' in html and '<tr class="differs " data-row="venue">' in html


def test_the_comparison_as_json_has_keys_the_same_in_every_language(client: Client) -> None:
    chinese = client.get(reverse("wiki:compare") + "?works=tasksmith,gripforge&format=json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    english = client.get(reverse("wiki:compare") + "?works=tasksmith,gripforge&format=json", HTTP_ACCEPT_LANGUAGE="en")

    assert chinese["Content-Type"] == "application/json"
    zh, en = chinese.json(), english.json()
    assert [w["work"] for w in zh["works"]] == ["tasksmith", "gripforge"]
    assert [r["key"] for r in zh["rows"]] == [r["key"] for r in en["rows"]]
    rl_update = next(r for r in en["rows"] if r["key"] == "rl_update")
    assert rl_update["differs"] is True and [c["value"] for c in rl_update["cells"]] == [False, True]
    assert next(r for r in zh["rows"] if r["key"] == "mechanism")["label"] == "机制"


def test_the_evidence_gives_its_locator_once_when_the_claims_citation_says_it(client: Client) -> None:
    # Herder's claim cites it "（来源：Herder…，§4.3）" and the classification names §4.3 too; GripForge's claim has none.
    Classification.objects.filter(source__slug="gripforge").update(evidence_locator="p.1")
    works = "?works=herder:branch-grpo,gripforge"

    html = client.get(reverse("wiki:compare") + works).content.decode()
    rows = {row[0]: row[1:] for row in csv.reader(io.StringIO(
        client.get(reverse("wiki:compare") + works + "&format=csv").content.decode("utf-8-sig")))}
    cells = next(r for r in client.get(reverse("wiki:compare") + works + "&format=json").json()["rows"] if r["key"] == "evidence")["cells"]

    herder, gripforge = rows["Evidence"]
    assert herder.count("§4.3") == 1 and herder.endswith("§4.3）")
    assert gripforge.endswith(" (p.1)")
    assert cells[0]["text"] == herder and cells[1]["text"] == gripforge
    evidence = html.split('data-row="evidence">')[1].split("</tr>")[0]
    # the cell and its full text each give it once: cut short, the cell names the locator after the ellipsis
    assert "§4.3） (§4.3)" not in evidence and "§4.3）</p>" in evidence
    assert "(p.1)" in evidence


def test_a_locator_is_not_taken_for_part_of_a_longer_one() -> None:
    from wiki.graph.compare import _says_locator

    assert _says_locator("（来源：Shepherd，§4.3）", "§4.3")
    assert _says_locator("（来源：EvoOpt，ｐｐ. 3-4）", "pp.3-4")
    assert not _says_locator("（来源：EvoOpt，p.12）", "p.1")
    assert not _says_locator("（来源：EvoOpt，§4.31）", "§4.3")


def test_the_evidence_gives_its_locator_once_however_the_claims_citation_types_it(client: Client) -> None:
    herder = Classification.objects.get(source__slug="herder", component__slug="branch-grpo")
    cited = "Herder 的 Branch-GRPO 用 clipped GRPO 更新 worker policy（来源：Herder，pp. 3–4）"
    Claim.objects.filter(evidence_for=herder).update(text=cited)
    Classification.objects.filter(pk=herder.pk).update(evidence_locator="pp.3-4")
    works = "?works=herder:branch-grpo"

    rows = {row[0]: row[1:] for row in csv.reader(io.StringIO(
        client.get(reverse("wiki:compare") + works + "&format=csv").content.decode("utf-8-sig")))}
    html = client.get(reverse("wiki:compare") + works).content.decode()

    assert rows["Evidence"] == [cited]
    assert "(pp.3-4)" not in html.split('data-row="evidence">')[1].split("</tr>")[0]


def test_a_locator_is_found_however_it_is_typed_and_among_others() -> None:
    from wiki.graph.compare import _says_locator

    assert _says_locator("（来源：EvoOpt，第 3–4 页）", "pp.3-4")
    assert _says_locator("（来源：EvoOpt，Sec. 3.1 / §5）", "§3.1 / §5")
    assert _says_locator("（来源：EvoOpt，pp.3-4, 7）", "p.7")
    assert _says_locator("（来源：EvoOpt，Table 2）", "表 2")
    assert not _says_locator("（来源：EvoOpt，pp.3-4）", "p.3")
    assert not _says_locator("（来源：EvoOpt，§4.3.1）", "§4.3")


def test_only_the_rows_that_differ_are_shown_with_differs_in_the_table_the_csv_and_the_json(client: Client) -> None:
    works = "?works=tasksmith,gripforge"
    every = client.get(reverse("wiki:compare") + works, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    html = client.get(reverse("wiki:compare") + works + "&differs=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = list(csv.reader(io.StringIO(
        client.get(reverse("wiki:compare") + works + "&differs=1&format=csv", HTTP_ACCEPT_LANGUAGE="en").content.decode("utf-8-sig"))))
    data = client.get(reverse("wiki:compare") + works + "&differs=1&format=json").json()

    shown = re.findall(r'data-row="(\w+)"', html)
    assert set(shown) < set(re.findall(r'data-row="(\w+)"', every))
    assert "rl_update" in shown and "interactive_env" not in shown and "title" not in shown
    assert all('class="differs' in row for row in re.findall(r"<tr class=\"[^\"]*\"[^>]*data-row=", html))
    assert [row[0] for row in rows[3:]] == [r["label"] for r in data["rows"]] and all(r["differs"] for r in data["rows"])
    assert len(data["rows"]) == len(shown)
    # the switch is a checkbox in the form, ticked, and a link to every row again, both working without JavaScript
    assert '<input type="checkbox" name="differs" value="1" checked>' in html
    assert '<input type="checkbox" name="differs" value="1">' in every
    assert '<a href="?works=tasksmith%2Cgripforge">Show every row</a>' in html
    assert '<a href="?works=tasksmith%2Cgripforge&amp;differs=1">Show only the rows where they differ</a>' in every


@pytest.mark.parametrize("value", ["0", "false", "no", "off", ""])
def test_differs_other_than_1_keeps_every_row_in_the_page_the_csv_and_the_json(client: Client, value: str) -> None:
    url = reverse("wiki:compare") + "?works=tasksmith,gripforge"
    every = client.get(url + "&format=json").json()["rows"]

    data = client.get(url + f"&differs={value}&format=json").json()
    rows = list(csv.reader(io.StringIO(client.get(url + f"&differs={value}&format=csv").content.decode("utf-8-sig"))))
    html = client.get(url + f"&differs={value}").content.decode()

    assert [r["key"] for r in data["rows"]] == [r["key"] for r in every] and not all(r["differs"] for r in every)
    assert len(rows) == 3 + len(every)
    assert len(re.findall(r'data-row="(\w+)"', html)) == len(every)
    assert '<input type="checkbox" name="differs" value="1">' in html


def test_a_work_alike_in_every_row_says_so_when_only_differences_are_asked_for(client: Client) -> None:
    html = client.get(reverse("wiki:compare") + "?works=gripforge&differs=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "data-row=" not in html and "The works differ in no row: they are classified alike." in html


def test_the_csv_gives_each_works_address_whole(client: Client) -> None:
    response = client.get(reverse("wiki:compare") + "?works=tasksmith,herder:branch-grpo&format=csv", HTTP_ACCEPT_LANGUAGE="en")

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[2] == ["URL", "http://testserver/sources/tasksmith/", "http://testserver/sources/herder/#component-branch-grpo"]


def test_the_comparison_of_only_differences_is_cached_for_readers(client: Client, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    url = reverse("wiki:compare") + "?works=tasksmith,gripforge&differs=1"
    client.get(url)

    with django_assert_num_queries(0):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("export", ["csv", "json"])
def test_a_cached_export_holds_the_addresses_of_the_host_and_scheme_it_was_asked_at(
        client: Client, export: str, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    url = reverse("wiki:compare") + f"?works=tasksmith,gripforge&format={export}"
    asked = [("localhost:8101", False), ("127.0.0.1:8101", False), ("127.0.0.1:8101", True)]

    answers = [client.get(url, HTTP_HOST=host, secure=secure) for host, secure in asked]
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_HOST="127.0.0.1:8101")

    for (host, secure), response in zip(asked, answers, strict=True):
        found = set(re.findall(r"https?://[^/\"]+/sources/", response.content.decode("utf-8-sig")))
        assert found == {f"{'https' if secure else 'http'}://{host}/sources/"}
    assert len({response["ETag"] for response in answers}) == 3
    assert again.content == answers[1].content and again["ETag"] == answers[1]["ETag"]


def test_a_field_empty_on_one_work_and_missing_on_an_unclassified_one_is_not_marked_as_differing(client: Client) -> None:
    # both cells read "—": an algorithm left empty says what an unclassified work's absent one says
    make_classification(make_source(slug="blankalgo", short_name="BlankAlgo"), algorithm="", updated="")
    make_source(slug="noclass", short_name="NoClass")

    html = client.get(reverse("wiki:compare") + "?works=blankalgo,noclass", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert '<tr class=" " data-row="algorithm">' in html and '<tr class=" " data-row="updated">' in html
    assert '<tr class="differs " data-row="mechanism">' in html


def test_a_too_long_search_is_refused_beside_the_picker_and_the_comparison_still_shown(client: Client) -> None:
    response = client.get(reverse("wiki:compare"), {"works": "tasksmith", "q": "x" * 101})

    html = response.content.decode()
    assert response.status_code == 400
    assert [c.name for c in response.context["comparison"].columns] == ["TaskSmith"]
    assert 'data-row="rl_update"' in html
    assert '<input type="checkbox" name="works" value="tasksmith" checked>' in html
    assert html.split('id="id_q"', 1)[1].split("</div>", 1)[0].count('class="form-error"') == 1


@pytest.mark.parametrize("export", ["csv", "json"])
def test_an_export_without_works_is_refused_in_its_format(client: Client, export: str) -> None:
    response = client.get(reverse("wiki:compare"), {"format": export})

    assert response.status_code == 400
    if export == "json":
        assert response.json()["code"] == "required" and response.json()["codes"] == {"works": ["required"]}
    else:
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response.content.decode().startswith("Name the works to compare")


@pytest.mark.parametrize(("query", "content_type", "named"), [
    ("works=tasksmith&format=csv&format=json", "text/html; charset=utf-8", ["format"]),
    ("works=tasksmith&format=json&format=json", "application/json", ["format"]),
    ("works=tasksmith&format=csv&q=a&q=b", "text/plain; charset=utf-8", ["q"]),
    ("works=tasksmith&differs=1&differs=0", "text/html; charset=utf-8", ["differs"]),
])
def test_a_parameter_sent_twice_is_refused_as_the_api_refuses_it(client: Client, query: str, content_type: str,
                                                                   named: list[str]) -> None:
    response = client.get(reverse("wiki:compare") + "?" + query)

    assert response.status_code == 400 and response["Content-Type"] == content_type
    text = response.content.decode()
    assert "Send this parameter once; it takes one value." in text
    if content_type == "application/json":
        assert response.json()["codes"] == {name: ["repeated_parameter"] for name in named}
    elif content_type.startswith("text/html"):
        assert f"<code>{named[0]}</code>: Send this parameter once" in text
        assert 'data-row="rl_update"' not in text


def test_too_many_works_are_refused_with_their_boxes_to_untick(client: Client) -> None:
    slugs = [make_source(short_name=f"Work {n:02}", slug=f"work-{n:02}").slug for n in range(13)]

    response = client.get(reverse("wiki:compare"), {"works": ",".join([*slugs, "atlantis"])})

    html = response.content.decode()
    assert response.status_code == 400 and "Compare at most 12 works at a time." in html
    for slug in slugs:
        assert f'<input type="checkbox" name="works" value="{slug}" checked>' in html
    # the text box gives back only what no box stands for, so that unticking one leaves it out
    assert re.search(r'<input type="text" name="works" id="id_works" value="atlantis" '
                     r'aria-describedby="works-help works-error" aria-invalid="true">', html)
