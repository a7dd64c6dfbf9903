"""Recent changes as an Atom feed."""

from __future__ import annotations

from datetime import datetime

from django.contrib.syndication.views import Feed
from django.http import HttpRequest
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed, SyndicationFeed
from django.utils.html import escape
from django.utils.translation import gettext_lazy as _

from wiki.change_summaries import summary_for_reader
from wiki.models import ChangeEvent
from wiki.models.rules import strip_control

FEED_SIZE = 50


class RecentChangesFeed(Feed):  # type: ignore[type-arg]
    feed_type = Atom1Feed
    title = _("Agentic RL Wiki — recent changes")
    subtitle = _("Edits to pages, sources, claims, classifications, contrasts and open questions.")

    def link(self) -> str:
        return reverse("wiki:changes")

    def items(self) -> list[ChangeEvent]:
        return list(ChangeEvent.objects.recent()[:FEED_SIZE])

    def item_title(self, item: ChangeEvent) -> str:
        # XML cannot hold control characters, which older rows (or a future bug) may have: one must not break the feed.
        return strip_control(f"{item.get_kind_display()} “{item.label}” {item.get_action_display()}")

    def item_description(self, item: ChangeEvent) -> str:
        # Atom carries the summary as HTML: an edit summary is plain text and must not become markup in a reader.
        who = item.user.username if item.user else "import"
        summary = summary_for_reader(item)
        return escape(strip_control(f"{summary} — {who}" if summary else who))

    def item_link(self, item: ChangeEvent) -> str:
        return strip_control(item.url) or reverse("wiki:changes")

    def item_guid(self, item: ChangeEvent) -> str:
        return f"change-{item.pk}"

    item_guid_is_permalink = False

    def get_feed(self, obj: None, request: HttpRequest) -> SyndicationFeed:
        # An Atom id must be an absolute IRI; the changes page's address is the only absolute one known here.
        feed = super().get_feed(obj, request)
        for entry in feed.items:
            entry["unique_id"] = f"{feed.feed['link']}#{entry['unique_id']}"
        return feed

    def item_pubdate(self, item: ChangeEvent) -> datetime:
        return item.created_at

    def item_updateddate(self, item: ChangeEvent) -> datetime:
        return item.created_at

    def item_author_name(self, item: ChangeEvent) -> str | None:
        return strip_control(item.user.username) if item.user else None
