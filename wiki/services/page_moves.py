"""Moving a page to another address. The former address keeps leading to the page (a reader's bookmark, a link from
outside, a ``[[wiki link]]`` naming it) until a page is created there; the move is in the changes feed."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext_lazy

from wiki.change_summaries import summary
from wiki.models import ChangeEvent, Page, PageRedirect, Revision
from wiki.models.pages import RESERVED_SLUGS
from wiki.models.rules import is_control_free, max_length, normalize_page_slug
from wiki.roles import User, account
from wiki.search.index import search_reindex_page_with_claims
from wiki.services.changes import change_record
from wiki.services.pages import former_address_take_over, pages_rerender_linking

MAX_REASON_CHARS = max_length(Revision, "comment")


def _refuse(field: str, message: str, code: str, **params: object) -> ValidationError:
    return ValidationError({field: [ValidationError(gettext_lazy(message), code=code, params=params)]})


def _new_address(typed: str) -> str:
    """The address ``typed`` (trimmed, lower-cased), or why no page can have it; whether a page has it is
    :func:`_refuse_taken`'s to say, under the address's lock."""
    slug = normalize_page_slug(typed)
    if not slug:
        raise _refuse("slug", "Type the page's new address.", "required")
    try:
        Page._meta.get_field("slug").run_validators(slug)
    except ValidationError as error:
        raise ValidationError({"slug": error.error_list}) from None
    if slug in RESERVED_SLUGS:
        raise _refuse("slug", "“%(slug)s” is reserved; choose another slug.", "reserved", slug=slug)
    return slug


def _refuse_taken(page: Page, slug: str) -> None:
    """Why ``page`` cannot move to ``slug`` now that the address is locked: it is there already, or another page,
    deleted or not, has it."""
    if slug == page.slug:
        raise _refuse("slug", "The page is at “%(slug)s” already.", "unchanged", slug=slug)
    taken = Page.all_objects.filter(slug=slug).only("id", "deleted_at").first()
    if taken is not None and taken.is_deleted:
        raise _refuse("slug", "A deleted page has the address “%(slug)s”; staff can restore it.", "deleted", slug=slug)
    if taken is not None:
        raise _refuse("slug", "Another page has the address “%(slug)s”.", "taken", slug=slug)


def _refuse_former_address(page: Page, slug: str) -> None:
    """Why ``page`` does not take ``slug`` over unasked: it is a former address of another live page, where the links
    naming it lead now."""
    now = PageRedirect.objects.page_slug_at(slug)
    if now is not None and now != page.slug:
        raise _refuse("take_over", "“%(slug)s” was the address of the page now at /wiki/%(now)s/, and links naming it lead "
                      "there: take the address over to move this page there all the same.", "former_address", slug=slug, now=now)


def _reason(reason: str) -> str:
    reason = reason.strip()
    if len(reason) > MAX_REASON_CHARS or not is_control_free(reason):
        raise _refuse("reason", "A reason is one line of at most %(limit)d characters.", "invalid", limit=MAX_REASON_CHARS)
    return reason


@transaction.atomic
def page_move(*, page: Page, slug: str, user: User | None, reason: str = "", take_over: bool = False) -> Page:
    """Gives ``page`` the address ``slug``; its former address leads to it from then on, and the pages linking to
    either address are rendered again to link to the page.

    Refused with a ``ValidationError`` per field, and nothing written, when the address is not one a page can have,
    is reserved, is the page's own, or is another page's (a deleted one's too: restoring it must find it free), when
    it is a former address of another page and ``take_over`` is not given (its links would lead here from then on), or
    when the page was deleted meanwhile."""
    reason = _reason(reason)
    slug = _new_address(slug)
    with connection.cursor() as cursor:
        # As when a page is created: two editors creating or moving a page to one address are served one at a time.
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"wiki.page:{slug}"])
    page = Page.all_objects.select_for_update().get(pk=page.pk)
    if page.is_deleted:
        raise ValidationError(gettext_lazy("The page was deleted meanwhile; staff can restore it."), code="deleted")
    _refuse_taken(page, slug)
    if not take_over:
        _refuse_former_address(page, slug)
    former = page.slug
    page.slug = slug
    page.save(update_fields=["slug", "updated_at"])
    released = former_address_take_over(page)  # an address it or another page had before
    PageRedirect.objects.create(slug=former, page=page)
    values = {"before": former, "after": slug}
    change_record(kind=ChangeEvent.Kind.PAGE, action=ChangeEvent.Action.MOVED, obj=page, label=page.title,
                  url=page.get_absolute_url(), user=account(user),
                  summary=summary("page_moved_because", **values, reason=reason) if reason else summary("page_moved", **values))
    pages_rerender_linking(page, also=(former, released))
    search_reindex_page_with_claims(page.pk)
    return page
