"""The one place HTML is cleaned: no script, event handler or javascript: URL survives."""

from __future__ import annotations

import re

import nh3
from markdown.extensions.toc import slugify_unicode

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "kbd", "li", "mark", "ol", "p", "pre", "q", "s",
    "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul",
}
ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "title", "lang"},
    "a": {"href"},
    "td": {"align"},
    "th": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}

# Ids the page around the text uses (skip link, landmarks, graph and preview scripts, form fields):
# a heading or typed HTML that took one would capture the skip link or the script's element.
LAYOUT_IDS = frozenset({
    "answer-heading", "api-token-key", "backlinks-heading", "changes-heading", "chart-caption",
    "chart-heading", "claims-heading", "classification-form", "classification-heading",
    "classifications-heading", "contrast-graph", "contrast-graph-heading", "contrasts-heading",
    "counts-heading", "kind", "legend-heading", "live-preview", "local-graph", "local-graph-heading",
    "main", "map-mechanism", "page-title", "pages-heading", "pick-heading", "preview-body",
    "questions-heading", "queue-heading", "resolution-heading", "site-search-q", "statements-heading",
    "toc-heading", "works-error", "works-help", "works-map",
})


def is_layout_id(value: str) -> bool:
    return value in LAYOUT_IDS or value.startswith("id_")


def heading_id(title: str, separator: str = "-") -> str:
    """The id a heading titled ``title`` gets (and a ``[[Page#title]]`` link leads to), never one the layout uses."""
    slug = slugify_unicode(title, separator)
    return f"section{separator}{slug}" if is_layout_id(slug) else slug


def _drop_layout_ids(element: str, attribute: str, value: str) -> str | None:
    return None if attribute == "id" and is_layout_id(value) else value


# latex2mathml copies \text{…} verbatim and turns \href into an href attribute, so its output is
# cleaned as well: presentation MathML only, no links.
MATHML_TAGS = {
    "math", "menclose", "mfrac", "mi", "mn", "mo", "mover", "mpadded", "mphantom", "mroot", "mrow",
    "mspace", "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd", "mtext", "mtr", "munder",
    "munderover",
}
MATHML_ATTRIBUTES = {
    "*": {
        "accent", "columnalign", "columnlines", "columnspacing", "depth", "display", "displaystyle",
        "fence", "form", "height", "largeop", "linebreak", "linethickness", "lspace", "mathbackground",
        "mathcolor", "mathsize", "mathvariant", "maxsize", "minsize", "movablelimits", "notation",
        "rowlines", "rowspacing", "rspace", "scriptlevel", "separator", "stretchy", "voffset", "width",
        "xmlns",
    },
}


def sanitize_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
        strip_comments=True,
        attribute_filter=_drop_layout_ids,
    )


def sanitize_mathml(mathml: str) -> str:
    return nh3.clean(mathml, tags=MATHML_TAGS, attributes=MATHML_ATTRIBUTES, url_schemes=set(), strip_comments=True)


# A start or end tag as HTML reads one: a name, then attributes with or without a value. No "<" in a name or an
# unquoted value, and no tag longer than MAX_TAG: a text of many "<" is read in time linear in its length.
HTML_TAG = re.compile(
    r"<(?P<end>/)?(?P<name>[A-Za-z][A-Za-z0-9-]*)"
    r"(?P<attributes>(?:\s+[^\s\"'<>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_ATTRIBUTE_NAME = re.compile(r"\s+([^\s\"'<>/=]+)(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
MAX_TAG = 2_000
# A class typed on a tag: the page's own classes (an alert, a wanted link, text for screen readers only) are the
# renderer's to give, and typed ones would let a page dress its text up as the site's messages and links.
_CLASS_ATTRIBUTE = re.compile(r"\s+class(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?", re.IGNORECASE)


def _kept_whole(name: str, attributes: str) -> bool:
    allowed = ALLOWED_ATTRIBUTES["*"] | ALLOWED_ATTRIBUTES.get(name, set())
    return name in ALLOWED_TAGS and all(a.lower() in allowed for a in _ATTRIBUTE_NAME.findall(attributes))


def escape_unlisted_html(raw: str, *, escaped: dict[str, int] | None = None) -> str:
    """Raw HTML typed in a page, with every tag the sanitiser would not keep whole escaped, to be read as typed.

    nh3 drops a tag it does not allow and a script's content with it: ``使用 <T> 泛型`` lost its ``<T>``, and
    ``a<b and c>d`` became a bold "d". Here a start tag stays markup only when its name and all its attributes
    are allowed, and an end tag unless its name is not allowed or the start tag it closes was escaped (counted
    in ``escaped``, shared by the pieces of one text). Anything else, and any ``<`` that starts no tag, shows as
    the characters typed. A tag kept loses the classes typed on it. Comments stay, for the sanitiser to remove.
    """
    escaped = {} if escaped is None else escaped
    out: list[str] = []
    position = 0
    unclosed_comment = False  # once a comment finds no end, none after it can
    while (start := raw.find("<", position)) != -1:
        out.append(raw[position:start])
        if raw.startswith("<!--", start) and not unclosed_comment:
            end = raw.find("-->", start + 4)
            if end != -1:
                out.append(raw[start:end + 3])
                position = end + 3
                continue
            unclosed_comment = True
        tag = HTML_TAG.match(raw, start, start + MAX_TAG)
        if tag is None:
            out.append("&lt;")
            position = start + 1
            continue
        name = tag["name"].lower()
        if not tag["end"]:
            keep = _kept_whole(name, tag["attributes"])
            if not keep:
                escaped[name] = escaped.get(name, 0) + 1
        elif escaped.get(name, 0) > 0:
            escaped[name] -= 1
            keep = False
        else:
            keep = name in ALLOWED_TAGS
        if not keep:
            out.append(tag.group(0).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        elif tag["attributes"]:
            out.append(raw[start:tag.start("attributes")] + _CLASS_ATTRIBUTE.sub("", tag["attributes"]) + raw[tag.end("attributes"):tag.end()])
        else:
            out.append(tag.group(0))
        position = tag.end()
    out.append(raw[position:])
    return "".join(out)
