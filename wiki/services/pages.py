from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy

from wiki import markdown as wiki_markdown
from wiki.change_summaries import MESSAGES, with_title_change
from wiki.markdown import ForeignMarkup, RenderResult, SourceRef
from wiki.markdown.citation_markers import missing_citation_titles
from wiki.markdown.wikilinks import link_key, target_slug
from wiki.models import ChangeEvent, GlossaryTerm, Page, PageRedirect, Revision, Source, WikiLink
from wiki.models.pages import RESERVED_SLUGS
from wiki.models.rules import fit, normalize_page_slug
from wiki.roles import User, account
from wiki.search.index import search_reindex_linked_pages, search_reindex_page_with_claims
from wiki.search.tokenize import fold_variants
from wiki.services.changes import change_record
from wiki.services.citations import CitationOutcome, CitationReport, citations_ensure, citations_resolve
from wiki.services.page_claims import page_claims_sync
from wiki.services.sources import sources_by_title
from wiki.services.watches import watch_edited


class EditConflict(Exception):
    """Someone saved the page after the revision the editor started from."""

    def __init__(self, *, page: Page, base_number: int, current: Revision, mine: dict[str, str] | None = None) -> None:
        super().__init__(f"{page.slug} changed since revision {base_number}: now at {current.number}")
        self.page = page
        self.base_number = base_number
        self.current = current
        self.mine = mine or {}  # the title, summary and body that were not saved


class PageExists(EditConflict):
    """A page was to be created (base revision 0) at an address a page has already."""


class PageDeleted(ValidationError):
    """The page being edited was deleted meanwhile: nothing was saved. ``page`` is the deleted row, with who
    deleted it, when and why."""

    def __init__(self, *, page: Page) -> None:
        super().__init__({"slug": [ValidationError(
            gettext_lazy("A deleted page has the address “%(slug)s”; staff can restore it."), code="deleted",
            params={"slug": page.slug})]})
        self.page = page


class PageBlanking(ValidationError):
    """An edit would leave a page that has text with none: nothing was saved until the editor confirms it
    (``confirm_blank``), as a wiki asks before a page is blanked."""

    def __init__(self) -> None:
        super().__init__({"confirm_blank": [ValidationError(gettext_lazy(
            "This edit leaves the page without any text: nothing was saved. Save again to blank the page all the same, "
            "or put its text back."), code="blanking")]})


class UnknownBaseRevision(EditConflict):
    """The editor's base revision is later than the page's latest: a client mistake rather than someone's later save.

    A subclass, so that callers which only know :class:`EditConflict` still refuse the save.
    """


@dataclass(frozen=True)
class LinkTargets:
    """What a text's wiki links lead to: the slugs of pages that exist (named by their address or otherwise), the page
    each link naming it otherwise leads to (a former address, a title), and for the others the glossary term each
    names."""

    pages: frozenset[str]
    terms: dict[str, str]
    aliases: dict[str, str]


def _render(body: str, *, sources: dict[str, Source], targets: LinkTargets) -> RenderResult:
    refs = {title: SourceRef(slug=s.slug, short_name=s.short_name) for title, s in sources.items()}
    return wiki_markdown.render(body, sources=refs, existing_pages=targets.pages, terms=targets.terms, aliases=targets.aliases)


def link_targets(slugs: Iterable[str]) -> LinkTargets:
    """Which of ``slugs`` are pages' addresses, which of the others are a page's former address or name its title,
    and which glossary term each of the rest names, by its :func:`~wiki.markdown.wikilinks.link_key` (four queries at
    most). Past the address, Traditional characters are read as Simplified: ``強化學習`` names the page at 强化学习, the
    page titled 强化学习 and the term 强化学习.

    An address wins over a former address, that over an address once Traditional characters are read, that over a
    title, and a page over a term; of pages sharing a title, the oldest is the one linked. A term whose own slug is the
    link's wins over one that only has a name slugifying to it.
    """
    wanted = set(slugs)
    pages = frozenset(Page.objects.filter(slug__in=wanted).values_list("slug", flat=True))
    rest = wanted - pages
    # Past the address, a target is compared in Simplified characters (wiki.markdown.wikilinks.link_key).
    keys = {slug: fold_variants(slug) for slug in rest}
    aliases: dict[str, str] = {}
    if rest:
        former = dict(PageRedirect.objects.live().filter(slug__in=rest | set(keys.values())).values_list("slug", "page__slug"))
        aliases.update((slug, former.get(slug) or former[keys[slug]]) for slug in rest if {slug, keys[slug]} & former.keys())
        rest -= aliases.keys()
    if rest:
        folded = {keys[slug] for slug in rest}
        by_address: dict[str, str] = {}
        by_title: dict[str, str] = {}
        named = Page.objects.filter(Q(slug__in=folded) | Q(title_key__in=folded)).order_by("pk")
        for slug, key in named.values_list("slug", "title_key"):
            if slug in folded:
                by_address[slug] = slug
            by_title.setdefault(key, slug)
        aliases.update((slug, page) for slug in rest if (page := by_address.get(keys[slug]) or by_title.get(keys[slug])))
        rest -= aliases.keys()
    terms = GlossaryTerm.objects.slugs_linked_as({keys[slug] for slug in rest})
    return LinkTargets(pages=pages | frozenset(aliases.values()), terms=terms, aliases=aliases)


@dataclass(frozen=True)
class PagePreview:
    """The rendered text, and how its citations resolve (which are close to a work, which would be new)."""

    result: RenderResult
    citations: CitationReport
    # The work each cited title names, and each title the page's claims cited before the edit
    # (:func:`wiki.services.page_claims.page_claims_plan` compares the works, not their names).
    sources: Mapping[str, Source] = field(default_factory=dict)


@dataclass(frozen=True)
class MergedEdit:
    """An edit started from revision ``base`` and saved merged with the revisions saved since, up to ``theirs``."""

    base: int
    theirs: int


@dataclass(frozen=True)
class PageSaved:
    """The revision a save made, and how its citations resolved (the works it created, the titles left unresolved).

    ``unchanged``: the title, summary and text were those of the latest revision, so nothing was written and
    ``revision`` is that latest revision. ``merged``: the edit was merged with revisions saved after the one it
    started from (:func:`wiki.services.page_edits.page_save_merging`). ``foreign``: the MediaWiki markup the saved
    text holds, which this wiki reads otherwise (the editor is told; nothing is refused)."""

    revision: Revision
    citations: CitationReport
    unchanged: bool = False
    merged: MergedEdit | None = None
    # MediaWiki markup the text holds, which this wiki reads otherwise (wiki.markdown.foreign_markup).
    foreign: tuple[ForeignMarkup, ...] = ()


def page_preview(*, body: str, new_works: Collection[str] = (), page: Page | None = None) -> PagePreview:
    """Renders ``body`` without writing anything: unknown citations show as missing sources, and the report says
    which of them are close to an existing work and which saving would create. ``page``: the page edited, whose
    cited titles are resolved too (in the same queries), so that the preview tells a claim citing the same work by
    another name as keeping its citations.

    A text over the limits raises :class:`~wiki.markdown.MarkdownTooComplex` before its citations are read or matched
    against the works, the dearest step (some seconds for thousands of titles)."""
    wiki_markdown.check_complexity(body)
    sources, report = citations_resolve(titles=wiki_markdown.cited_titles(body), new_works=new_works,
                                        also=wiki_markdown.cited_titles(page.body) if page is not None else ())
    result = _render(body, sources=sources, targets=link_targets(wiki_markdown.find_link_targets(body)))
    return PagePreview(result=result, citations=report, sources=sources)


def page_validate(*, slug: str, title: str, summary: str, body: str, comment: str = "") -> None:
    """Raises ``ValidationError`` (per field) when the values break a rule of :class:`Page` or :class:`Revision`:
    lengths, control characters, the slug's characters, a clash of the edit-conflict screen left in the text; a
    title that gives no slug needs one typed."""
    if not slug:
        raise ValidationError({"slug": [ValidationError(gettext_lazy("The title gives no usable address; type a slug."), code="no_slug")]})
    errors: dict[str, list[ValidationError]] = {}
    try:
        Page(slug=slug, title=title, summary=summary, body=body).clean_fields(exclude=["rendered_html", "toc"])
    except ValidationError as error:
        errors.update(error.error_dict)
    try:
        Revision._meta.get_field("comment").clean(comment, None)
    except ValidationError as error:
        errors["comment"] = error.error_list
    if errors:
        raise ValidationError(errors)


def page_locked(*, page_id: int) -> Page:
    """The live page ``page_id``, its row locked until the transaction ends (a move or a deletion waits for what is
    done to it); :class:`PageDeleted` when it was deleted, a ``ValidationError`` (code ``no_page``) when the wiki has no
    such page."""
    page = Page.all_objects.select_for_update().filter(pk=page_id).first()
    if page is None:
        raise ValidationError({"page_id": [ValidationError(gettext_lazy("The page this form was opened on no longer "
                                                                        "exists."), code="no_page")]})
    if page.is_deleted:
        raise PageDeleted(page=Page.all_objects.select_related("deleted_by").get(pk=page_id))
    return page


def page_save_revision(
    *,
    slug: str,
    title: str,
    body: str,
    summary: str = "",
    comment: str = "",
    user: User | None = None,
    base_revision: int | None = None,
    action: str = ChangeEvent.Action.EDITED,
    new_works: Collection[str] = (),
    minor: bool = False,
    page_id: int | None = None,
) -> Revision:
    """:func:`page_save`, for callers that need only the revision."""
    return page_save(slug=slug, title=title, body=body, summary=summary, comment=comment, user=user,
                     base_revision=base_revision, action=action, new_works=new_works, minor=minor,
                     page_id=page_id).revision


@transaction.atomic
def page_save(
    *,
    slug: str,
    title: str,
    body: str,
    summary: str = "",
    comment: str = "",
    user: User | None = None,
    base_revision: int | None = None,
    action: str = ChangeEvent.Action.EDITED,
    new_works: Collection[str] = (),
    record_change: bool = True,
    minor: bool = False,
    blanking_confirmed: bool = True,
    page_id: int | None = None,
) -> PageSaved:
    """Saves a new revision of the page ``slug`` (creating the page when it does not exist).

    ``page_id``: the page to save, wherever it is now (``slug`` is then only where the caller last saw it): a page
    moved since is saved at its new address and a page created meanwhile at its former one is left alone;
    :class:`PageDeleted` when it was deleted, a ``ValidationError`` (code ``no_page``) when it is gone.

    The changes feed records the save (``record_change`` false leaves that to the caller, which records the change
    the revision is part of, a move), saying first when it changed the page's title, with or without a summary.
    ``minor``: the editor marks the edit minor (a typo, formatting, a small rewording), on its revision and its entry
    in recent changes; a page's creation never is, whatever it says.

    A cited title close to an existing work (:mod:`wiki.services.citations`) is left unresolved, and creates
    nothing, unless ``new_works`` names it; the answer's ``citations`` says so, and which works were created.

    In one transaction: the revision, the rendered HTML, wiki links, and the claims and
    citations re-extracted from the text, each sentence matched to the claim it was before
    (:mod:`wiki.services.page_claims`); ``claim_report_for(revision)`` tells what that did. ``base_revision`` is the revision the editor started
    from; when someone saved since, :class:`EditConflict` is raised and nothing is written (:class:`PageExists`
    when the page was to be created, :class:`PageDeleted` when it was deleted meanwhile). A save that changes
    nothing (the same title, summary and text as the latest revision, whichever revision it started from, and no
    citation to resolve anew) writes nothing, and ``unchanged`` says so.

    ``blanking_confirmed`` false (an editor's edit, not yet confirmed): a save that would leave a page with text
    holding none (nothing but whitespace) is refused with :class:`PageBlanking`, nothing written, as a wiki asks
    before blanking a page; the editor confirms by saving again.
    """
    page = page_locked(page_id=page_id) if page_id is not None else None
    # A typed slug is stored lower-cased, as a wiki link to the page finds it.
    slug = page.slug if page is not None else normalize_page_slug(slug) or target_slug(title)
    page_validate(slug=slug, title=title, summary=summary, body=body, comment=comment)
    wiki_markdown.check_complexity(body)
    if page is None:
        page = Page.objects.select_for_update().filter(slug=slug).first()
    if page is None:
        # No row to lock yet: two editors creating the same page would both insert, and the second fail on the
        # unique slug with its text lost. The second waits here for the first, then sees its page: a conflict.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"wiki.page:{slug}"])
        page = Page.objects.select_for_update().filter(slug=slug).first()
    if page is None and (deleted := Page.all_objects.deleted().filter(slug=slug).first()) is not None:
        raise PageDeleted(page=deleted)
    created = page is None
    latest = None if page is None else page.revisions.order_by("-number").first()
    mine = {"title": title, "summary": summary, "body": body}
    if latest is not None and base_revision is not None and base_revision > latest.number:
        raise UnknownBaseRevision(page=page, base_number=base_revision, current=latest, mine=mine)  # type: ignore[arg-type]
    if latest is not None and base_revision == 0:
        raise PageExists(page=page, base_number=0, current=latest, mine=mine)  # type: ignore[arg-type]
    # Before the conflict check: the latest revision being what the editor sends (a double click, a retry after a
    # timeout) is "saved already", whoever saved it.
    if latest is not None and (latest.title, latest.summary, latest.body) == (title, summary, body):
        # The same text is still a save worth making when a cited title it left unresolved now names a work
        # (added since), or names none and saving would add it (``new_works`` too): its citations change.
        resolved, report = citations_resolve(titles=wiki_markdown.cited_titles(body), new_works=new_works)
        if not (missing_citation_titles(page.rendered_html) & resolved.keys()) and not report.new:  # type: ignore[union-attr]
            return PageSaved(revision=latest, citations=report, unchanged=True)
    if latest is not None and base_revision is not None and base_revision != latest.number:
        raise EditConflict(page=page, base_number=base_revision, current=latest, mine=mine)  # type: ignore[arg-type]
    if not blanking_confirmed and latest is not None and latest.body.strip() and not body.strip():
        raise PageBlanking
    if page is None:
        if slug in RESERVED_SLUGS:
            raise ValidationError({"slug": [ValidationError(gettext_lazy("“%(slug)s” is reserved; choose another slug."), code="reserved", params={"slug": slug})]})
        page = Page(slug=slug)
    author = account(user)
    # Saving is what creates the sources a page cites for the first time; a preview only shows them as missing.
    # The titles the page's claims cited before are resolved too: a claim citing the same work by another name (its
    # short name, then its title) keeps its citations and its status.
    sources, citations = citations_ensure(titles=wiki_markdown.cited_titles(body), new_works=new_works, user=author,
                                          also=wiki_markdown.cited_titles(latest.body) if latest is not None else ())
    result = _render(body, sources=sources, targets=link_targets(wiki_markdown.find_link_targets(body)))
    unresolved_before = missing_citation_titles(page.rendered_html)
    former_title = page.title_key if not created and page.title_key != link_key(title) else ""
    retitled = bool(former_title)
    page.title = title
    page.summary = summary
    page.body = body
    page.rendered_html = result.html
    page.toc = result.toc
    page.save()

    previous_size = latest.size if latest else 0
    # In characters: a byte count says little of Chinese text, three bytes a character.
    size = len(body)
    minor = minor and not created
    revision = Revision.objects.create(
        page=page,
        number=(latest.number + 1) if latest else 1,
        title=title,
        summary=summary,
        body=body,
        comment=fit(Revision, "comment", comment),
        author=author,
        size=size,
        size_delta=size - previous_size,
        minor=minor,
    )
    relinked = _sync_links(page, result)
    # Citations the text's blanking of code and comments did not see but the renderer did (none, normally).
    unseen = {c.title for ref in result.claims for c in ref.citations} - {m.title for m in citations.matches}
    if unseen:
        more, extra = citations_ensure(titles=unseen, new_works=new_works, user=author)
        sources, citations = {**sources, **more}, CitationReport(citations.matches + extra.matches)
    # A sentence kept as it was gains the citations of titles that had no work when the page was last rendered.
    resolved_now = {m.title for m in citations.matches
                    if m.outcome == CitationOutcome.CREATED or (m.resolved and m.title in unresolved_before)}
    page_claims_sync(page=page, refs=result.claims, revision=revision, sources=sources, user=author,
                     newly_resolved=resolved_now)
    released = former_address_take_over(page) if created else ""
    kept_title = _former_title_kept(page, former_title) if retitled else ""
    if created or retitled:
        pages_rerender_linking(page, also=(released, kept_title))
    if record_change:
        change_record(
            kind=ChangeEvent.Kind.PAGE,
            action=ChangeEvent.Action.CREATED if created else action,
            obj=page,
            label=page.title,
            url=page.get_absolute_url(),
            summary=with_title_change(comment, before=latest.title if latest is not None else title, after=title),
            size_delta=revision.size_delta,
            minor=minor,
            user=author,
        )
    search_reindex_page_with_claims(page.pk)
    search_reindex_linked_pages(relinked)
    if action != ChangeEvent.Action.IMPORTED:
        watch_edited(user=author, target=page)
    return PageSaved(revision=revision, citations=citations, foreign=tuple(result.foreign))


def _former_title_kept(page: Page, key: str) -> str:
    """After ``page`` was retitled, its former title (as a link target, ``key``) leads to it as a former address does,
    so that ``[[Old title]]`` links and the old title in the address still find it, as a wiki's rename leaves a
    redirect; unless the key is an address (a page's, or another page's former one) or another page's title, where
    those links lead instead. Returns the key when it was kept, else ""."""
    if (key == page.slug or Page.all_objects.filter(Q(slug=key) | Q(title_key=key)).exclude(pk=page.pk).exists()
            or PageRedirect.objects.filter(slug=key).exclude(page=page).exists()):
        return ""
    PageRedirect.objects.get_or_create(slug=key, defaults={"page": page})
    return key


def former_address_take_over(page: Page) -> str:
    """A page created or moved at an address a page had before it was moved takes it over; returns the slug of the
    page the address led to (whose linking pages are to be rendered again, their links naming the address now leading
    to ``page``), or "" when it led nowhere."""
    former = PageRedirect.objects.filter(slug=page.slug).select_related("page").only("id", "page__slug").first()
    if former is None:
        return ""
    former.delete()
    return former.page.slug


def _link_rows(page: Page, result: RenderResult) -> list[WikiLink]:
    return [
        WikiLink(source_page=page, target_slug=link.target_slug, target_title=fit(WikiLink, "target_title", link.target_title), label=fit(WikiLink, "label", link.label))
        for link in result.links
        if link.target_slug != page.slug
    ]


def _sync_links(page: Page, result: RenderResult) -> set[str]:
    """Writes the page's outgoing links anew; returns the targets it now links to and did not, or no longer links to
    (those whose importance in search changes)."""
    before = set(page.outgoing_links.values_list("target_slug", flat=True))
    page.outgoing_links.all().delete()
    links = WikiLink.objects.bulk_create(_link_rows(page, result))
    return before ^ {link.target_slug for link in links}


RERENDER_BATCH = 200


def pages_rerender_linking(page: Page, *, also: Collection[str] = ()) -> int:
    """Renders again the pages whose links lead to ``page`` by its address or its title, or would now, or lead to
    ``also`` (its former address, the page whose former address it took); and those linking by title to another page
    whose title is this page's address, as an address wins over a title. Those links change when the page is created,
    retitled, moved, deleted or restored. An empty slug in ``also`` (no such page) is left out. A link leading to no
    page is stored under its key in Simplified characters, so each address is looked for in that form too."""
    keys = {key for name in (page.slug, page.title_key, *also) for key in (name, fold_variants(name))} - {""}
    shadowed = Page.objects.filter(title_key=fold_variants(page.slug)).exclude(pk=page.pk).values("slug")
    linking = Page.objects.filter(Q(outgoing_links__target_slug__in=keys) | Q(outgoing_links__target_slug__in=shadowed))
    return pages_rerender(pages=linking.exclude(pk=page.pk).distinct())


@transaction.atomic
def pages_reread_claims(*, pages: QuerySet[Page]) -> int:
    """Reads the claims of ``pages`` again from their unchanged text, as in a save without a new revision (each
    claim changed is reworded in its history), then renders them again: after the renderer comes to read a claim's
    text otherwise. Returns how many pages were read."""
    read = list(pages.order_by("pk"))
    for page in read:
        sources = sources_by_title(wiki_markdown.cited_titles(page.body))
        result = _render(page.body, sources=sources, targets=link_targets(wiki_markdown.find_link_targets(page.body)))
        page_claims_sync(page=page, refs=result.claims, revision=None, sources=sources)
        search_reindex_page_with_claims(page.pk)
    pages_rerender(pages=Page.all_objects.filter(pk__in=[page.pk for page in read]))
    return len(read)


def pages_rerender(*, pages: QuerySet[Page] | None = None) -> int:
    """Renders the stored HTML of ``pages`` (all by default) again from their unchanged text; no revision is made.

    Needed when what a page's HTML depends on changes without its text changing: a wanted page
    it links to now exists, or the renderer itself changed. Returns how many pages changed.
    Each batch of pages reads its sources, link targets and links once and writes in one UPDATE; a page whose links
    now lead elsewhere (a title that names another page now) has them written anew.
    """
    rows = (pages if pages is not None else Page.objects.all()).only("id", "slug", "body", "rendered_html", "toc").order_by("pk")
    changed = 0
    batch: list[Page] = []
    for page in rows.iterator(chunk_size=RERENDER_BATCH):
        batch.append(page)
        if len(batch) == RERENDER_BATCH:
            changed += _rerender_batch(batch)
            batch = []
    return changed + (_rerender_batch(batch) if batch else 0)


def _rerender_batch(batch: list[Page]) -> int:
    sources = sources_by_title({title for page in batch for title in wiki_markdown.cited_titles(page.body)})
    targets = link_targets(target for page in batch for target in wiki_markdown.find_link_targets(page.body))
    linked: dict[int, set[str]] = {page.pk: set() for page in batch}
    for page_id, target in WikiLink.objects.filter(source_page__in=batch).values_list("source_page_id", "target_slug"):
        linked[page_id].add(target)
    changed: list[Page] = []
    relinking: list[Page] = []
    links: list[WikiLink] = []
    relinked: set[str] = set()
    for page in batch:
        try:
            result = _render(page.body, sources=sources, targets=targets)
        except wiki_markdown.MarkdownTooComplex:
            # Saved under looser limits: keep the HTML it was saved with rather than refuse to show it.
            continue
        if (result.html, result.toc) != (page.rendered_html, page.toc):
            page.rendered_html, page.toc = result.html, result.toc
            changed.append(page)
        rows = _link_rows(page, result)
        if (now := {row.target_slug for row in rows}) != linked[page.pk]:
            # A title or former address that now names another page, or a page no more: the links lead elsewhere.
            relinking.append(page)
            links += rows
            relinked |= now ^ linked[page.pk]
    Page.objects.bulk_update(changed, ["rendered_html", "toc"])
    if relinking:
        WikiLink.objects.filter(source_page__in=relinking).delete()
        WikiLink.objects.bulk_create(links)
    search_reindex_linked_pages(relinked)
    return len(changed)


@transaction.atomic
def page_revert(*, page: Page, number: int, user: User | None = None, base_revision: int | None = None, comment: str = "") -> Revision:
    """Restores revision ``number`` of ``page`` as a new revision; older revisions are never changed. A revision
    saved under looser limits than today's is refused with a ``ValidationError`` (code ``too_complex``) saying why:
    its text must be edited to be saved again.

    ``page`` is reverted wherever it is now, found by its id as :func:`page_save` finds ``page_id``: moved since it was
    read, at its new address, never a page created meanwhile at its former one; deleted since, :class:`PageDeleted`."""
    target = page.revisions.get(number=number)
    try:
        return page_save_revision(
            slug=page.slug,
            page_id=page.pk,
            title=target.title,
            body=target.body,
            summary=target.summary,
            comment=comment or MESSAGES["reverted"] % {"number": number},
            user=user,
            base_revision=base_revision,
            action=ChangeEvent.Action.REVERTED,
        )
    except wiki_markdown.MarkdownTooComplex as error:
        raise ValidationError(
            gettext_lazy("Revision %(number)s cannot be saved again as it is: %(reason)s Edit the page instead."),
            code="too_complex", params={"number": number, "reason": str(error)}) from error
