"""Recent changes, and a reader's watchlist, as Atom feeds."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from wiki.change_summaries import summary_for_reader
from wiki.filters.changes import ChangeFilter
from wiki.models import ChangeEvent
from wiki.models.readers import profile_of
from wiki.models.rules import strip_control
from wiki.roles import Account
from wiki.text.lists import joined

FEED_SIZE = 50
# The Atom category term of a minor edit's entry.
MINOR_CATEGORY = "minor"
# The day the feed's own tag: id was minted; it never changes.
FEED_TAG_DATE = "2026-11-29"


# An entry's title, by what was done: the reader's language puts the words in its own order (Chinese says
# 移动了页面“…”, not 页面“…”移动).
_Action = ChangeEvent.Action
ENTRY_TITLES: dict[str, StrOrPromise] = {
    _Action.CREATED: _("%(kind)s “%(name)s” created"),
    _Action.EDITED: _("%(kind)s “%(name)s” edited"),
    _Action.REVERTED: _("%(kind)s “%(name)s” reverted"),
    _Action.IMPORTED: _("%(kind)s “%(name)s” imported"),
    _Action.DELETED: _("%(kind)s “%(name)s” deleted"),
    _Action.DISMISSED: _("%(kind)s “%(name)s” dismissed"),
    _Action.REOPENED: _("%(kind)s “%(name)s” reopened"),
    _Action.RESTORED: _("%(kind)s “%(name)s” restored"),
    _Action.MOVED: _("%(kind)s “%(name)s” moved"),
    _Action.MERGED: _("%(kind)s “%(name)s” merged"),
    _Action.UNMERGED: _("%(kind)s “%(name)s” merge undone"),
}


def tag_uri(specific: str, date: str) -> str:
    """A permanent id (RFC 4151) under the wiki's FEED_TAG_AUTHORITY: the same whatever host the feed is read through."""
    return f"tag:{settings.FEED_TAG_AUTHORITY},{date}:{specific}"


def _who(item: ChangeEvent) -> str:
    # rows written by the seed loader, imports and generators have no user; /changes/ calls them "import" too
    return strip_control(item.user.username) if item.user else gettext("import")


class _ChangesFeed(Feed):  # type: ignore[type-arg]
    """Changes as Atom entries: what was done to what, the summary and who."""

    feed_type = Atom1Feed
    # RFC 4287 §4.1.1: a feed names an author unless every entry does; the wiki speaks for itself
    author_name = _("Agentic RL Wiki")

    def item_title(self, item: ChangeEvent) -> str:
        # XML cannot hold control characters, which older rows (or a future bug) may have: one must not break the feed.
        said = ENTRY_TITLES.get(item.action)
        kind = item.get_kind_display()
        title = strip_control(str(said) % {"kind": kind, "name": item.label} if said is not None
                              else f"{kind} “{item.label}” {item.get_action_display()}")
        return gettext("%(title)s (minor edit)") % {"title": title} if item.minor else title

    def item_categories(self, item: ChangeEvent) -> list[str]:
        # For a feed reader's own filters: a minor edit is a category of its own.
        return [MINOR_CATEGORY] if item.minor else []

    def item_description(self, item: ChangeEvent) -> str:
        # Atom carries the summary as HTML: an edit summary is plain text and must not become markup in a reader.
        who = _who(item)
        summary = summary_for_reader(item)
        return escape(strip_control(f"{summary} — {who}" if summary else who))

    def item_link(self, item: ChangeEvent) -> str:
        return strip_control(item.url) or reverse("wiki:changes")

    def item_guid(self, item: ChangeEvent) -> str:
        return tag_uri(f"change-{item.pk}", item.created_at.astimezone(UTC).date().isoformat())

    item_guid_is_permalink = False

    def item_pubdate(self, item: ChangeEvent) -> datetime:
        return item.created_at

    def item_updateddate(self, item: ChangeEvent) -> datetime:
        return item.created_at

    def item_author_name(self, item: ChangeEvent) -> str:
        return _who(item)


class RecentChangesFeed(_ChangesFeed):
    """Recent changes, filtered as /changes/ is (``?kind=``, ``?user=``, ``?days=``, ``?hideminor=``; not
    ``hidemine``, as a feed reader is no one), its title saying to what. A filter the list refuses (a kind or a number
    of days it does not offer, an account no one has) answers 404."""

    subtitle = _("Edits to pages, sources, claims, classifications, contrasts and open questions.")

    def get_object(self, request: HttpRequest, *args: Any, **kwargs: Any) -> ChangeFilter:
        filters = ChangeFilter(request.GET, queryset=ChangeEvent.objects.recent())
        if not filters.is_valid():
            raise Http404
        return filters

    def title(self, obj: ChangeFilter) -> str:
        account = obj.form.cleaned_data.get("user")
        title = (gettext("Agentic RL Wiki — recent changes") if account is None
                 else gettext("Agentic RL Wiki — changes by %(name)s") % {"name": account.username})
        qualifiers = obj.qualifiers()
        return gettext("%(title)s (%(filters)s)") % {"title": title, "filters": joined(qualifiers)} if qualifiers else title

    def feed_guid(self, obj: ChangeFilter) -> str:
        account = obj.form.cleaned_data.get("user")
        specific = "recent-changes" if account is None else f"changes-by-{account.pk}"
        others = obj.feed_query(leaving_out=("user",))
        return tag_uri(f"{specific}?{others}" if others else specific, FEED_TAG_DATE)

    def link(self, obj: ChangeFilter) -> str:
        query = obj.feed_query()
        return reverse("wiki:changes") + (f"?{query}" if query else "")

    def items(self, obj: ChangeFilter) -> list[ChangeEvent]:
        return list(obj.changes[:FEED_SIZE])


class WatchlistFeed(_ChangesFeed):
    """One account's watchlist, at a secret address (``/watchlist/feed/<id>/<token>/``): feed readers do not log in.
    A wrong token answers 404, as an account that does not exist does."""

    subtitle = _("Changes to the pages, works and open questions you watch.")

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().__call__(request, *args, **kwargs)
        # Its address is a secret: no shared cache on the way keeps it.
        patch_cache_control(response, private=True)
        return response

    def get_object(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Account:
        owner = Account.objects.select_related("reader_profile").filter(pk=kwargs["user_id"], is_active=True).first()
        if owner is None or not profile_of(owner).opens_feed(kwargs["token"]):
            raise Http404
        return owner

    def title(self, obj: Account) -> str:
        return gettext("Agentic RL Wiki — %(name)s's watchlist") % {"name": obj.username}

    def feed_guid(self, obj: Account) -> str:
        return tag_uri(f"watchlist-{obj.pk}", FEED_TAG_DATE)

    def link(self, obj: Account) -> str:
        return reverse("wiki:watchlist")

    def items(self, obj: Account) -> list[ChangeEvent]:
        return list(ChangeEvent.objects.recent().watched_by(obj.pk)[:FEED_SIZE])
