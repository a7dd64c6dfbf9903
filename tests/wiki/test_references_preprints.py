"""An arXiv preprint goes out as reference managers and citeproc-js expect one: CSL's ``article`` with its arXiv ID
as ``number``, BibTeX with ``eprint``, ``archivePrefix`` and its primary class."""

from __future__ import annotations

import json

import pytest

from wiki.models import Source, SourceKind
from wiki.references.bibtex import parse_bibtex
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import csl_item, parse_csl_json

# As arXiv's own "Export BibTeX citation" and the papers' READMEs give them (authors cut short).
ARXIV_LISTING = r"""@misc{deepseekai2025deepseekr1incentivizingreasoningcapability,
      title={DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning},
      author={DeepSeek-AI and Daya Guo and Dejian Yang and Haowei Zhang and Junxiao Song},
      year={2025},
      eprint={2501.12948},
      archivePrefix={arXiv},
      primaryClass={cs.CL},
      url={https://arxiv.org/abs/2501.12948},
}
"""
GOOGLE_SCHOLAR = r"""@article{yao2022react,
  title={React: Synergizing reasoning and acting in language models},
  author={Yao, Shunyu and Zhao, Jeffrey and Yu, Dian and Du, Nan and Shafran, Izhak and Narasimhan, Karthik and Cao, Yuan},
  journal={arXiv preprint arXiv:2210.03629},
  year={2022}
}
"""
ZOTERO = r"""@misc{lu_ai_2024,
	title = {The {AI} {Scientist}: {Towards} {Fully} {Automated} {Open}-{Ended} {Scientific} {Discovery}},
	url = {http://arxiv.org/abs/2408.06292},
	publisher = {arXiv},
	author = {Lu, Chris and Lu, Cong and Lange, Robert Tjarko},
	month = aug,
	year = {2024},
	note = {arXiv:2408.06292 [cs]},
}
"""
# Better BibTeX's biblatex (retorquere/zotero-better-bibtex test/fixtures/export, #170): an @article with no journal.
BETTER_BIBLATEX = r"""@article{BachmannDybalskiNaaijkens14,
  author = {Bachmann, Sven and Dybalski, Wojciech and Naaijkens, Pieter},
  date = {2014-12-09},
  eprint = {1412.2970},
  eprinttype = {arxiv},
  eprintclass = {math-ph},
  title = {Lieb-Robinson bounds, Arveson spectrum and Haag-Ruelle scattering theory for gapped quantum spin systems},
  url = {http://arxiv.org/abs/1412.2970},
}
"""
ARXIV_DOI = "@article{voyager, title = {Voyager: An Open-Ended Embodied Agent}, year = {2023}, doi = {10.48550/arXiv.2305.16291}}"


def _source(bibtex: str) -> Source:
    [entry] = parse_bibtex(bibtex)
    assert entry.errors == [] and entry.draft is not None
    return Source(pk=1, slug=entry.label.lower()[:50], **entry.draft.as_fields())


@pytest.mark.parametrize(("bibtex", "arxiv_id", "repository"), [
    (ARXIV_LISTING, "2501.12948", None),
    (GOOGLE_SCHOLAR, "2210.03629", "arXiv"),
    (ZOTERO, "2408.06292", "arXiv"),
    (BETTER_BIBLATEX, "1412.2970", None),
    (ARXIV_DOI, "2305.16291", None),
])
def test_an_arxiv_preprint_is_a_csl_article_numbered_by_its_arxiv_id(bibtex: str, arxiv_id: str,
                                                                   repository: str | None) -> None:
    source = _source(bibtex)
    assert source.kind == SourceKind.PREPRINT

    item = csl_item(source)

    # as Zotero writes a preprint: its repository (arXiv, where the entry names it) is the publisher, never a journal
    assert (item["type"], item["number"], item.get("publisher")) == ("article", f"arXiv:{arxiv_id}", repository)
    assert "container-title" not in item and "custom" not in item
    [back] = parse_csl_json(json.dumps([item]))
    assert back.draft is not None
    assert (back.draft.arxiv_id, back.draft.kind, back.draft.venue) == (arxiv_id, SourceKind.PREPRINT, source.venue)


@pytest.mark.parametrize(("bibtex", "written"), [
    (ARXIV_LISTING, ["@misc{deepseekai2025deepseekr1incentivizingreasoningcapability,", "eprint = {2501.12948},",
                     "archiveprefix = {arXiv},", "primaryclass = {cs.CL}"]),
    (GOOGLE_SCHOLAR, ["@article{yao2022react,", "journal = {arXiv preprint arXiv:2210.03629},",
                      "eprint = {2210.03629},", "archiveprefix = {arXiv},"]),
    (BETTER_BIBLATEX, ["@article{BachmannDybalskiNaaijkens14,", "eprint = {1412.2970},", "archiveprefix = {arXiv},",
                       "eprintclass = {math-ph}", "date = {2014-12-09}"]),
])
def test_an_arxiv_preprint_keeps_its_eprint_archive_prefix_and_primary_class_in_bibtex(bibtex: str,
                                                                                     written: list[str]) -> None:
    source = _source(bibtex)

    exported = dump_bibtex([source])

    lines = {line.strip().rstrip(",") for line in exported.splitlines()}
    for line in written:
        assert line.rstrip(",") in lines, (line, exported)
    [back] = parse_bibtex(exported)
    assert back.draft is not None
    assert (back.draft.arxiv_id, back.draft.extra_fields) == (source.arxiv_id, source.extra_fields)


def test_a_published_paper_or_a_framework_with_an_arxiv_id_keeps_its_own_type() -> None:
    published = Source(pk=1, slug="react", title="ReAct", kind=SourceKind.PAPER, venue="ICLR",
                       entry_type="inproceedings", arxiv_id="2210.03629")
    framework = Source(pk=2, slug="verl", title="verl", kind=SourceKind.FRAMEWORK, arxiv_id="2409.19256",
                       url="https://github.com/volcengine/verl")
    report = Source(pk=3, slug="tr", title="A Report", kind=SourceKind.PREPRINT, entry_type="techreport",
                    arxiv_id="2401.00001", venue="Google DeepMind")

    assert (csl_item(published)["type"], csl_item(published)["container-title"]) == ("paper-conference", "ICLR")
    assert csl_item(framework)["type"] == "software"
    assert (csl_item(report)["type"], csl_item(report)["publisher"]) == ("report", "Google DeepMind")
