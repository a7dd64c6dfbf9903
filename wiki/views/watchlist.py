"""A reader's watchlist: the recent changes to the pages, works and questions they watch (filtered as recent changes
are, and to the latest change to each item), the watch button of each, and the list of what they watch, to take items
off it."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from wiki.filters.changes import WatchlistFilter
from wiki.models import ChangeEvent, OpenQuestion, Page, Source, Watch
from wiki.models.watches import Watchable
from wiki.paginator import Paginator
from wiki.roles import Account
from wiki.services.watches import (
    watch_add,
    watch_remove,
    watches_remove,
    watchlist_feed_reset,
    watchlist_feed_token,
)
from wiki.views.listing import filters_chosen

WATCHLIST_PAGE_SIZE = 50
# The button's id (includes/watch_button.html): the toggle returns to it, and the browser focuses it there.
WATCH_BUTTON_ID = "watch-button"
_TARGETS: dict[str, type[Page] | type[Source] | type[OpenQuestion]] = {
    "page": Page, "source": Source, "question": OpenQuestion}


def watch_target(kind: str, pk: int) -> Watchable | None:
    """The live page, work or question a watch button names."""
    model = _TARGETS.get(kind)
    return None if model is None else model.objects.filter(pk=pk).first()


def _name(target: Watchable) -> str:
    return target.short_name if isinstance(target, Source) else target.title


def feed_url(request: HttpRequest) -> str:
    """The secret address of the reader's watchlist feed, absolute, for a feed reader to take."""
    token = watchlist_feed_token(user=cast(Account, request.user))
    return request.build_absolute_uri(reverse("wiki:watchlist-feed", kwargs={"user_id": request.user.pk, "token": token}))


@never_cache  # the page holds the feed's secret address
@login_required
@require_safe
def watchlist(request: HttpRequest) -> HttpResponse:
    reader = cast(Account, request.user)
    filters = WatchlistFilter(request.GET, queryset=ChangeEvent.objects.recent().watched_by(reader.pk), request=request)
    context = {"filter": filters, "filters_chosen": filters_chosen(filters), "feed_url": feed_url(request),
               "watched": Watch.objects.of(reader.pk).count()}
    if not filters.is_valid():
        return render(request, "wiki/watchlist.html", {**context, "changes": None}, status=400)
    listing = Paginator(filters.changes.with_history(), WATCHLIST_PAGE_SIZE).get_page(request.GET.get("p"))
    return render(request, "wiki/watchlist.html", {**context, "changes": listing})


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def watchlist_edit(request: HttpRequest) -> HttpResponse:
    """What the reader watches, each with a box to tick to take it off; POST ``remove`` (ids) takes those off, POST
    ``reset_feed`` gives the feed a new address."""
    reader = cast(Account, request.user)
    if request.method == "POST":
        if "reset_feed" in request.POST:
            watchlist_feed_reset(user=reader)
            messages.success(request, _("The watchlist feed has a new address; the old one no longer works."))
            return redirect("wiki:watchlist-edit")
        ids = [int(value) for value in request.POST.getlist("remove") if value.isdigit()]
        if ids:
            removed = watches_remove(user=reader, ids=ids)
            messages.success(request, ngettext("%(count)d item was taken off your watchlist.",
                                               "%(count)d items were taken off your watchlist.", removed) % {"count": removed})
        return redirect("wiki:watchlist-edit")
    return render(request, "wiki/watchlist_edit.html", {"watches": Watch.objects.of(reader.pk).for_listing(),
                                                        "feed_url": feed_url(request)})


@login_required
@require_POST
def watch_toggle(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """The watch button of a page, work or question: ``watch=1`` watches it, ``watch=0`` unwatches it; back to it, at
    the button, which a keyboard reader finds focused where they pressed it rather than at the top of the page."""
    target = watch_target(kind, pk)
    if target is None:
        raise Http404
    wanted = request.POST.get("watch")
    if wanted not in ("0", "1"):
        return HttpResponseBadRequest(_("Say whether to watch (watch=1) or unwatch (watch=0)."))
    if wanted == "1":
        watch_add(user=cast(Account, request.user), target=target)
        messages.success(request, _("“%(name)s” is on your watchlist.") % {"name": _name(target)})
    else:
        watch_remove(user=cast(Account, request.user), target=target)
        messages.success(request, _("“%(name)s” is no longer on your watchlist.") % {"name": _name(target)})
    return redirect(f"{target.get_absolute_url()}#{WATCH_BUTTON_ID}")
