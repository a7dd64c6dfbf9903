"""Whatever a reference manager exports the work in (RIS, biblatex, CSL-JSON), its type, pages, volume, publisher,
month and notes are kept and written back where BibTeX and CSL put them."""

from __future__ import annotations

import json

import pytest
from bibtexparser.entrypoint import parse_string

from wiki.models import Source
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import dump_csl_json, parse_csl_json
from wiki.services.source_import import sources_import

pytestmark = pytest.mark.django_db

# As Zotero exports RIS: SP/EP pages, PB and CY, N1 notes as HTML paragraphs, dates as YYYY/MM/DD/.
ZOTERO_RIS = """TY  - CONF
TI  - Reflexion: Language Agents with Verbal Reinforcement Learning
AU  - Shinn, Noah
AU  - 唐, 杰
T2  - Advances in Neural Information Processing Systems
C3  - Advances in Neural Information Processing Systems
DA  - 2023/12/10/
PY  - 2023
SP  - 8634
EP  - 8652
VL  - 36
PB  - Curran Associates, Inc.
CY  - New Orleans
N1  - <p>Read for the <b>memory</b> part.</p><p>Second &amp; last.</p>
KW  - agents
ID  - shinn2023reflexion
ER  - 

TY  - BOOK
TI  - Reinforcement Learning: An Introduction
AU  - Sutton, Richard S.
AU  - Barto, Andrew G.
PB  - MIT Press
CY  - Cambridge, MA
ET  - Second
SN  - 978-0-262-03924-6
PY  - 2018
ID  - sutton2018
ER  - 

TY  - THES
TI  - 面向长程任务的智能体强化学习
AU  - 张, 伟
M3  - 博士学位论文
PB  - 清华大学
PY  - 2024
ID  - zhang2024
ER  - 
"""


def _entries(text: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Each entry of a BibTeX file by key: its type and its fields as written."""
    return {e.key: (e.entry_type, {f.key.lower(): str(f.value) for f in e.fields}) for e in parse_string(text).entries}


def test_a_zotero_ris_export_keeps_types_pages_publishers_months_notes_and_chinese_names() -> None:
    report = sources_import(text=ZOTERO_RIS)
    assert report.counts == {"created": 3, "duplicate": 0, "refused": 0}, report.results

    reflexion = Source.objects.get(bibtex_key="shinn2023reflexion")
    assert reflexion.authors == "Shinn, Noah; 唐杰"
    assert reflexion.notes == "Read for the memory part.\n\nSecond & last."
    assert (reflexion.entry_type, reflexion.venue) == ("inproceedings", "Advances in Neural Information Processing Systems")
    assert reflexion.bibliographic == {"pages": "8634–8652", "volume": "36", "publisher": "Curran Associates, Inc.",
                                       "address": "New Orleans", "month": "12"}

    bibtex = dump_bibtex(Source.objects.for_export())
    written = _entries(bibtex)
    assert written["shinn2023reflexion"][0] == "inproceedings"
    assert written["shinn2023reflexion"][1]["booktitle"] == "Advances in Neural Information Processing Systems"
    assert "journal" not in written["shinn2023reflexion"][1] and "month = dec," in bibtex
    assert written["sutton2018"][0] == "book" and written["sutton2018"][1]["publisher"] == "MIT Press"
    assert (written["sutton2018"][1]["edition"], written["sutton2018"][1]["isbn"]) == ("Second", "978-0-262-03924-6")
    assert written["zhang2024"][0] == "phdthesis" and written["zhang2024"][1]["school"] == "清华大学"

    items = {item["id"]: item for item in json.loads(dump_csl_json(Source.objects.for_export()))}
    assert items["shinn2023reflexion"]["issued"] == {"date-parts": [[2023, 12]]}
    assert items["shinn2023reflexion"]["page"] == "8634–8652"
    assert items["sutton2018"]["publisher"] == "MIT Press" and "container-title" not in items["sutton2018"]


def test_biblatex_gives_the_month_in_its_date_and_a_thesis_its_degree_in_its_type() -> None:
    text = """@thesis{li2025, title = {Agents That Learn}, author = {Li, Ming}, institution = {Peking University},
                       type = {phdthesis}, date = {2025-02-05}}
              @thesis{wu2024, title = {Agents That Plan}, author = {Wu, Fang}, institution = {Fudan University},
                       type = {mathesis}, date = {2024-11}}"""
    report = sources_import(text=text)
    assert report.counts["created"] == 2, report.results

    li, wu = Source.objects.get(bibtex_key="li2025"), Source.objects.get(bibtex_key="wu2024")
    assert (li.entry_type, li.year, li.bibliographic["month"]) == ("phdthesis", 2025, "2")
    assert (wu.entry_type, wu.bibliographic["month"]) == ("mastersthesis", "11")
    written = _entries(dump_bibtex([li, wu]))
    # the venue goes back in the field it came in, once
    assert written["li2025"][1]["institution"] == "Peking University" and "school" not in written["li2025"][1]
    again = {entry.label: entry.draft for entry in parse_bibtex(dump_bibtex([li, wu]))}
    assert again["li2025"] is not None and (again["li2025"].entry_type, again["li2025"].venue) == ("phdthesis", "Peking University")


def test_csl_json_gives_the_month_of_its_issued_date() -> None:
    items = [{"id": "a", "type": "article-journal", "title": "A", "issued": {"date-parts": [["2025", "3"]]}},
             {"id": "b", "type": "article-journal", "title": "B", "issued": {"raw": "2025-01-22"}},
             {"id": "c", "type": "article-journal", "title": "C", "issued": {"date-parts": [[2025, 13]]}}]

    drafts = {entry.label: entry.draft for entry in parse_csl_json(json.dumps(items))}

    assert [drafts[key].bibliographic.get("month") for key in "abc"] == ["3", "1", None]  # type: ignore[union-attr]


def test_a_work_on_a_code_host_is_a_project_in_every_format() -> None:
    [bib] = parse_bibtex("@online{verl, title = {verl: Volcano Engine RL}, url = {https://github.com/volcengine/verl}}")
    [csl] = parse_csl_json(json.dumps([{"id": "verl", "type": "webpage", "title": "verl",
                                        "URL": "https://github.com/volcengine/verl"}]))
    [post] = parse_bibtex("@online{post, title = {A Post}, url = {https://lilianweng.github.io/posts/2024/}}")

    assert bib.draft is not None and csl.draft is not None and post.draft is not None
    assert (bib.draft.kind, csl.draft.kind, post.draft.kind) == ("project", "project", "blog")


def test_a_zotero_item_uri_is_no_citation_key() -> None:
    [item] = parse_csl_json(json.dumps([{"id": "http://zotero.org/users/1/items/AAAA", "type": "article-journal",
                                         "title": "Keyless"}]))

    assert item.draft is not None and item.draft.bibtex_key == ""


def test_a_name_with_a_greek_letter_keeps_it_in_its_address() -> None:
    from wiki.references.draft import SourceDraft
    from wiki.services.sources import unique_source_slug

    assert unique_source_slug(SourceDraft(short_name="τ-bench")) == "tau-bench"
    assert unique_source_slug(SourceDraft(short_name="Q-Learning with α-Divergences")) == "q-learning-with-alpha-divergences"


def test_csl_json_writes_what_an_editor_set_and_reads_it_back() -> None:
    from tests.factories import make_source

    report = make_source(slug="tr", short_name="TR", title="A Technical Report", kind="preprint", year=2025,
                         entry_type="techreport", bibliographic={"institution": "阿里巴巴通义实验室", "number": "TR-2025-01",
                                                                 "month": "12"})
    thesis = make_source(slug="phd", short_name="PhD", title="A Thesis", kind="paper", year=2024,
                         entry_type="phdthesis", bibliographic={"school": "清华大学"})
    paper = make_source(slug="proc", short_name="Proc", title="A Project Paper", kind="project", year=2026,
                        entry_type="inproceedings", bibliographic={"booktitle": "Proceedings of ICLR 2026"})

    items = {item["id"]: item for item in json.loads(dump_csl_json([report, thesis, paper]))}

    assert (items["tr"]["type"], items["tr"]["publisher"], items["tr"]["number"]) == ("report", "阿里巴巴通义实验室", "TR-2025-01")
    assert items["tr"]["issued"] == {"date-parts": [[2025, 12]]} and "issue" not in items["tr"]
    assert (items["phd"]["type"], items["phd"]["genre"], items["phd"]["publisher"]) == ("thesis", "PhD thesis", "清华大学")
    # the entry type decides the CSL type; a kind it does not say goes in custom
    assert (items["proc"]["type"], items["proc"]["container-title"]) == ("paper-conference", "Proceedings of ICLR 2026")
    assert items["proc"]["custom"] == {"wiki-kind": "project"}
    again = {entry.label: entry.draft for entry in parse_csl_json(json.dumps(list(items.values())))}
    assert again["phd"] is not None and again["phd"].entry_type == "phdthesis"
    assert again["tr"] is not None and again["tr"].bibliographic["number"] == "TR-2025-01"
    assert again["proc"] is not None and (again["proc"].kind, again["proc"].entry_type) == ("project", "inproceedings")


def test_a_month_typed_by_name_is_kept_as_its_number() -> None:
    from wiki.references.draft import clean_bibliographic

    typed = ["08", "aug", "Aug.", "August", "8月", "八月"]

    assert {clean_bibliographic({"month": month})["month"] for month in typed} == {"8"}
    assert clean_bibliographic({"month": "Spring"}) == {"month": "Spring"}


# A conference's proceedings as a shared .bib keeps it for its papers' crossref, and a chapter written as @inbook.
VOLUMES = r"""@proceedings{icaps2021,
  editor = {Robert P. Goldman and Susanne Biundo},
  title = {Proceedings of the Thirty-First International Conference on Automated Planning and Scheduling},
  booktitle = {Proceedings of the Thirty-First International Conference on Automated Planning and Scheduling},
  year = {2021},
  publisher = {AAAI Press}
}
@inbook{sutton2018ch13,
  author = {Richard S. Sutton and Andrew G. Barto},
  title = {Policy Gradient Methods},
  booktitle = {Reinforcement Learning: An Introduction},
  year = {2018},
  publisher = {MIT Press}
}
"""


def test_a_proceedings_volume_is_a_csl_book_and_comes_back_with_its_entry_type(db: None) -> None:
    assert sources_import(text=VOLUMES).counts["created"] == 2
    items = {item["id"]: item for item in json.loads(dump_csl_json(Source.objects.for_export()))}
    assert (items["icaps2021"]["type"], items["icaps2021"]["publisher"]) == ("book", "AAAI Press")
    assert items["sutton2018ch13"]["type"] == "chapter"
    again = sources_import(text=json.dumps(list(items.values())))
    assert [(result.status, result.updates) for result in again.results] == [("duplicate", []), ("duplicate", [])]


# Two works whose short names would be one: the later paper's title starts with the earlier one's whole title.
SAME_HEAD = r"""@inproceedings{srivastava2011,
  author = {Siddharth Srivastava and Shlomo Zilberstein},
  title = {Qualitative Numeric Planning},
  booktitle = {Proceedings of AAAI 2011},
  year = {2011}
}
@article{bonet2020,
  author = {Blai Bonet and Hector Geffner},
  title = {Qualitative Numeric Planning: Reductions and Complexity},
  journal = {Journal of Artificial Intelligence Research},
  year = {2020}
}
"""


def test_every_export_carries_a_short_name_the_importer_would_not_make_from_the_title(db: None) -> None:
    from wiki.references.ris import parse_ris
    from wiki.references.ris_export import dump_ris

    sources_import(text=SAME_HEAD)
    kept = dict(Source.objects.values_list("bibtex_key", "short_name"))
    assert kept["bonet2020"] != "Qualitative Numeric Planning"
    works = list(Source.objects.for_export())
    for read, written in ((parse_bibtex, dump_bibtex(works)), (parse_csl_json, dump_csl_json(works)),
                          (parse_ris, dump_ris(works))):
        drafts = {entry.label: entry.draft for entry in read(written)}
        assert {key: draft.short_name for key, draft in drafts.items() if draft is not None} == kept, read
