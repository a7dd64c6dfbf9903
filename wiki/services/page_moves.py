"""Moving a page to another address and title, as a wiki's move renames both. The former address keeps leading to the
page (a reader's bookmark, a link from outside, a ``[[wiki link]]`` naming it) until a page is created there, and so
does its former title as a retitled page's does; the move is in the changes feed, and a new title in the page's
history too."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from wiki import markdown as wiki_markdown
from wiki.change_summaries import summary, with_title_change
from wiki.markdown.wikilinks import target_slug
from wiki.models import ChangeEvent, Page, PageRedirect, Revision
from wiki.models.pages import RESERVED_SLUGS
from wiki.models.rules import is_control_free, max_length, normalize_page_slug
from wiki.roles import User, account
from wiki.search.index import search_reindex_page_with_claims
from wiki.services.changes import StaleEdit, change_record, check_not_stale
from wiki.services.pages import former_address_take_over, page_save, pages_rerender_linking

MAX_REASON_CHARS = max_length(Revision, "comment")


def _refuse(field: str, message: StrOrPromise, code: str, **params: object) -> ValidationError:
    return ValidationError({field: [ValidationError(message, code=code, params=params)]})


def _new_title(typed: str | None, page: Page) -> str:
    """The title ``typed`` (trimmed), or the page's own when none is typed; or why no page can have it."""
    title = (typed or "").strip()
    if not title:
        return page.title
    try:
        Page._meta.get_field("title").clean(title, None)
    except ValidationError as error:
        raise ValidationError({"title": error.error_list}) from None
    return title


def _new_address(typed: str, *, title: str | None) -> str:
    """The address ``typed`` (trimmed, lower-cased), or, left empty, the one a new title ``title`` gives, as a new
    page's title gives its address; or why no page can have it. Whether a page has it is :func:`_refuse_taken`'s to
    say, under the address's lock."""
    slug = normalize_page_slug(typed)
    if not slug and title is None:
        raise _refuse("slug", gettext_lazy("Type the page's new address or a new title."), "required")
    if not slug:
        slug = target_slug(title or "")
        if not slug:
            raise _refuse("slug", gettext_lazy("The title gives no usable address; type a slug."), "no_slug")
    try:
        Page._meta.get_field("slug").run_validators(slug)
    except ValidationError as error:
        raise ValidationError({"slug": error.error_list}) from None
    if slug in RESERVED_SLUGS:
        raise _refuse("slug", gettext_lazy("“%(slug)s” is reserved; choose another slug."), "reserved", slug=slug)
    return slug


def _refuse_taken(page: Page, slug: str) -> None:
    """Why ``page`` cannot move to ``slug`` now that the address is locked: another page, deleted or not, has it."""
    taken = Page.all_objects.filter(slug=slug).exclude(pk=page.pk).only("id", "deleted_at").first()
    if taken is not None and taken.is_deleted:
        raise _refuse(
            "slug",
            gettext_lazy("A deleted page has the address “%(slug)s”; staff can restore it."),
            "deleted",
            slug=slug,
        )
    if taken is not None:
        # the code a page created at a taken address has too: the API answers both 409
        raise _refuse("slug", gettext_lazy("Another page has the address “%(slug)s”."), "exists", slug=slug)


def _refuse_former_address(page: Page, slug: str) -> None:
    """Why ``page`` does not take ``slug`` over unasked: it is a former address of another live page, where the links
    naming it lead now."""
    now = PageRedirect.objects.page_slug_at(slug)
    if now is not None and now != page.slug:
        raise _refuse(
            "take_over",
            gettext_lazy(
                "“%(slug)s” was the address of the page now at /wiki/%(now)s/, and links naming it lead "
                "there: take the address over to move this page there all the same."
            ),
            "former_address",
            slug=slug,
            now=now,
        )


def _reason(reason: str) -> str:
    reason = reason.strip()
    if len(reason) > MAX_REASON_CHARS or not is_control_free(reason):
        raise _refuse(
            "reason",
            gettext_lazy("A reason is one line of at most %(limit)d characters."),
            "invalid",
            limit=MAX_REASON_CHARS,
        )
    return reason


def _retitle(page: Page, *, title: str, user: User | None, reason: str, recorded: bool) -> Page:
    """Saves ``title`` as a revision of ``page`` with its text and summary as they are, ``reason`` its summary; its
    former title then leads to it (:func:`wiki.services.pages.page_save`). ``recorded``: the save is an entry of the
    changes feed of its own, rather than part of the move's."""
    latest = page.revisions.only("number", "summary", "body").order_by("-number").first()
    if latest is None:
        raise ValidationError(gettext_lazy("The page has no revision to retitle."), code="no_revision")
    try:
        saved = page_save(
            slug=page.slug,
            title=title,
            body=latest.body,
            summary=latest.summary,
            comment=reason,
            user=user,
            base_revision=latest.number,
            record_change=recorded,
        )
    except wiki_markdown.MarkdownTooComplex as error:
        # Saved under looser limits than today's: the text must be edited before it is saved again.
        raise ValidationError(str(error), code="too_complex") from error
    return saved.revision.page


class PageMovedMeanwhile(StaleEdit):
    """The page was moved after the editor's form showed it at another address: nothing is moved; ``current`` is the
    page where it is now."""


@transaction.atomic
def page_move(
    *,
    page: Page,
    slug: str = "",
    title: str | None = None,
    user: User | None,
    reason: str = "",
    take_over: bool = False,
    loaded_at: datetime | None = None,
    opened_title: str | None = None,
    opened_at: str | None = None,
) -> Page:
    """Gives ``page`` the address ``slug`` and the title ``title``; its former address leads to it from then on, and
    the pages linking to either address are rendered again to link to the page.

    ``title`` left out (or empty) keeps the page's title; ``slug`` left empty is made from a new title, as a new
    page's address is. A new title is saved as a revision (the text as it is, the reason as its summary), its former
    title then leading to the page as a retitled page's does; the history and the changes feed say "Title: old →
    new". Only the title changing is an edit of the page; an address changing, a move.

    Refused with a ``ValidationError`` per field, and nothing written, when neither the address nor the title changes,
    when the address is not one a page can have, is reserved, or is another page's (a deleted one's too: restoring it
    must find it free), when it is a former address of another page and ``take_over`` is not given (its links would
    lead here from then on), when the title is not one a page can have, or when the page was deleted meanwhile.
    A page saved since ``loaded_at`` (its ``updated_at`` as the client read it) raises :class:`StaleEdit`, and so
    does a page retitled since the editor's form showed it titled ``opened_title``: the form's title would otherwise
    undo the new one unseen. A page moved since the editor's form showed it at the address ``opened_at`` raises
    :class:`PageMovedMeanwhile`: the form's address would otherwise undo that move unseen."""
    reason = _reason(reason)
    new_title = _new_title(title, page)
    slug = _new_address(slug, title=new_title if new_title != page.title else None)
    with connection.cursor() as cursor:
        # As when a page is created: two editors creating or moving a page to one address are served one at a time.
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"wiki.page:{slug}"])
    page = Page.all_objects.select_for_update().get(pk=page.pk)
    if page.is_deleted:
        raise ValidationError(gettext_lazy("The page was deleted meanwhile; staff can restore it."), code="deleted")
    check_not_stale(page, loaded_at=loaded_at)
    if opened_at is not None and opened_at != page.slug:
        raise PageMovedMeanwhile(page)
    if opened_title is not None and opened_title != page.title:
        raise StaleEdit(page)
    moving, former_title = slug != page.slug, page.title
    if not moving and new_title == former_title:
        raise _refuse("slug", gettext_lazy("The page is at “%(slug)s” already."), "unchanged", slug=slug)
    if not moving:
        return _retitle(page, title=new_title, user=user, reason=reason, recorded=True)
    _refuse_taken(page, slug)
    if not take_over:
        _refuse_former_address(page, slug)
    former = page.slug
    page.slug = slug
    page.save(update_fields=["slug", "updated_at"])
    released = former_address_take_over(page)  # an address it or another page had before
    PageRedirect.objects.create(slug=former, page=page)
    if new_title != former_title:
        page = _retitle(page, title=new_title, user=user, reason=reason, recorded=False)
    values = {"before": former, "after": slug}
    moved = summary("page_moved_because", **values, reason=reason) if reason else summary("page_moved", **values)
    change_record(
        kind=ChangeEvent.Kind.PAGE,
        action=ChangeEvent.Action.MOVED,
        obj=page,
        label=page.title,
        url=page.get_absolute_url(),
        user=account(user),
        summary=with_title_change(moved, before=former_title, after=new_title),
    )
    pages_rerender_linking(page, also=(former, released))
    search_reindex_page_with_claims(page.pk)
    return page
