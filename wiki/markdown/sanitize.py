"""The one place HTML is cleaned: no script, event handler or javascript: URL survives."""

from __future__ import annotations

import nh3

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
