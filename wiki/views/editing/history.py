"""A page's history, the diff between two of its revisions, reverting to one, and rolling back the latest editor's run
of edits."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_stubs_ext import StrOrPromise

from wiki.change_summaries import is_message
from wiki.models import Page, Revision
from wiki.paginator import Paginator
from wiki.services.page_claims import claim_changes_between
from wiki.services.page_reverts import RollbackRefused, page_rollback, rollback_for
from wiki.services.pages import EditConflict, PageDeleted, page_revert
from wiki.text.diff import side_by_side
from wiki.views.editing import editor_required, saved_message
from wiki.views.editing.opened_pages import opened_page_or_answer, page_changed_answer, say_moved
from wiki.views.pages import follows_moves

HISTORY_PAGE_SIZE = 50
FORMER_ADDRESSES_SHOWN = 20


@require_safe
@follows_moves
def page_history(request: HttpRequest, slug: str) -> HttpResponse:
    # The latest number on every page of the listing: a revert from an older page is checked for conflicts too.
    page = get_object_or_404(
        Page.objects.only("id", "slug", "title").annotate(latest_number=Max("revisions__number")), slug=slug
    )
    revisions = Revision.objects.filter(page=page).for_history()
    paginator = Paginator(revisions, HISTORY_PAGE_SIZE)
    listing = paginator.get_page(request.GET.get("p"))
    # The addresses it had before it was moved, which still lead here: the latest first.
    former = page.redirects.only("slug", "created_at", "page").order_by("-created_at", "-id")[:FORMER_ADDRESSES_SHOWN]
    latest = page.latest_number  # type: ignore[attr-defined]  # annotated above
    # The current revision's row offers editors the rollback of its author's run of edits.
    rows = list(listing)
    rollback = rollback_for(rows[0]) if rows and rows[0].number == latest and request.user.has_perm("wiki.change_page") else None
    return render(request, "wiki/edit/page_history.html", {"page": page, "revisions": listing, "latest": latest,
                                                           "former": former, "rollback": rollback})


def _number(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None


def _diff_error(raw_from: str | None, raw_to: str | None, *, found: dict[int, Revision]) -> str:
    """Says which of the two values is wrong and why, so the editor can fix the address."""
    problems = []
    for label, raw in (("from", raw_from), ("to", raw_to)):
        number = _number(raw)
        if not raw:
            problems.append(_("“%(name)s” is missing") % {"name": label})
        elif number is None:
            problems.append(_("“%(name)s=%(value)s” is not a revision number") % {"name": label, "value": raw[:40]})
        elif number not in found:
            problems.append(_("this page has no revision %(number)s") % {"number": number})
    return _("Choose two revisions of this page to compare: %(problems)s.") % {"problems": _("; ").join(problems)}


@require_safe
@follows_moves
def page_diff(request: HttpRequest, slug: str) -> HttpResponse:
    page = get_object_or_404(
        Page.objects.only("id", "slug", "title").annotate(latest_number=Max("revisions__number")), slug=slug
    )
    latest = page.latest_number or 0  # type: ignore[attr-defined]  # annotated above
    if "from" not in request.GET and "to" not in request.GET and latest >= 2:
        # The diff page alone shows the latest change, as a wiki's "diff=cur" does.
        return redirect(f"{request.path}?{urlencode({'from': latest - 1, 'to': latest})}")
    first, second = _number(request.GET.get("from")), _number(request.GET.get("to"))
    if first is not None and second is not None and first > second:
        # A diff reads from the older revision to the newer, whichever order the address names them in.
        return redirect(f"{request.path}?{urlencode({'from': second, 'to': first})}")
    revisions = {
        r.number: r
        for r in Revision.objects.filter(page=page, number__in=[n for n in (first, second) if n is not None])
        .select_related("author")
    }
    old, new = (revisions.get(n) if n is not None else None for n in (first, second))
    if old is None or new is None:
        return render(
            request, "wiki/edit/page_diff.html",
            {"page": page, "error": _diff_error(request.GET.get("from"), request.GET.get("to"), found=revisions)}, status=404,
        )
    claims = claim_changes_between(page=page, after=old.number, upto=new.number)
    # Between consecutive revisions the diff is one edit's: it leads to the edits before and after it, and undoes it.
    consecutive = new.number == old.number + 1
    rollback = rollback_for(new) if new.number == latest and request.user.has_perm("wiki.change_page") else None
    return render(
        request, "wiki/edit/page_diff.html",
        {"page": page, "old": old, "new": new, "diff": side_by_side(old.body, new.body), "claims": claims,
         "latest": latest, "consecutive": consecutive, "rollback": rollback},
    )


REVERT_GONE = {
    "deleted": _("“%(title)s” was deleted after this form was opened: nothing was reverted."),
    "no_page": _("The page this form was opened on no longer exists: nothing was reverted."),
    "moved": _("“%(title)s” moved from /wiki/%(old)s/ to /wiki/%(new)s/ after this form was opened: it was reverted at "
               "its new address."),
}
ROLLBACK_GONE = {
    "deleted": _("“%(title)s” was deleted after the rollback was offered: nothing was rolled back."),
    "no_page": _("The page the rollback was offered for no longer exists: nothing was rolled back."),
    "moved": _("“%(title)s” moved from /wiki/%(old)s/ to /wiki/%(new)s/ after the rollback was offered: it was rolled "
               "back at its new address."),
}


def _opened(request: HttpRequest, slug: str, *, said: Mapping[str, StrOrPromise]) -> Page | HttpResponse:
    """The page a revert or a rollback posted to ``slug`` was opened on (its form names it), wherever it is now, for a
    GET the page at ``slug``; when it was deleted since, or is no longer in the wiki, the answer saying (``said``)
    that nothing was done, with no other page touched."""
    page = opened_page_or_answer(request, slug, said=said)
    if isinstance(page, Page):
        say_moved(request, page, slug, said=said)
    return page


@require_http_methods(["GET", "POST"])
@follows_moves
@editor_required("wiki.change_page")
def page_revert_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET asks to confirm, with an edit summary; POST reverts the page the form was opened on."""
    page = _opened(request, slug, said=REVERT_GONE)
    if isinstance(page, HttpResponse):
        return page
    target = get_object_or_404(Revision.objects.only("id", "number", "comment", "created_at"), page=page, number=number)
    default = _("Reverted to revision %(number)s") % {"number": number}
    context = {"page": page, "target": target, "default": default}
    if request.method == "GET":
        return render(request, "wiki/edit/page_revert.html", {**context, "latest": page.revisions.aggregate(n=Max("number"))["n"]})
    comment = (request.POST.get("comment") or "").strip() or default
    if is_message(comment, "reverted", number=number):
        # The pre-filled summary, in whichever language it was shown: stored as the wiki's own message, which each
        # reader then reads in their language.
        comment = ""
    latest = page.revisions.aggregate(n=Max("number"))["n"]
    try:
        revision = page_revert(page=page, number=number, user=request.user, base_revision=_number(request.POST.get("base_revision")),
                               comment=comment)
    except PageDeleted:
        return page_changed_answer(request, page, said=REVERT_GONE)
    except EditConflict:
        # Asked again against the page as it is now (its diff link shows what the revert would change now), with the
        # summary as typed.
        return render(request, "wiki/edit/page_revert.html",
                      {**context, "default": request.POST.get("comment") or default, "conflict": True,
                       "latest": page.revisions.aggregate(n=Max("number"))["n"]}, status=409)
    except ValidationError as refused:
        # An edit summary the form's limits would have stopped (too long, control characters): shown, nothing reverted.
        return render(request, "wiki/edit/page_revert.html",
                      {**context, "default": comment or default, "errors": refused.messages, "latest": request.POST.get("base_revision")},
                      status=400)
    if revision.number == latest:
        # The page reads as that revision already: nothing was saved.
        messages.info(request, _("No changes to save: “%(title)s” is still at revision %(number)s.")
                      % {"title": page.title, "number": revision.number})
        return redirect(page)
    messages.success(request, saved_message(revision, text=_("Reverted to revision %(old)s: saved as revision %(new)s.") % {"old": number, "new": revision.number}))
    return redirect(page)


ROLLBACK_REFUSED = {
    "imported": _("The latest revision was imported, not saved by an editor: there is no run of edits to roll back. "
                  "Revert to an older revision instead."),
    "only_author": _("Every revision of this page was saved by %(user)s: there is no revision by someone else to roll "
                     "back to. Revert to an older revision instead."),
}


@require_POST
@editor_required("wiki.change_page")
def page_rollback_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Rolls back the latest editor's run of edits, as shown when the button was rendered (``base_revision``), of the
    page it was shown on."""
    page = _opened(request, slug, said=ROLLBACK_GONE)
    if isinstance(page, HttpResponse):
        return page
    base = _number(request.POST.get("base_revision"))
    if base is None:
        messages.error(request, _("The rollback does not say which revision it was offered for; nothing was rolled back."))
        return redirect("wiki:page-history", slug=page.slug)
    try:
        rolled = page_rollback(page=page, user=request.user, base_revision=base)
    except PageDeleted:
        return page_changed_answer(request, page, said=ROLLBACK_GONE)
    except EditConflict as conflict:
        messages.error(request, _("The page was saved again (revision %(number)s) after the rollback was offered for "
                                  "revision %(base)s; nothing was rolled back. Check its history again.")
                       % {"number": conflict.current.number, "base": base})
        return redirect("wiki:page-history", slug=page.slug)
    except RollbackRefused as refused:
        author = refused.latest.author
        messages.error(request, ROLLBACK_REFUSED[refused.reason] % {"user": author.get_username() if author else ""})
        return redirect("wiki:page-history", slug=page.slug)
    except ValidationError as refused:
        # The revision rolled back to is past today's limits: nothing was saved.
        messages.error(request, " ".join(refused.messages))
        return redirect("wiki:page-history", slug=page.slug)
    if rolled.unchanged:
        messages.info(request, _("No changes to save: “%(title)s” is still at revision %(number)s.")
                      % {"title": page.title, "number": rolled.revision.number})
        return redirect(page)
    text = _("%(summary)s: saved as revision %(number)s.") % {"summary": rolled.rollback.comment().text(),
                                                              "number": rolled.revision.number}
    messages.success(request, saved_message(rolled.revision, text=text))
    return redirect(page)
