"""Reading a page file: optional front matter, then Markdown with the wiki's citation syntax.

A file the wiki exported (:mod:`wiki.references.markdown_export`) ends with the works the page cites, after
:data:`~wiki.references.markdown_export.REFERENCES_MARKER`: that line and all below it are not the page's text.

Everything is checked before anything is written: bad input raises :class:`ImportError_`
with a message per problem and leaves the database unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from wiki import markdown as wiki_markdown
from wiki.change_summaries import MESSAGES
from wiki.markdown.wikilinks import target_slug
from wiki.models import ChangeEvent, Citation, Claim, Page, Revision, Source
from wiki.models.pages import RESERVED_SLUGS
from wiki.models.rules import PAGE_SLUG_PATTERN, max_length
from wiki.references.front_matter import read_front_matter_value
from wiki.references.markdown_export import REFERENCES_MARKER
from wiki.roles import User
from wiki.services.page_claims import ClaimReport, claim_report_for
from wiki.services.pages import page_save

PAGE_SLUG_RE = re.compile(PAGE_SLUG_PATTERN)
SLUG_MAX = max_length(Page, "slug")
TITLE_MAX = max_length(Page, "title")
FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*\n", re.DOTALL)
SCRAPED_BULLET_RE = re.compile(r"^[ \t]*•[ \t]*", re.MULTILINE)
# The marker's opening words, so that a marker whose comment an editor reworded still ends the text.
_MARKER_HEAD = REFERENCES_MARKER.split(":", 1)[0]
REFERENCES_MARKER_RE = re.compile(rf"^[ \t]*{re.escape(_MARKER_HEAD)}\b.*?-->[ \t]*$", re.MULTILINE)
LEADING_BLANK_LINES_RE = re.compile(r"\A(?:[ \t]*\n)+")


class PageImportError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class PageFile:
    slug: str
    title: str
    summary: str
    body: str


@dataclass
class ImportReport:
    page: Page
    created_page: bool
    unchanged: bool
    claims: int = 0
    citations: int = 0
    new_claims: int = 0
    new_sources: list[str] = field(default_factory=list)
    revision: Revision | None = None
    claim_changes: ClaimReport | None = None
    # Cited titles left unresolved because they are close to existing works: (title, the works' short names).
    did_you_mean: list[tuple[str, list[str]]] = field(default_factory=list)

    def lines(self) -> list[str]:
        verb = "created" if self.created_page else ("unchanged" if self.unchanged else "updated")
        out = [f"Page {self.page.slug} {verb}: {self.claims} claims ({self.new_claims} new), {self.citations} citations."]
        if self.new_sources:
            out.append(f"New sources ({len(self.new_sources)}): {', '.join(self.new_sources)}")
        for title, works in self.did_you_mean:
            out.append(f"Not created, close to an existing work: “{title}” — did you mean {' / '.join(works)}? "
                       "Correct the title, or cite it as a new work in the editor.")
        if self.claim_changes is not None and not self.created_page and self.claim_changes.changed:
            out.append(f"Claims: {self.claim_changes.summary()}.")
            out += [f"  {change.outcome} #{change.claim_id}: {change.text[:80]}" for change in self.claim_changes.changes]
        return out


def parse_page_file(raw: bytes, *, filename: str = "") -> PageFile:
    """The page in ``raw``; raises :class:`PageImportError` listing every problem found."""
    if not raw.strip():
        raise PageImportError(["the file is empty"])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise PageImportError([f"the file is not UTF-8 text (invalid byte at position {error.start})"]) from None
    text = text.replace("\r\n", "\n")
    meta: dict[str, str] = {}
    match = FRONT_MATTER_RE.match(text)
    if match:
        # Split at line feeds only: a quoted value holds its other line breaks escaped, a bare one may hold U+2028.
        for line in match.group(1).split("\n"):
            if not line.strip():
                continue
            key, sep, value = line.partition(":")
            if not sep:
                raise PageImportError([f"front matter line “{line.strip()}” is not “key: value”"])
            meta[key.strip().lower()] = read_front_matter_value(value)
        text = text[match.end() :]
    markers = list(REFERENCES_MARKER_RE.finditer(text))
    if markers:
        text = text[: markers[-1].start()]
    body = normalized_body(text)
    title = meta.get("title") or _first_heading(body) or Path(filename).stem
    slug = meta.get("slug") or target_slug(title)
    problems: list[str] = []
    if not body.strip():
        problems.append("the page has no text")
    if not slug:
        problems.append("the page has no title or slug")
    elif not PAGE_SLUG_RE.fullmatch(slug):
        problems.append(f"the slug “{slug}” may hold only letters (Latin, Greek, Cyrillic, Chinese, Japanese, Korean), "
                        "digits, hyphens and underscores, at least one letter or digit among them")
    elif len(slug) > SLUG_MAX:
        problems.append(f"the slug is {len(slug)} characters long; at most {SLUG_MAX} are allowed")
    if slug in RESERVED_SLUGS:
        problems.append(f"the slug “{slug}” is reserved; choose another")
    if len(title) > TITLE_MAX:
        problems.append(f"the title is {len(title)} characters long; at most {TITLE_MAX} are allowed")
    # The limits first: the citations of a text over them are not read.
    try:
        wiki_markdown.check_complexity(body)
    except wiki_markdown.MarkdownTooComplex as error:
        problems.append(str(error))
    else:
        _, citation_problems = wiki_markdown.find_citations(body)
        problems += [f"line {p.line}: {p.message}: {p.excerpt}" for p in citation_problems]
    if problems:
        raise PageImportError(problems)
    return PageFile(slug=slug, title=title, summary=meta.get("summary", ""), body=body)


def normalized_body(text: str) -> str:
    """The page text as an import stores it: scraped ``•`` bullets as ``- ``, blank lines at either end dropped
    (the first line's indentation kept), one final line feed."""
    return LEADING_BLANK_LINES_RE.sub("", SCRAPED_BULLET_RE.sub("- ", text)).rstrip() + "\n"


def _first_heading(body: str) -> str:
    match = re.search(r"^#\s+(.+)$", body, re.MULTILINE)
    return match.group(1).strip() if match else ""


@transaction.atomic
def page_import(*, page_file: PageFile, user: User | None = None) -> ImportReport:
    """Saves the page as a new revision, unless its text is unchanged (importing twice duplicates nothing)."""
    existing = Page.objects.filter(slug=page_file.slug).first()
    # The stored text compared as the file gives it back: blank lines at its ends make no revision.
    if existing and (normalized_body(existing.body), existing.title, existing.summary) == (
            page_file.body, page_file.title, page_file.summary):
        report = ImportReport(page=existing, created_page=False, unchanged=True)
    else:
        sources_before = set(Source.objects.values_list("pk", flat=True))
        claims_before = set(Claim.objects.filter(page=existing).values_list("pk", flat=True)) if existing else set()
        base = existing.revisions.order_by("-number").values_list("number", flat=True).first() if existing else None
        saved = page_save(
            slug=page_file.slug,
            title=page_file.title,
            summary=page_file.summary,
            body=page_file.body,
            comment=MESSAGES["imported"],
            user=user,
            base_revision=base,
            action=ChangeEvent.Action.IMPORTED,
        )
        revision = saved.revision
        page = revision.page
        new_sources = Source.objects.exclude(pk__in=sources_before).in_name_order()
        report = ImportReport(
            page=page,
            created_page=existing is None,
            unchanged=False,
            revision=revision,
            new_sources=list(new_sources.values_list("short_name", flat=True)),
            claim_changes=claim_report_for(revision),
            did_you_mean=[(m.title, [w.short_name for w in m.suggestions]) for m in saved.citations.close],
        )
        report.new_claims = Claim.objects.filter(page=page).exclude(pk__in=claims_before).count()
    report.claims = Claim.objects.current().filter(page=report.page).count()
    report.citations = Citation.objects.filter(claim__page=report.page, claim__is_orphaned=False).count()
    return report
