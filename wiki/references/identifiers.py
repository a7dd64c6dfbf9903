"""Normalising titles, arXiv IDs and DOIs, so that duplicates can be found.

``normalize_arxiv_id`` and ``normalize_doi`` read a field that holds one identifier (in any of its usual wrappers:
``arXiv:``, an arxiv.org or doi.org URL, ``doi:``, a version suffix); ``find_arxiv_id`` and ``find_doi`` look for
one inside free text, such as a BibTeX ``journal = {arXiv preprint arXiv:2307.13854}``.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote

from wiki.references.latex import latex_to_text
from wiki.search.tokenize import fold_accents, fold_variants

# YYMM.NNNNN (from April 2007) and archive(.SC)/YYMMNNN (before): the month is 01-12.
_NEW_ID = r"\d\d(?:0[1-9]|1[0-2])\.\d{4,5}"
_OLD_ID = r"[a-z][a-z\-]*(?:\.[a-z]{2})?/\d\d(?:0[1-9]|1[0-2])\d{3}"
_ID = rf"(?P<id>{_NEW_ID}|{_OLD_ID})(?:v\d+)?"
_ARXIV_WHOLE = re.compile(
    rf"(?:arxiv:\s*|(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/|"
    rf"(?:(?:https?://)?(?:dx\.)?doi\.org/|doi:\s*)?10\.48550/arxiv\.)?{_ID}(?:\.pdf)?/?",
    re.IGNORECASE,
)
_ARXIV_IN_TEXT = re.compile(rf"(?<![\w.])(?:arxiv[:.]\s*)?{_ID}(?![\w/])", re.IGNORECASE)
# A DOI, or a shortDOI (``10/fqd6hj``, shortdoi.org's handle for one, which doi.org resolves as it does the DOI).
_DOI_BODY = r"(?P<doi>10\.\d{4,9}/\S+|10/[a-z0-9]+)"
_DOI_WHOLE = re.compile(rf"(?:(?:https?://)?(?:dx\.)?doi\.org/|doi:\s*)?{_DOI_BODY}", re.IGNORECASE)
_DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/\S+)", re.IGNORECASE)
_SHORT_DOI_IN_URL = re.compile(r"doi\.org/(10/[a-z0-9]+)(?![\w.-])", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
# Where a title's subtitle begins, as bibliographies write it: a colon; an em dash or a horizontal bar, single or
# doubled as Chinese writes one (AIOptimizer ——基于强化学习的…); an en dash or a hyphen, two or three, between spaces
# (AIOptimizer -- A reinforcement…, as arXiv lists it). A hyphen or an en dash within a word or a range parts nothing
# (Self-Refine, Kullback–Leibler, 2020–2021).
SUBTITLE_MARK = re.compile(r"[:：]|\s*[—―]+\s*|\s+(?:–|-{1,3})\s+")


def _fold_form(text: str) -> str:
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def normalize_title(title: str) -> str:
    """Lower case, NFKC, punctuation and spacing folded, Traditional characters read as Simplified (as wiki links and
    citations read them), Latin letters without their accents and ``&`` as ``and`` (as Zotero compares titles), LaTeX
    decoded: equal for titles that differ only in form, script, accents or ampersands (``強化學習綜述``, ``强化学习综述``;
    ``{\\"U}ber Agenten \\& Tools``, ``Über Agenten & Tools``, ``Uber agenten and tools.``)."""
    text = unicodedata.normalize("NFKC", fold_variants(latex_to_text(title) if "\\" in title else title))
    return _NON_WORD.sub(" ", fold_accents(text).replace("&", " and ").casefold()).strip()


def short_name_key(short_name: str) -> str:
    """Equal for short names that differ only in case, width, spacing or punctuation (``WebArena``, ``webarena``,
    ``ＷｅｂＡｒｅｎａ``, ``Web Arena``, ``Web-Arena``)."""
    return _fold_form(short_name).replace(" ", "") or short_name.strip().casefold()


def _arxiv_form(found: str) -> str:
    """An ID as arXiv writes it: ``MATH.gt/0309136`` → ``math.GT/0309136`` (archive lower case, subject class upper)."""
    if "/" not in found:
        return found
    archive, number = found.split("/", 1)
    name, _, subject = archive.partition(".")
    return f"{name.lower()}.{subject.upper()}/{number}" if subject else f"{name.lower()}/{number}"


def _issued(found: str) -> bool:
    """Whether arXiv can have issued the ID by now: new-style IDs began in April 2007 (0704) and old-style ones ran
    from August 1991 to March 2007; an ID of a month not yet begun (``9912.99999`` would be December 2099) is a typo."""
    yymm = int(found.rsplit("/", 1)[-1][:4])
    if "/" in found:
        return yymm >= 9108 or yymm <= 703
    # A day ahead of UTC: the month has begun somewhere, and a new month's first IDs are issued on its first day.
    now = datetime.now(UTC) + timedelta(days=1)
    return 704 <= yymm <= (now.year % 100) * 100 + now.month


def normalize_arxiv_id(raw: str) -> str | None:
    """``arXiv:2307.13854v2``, ``https://arxiv.org/abs/2307.13854``, ``10.48550/arXiv.2307.13854`` or
    ``cs.AI/0601001v1`` → the ID without version; None unless ``raw`` is one identifier, and one arXiv can have issued
    by now, and nothing else."""
    match = _ARXIV_WHOLE.fullmatch(raw.strip())
    return _arxiv_form(match.group("id")) if match and _issued(match.group("id")) else None


def find_arxiv_id(text: str) -> str | None:
    """The first arXiv ID written in ``text`` (``arXiv preprint arXiv:2307.13854``), normalised."""
    for match in _ARXIV_IN_TEXT.finditer(text):
        if _issued(match.group("id")):
            return _arxiv_form(match.group("id"))
    return None


_AROUND_AN_ID = re.compile(r"^arxiv\s+preprint\s+|\s*\[[^\]]*\]\s*$|\.$", re.IGNORECASE)


def arxiv_id_alone(text: str) -> str | None:
    """The arXiv ID ``text`` is, and nothing else, as Zotero and Google Scholar write one in a note or a venue
    (``arXiv:2210.03629 [cs]``, ``arXiv preprint arXiv:2210.03629``), normalised; None for text that only mentions
    one (``See arXiv:2301.00001 for the preprint version.``), which may name another version of the work."""
    return normalize_arxiv_id(_AROUND_AN_ID.sub("", text.strip())) if text else None


def arxiv_match_key(arxiv_id: str) -> str:
    """What two arXiv IDs of one paper share: an old-style ID without its subject class (``math.GT/0309136`` and
    ``math/0309136`` are one paper → ``math/0309136``); a new-style ID as it is."""
    if "/" not in arxiv_id:
        return arxiv_id
    archive, number = arxiv_id.split("/", 1)
    return f"{archive.split('.', 1)[0].lower()}/{number}"


def arxiv_number(arxiv_id: str) -> str:
    """The part after the archive (``0309136``), by which candidate duplicates of an old-style ID are fetched."""
    return arxiv_id.rsplit("/", 1)[-1]


def normalize_doi(raw: str) -> str | None:
    """``https://doi.org/10.1145/X``, ``doi:10.1145/X`` → ``10.1145/x``, a shortDOI ``10/FQD6HJ`` → ``10/fqd6hj`` (kept as
    written: resolving it to the DOI it stands for needs the network); None unless ``raw`` is one DOI and nothing else
    (a full stop or comma after it, as copied from a sentence, is not part of it). A doi.org address is read as the
    DOI it percent-encodes (``…/49:8%3C693::AID-ASI4%3E3.0.CO;2-0`` is ``…/49:8<693::aid-asi4>3.0.co;2-0``)."""
    match = _DOI_WHOLE.fullmatch(raw.strip().rstrip(".,;"))
    if match is None:
        return None
    doi = match.group("doi")
    return (unquote(doi) if "doi.org/" in match.group().lower() else doi).lower()


def find_doi(text: str) -> str | None:
    """The first DOI written in ``text``, normalised (trailing punctuation is not part of it), as :func:`normalize_doi`
    reads a doi.org address; a shortDOI only in a doi.org address (``https://doi.org/10/fqd6hj``), where it cannot be
    a fraction."""
    text = text.strip()
    match = _DOI_IN_TEXT.search(text) or _SHORT_DOI_IN_URL.search(text)
    if match is None:
        return None
    doi = match.group(1).rstrip(".,;)")
    return (unquote(doi) if text[:match.start(1)].lower().endswith("doi.org/") else doi).lower()


_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def arxiv_id_from_doi(doi: str) -> str | None:
    """arXiv's own DOIs (``10.48550/arXiv.2309.07864``) name an arXiv ID, not a published version."""
    match = _ARXIV_DOI.match(doi.strip())
    return normalize_arxiv_id(match.group(1)) if match else None


def split_identifiers(arxiv_id: str, doi: str) -> tuple[str, str]:
    """The arXiv ID and the DOI, normalised where they can be (a value that cannot is kept, for validation to refuse);
    arXiv's own DOI becomes the arXiv ID it names (kept as DOI only when the arXiv ID given is another)."""
    arxiv = normalize_arxiv_id(arxiv_id) or arxiv_id if arxiv_id.strip() else ""
    doi_normal = normalize_doi(doi) or doi if doi.strip() else ""
    named = arxiv_id_from_doi(doi_normal) if doi_normal else None
    if named and (not arxiv or arxiv_match_key(arxiv) == arxiv_match_key(named)):
        return arxiv or named, ""
    return arxiv, doi_normal


def identifiers_from_url(url: str) -> tuple[str, str]:
    """The arXiv ID and the DOI a URL points at, read as the importers read a reference's URL: an arxiv.org address
    gives its arXiv ID, a doi.org address its DOI (arXiv's own DOI gives the arXiv ID it names); ``("", "")`` for any
    other address."""
    lowered = url.lower()
    arxiv = (find_arxiv_id(url) or "") if "arxiv.org" in lowered else ""
    doi = (find_doi(url) or "") if "doi.org/" in lowered else ""
    named = arxiv_id_from_doi(doi) if doi else None
    if named:
        return arxiv or named, ""
    return arxiv, doi


def _first_name(authors: str) -> str:
    """The first name of an author list, an organisation's without the braces that keep it whole: ``{Google
    DeepMind}`` is read as the same first author as ``Google DeepMind`` written before it was braced."""
    first = re.split(r";|\band\b", authors, maxsplit=1)[0].strip()
    return first[1:-1].strip() if first.startswith("{") and first.endswith("}") else first


def _first_author(authors: str) -> tuple[str, str]:
    """The first author's family name and given names as written (``Wang, Lei`` and ``Lei Wang`` → ``Wang``, ``Lei``;
    a name written without a comma, as Chinese is, wholly the family name: ``张昆``); empty when none is known."""
    first = _first_name(authors)
    if not first or first.lower().startswith("et al"):
        return "", ""
    if "," in first:
        family, given = first.split(",", 1)
        return family.strip(), given.strip()
    words = first.split()
    return words[-1], " ".join(words[:-1])


def _fold(name: str) -> str:
    # a name in Traditional characters is the name in Simplified ones, as a title is
    name = fold_variants(name)
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or name
    return _NON_WORD.sub("", folded.casefold())


def first_author_key(authors: str) -> str:
    """The first author's family name, folded for comparison: ``Yao, Shunyu; …`` and ``Shunyu Yao and …`` → ``yao``.

    Empty when no author is known (``et al.`` alone); an organisation in braces counts as its last word, as it did
    before it was braced.
    """
    return _fold(_first_author(authors)[0])


def first_author_family(authors: str) -> str:
    """The first author's family name as written (``Rich`` of ``Rich, Elaine``, ``张昆`` of ``张昆; 冯立群``); an
    organisation braced whole, its whole name (``Google DeepMind``)."""
    first = re.split(r";|\band\b", authors, maxsplit=1)[0].strip()
    if first.startswith("{") and first.endswith("}"):
        return first[1:-1].strip()
    return _first_author(authors)[0]


def _first_given(given: str) -> str:
    """The first of the given names, folded (``Xiao-Meng`` → ``xiaomeng``, ``T. R.`` → ``t``)."""
    names = [_fold(name) for name in re.split(r"[\s.]+", given)]
    return next((name for name in names if name), "")


def same_first_author(authors: str, other: str) -> bool | None:
    """Whether two author lists start with the same person: the same family name and, when both give one, the same
    first given name, or its initial when either gives only that (``Wang, L.`` is ``Wang, Lei``; ``Wang, Xiaomeng``
    is not). None when either names no author."""
    (family, given), (other_family, other_given) = _first_author(authors), _first_author(other)
    if not _fold(family) or not _fold(other_family):
        return None
    if _fold(family) != _fold(other_family):
        return False
    first, other_first = _first_given(given), _first_given(other_given)
    if not first or not other_first:
        return True
    if len(first) == 1 or len(other_first) == 1:
        return first[0] == other_first[0]
    return first == other_first
