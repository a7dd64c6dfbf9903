"""A title's math and letters of any script come out of the exports as they came in."""

from __future__ import annotations

import json
import re

from bibtexparser.entrypoint import parse_string

from wiki.models import Source
from wiki.references.bibtex_export import dump_bibtex
from wiki.references.csl import dump_csl_json
from wiki.references.latex import latex_to_text
from wiki.services.source_import import sources_import

# Titles with math, from Better BibTeX's test libraries (issues 1436 and 873) and a thesis' examples.
MATH = r"""
@article{cuins2,
  title = {Combined Measurements on {{CuInS}}{$_2$}/{{Mo}}/Glass Stacks},
  year = {2019}
}
@inproceedings{ocl,
  title = {OCL$_h$: a sound and supportive planning domain modelling language},
  year = {1996}
}
@article{na2,
  title = {A study of the excited {1$\Sigma$g+} states in {Na2}},
  year = {1983}
}
@article{teff,
  title = {Measuring T$_{\rm eff}$ of cool stars},
  year = {2001}
}
"""
# Better BibTeX's name particle tests: a Greek name, and a title with an escaped underscore.
GREEK = r"""
@article{bugreports_GreekStyleProblems,
  title = {bugreports\_{{GreekStyleProblems}}},
  author = {Καρυωτάκης, Κώστας},
  keywords = {imported}
}
"""


def _titles() -> dict[str, str]:
    return dict(Source.objects.values_list("bibtex_key", "title"))


def test_title_math_is_kept_as_unicode_and_written_back_as_math(db: None) -> None:
    assert sources_import(text=MATH).counts["created"] == 4
    assert _titles() == {
        "cuins2": "Combined Measurements on CuInS₂/Mo/Glass Stacks",
        "ocl": "OCLₕ: a sound and supportive planning domain modelling language",
        "na2": "A study of the excited 1Σg+ states in Na2",
        "teff": "Measuring T$_{\\rm eff}$ of cool stars",  # a subscript Unicode lacks: the TeX kept
    }
    bibtex = dump_bibtex(Source.objects.for_export())
    written = {entry.key: entry.fields_dict["title"].value for entry in parse_string(bibtex).entries}
    assert written["cuins2"] == "{Combined Measurements on CuInS$_2$/Mo/Glass Stacks}"
    assert written["ocl"] == "{OCL$_h$: a sound and supportive planning domain modelling language}"
    assert written["na2"] == "{A study of the excited 1Σg+ states in Na2}"
    assert written["teff"] == "{Measuring T$_{\\rm eff}$ of cool stars}"
    assert "\\_" not in bibtex and "ensuremath" not in bibtex
    assert {key: latex_to_text(title) for key, title in written.items()} == _titles()
    assert sources_import(text=bibtex).counts == {"created": 0, "duplicate": 4, "refused": 0}
    items = {item["id"]: item["title"] for item in json.loads(dump_csl_json(Source.objects.for_export()))}
    assert items["cuins2"] == "Combined Measurements on CuInS₂/Mo/Glass Stacks"


def test_slugs_are_letters_digits_and_hyphens(db: None) -> None:
    sources_import(text=MATH + GREEK)
    slugs = dict(Source.objects.values_list("bibtex_key", "slug"))
    assert slugs["ocl"] == "oclh" and slugs["bugreports_GreekStyleProblems"] == "bugreports-greekstyleproblems"
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) for slug in slugs.values()), slugs


def test_the_bibtex_export_writes_utf8_as_it_says_and_reads_back_the_same_letters(db: None) -> None:
    sources_import(text=GREEK)
    bibtex = dump_bibtex(Source.objects.for_export())
    assert bibtex.startswith("% 1 work, UTF-8\n")
    assert "author = {Καρυωτάκης, Κώστας}" in bibtex and "title = {{bugreports{\\_}GreekStyleProblems}}" in bibtex
    [entry] = parse_string(bibtex).entries
    assert latex_to_text(entry.fields_dict["author"].value) == "Καρυωτάκης, Κώστας"  # Κ is still Greek
    assert sources_import(text=bibtex).counts == {"created": 0, "duplicate": 1, "refused": 0}



# Text in a box or a font LaTeX knows but pylatexenc's text has no rule for, as papers' titles and notes write it.
BOXED = r"""
@inproceedings{presolve,
  title = {Presolving \mbox{$0$--$1$} Programs in {\texttt{SCIP}} and \textsf{Gurobi}},
  author = {Doe, Jane},
  year = {2024}
}
"""


def test_text_in_a_box_or_a_font_is_kept(db: None) -> None:
    assert sources_import(text=BOXED).counts["created"] == 1
    assert _titles() == {"presolve": "Presolving 0–1 Programs in SCIP and Gurobi"}
    assert latex_to_text(r"\textup{upright} \textmd{medium} \mbox{boxed}") == "upright medium boxed"


def test_a_raised_star_or_an_upright_script_is_read_as_the_other_scripts_are() -> None:
    assert latex_to_text(r"Enhanced Partial Expansion A$^\star$") == "Enhanced Partial Expansion A*"
    assert latex_to_text(r"Beating LM-Cut with h\({}^{\textup{max}}\)") == "Beating LM-Cut with hᵐᵃˣ"
