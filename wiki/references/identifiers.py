"""Normalising titles, arXiv IDs and DOIs, so that duplicates can be found."""

from __future__ import annotations

import re
import unicodedata

_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])", re.IGNORECASE)
_ARXIV_OLD = re.compile(r"\b([a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b", re.IGNORECASE)
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def normalize_title(title: str) -> str:
    """Lower case, NFKC, punctuation and spacing folded: equal for titles that differ only in form."""
    folded = unicodedata.normalize("NFKC", title).casefold()
    return _NON_WORD.sub(" ", folded).strip()


def normalize_arxiv_id(raw: str) -> str | None:
    """``arXiv:2307.13854v2``, ``https://arxiv.org/abs/2307.13854`` or ``cs.AI/0601001v1`` → the ID without version."""
    text = raw.strip()
    if not text:
        return None
    match = _ARXIV_NEW.search(text)
    if match:
        return match.group(1)
    match = _ARXIV_OLD.search(text)
    if match:
        return match.group(1).lower()
    return None


def normalize_doi(raw: str) -> str | None:
    """``https://doi.org/10.1145/X``, ``doi:10.1145/X`` → ``10.1145/x``."""
    match = _DOI.search(raw.strip())
    if not match:
        return None
    return match.group(1).rstrip(".,;)").lower()


_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def arxiv_id_from_doi(doi: str) -> str | None:
    """arXiv's own DOIs (``10.48550/arXiv.2309.07864``) name an arXiv ID, not a published version."""
    match = _ARXIV_DOI.match(doi.strip())
    return normalize_arxiv_id(match.group(1)) if match else None


def first_author_key(authors: str) -> str:
    """The first author's family name, folded for comparison: ``Yao, Shunyu; …`` and ``Shunyu Yao and …`` → ``yao``.

    Empty when no author is known (``et al.`` alone, an organisation in braces counts as its first word).
    """
    first = re.split(r";|\band\b", authors, maxsplit=1)[0].strip()
    if not first or first.lower().startswith("et al"):
        return ""
    family = first.split(",", 1)[0] if "," in first else first.split()[-1]
    folded = unicodedata.normalize("NFKD", family).encode("ascii", "ignore").decode() or family
    return _NON_WORD.sub("", folded.casefold())
