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

# Ids the page around the text uses (skip link, landmarks, contents, form fields and their errors, graph and preview
# scripts): a heading or typed HTML that took one would capture the skip link, a label or the script's element. Every
# id templates/ and static/js/ give is reserved here (tests/wiki/test_sanitize.py reads them all).
LAYOUT_IDS = frozenset({
    "answer-heading", "api-token-key", "attached-heading", "backlinks-heading", "changes-heading", "chart-caption",
    "chart-heading", "citations-heading", "cited-works", "cited-works-heading", "claims-heading",
    "classification-form", "classification-heading", "classifications-heading", "comment-errors", "confusion-heading",
    "contents-list", "contrast-graph", "contrast-graph-heading", "contrasts-heading", "counts-heading", "days",
    "days_error", "decide-heading", "definition-heading", "deleted-pages-heading", "deleted-works-heading",
    "editor-tools-heading", "error-summary", "error-summary-list", "feed-heading", "graph-filter-error",
    "history-heading", "kept-heading", "kind", "kind_error", "legend-heading", "linking-heading", "live-preview",
    "local-graph", "local-graph-heading", "main", "map-filter-error", "map-mechanism", "map-verdict",
    "other-contrasts-heading", "own-contrasts-heading", "page-deleted", "page-form", "page-slug-options", "page-title",
    "pages-heading", "pick-heading", "preview-body", "preview-status", "questions-heading", "queue-heading",
    "redoc-container", "resolution-heading", "saved-version-label", "site-search-q", "site-search-q-options",
    "source-deleted", "statements-heading", "swagger-ui", "toc-heading", "token-made-heading", "triage-status", "user",
    "user_error", "where-heading", "works-error", "works-help", "works-map", "works-unknown", "your-version-label",
    # the edit form's changes, an undo's notice, a diff's sides, the rollback button's form, the changes filters' errors
    "edit-changes", "edit-changes-heading", "undo-heading", "diff-side-old", "diff-side-new", "rollback-form",
    "hidemine_error", "hideminor_error", "latest_error",
    # the header's language switch and a page's watch button, which their forms come back to
    "switch-language", "watch-button",
    # a page's information and its citations, with their copy button's status
    "info-basic", "info-claims", "info-history", "info-links", "cite-apa", "cite-bibtex", "cite-csl", "cite-details",
    "cite-gbt", "cite-ris", "cite-styles", "copy-status", "style-apa", "style-bibtex", "style-csl", "style-gbt",
    "style-ris",
    # an import's page: the works it created and the fields it took
    "created-heading", "taken-heading",
    # the search results' groups, one a kind
    "group-page", "group-claim", "group-source", "group-question",
    # the consistency report's sections, one a kind of finding, with their headings
    *(f"{kind}{part}" for kind in ("verdict_disagrees", "no_evidence", "rl_name_not_rl", "missing_locator",
                                   "one_sided_contrast", "contrast_after_reclassification")
      for part in ("", "-title", "-dismissed")),
})
# Ids the layout makes from a value (a form field's name, a work's slug, a number, a day, a finding, a graph's frame
# and lines): any id of these forms.
_LAYOUT_ID_FORMS = re.compile(
    r"(?:id_|classification-|component-|triage-|finding-|reason-finding-|reason-error-finding-|contrast-graph-|"
    r"local-graph-|works-map-).*|(?:kept|remove)-[0-9]+|picker-[0-9]+-options|day-[0-9]{4}-[0-9]{2}-[0-9]{2}",
    re.DOTALL,
)


def is_layout_id(value: str) -> bool:
    return value in LAYOUT_IDS or _LAYOUT_ID_FORMS.fullmatch(value) is not None


# A point between digits (2.1, v1.5, of either width): the slug drops a point, which would read section 2.1 as 21.
_DECIMAL_POINT = re.compile(r"(?<=\d)[.．](?=\d)")


# What an id made of a title's own marks leaves out: what HTML or a link's address would read otherwise.
_UNSAFE_IN_ID = re.compile(r"""[#%"'<>&\\`]+""")


def heading_id(title: str, separator: str = "-") -> str:
    """The id a heading titled ``title`` gets (and a ``[[Page#title]]`` link leads to), never one the layout uses. A
    point between digits parts them as a space does: ``2.1 节：公式`` → ``2-1-节公式``, not ``21-节公式``. A title of
    punctuation or symbols alone, which the slug would leave empty, keeps them: ``## ？！`` is ``？！``, so that a link
    to it finds it, where Python-Markdown would number it ``_1``."""
    slug = slugify_unicode(_DECIMAL_POINT.sub(separator, title), separator)
    if not slug:
        slug = separator.join(_UNSAFE_IN_ID.sub("", title).split())
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
