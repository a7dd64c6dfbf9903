"""Badges, the rubric checklist, the mechanism × verdict chart and claim text diffs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django import forms, template
from django.contrib.humanize.templatetags.humanize import intcomma
from django.forms import BoundField
from django.http import HttpRequest
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.dates import MONTHS
from django.utils.html import escape, format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _

from classifier.result import Suggestion
from classifier.taxonomy import Fact, Mechanism, Verdict
from wiki.caching.readers import watch_mark
from wiki.change_summaries import comment_for_reader, summary_for_reader
from wiki.field_labels import form_field_label
from wiki.graph.layout import axis_text
from wiki.markdown import for_reader
from wiki.markdown.section_links import heading_anchor, with_section_links
from wiki.models import Contrast, Page, Source
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, ENTRY_TYPE_LABELS
from wiki.references.extra_fields import NAME_FIELDS
from wiki.references.names import author_names, unbraced
from wiki.suggestion_evidence import signed_weight
from wiki.taxonomy import fact_label, mechanisms_shown, suggestion_rationale, verdicts_shown
from wiki.taxonomy import mechanism_label as _mechanism_label
from wiki.taxonomy import verdict_label as _verdict_label
from wiki.text.claim_matching import char_diff as claim_char_diff
from wiki.text.lang import chinese_runs
from wiki.text.lang import content_lang as text_lang
from wiki.text.sections import section_summary
from wiki.text.spaces import prose

if TYPE_CHECKING:
    from django.template.base import NodeList, Parser, Token

    from wiki.models import ChangeEvent

register = template.Library()


@register.simple_tag
def verdict_badge(verdict: str) -> SafeString:
    return format_html('<span class="badge verdict verdict-{}">{}</span>', verdict, _verdict_label(verdict))


@register.simple_tag
def mechanism_badge(mechanism: str) -> SafeString:
    return format_html('<span class="badge mech mech-{}">{}</span>', mechanism, _mechanism_label(mechanism))


@register.filter
def absolute_url(request: HttpRequest, path: str) -> str:
    """``path`` as an address with the scheme and host the request was made at."""
    return request.build_absolute_uri(path)


@register.filter
def verdict_label(verdict: str) -> str:
    return _verdict_label(verdict)


@register.filter
def mechanism_label(mechanism: str) -> str:
    return _mechanism_label(mechanism)


@dataclass(frozen=True)
class FactRow:
    key: str
    label: str
    value: str  # "yes", "no" or "unknown"

    @property
    def holds(self) -> bool:
        return self.value == "yes"


@register.filter
def rubric_facts(classification: Any) -> list[FactRow]:
    """The four rubric facts of a classification, in the rubric's order, with their labels; a fact stored as
    ``None`` is unknown, not "no"."""
    rows = []
    for fact in Fact:
        held = getattr(classification, fact.value)
        rows.append(FactRow(key=fact.value, label=fact_label(fact), value="unknown" if held is None else "yes" if held else "no"))
    return rows


@dataclass(frozen=True)
class Segment:
    verdict: str
    label: str
    count: int
    percent: str
    url: str


@dataclass(frozen=True)
class ChartRow:
    mechanism: str
    label: str
    total: int
    url: str
    cells: list[Segment]

    @property
    def segments(self) -> list[Segment]:
        return [cell for cell in self.cells if cell.count]


@register.inclusion_tag("includes/mechanism_chart.html")
def mechanism_chart(counts: Iterable[Mapping[str, Any]]) -> dict[str, object]:
    """Rows of a stacked bar per mechanism; each segment links to the source list filtered to it.

    Bars are scaled to the largest mechanism so that lengths compare across rows.
    """
    table: dict[tuple[str, str], int] = {(row["mechanism"], row["verdict"]): row["n"] for row in counts}
    totals = {m.value: sum(n for (mech, _), n in table.items() if mech == m.value) for m in Mechanism}
    widest = max(totals.values(), default=0) or 1
    base = reverse("wiki:source-list")
    rows = [
        ChartRow(
            mechanism=m.value,
            label=_mechanism_label(m),
            total=totals[m.value],
            url=f"{base}?{urlencode({'mechanism': m.value})}",
            cells=[
                Segment(
                    verdict=v.value,
                    label=_verdict_label(v),
                    count=table.get((m.value, v.value), 0),
                    percent=f"{100 * table.get((m.value, v.value), 0) / widest:.2f}",
                    url=f"{base}?{urlencode({'mechanism': m.value, 'verdict': v.value})}",
                )
                for v in Verdict
            ],
        )
        for m in Mechanism
        if totals[m.value]
    ]
    return {"rows": rows, "verdicts": verdicts_shown(), "total": sum(totals.values())}


@register.filter
def http_url(url: str) -> str:
    """``url`` when it is an http(s) URL, else empty: stored URLs are not trusted to be safe links."""
    return url if url.lower().startswith(("http://", "https://")) else ""


@register.simple_tag
def contrast_url(contrast: Contrast) -> str:
    """The contrast view of both sides of ``contrast`` (``work`` or ``work:component``)."""
    return contrast.get_absolute_url()


@register.simple_tag
def char_diff(old: str, new: str) -> SafeString:
    """The new text with removed characters in ``<del>`` and added ones in ``<ins>``, every part escaped."""
    tags = {"equal": "{}", "delete": "<del>{}</del>", "insert": "<ins>{}</ins>"}
    return format_html_join("", "{}", ((format_html(tags[op], text),) for op, text in claim_char_diff(old, new)))


@register.inclusion_tag("wiki/graph/legend.html")
def graph_legend(axes_written: bool = False) -> dict[str, object]:
    """The key to every graph: colours by mechanism, shapes by verdict, the other kinds of node and edge;
    ``axes_written`` when the drawing writes each contrast's axis beside its line."""
    from wiki.graph.layout import VERDICT_SHAPES

    return {"mechanisms": mechanisms_shown(), "verdicts": [(v, VERDICT_SHAPES[v.value]) for v in verdicts_shown()],
            "axes_written": axes_written}


@register.filter(name="excerpt")
def excerpt_filter(text: str, limit: int) -> str:
    """``text`` cut at a sentence or word with an ellipsis (wiki.text.excerpt)."""
    from wiki.text.spaces import excerpt

    return excerpt(str(text), int(limit))


@register.simple_tag
def graph_frame(frame: Any, svg_id: str, title: str, first: bool) -> SafeString:
    """One frame of a drawing as inline SVG (wiki.graph.svg)."""
    from wiki.graph.svg import frame_svg

    return frame_svg(frame, svg_id=svg_id, title=str(title), first=bool(first))


FACT_VALUE_LABELS = {"true": _("yes"), "false": _("no"), "unknown": _("unknown")}


@register.filter
def rationale(suggestion: Suggestion) -> str:
    """``{{ suggestion|rationale }}``: its one-line reason in the reader's language."""
    return suggestion_rationale(suggestion)


@register.filter(name="fact_label")
def fact_label_filter(fact: str) -> str:
    """A rubric fact's label in the reader's language."""
    return fact_label(fact)


@register.filter(name="signed")
def signed_filter(value: int) -> str:
    """A change of size with its sign, its digits grouped as the reader's language groups them: ``+7,047`` in English,
    ``+7047`` in Chinese, ``-12``, ``0``."""
    sign = "+" if value > 0 else "-" if value < 0 else ""
    return f"{sign}{intcomma(abs(value))}"


@register.filter(name="signed_weight")
def signed_weight_filter(value: float) -> str:
    """An evidence span's contribution with its sign: ``+0.37``, ``−0.04``."""
    return signed_weight(float(value))


@register.filter
def fact_value_label(value: str) -> str:
    """What the classifier found of a fact (true, false, unknown), in the reader's language."""
    return str(FACT_VALUE_LABELS.get(str(value), value))


KIND_PLURALS = {"page": _("Pages"), "claim": _("Claims"), "source": _("Sources"), "question": _("Open questions")}


@register.filter
def kind_plural(kind: str) -> str:
    """A kind of search result, as the heading of its group."""
    return str(KIND_PLURALS.get(str(kind), kind))


@register.filter
def classification_field_label(name: str) -> str:
    """A classification field's name as its form shows it, in the reader's language."""
    from django.core.exceptions import FieldDoesNotExist

    from wiki.models import Classification

    try:
        return str(getattr(Classification._meta.get_field(str(name)), "verbose_name", name))
    except FieldDoesNotExist:
        return str(name)




@register.filter
def field_label(field: Any) -> str:
    """A form field's label in the reader's language: its own when it was given one, else the field name's."""
    return form_field_label(field.name, field.label)


@register.filter
def html_lang(code: str) -> str:
    """A Django language code as a BCP 47 tag for ``lang`` attributes: ``zh-hans`` → ``zh-Hans``."""
    language, _dash, script = str(code).partition("-")
    return f"{language}-{script.title()}" if len(script) == 4 else str(code)


@register.filter(name="axis_text")
def axis_text_filter(axis: object) -> str:
    """A contrast's axis in the reader's language when it is written in both, as the graphs write it."""
    return axis_text(str(axis or ""))


@register.filter
def content_lang(text: object) -> str:
    """The ``lang`` of a piece of content: Chinese when it holds any Chinese character (English terms inside
    Chinese text are the wiki's normal), English otherwise."""
    return text_lang(text)


@register.filter
def contrast_side(contrast: Contrast, side: str) -> str:
    """One side of a contrast by name (:meth:`~wiki.models.Contrast.side_name`)."""
    return contrast.side_name(side)


@register.filter
def in_its_lang(field: BoundField) -> SafeString:
    """A text field rendered with the ``lang`` of what it holds, so that a screen reader reads a Chinese page body in
    the English interface (or an English abstract in the Chinese one) in its own voice; an empty field speaks the
    interface's language."""
    value = field.value()
    typed = isinstance(field.field.widget, forms.Textarea) or getattr(field.field.widget, "input_type", "") in ("text", "search")
    if not typed or not isinstance(value, str) or not value.strip():
        return mark_safe(str(field))  # noqa: S308 - Django's own rendering of the widget
    return field.as_widget(attrs={"lang": text_lang(value)})


@register.filter
def bibliographic_details(source: Source) -> list[tuple[str, str]]:
    """The details a reference file gave of ``source`` besides its venue (pages, volume, publisher…), labelled in
    the reader's language, in a fixed order."""
    return [(str(label), _detail(name, str(source.bibliographic[name]))) for name, label in BIBLIOGRAPHIC_FIELDS.items()
            if source.bibliographic.get(name) and source.bibliographic[name] != source.venue]


@register.filter
def other_fields(source: Source) -> list[tuple[str, str]]:
    """The fields of the reference file the wiki has no place for, by their BibTeX names as the exports write them,
    in the order the file gave them; people listed as the authors are."""
    return [(name, authors_list(value) if name in NAME_FIELDS else str(value))
            for name, value in source.extra_fields.items() if value]


def _detail(name: str, value: str) -> str:
    """A month kept as its number by the month's name in the reader's language; any other detail as kept."""
    if name == "month" and value.isdigit() and int(value) in MONTHS:
        return str(MONTHS[int(value)])
    return value


@register.filter
def authors_list(authors: str) -> str:
    """A work's authors (kept apart by semicolons) apart as the reader's language lists people: ``张三、李四`` in
    Chinese, ``Sutton, Richard S.; Barto, Andrew G.`` in English, whose names hold commas; an organisation without
    the braces that keep it whole."""
    return pgettext("author separator", "; ").join(unbraced(name) for name in author_names(authors))


@register.filter
def entry_type_label(entry_type: str) -> str:
    """``inproceedings (conference paper)``: the BibTeX entry type a work is exported as, and what it is."""
    label = ENTRY_TYPE_LABELS.get(entry_type)
    if not label:
        return entry_type
    return f"{entry_type}{pgettext('opening bracket', ' (')}{label}{pgettext('closing bracket', ')')}"


@register.filter
def in_lang(text: object) -> SafeString:
    """``text`` escaped in a span of its own ``lang``, for content set into a sentence of the interface
    (``Edit “<span lang="zh-Hans">优势函数</span>”``)."""
    return format_html('<span lang="{}">{}</span>', text_lang(text), text)


@register.filter
def chinese_marked(text: object) -> SafeString:
    """``text`` of the interface escaped, its Chinese runs in spans of their ``lang`` when the interface is in another
    language: a help text's example (``（来源：Title，pp.3-4）``, ``/wiki/信用分配/``) is read in a Chinese voice."""
    source = str(text or "")
    if (get_language() or "").startswith("zh"):
        return escape(source)
    return mark_safe("".join(  # noqa: S308 - every run is escaped
        format_html('<span lang="zh-Hans">{}</span>', run) if chinese else escape(run) for run, chinese in chinese_runs(source)))


_QUOTED = re.compile(r"“([^”]*)”")


@register.filter
def quoted_lang(text: object) -> SafeString:
    """``text`` escaped, each “quoted” piece of content in it marked with its own ``lang``: a finding's
    sentence is in the reader's language, the claim it quotes in the claim's."""
    out: list[str] = []
    last = 0
    source = str(text or "")
    for match in _QUOTED.finditer(source):
        out.append(escape(source[last:match.start()]))
        out.append(format_html('“<span lang="{}">{}</span>”', text_lang(match.group(1)), match.group(1)))
        last = match.end()
    out.append(escape(source[last:]))
    return mark_safe("".join(out))  # noqa: S308 - every piece is escaped above


def utc_offset(moment: datetime) -> str:
    """``UTC+8``, ``UTC−3:30``, ``UTC``: the offset of ``moment``'s zone at that moment."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    if not minutes:
        return "UTC"
    sign = "+" if minutes > 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


@dataclass(frozen=True)
class TimeZoneShown:
    name: str
    offset: str


@register.simple_tag
def current_time_zone() -> TimeZoneShown:
    """The zone this request shows times in, with its offset now."""
    now = timezone.localtime()
    return TimeZoneShown(name=timezone.get_current_timezone_name(), offset=utc_offset(now))


@register.simple_tag
def when(value: datetime | None, fmt: str = "Y-m-d H:i", zone: bool = True) -> SafeString | str:
    """A ``<time>`` in the reader's zone, its machine-readable UTC instant in ``datetime`` and, unless ``zone`` is
    false (dates alone), the zone's offset after it; the zone's name on hover."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    shown = dateformat.format(local, fmt)
    return format_html(
        '<time datetime="{}" title="{}">{}{}</time>',
        value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        timezone.get_current_timezone_name(),
        shown,
        f" {utc_offset(local)}" if zone else "",
    )


# A citation marker whose title names no work, as stored (older renderings carry an English title).
_MISSING_CITATION = re.compile(r'class="cite cite-missing"(?: title="[^"]*")?')


@register.filter
def rendered_body(html: str) -> SafeString:
    """Page HTML as stored, sanitised when it was rendered, with the interface's words in the reader's language:
    the rendering is shared by every reader, so a marker citing a title no work has, a wanted link, a formula that
    could not be rendered and a footnote's back link get their explanations here (``wiki.markdown.for_reader``)."""
    note = escape(gettext("No source with this title"))
    return mark_safe(for_reader(_MISSING_CITATION.sub(f'class="cite cite-missing" title="{note}"', html)))  # noqa: S308 - sanitised when rendered


@register.filter
def section_edit_links(html: str, page: Page) -> SafeString:
    """For editors (the page's fragment is cached per permissions): the page's HTML with a link at each heading that
    starts a section, which edits that section alone."""
    url = reverse("wiki:page-edit", kwargs={"slug": page.slug})
    label = gettext("Edit")

    def link(number: int, title: str) -> str:
        return format_html('<span class="section-edit"><a href="{}?{}" aria-label="{}">{}</a></span>',
                           url, urlencode({"section": number}), gettext("Edit section “%(title)s”") % {"title": title},
                           label)

    return mark_safe(with_section_links(html, body=page.body, toc=page.toc, link=link))  # noqa: S308 - sanitised when rendered; the links escaped


@register.filter
def edit_summary(comment: str) -> str:
    """A revision's summary in the reader's language when the wiki wrote it (an import, a revert, an undo, a
    rollback), else as typed."""
    return comment_for_reader(comment)


@register.simple_tag
def summary_with_section(text: str, page_url: str = "", limit: int = 0) -> SafeString:
    """An edit summary as a page's history and the lists of changes show it, escaped: one that opens by naming the
    section edited (``/* Heading */ rest``, as a section's edit form prefills it) as "→Heading", a link to that
    section of the page at ``page_url`` (the heading's own id), then the rest of it; ``limit`` characters at most
    (0: all of it)."""
    def cut(words: str, room: int) -> str:
        return Truncator(words).chars(max(room, 1)) if limit else words

    named = section_summary(text) if page_url else None
    if named is None:
        return escape(cut(text, limit))
    link = format_html('<a class="section-summary" href="{}#{}">→{}</a>', page_url, heading_anchor(named.title),
                       cut(named.title, limit))
    if not named.rest:
        return link
    return format_html("{}{}{}", link, pgettext("label separator", ": "), cut(named.rest, limit - len(named.title) - 1))


@register.filter
def change_summary(event: ChangeEvent) -> str:
    """What an entry of recent changes says, in the reader's language when the wiki wrote it."""
    return summary_for_reader(event)


class ProseNode(template.Node):
    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        return mark_safe(prose(self.nodelist.render(context)))  # noqa: S308 - the rendered template, already escaped


@register.tag(name="prose")
def do_prose(parser: Parser, token: Token) -> ProseNode:
    """``{% prose %}…{% endprose %}``: sentences a template writes on several lines, read as one run of text, with
    no space after a full-width mark where Chinese sets none (``wiki.text.spaces.prose``)."""
    nodelist = parser.parse(("endprose",))
    parser.delete_first_token()
    return ProseNode(nodelist)


@register.simple_tag(takes_context=True)
def watch_slot(context: template.Context, kind: str, object_id: int) -> str:
    """Where a logged-in reader's watch button for the page, work or question goes (filled for each request, their
    own state in it: ``wiki.caching.readers``); nothing for anonymous readers. A fragment holding it varies on
    ``user.is_authenticated``."""
    user = context.get("user")
    return watch_mark(kind, object_id) if user is not None and user.is_authenticated else ""
