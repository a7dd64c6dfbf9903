"""``{% wikicache "name" vary… %}…{% endwikicache %}``: a fragment rendered once per content version.

The key holds the content version, the active language and time zone, the reader's permissions
(so an editor's fragment has its edit links and a reader's has none), the name and the values
given: a fragment is shared by every reader it reads the same to and is never served after a
write. Anything else a fragment shows that differs per request (a query string) goes among the
values; a fragment never holds a form with a CSRF token.
"""

from __future__ import annotations

import hashlib
from typing import cast

from django import template
from django.conf import settings
from django.core.cache import cache
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

from wiki.caching import release, versions
from wiki.caching.local import copies
from wiki.caching.readers import permissions_of
from wiki.caching.responses import keeps_fragments

register = template.Library()


class WikiCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, vary_on: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.vary_on = vary_on

    def render(self, context: Context) -> SafeString:
        request = context["request"]
        if not keeps_fragments(request):
            # A made-up query or a text searched for: a fragment keyed by it would not be read again.
            return mark_safe(self.nodelist.render(context))  # noqa: S308 - the template rendered it, escaping as it went
        version = versions.for_request(request)
        parts = [permissions_of(request), *(str(var.resolve(context)) for var in self.vary_on)]
        digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()
        key = (f"wiki:fragment:{release.RELEASE}:{version.number}:{translation.get_language()}:"
               f"{timezone.get_current_timezone_name()}:{digest}")
        html = cast("str | None", copies.get(key))
        if html is None:
            html = cache.get(key)
            if html is None:
                html = self.nodelist.render(context)
                cache.set(key, html, settings.WIKI_CACHE_SECONDS)
            copies.put(key, html, len(html))
        return mark_safe(html)  # noqa: S308 - the template rendered it, escaping as it went


@register.tag("wikicache")
def do_wikicache(parser: Parser, token: Token) -> WikiCacheNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("wikicache needs a fragment name, e.g. {% wikicache \"page\" page.slug %}")
    nodelist = parser.parse(("endwikicache",))
    parser.delete_first_token()
    return WikiCacheNode(nodelist, [parser.compile_filter(bit) for bit in bits[1:]])
