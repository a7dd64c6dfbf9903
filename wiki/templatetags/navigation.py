"""Where the reader is, marked on the main navigation's links."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# The main navigation's links: a page is in the section of the longest of their addresses its own starts with
# (a work's page under Sources, a page's history under Pages, but the new-page form under New page, not Pages).
NAV_URL_NAMES = ("wiki:home", "wiki:page-list", "wiki:page-create", "wiki:source-list", "wiki:question-list",
                 "wiki:glossary-list", "wiki:graph-map", "wiki:compare", "wiki:changes", "wiki:triage")


@register.simple_tag(takes_context=True)
def nav_current(context: template.Context, url: str) -> SafeString:
    """`` aria-current="page"`` on the link to the page shown, `` aria-current="true"`` on the link to the section it
    is in, nothing on the others."""
    request = context.get("request")
    if request is None:
        return mark_safe("")
    path = request.path
    if path == url:
        return mark_safe(' aria-current="page"')
    urls = [reverse(name) for name in NAV_URL_NAMES]
    sections = [u for u in urls if u != "/" and path.startswith(u)]
    if sections and max(sections, key=len) == url:
        return mark_safe(' aria-current="true"')
    return mark_safe("")
