"""A search that is a work's identifier: its arXiv ID, its DOI or its BibTeX key.

A work's document carries its identifiers among its title's words (``wiki.search.index``), so a search for one
finds the work and ranks it above the documents that only mention it. An arXiv ID or a DOI is searched in the form
the wiki stores it (``arXiv:2307.13854v2`` and ``https://arxiv.org/abs/2307.13854`` as ``2307.13854``,
``https://doi.org/10.1145/X`` as ``10.1145/x``), and the work holding it is offered above the results as one named
so is (``wiki.search.close``).
"""

from __future__ import annotations

from wiki.references.identifiers import arxiv_id_from_doi, normalize_arxiv_id, normalize_doi


def identifier_forms(query: str) -> tuple[str, ...]:
    """The arXiv ID and DOI ``query`` is, as the wiki stores them (an arXiv DOI is both); empty unless ``query`` is
    one of them and nothing else."""
    forms: list[str] = []
    if arxiv_id := normalize_arxiv_id(query):
        forms.append(arxiv_id)
    if doi := normalize_doi(query):
        forms.append(doi)
        if from_doi := arxiv_id_from_doi(doi):
            forms.append(from_doi)
    return tuple(dict.fromkeys(forms))


def identifier_key(identifier: str) -> str:
    """An arXiv ID, DOI or BibTeX key as looked up: case and the spaces around it aside."""
    return identifier.strip().casefold()


def query_keys(query: str) -> list[str]:
    """What a work's identifiers are looked up by for ``query``: the arXiv ID and DOI it is, and itself (a BibTeX
    key, which has no normal form)."""
    return list(dict.fromkeys(identifier_key(form) for form in (*identifier_forms(query), query) if form.strip()))
