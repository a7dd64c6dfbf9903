"""A source not yet saved, as the reference readers and the forms produce it."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy

from wiki.models import Source, SourceKind
from wiki.models.rules import (
    MAX_ABSTRACT_CHARS,
    MAX_NOTES_CHARS,
    MAX_TEXT_CHARS,
    fit,
    max_length,
    strip_control,
    validate_optional_line,
)
from wiki.references.errors import FieldProblem
from wiki.references.identifiers import SUBTITLE_MARK, arxiv_id_from_doi, normalize_arxiv_id, normalize_doi
from wiki.text.numbers import grouped
from wiki.text.spaces import collapse_spaces


@dataclass
class SourceDraft:
    """The fields of a source not yet saved; identifiers are normalised."""

    title: str = ""
    short_name: str = ""
    kind: str = SourceKind.PAPER
    authors: str = ""
    year: int | None = None
    venue: str = ""
    url: str = ""
    arxiv_id: str = ""
    doi: str = ""
    bibtex_key: str = ""
    abstract: str = ""
    notes: str = ""
    entry_type: str = ""
    bibliographic: dict[str, str] = field(default_factory=dict)
    extra_fields: dict[str, str] = field(default_factory=dict)  # wiki.references.extra_fields

    def as_fields(self) -> dict[str, Any]:
        return asdict(self)


# What a reference file says of a work beyond the fields a source has, kept as it came (by BibTeX's names) so that
# the work is written back whole: a conference paper's pages, a journal article's volume and number, a thesis' school.
BIBLIOGRAPHIC_FIELDS = {
    "journal": gettext_lazy("journal"), "booktitle": gettext_lazy("proceedings"), "volume": gettext_lazy("volume"),
    "number": gettext_lazy("number"), "pages": gettext_lazy("pages"), "series": gettext_lazy("series"),
    "edition": gettext_lazy("edition"), "chapter": gettext_lazy("chapter"), "publisher": gettext_lazy("publisher"),
    "address": gettext_lazy("place"), "school": gettext_lazy("school"), "institution": gettext_lazy("institution"),
    "organization": gettext_lazy("organisation"), "month": gettext_lazy("month"), "isbn": gettext_lazy("ISBN"),
    "issn": gettext_lazy("ISSN"),
}
MAX_BIBLIOGRAPHIC_CHARS = 300
# The details a work's venue is read from (wiki.references.bibtex.READ_FIELDS), in the order BibTeX's styles prefer.
VENUE_FIELDS = ("journal", "booktitle", "school", "institution", "publisher", "organization")
# The BibTeX/biblatex entry types a work is written back as (KIND_BY_ENTRY_TYPE reads each), with what each is.
ENTRY_TYPE_LABELS = {
    "article": gettext_lazy("journal article"), "inproceedings": gettext_lazy("conference paper"),
    "conference": gettext_lazy("conference paper (older name)"), "incollection": gettext_lazy("chapter in a collection"),
    "inbook": gettext_lazy("part of a book"), "book": gettext_lazy("book"), "phdthesis": gettext_lazy("doctoral thesis"),
    "mastersthesis": gettext_lazy("master's thesis"), "thesis": gettext_lazy("thesis"),
    "techreport": gettext_lazy("technical report"), "report": gettext_lazy("report"),
    "unpublished": gettext_lazy("unpublished"), "online": gettext_lazy("web page"),
    "electronic": gettext_lazy("web page (older name)"), "www": gettext_lazy("web page (older name)"),
    "software": gettext_lazy("software"), "dataset": gettext_lazy("dataset"), "misc": gettext_lazy("other (preprint…)"),
    "proceedings": gettext_lazy("proceedings"), "collection": gettext_lazy("collection"),
}


# What the reference readers share: a thesis' degree, a date's month and year, a list of Chinese names, a code host.
_DEGREE = re.compile(r"(?P<phd>ph\.?\s?d|doctor|dissertation|博士)|(?P<master>master|mathesis|m\.?\s?a\b|m\.?\s?sc|硕士)", re.IGNORECASE)
# A date as reference managers write one, year first: 2024-02-05 (biblatex, CSL's raw), 2024/11/04/ and 2024/11// (RIS).
_DATE_MONTH = re.compile(r"^\s*\d{4}[-/](\d{1,2})(?:[-/]|\s*$)")
_YEAR = re.compile(r"(?<![0-9])(1[4-9][0-9][0-9]|2[0-9][0-9][0-9])(?![0-9])")
# How Chinese separates the names of a list: 、 and ；, and ， between two names written in Chinese.
_CHINESE_LIST_SEPARATOR = re.compile(r"\s*[、；]\s*|(?<=[\u3400-\u9fff])\s*，\s*(?=[\u3400-\u9fff])")
_REPOSITORY_HOSTS = re.compile(r"^https?://(?:www\.)?(?:github\.com|gitlab\.com|gitee\.com|codeberg\.org|huggingface\.co)/",
                               re.IGNORECASE)


def separated_authors(authors: str) -> str:
    """``authors`` separated as the wiki keeps them, by semicolons: ``张三、李四；王五`` → ``张三; 李四; 王五``."""
    return _CHINESE_LIST_SEPARATOR.sub("; ", authors)


def is_repository_url(url: str) -> bool:
    """Whether ``url`` is on a code host (GitHub, GitLab, Gitee, Codeberg, Hugging Face): a work there is a project."""
    return bool(_REPOSITORY_HOSTS.match(url.strip()))


def find_year(text: str) -> int | None:
    """The year a reference manager's date gives (``2024``, ``2024-02-05``, ``2023年``, ``２０２４`` typed full width)."""
    found = _YEAR.search(unicodedata.normalize("NFKC", text))
    return int(found.group(1)) if found else None


def thesis_entry_type(degree: str) -> str:
    """The entry type of a thesis whose degree is said so (biblatex's ``type = {phdthesis}``, RIS's M3 ``博士学位论文``):
    ``phdthesis``, ``mastersthesis``, or ``thesis`` when it says neither."""
    found = _DEGREE.search(degree)
    return "thesis" if found is None else "phdthesis" if found.group("phd") else "mastersthesis"


def month_of(date: str) -> str:
    """The month of a date written year first (``2024-02-05`` → ``2``), as the wiki keeps a month; empty if none."""
    found = _DATE_MONTH.match(date)
    return str(int(found.group(1))) if found and 1 <= int(found.group(1)) <= 12 else ""


_MONTH_NAMES = {name: number for number, names in enumerate((
    ("jan", "january", "一月"), ("feb", "february", "二月"), ("mar", "march", "三月"), ("apr", "april", "四月"),
    ("may", "五月"), ("jun", "june", "六月"), ("jul", "july", "七月"), ("aug", "august", "八月"),
    ("sep", "sept", "september", "九月"), ("oct", "october", "十月"), ("nov", "november", "十一月"),
    ("dec", "december", "十二月")), start=1) for name in names}


def month_number(month: str) -> str:
    """A month as the wiki keeps one, its number (``8``), from ``08``, ``aug``, ``Aug.``, ``August``, ``8月`` or ``八月``;
    anything else as given."""
    typed = unicodedata.normalize("NFKC", month).strip().rstrip(".").lower().removesuffix("月")
    if typed.isdigit() and 1 <= int(typed) <= 12:
        return str(int(typed))
    found = _MONTH_NAMES.get(typed) or _MONTH_NAMES.get(typed + "月")
    return str(found) if found else month


def details_following_venue(details: dict[str, str], *, venue: str, was: str) -> dict[str, str]:
    """``details`` once a work's venue changed from ``was`` to ``venue``: the detail that held the venue (the journal,
    proceedings or school it was read from) holds the new one, or goes with it."""
    followed = {name: (venue if name in VENUE_FIELDS and value == was else value) for name, value in details.items()}
    return {name: value for name, value in followed.items() if value}


def one_line(name: str, value: object, limit: int, errors: list[str]) -> str:
    """The value of the field ``name`` as one line of text, spacing folded; "" when it is empty, or when it is no text,
    is longer than ``limit`` characters or holds what a line cannot, which ``errors`` is then told."""
    if not isinstance(value, str):
        errors.append(gettext("“%(name)s” is not text.") % {"name": name})
        return ""
    if len(value := collapse_spaces(value)) > limit:
        errors.append(gettext("“%(name)s” is longer than %(limit)s characters (it has %(count)s).")
                      % {"name": name, "limit": grouped(limit), "count": grouped(len(value))})
        return ""
    if value:
        try:
            validate_optional_line(value)
        except ValidationError as error:
            errors.append(gettext("“%(name)s”: %(error)s") % {"name": name, "error": error.messages[0]})
            return ""
    return value


def clean_bibliographic(values: object) -> dict[str, str]:
    """``values`` as a work keeps them: a mapping of BIBLIOGRAPHIC_FIELDS' names to one line of text each, spacing
    folded, empty ones left out. Anything else raises ``ValidationError``, a message for each detail that is wrong."""
    if not isinstance(values, dict):
        raise ValidationError(gettext("Give the bibliographic details as names and values."), code="invalid")
    cleaned, errors = {}, []
    for name, value in values.items():
        if name not in BIBLIOGRAPHIC_FIELDS:
            errors.append(gettext("“%(name)s” is no bibliographic detail the wiki keeps (%(names)s).")
                          % {"name": name, "names": ", ".join(BIBLIOGRAPHIC_FIELDS)})
        elif value := one_line(name, value, MAX_BIBLIOGRAPHIC_CHARS, errors):
            cleaned[name] = month_number(value) if name == "month" else value
    if errors:
        raise ValidationError([ValidationError(message, code="invalid") for message in errors])
    return cleaned


# What a reference file may give of each field, as the form and the API allow it: a longer value is refused with
# the entry, never cut (a cut title would make another work, and a duplicate of it on the next import). Each field as
# a sentence names it ("the title is longer…"): as its label does (wiki.field_labels), in a sentence's case and number.
SENTENCE_LABELS = {
    "title": gettext_lazy("title"), "short_name": gettext_lazy("short name"), "authors": gettext_lazy("authors"),
    "venue": gettext_lazy("venue"), "url": "URL", "bibtex_key": gettext_lazy("BibTeX key"),
    "abstract": gettext_lazy("abstract"), "notes": gettext_lazy("note"),
}
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_TEXT_LIMITS = {"authors": MAX_TEXT_CHARS, "abstract": MAX_ABSTRACT_CHARS, "notes": MAX_NOTES_CHARS}


def field_limit(name: str) -> int:
    """How many characters the wiki keeps of the draft's field ``name``."""
    return _TEXT_LIMITS.get(name) or max_length(Source, name)


def over_long_fields(draft: SourceDraft) -> list[str]:
    """Why the draft cannot be saved as it is: each field longer than the wiki keeps, with its length."""
    errors: list[str] = []
    fields = [(label, getattr(draft, name), field_limit(name)) for name, label in SENTENCE_LABELS.items()]
    fields += [(BIBLIOGRAPHIC_FIELDS[name], value, MAX_BIBLIOGRAPHIC_CHARS) for name, value in draft.bibliographic.items()]
    names = [*SENTENCE_LABELS, *draft.bibliographic]
    for name, (label, value, limit) in zip(names, fields, strict=True):
        if len(value) > limit:
            errors.append(FieldProblem(gettext("the %(field)s is longer than %(limit)s characters (it has %(count)s)")
                                       % {"field": label, "limit": grouped(limit), "count": grouped(len(value))}, field=name))
    return errors


def draft_errors(draft: SourceDraft) -> list[str]:
    """Why the draft cannot be saved as it is: a field too long (:func:`over_long_fields`), or a URL that is not one
    whole (a space in it, which a URL never holds, or no scheme), named so that it can be mended rather than lost."""
    errors = over_long_fields(draft)
    if draft.url and re.search(r"\s", draft.url):
        errors.append(FieldProblem(gettext("the URL “%(url)s” holds a space: write it as %%20, as a URL has none")
                                   % {"url": draft.url}, field="url"))
    elif draft.url and not _SCHEME.match(draft.url):
        errors.append(FieldProblem(gettext("the URL “%(url)s” has no scheme: write it whole, with https://")
                                   % {"url": draft.url}, field="url"))
    return errors


_WHOLE_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+")


def mended_draft(draft: SourceDraft) -> tuple[SourceDraft, list[str]]:
    """The draft with what would refuse it for a minor field mended, and a warning for each: control characters taken
    out of its text (an abstract copied from a PDF), and of a URL field holding several addresses apart by spaces (as
    Mendeley and Better BibTeX write a record's URLs), the first kept."""
    changes: dict[str, object] = {}
    warnings = []
    # Control characters other than tab and line breaks: text copied from a PDF brings them (a form feed, U+0002).
    for name, label in SENTENCE_LABELS.items():
        value = getattr(draft, name)
        if (stripped := strip_control(value)) != value:
            changes[name] = stripped
            warnings.append(gettext("control characters taken out of the %(field)s") % {"field": label})
    if any(strip_control(value) != value for value in draft.bibliographic.values()):
        changes["bibliographic"] = {name: strip_control(value) for name, value in draft.bibliographic.items()}
        warnings.append(gettext("control characters taken out of the bibliographic details"))
    if any(strip_control(value) != value for value in draft.extra_fields.values()):
        changes["extra_fields"] = {name: strip_control(value) for name, value in draft.extra_fields.items()}
        warnings.append(gettext("control characters taken out of the other fields"))
    urls = draft.url.split()
    if len(urls) > 1 and all(_WHOLE_URL.fullmatch(url) for url in urls):
        changes["url"] = urls[0]
        warnings.append(gettext("the URL field holds %(count)s addresses: “%(url)s” is kept, %(others)s left out") % {
            "count": len(urls), "url": urls[0], "others": ", ".join(f"“{url}”" for url in urls[1:])})
    return replace(draft, **changes), warnings  # type: ignore[arg-type]


def checked_draft(draft: SourceDraft, errors: list[str], warnings: list[str]) -> tuple[SourceDraft, list[str], list[str]]:
    """The draft a reader made, mended (:func:`mended_draft`), with the errors that refuse it (``errors`` and
    :func:`draft_errors`) and the warnings of what was mended or left out to save it."""
    draft, mended = mended_draft(draft)
    return draft, errors + draft_errors(draft), warnings + mended


def doi_or_warning(raw: str, warnings: list[str]) -> str:
    """The DOI ``raw`` is, normalised; for one that is not (``j.desal.2005.02.017``, its ``10.1016/`` prefix lost), ""
    and a warning saying it is left out: the entry is imported without it."""
    doi = normalize_doi(raw) or ""
    if raw.strip() and not doi:
        warnings.append(gettext("DOI “%(value)s” is not a DOI: it is left out") % {"value": raw.strip()})
    return doi


def draft_from_identifier(raw: str) -> SourceDraft | None:
    """A draft from an arXiv ID/URL or a DOI/doi.org URL; the title is left for the editor to type. arXiv's own DOI
    (``10.48550/arXiv.2307.13854``) gives the arXiv ID it names."""
    text = raw.strip()
    doi = normalize_doi(text)
    if doi and not arxiv_id_from_doi(doi):
        return SourceDraft(doi=doi, url=f"https://doi.org/{doi}")
    arxiv = normalize_arxiv_id(text)
    if arxiv:
        return SourceDraft(arxiv_id=arxiv, kind=SourceKind.PREPRINT, url=f"https://arxiv.org/abs/{arxiv}")
    return None



_HAN = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff·]+$")


def person_name(family: str, given: str) -> str:
    """A person as the wiki keeps one: ``Family, Given``; a Chinese name as it is written, family name first and no
    comma (Zotero's ``张, 伟`` is 张伟)."""
    family, given = family.strip(), given.strip()
    if family and given:
        return f"{family}{given}" if _HAN.match(family) and _HAN.match(given) else f"{family}, {given}"
    return family or given


# A name ending in its own "!" or "?" before the title goes on, as a colon ends one: ``Skill-It! A Data-Driven…``
# (a space and a capital after it), ``智能体！面向长程任务…`` (full width, anything after it).
_NAME_MARK = re.compile(r"[!?](?=\s+\w)|[！？](?=\S)")
# How long a head before such a mark may be to read as a name rather than a sentence: a few words, a few characters.
_MARKED_NAME_WORDS = 3
_MARKED_NAME_CHARS = 40
_MARKED_CHINESE_NAME_CHARS = 16
_CHINESE_PUNCTUATION = re.compile(r"[，。、；：“”《》（）\s]")


def _marked_name(title: str) -> str:
    """The name a title begins with when a ``!`` or ``?`` ends it (kept, as the name's own): ``Skill-It!``,
    ``Who's Harry Potter?``; empty when no such mark ends a name-like head (``Is Attention All You Need? A…`` is a
    question, not a name)."""
    for mark in _NAME_MARK.finditer(title):
        head = title[: mark.start()].strip()
        if not head:
            continue
        if mark.group() in "！？":
            if len(head) <= _MARKED_CHINESE_NAME_CHARS and not _CHINESE_PUNCTUATION.search(head):
                return head + mark.group()
            return ""
        words = head.split()
        after = title[mark.end():].lstrip()
        if (after[:1].isupper() and len(words) <= _MARKED_NAME_WORDS and len(head) <= _MARKED_NAME_CHARS
                and all(word[:1].isupper() or word[:1].isdigit() for word in words)):
            return head + mark.group()
        return ""
    return ""


def short_name_from_title(title: str) -> str:
    """``SkillForge: Evolving Verifiable Skills…`` → ``SkillForge``, ``通义深度研究：面向长程任务…`` → ``通义深度研究``,
    ``AIOptimizer -- A Reinforcement…`` and ``AIOptimizer ——基于强化学习的…`` → ``AIOptimizer`` (a subtitle after a dash, as
    :data:`~wiki.references.identifiers.SUBTITLE_MARK` reads it), ``Skill-It! A Data-Driven Skills Framework…`` →
    ``Skill-It!``; a title without a subtitle or a name ending in its own ``!`` or ``?`` stays whole."""
    head = SUBTITLE_MARK.split(title, 1)[0].strip()
    marked = _marked_name(title)
    # the mark ends the name unless a colon ends one holding it (``Yahoo! Answers: A Study``)
    if marked and len(marked) < len(head) and not (
            marked[-1] in "!?" and head != title and len(head.split()) <= _MARKED_NAME_WORDS):
        return marked
    return head if head and len(head) <= 60 and head != title else fit(Source, "short_name", title)
