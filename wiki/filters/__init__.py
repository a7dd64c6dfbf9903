"""The query-string filters of every list, one FilterSet per resource: the HTML lists and the API share them.

A value a filter cannot read is refused (400 with the field's message), never ignored; the API also
refuses a parameter no filter has.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field

from wiki.forms.pickers import one_page_named
from wiki.forms.rendering import without_controls
from wiki.models import (
    Citation,
    Claim,
    ClaimStatus,
    Classification,
    Contrast,
    OpenQuestion,
    Page,
    PageRedirect,
    QuestionPriority,
    QuestionStatus,
    Source,
    SourceKind,
)
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES, SetBy
from wiki.models.rules import YEAR_MAX, YEAR_MIN
from wiki.references.exports import EXPORTS
from wiki.references.identifiers import short_name_key
from wiki.roles import EDITOR_GROUP

MAX_QUERY_CHARS = 200


@extend_schema_field({"type": "integer", "minimum": YEAR_MIN, "maximum": YEAR_MAX})
class YearFilter(django_filters.NumberFilter):
    """A year as a whole number within the bounds sources may have."""

    field_class = forms.IntegerField  # type: ignore[assignment]  # a whole number, where NumberFilter reads decimals

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, min_value=YEAR_MIN, max_value=YEAR_MAX, **kwargs)


# The spellings of a yes/no query parameter, whatever their case: true or 1 (as the pages' forms send a ticked box),
# false or 0. Every one of the API's reads the same ones and refuses any other with the same message, where
# django-filter reads "yes" as "either" and DRF takes "yes", "on" or "y".
TRUE_VALUES = frozenset({"true", "1"})
FALSE_VALUES = frozenset({"false", "0"})
NOT_YES_NO = _("Send true (or 1) or false (or 0).")


def yes_no(value: object) -> bool | None:
    """True or False for a spelling of :data:`TRUE_VALUES` or :data:`FALSE_VALUES`, None for anything else."""
    text = str(value).lower()
    return True if text in TRUE_VALUES else False if text in FALSE_VALUES else None


class YesNoField(forms.Field):
    """A yes/no parameter (:func:`yes_no`); nothing sent is None, another value refused."""

    def to_python(self, value: Any) -> bool | None:
        if value in self.empty_values:
            return None
        answer = yes_no(value)
        if answer is None:
            raise ValidationError(NOT_YES_NO, code="invalid")
        return answer


@extend_schema_field({"type": "boolean"})
class StrictBooleanFilter(django_filters.Filter):
    """A yes/no filter (:func:`yes_no`); anything else is refused, where django-filter's BooleanFilter reads it as
    "either"."""

    field_class = YesNoField


class FoldedTextField(forms.CharField):
    """Text as the wiki's names are compared: full-width letters and digits as ASCII, any run of spacing (an
    ideographic space, two spaces) as one space."""

    def to_python(self, value: Any) -> str:
        return " ".join(unicodedata.normalize("NFKC", super().to_python(value) or "").split())


class SearchText(django_filters.CharFilter):
    field_class = FoldedTextField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, method="filter_q", max_length=MAX_QUERY_CHARS, **kwargs)


class PageFilter(django_filters.FilterSet):
    q = SearchText(label=_("Title, slug or summary contains (case-insensitive)."))

    class Meta:
        model = Page
        fields = ["q"]

    def filter_q(self, queryset: QuerySet[Page], name: str, value: str) -> QuerySet[Page]:
        return queryset.filter(Q(title__icontains=value) | Q(slug__icontains=value) | Q(summary__icontains=value))


class LivePageSlugField(forms.CharField):
    """A live page, typed as its slug, as a wiki link to it (``Agentic RL`` for ``agentic-rl``) or as its title, and
    cleaned to its slug; an unknown or deleted page is refused, not read as a page with nothing listed.

    ``deleted_message`` says what a deleted page's slug leaves out of the list.
    """

    deleted_message = _("The page “%(slug)s” was deleted: the works it cited are not listed while it is.")

    def clean(self, value: Any) -> str:
        typed: str = super().clean(value)
        if not typed:
            return typed
        page = one_page_named(typed)
        if page is not None:
            return page.slug
        # The address a page had before it was moved names it still, as links and the page's old address do.
        moved_to = PageRedirect.objects.page_slug_at(typed)
        if moved_to is not None:
            return moved_to
        deleted = Page.all_objects.deleted().named(typed)
        if deleted:
            raise ValidationError(self.deleted_message, code="deleted", params={"slug": deleted[0].slug})
        raise ValidationError(_("There is no page “%(page)s”."), code="no_page", params={"page": without_controls(typed)})


class CitingPageField(LivePageSlugField):
    """The page citing the works listed."""


class CitingPageFilter(django_filters.CharFilter):
    field_class = CitingPageField


class ClaimPageField(LivePageSlugField):
    """The page whose claims are listed."""

    deleted_message = _("The page “%(slug)s” was deleted: its claims are not listed while it is.")


class ClaimPageFilter(django_filters.CharFilter):
    field_class = ClaimPageField


class LiveWorkSlugField(forms.CharField):
    """A live work, typed as its slug; an unknown, deleted or merged work is refused (one query), not read as a work
    with nothing listed."""

    def clean(self, value: Any) -> str:
        typed: str = super().clean(value)
        if not typed or Source.objects.filter(slug=typed).exists():
            return typed
        gone = Source.all_objects.gone(typed)
        if gone is not None and gone.merged_into is not None:
            raise ValidationError(_("The work “%(slug)s” was merged into “%(kept)s”: name that one."), code="merged",
                                  params={"slug": typed, "kept": gone.merged_into.slug})
        if gone is not None:
            raise ValidationError(_("The work “%(slug)s” was deleted."), code="deleted", params={"slug": typed})
        raise ValidationError(_("There is no work “%(slug)s”."), code="no_work", params={"slug": typed})


class LiveWorkFilter(django_filters.CharFilter):
    field_class = LiveWorkSlugField


class SourceFilterForm(forms.Form):
    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        low, high = cleaned.get("year_min"), cleaned.get("year_max")
        if low is not None and high is not None and low > high:
            # Answered as an empty list, the range would look like a wiki without works of those years.
            self.add_error("year_max", ValidationError(
                _("%(high)s is earlier than %(low)s, the year from: no work can match; swap the two years."),
                code="inverted_range", params={"low": low, "high": high}))
        return cleaned


class SourceFilter(django_filters.FilterSet):
    mechanism = django_filters.ChoiceFilter(choices=MECHANISM_CHOICES, label=_("Mechanism"), empty_label=_("Any mechanism"),
                                            method="filter_nothing")
    verdict = django_filters.ChoiceFilter(choices=VERDICT_CHOICES, label=_("Verdict"), empty_label=_("Any verdict"),
                                          method="filter_nothing")
    classified = django_filters.ChoiceFilter(
        choices=[("true", _("Classified")), ("false", _("Not classified yet"))], label=_("Classified"),
        empty_label=_("Classified or not"), method="filter_classified",
    )
    kind = django_filters.ChoiceFilter(choices=SourceKind.choices, label=_("Kind"), empty_label=_("Any kind"))
    year = YearFilter(label=_("Year"))
    year_min = YearFilter(field_name="year", lookup_expr="gte", label=_("Year from"))
    year_max = YearFilter(field_name="year", lookup_expr="lte", label=_("Year to"))
    q = SearchText(label=_("Name, title, authors or abstract contains"))
    cited_on = CitingPageFilter(method="filter_cited_on", max_length=200, label=_("Cited on the page (its title or slug)"))

    class Meta:
        model = Source
        fields = ["mechanism", "verdict", "classified", "kind", "year", "year_min", "year_max", "q", "cited_on"]
        form = SourceFilterForm

    def filter_queryset(self, queryset: QuerySet[Source]) -> QuerySet[Source]:
        data = self.form.cleaned_data
        # Mechanism and verdict must hold for the same classification (Shepherd's components differ).
        queryset = queryset.classified_as(  # type: ignore[attr-defined]
            mechanism=data.get("mechanism") or None, verdict=data.get("verdict") or None
        )
        return super().filter_queryset(queryset)

    def filter_nothing(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        return queryset  # applied together in filter_queryset

    def filter_classified(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        return queryset.classified(value == "true")  # type: ignore[attr-defined, no-any-return]

    def filter_cited_on(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        citing = Citation.objects.filter(source=OuterRef("pk"), claim__page__slug=value, claim__page__deleted_at__isnull=True,
                                         claim__is_orphaned=False)
        return queryset.filter(Exists(citing))

    def filter_q(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        # a short name typed with other spacing or punctuation (skill forge, Skill-Forge) is found by its folded key
        folded = Q(name_key__contains=key) if (key := short_name_key(value)) else Q(pk__in=[])
        return queryset.filter(
            Q(short_name__icontains=value) | folded | Q(title__icontains=value) | Q(slug__icontains=value)
            | Q(authors__icontains=value) | Q(abstract__icontains=value)
        )


# ``?sort=`` of the HTML list, as the API's ``?ordering=`` offers them; works without a year come last either way.
SOURCE_SORTS = {
    "title": ("title_sort", "pk"),
    "-title": ("-title_sort", "-pk"),
    "year": (F("year").asc(nulls_last=True), "name_sort", "pk"),
    "-year": (F("year").desc(nulls_last=True), "name_sort", "pk"),
    "added": ("created_at", "pk"),
    "-added": ("-created_at", "-pk"),
}
SOURCE_SORT_CHOICES = [
    ("title", _("Title, A–Z")), ("-title", _("Title, Z–A")), ("year", _("Year, oldest first")),
    ("-year", _("Year, newest first")), ("added", _("Added, earliest first")), ("-added", _("Added, latest first")),
]


class SourceListForm(SourceFilterForm):
    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        export = self.data.get("format")
        if export and export not in EXPORTS:
            self.add_error(None, ValidationError(
                _("“%(value)s” is not a format this list downloads as: use bib (BibTeX) or csl (CSL-JSON)."),
                code="invalid_choice", params={"value": export}))
        return cleaned


class SourceListFilter(SourceFilter):
    """The HTML list's filters: the API's, a sort (the API's ``ordering``), and the ``format`` it is downloaded in,
    which the view reads; an unknown sort or format is refused like an unknown mechanism."""

    sort = django_filters.ChoiceFilter(choices=SOURCE_SORT_CHOICES, label=_("Sort"), empty_label=_("Short name, A–Z"),
                                       method="filter_sort")

    class Meta(SourceFilter.Meta):
        fields = [*SourceFilter.Meta.fields, "sort"]
        form = SourceListForm

    def filter_sort(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        return queryset.order_by(*SOURCE_SORTS[value])


class ClaimFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ClaimStatus.choices)
    page_slug = ClaimPageFilter(field_name="page__slug", label=_("The claim's page (its title or slug)."), max_length=200)
    source = LiveWorkFilter(method="filter_source", label=_("Slug of a cited source."), max_length=120)
    about = LiveWorkFilter(method="filter_about", label=_("Slug of a work the claim is about."), max_length=120)
    is_orphaned = StrictBooleanFilter(label="Removed from its page's text (both when left out; `1` and `0` are read as "
                                               "`true` and `false`).")

    class Meta:
        model = Claim
        fields = ["status", "page_slug", "source", "about", "is_orphaned"]

    def filter_source(self, queryset: QuerySet[Claim], name: str, value: str) -> QuerySet[Claim]:
        return queryset.filter(Exists(Citation.objects.filter(claim=OuterRef("pk"), source__slug=value)))

    def filter_about(self, queryset: QuerySet[Claim], name: str, value: str) -> QuerySet[Claim]:
        return queryset.filter(Exists(Claim.about.through.objects.filter(claim=OuterRef("pk"), source__slug=value)))


class ClassificationFilter(django_filters.FilterSet):
    mechanism = django_filters.ChoiceFilter(choices=MECHANISM_CHOICES)
    verdict = django_filters.ChoiceFilter(choices=VERDICT_CHOICES)
    source = LiveWorkFilter(field_name="source__slug", label=_("Slug of the classified source."), max_length=120)
    set_by = django_filters.ChoiceFilter(choices=SetBy.choices)

    class Meta:
        model = Classification
        fields = ["mechanism", "verdict", "source", "set_by"]


class ContrastFilter(django_filters.FilterSet):
    work = LiveWorkFilter(method="filter_work", label=_("Slug of a source on either side."), max_length=120)

    class Meta:
        model = Contrast
        fields = ["work"]

    def filter_work(self, queryset: QuerySet[Contrast], name: str, value: str) -> QuerySet[Contrast]:
        return queryset.filter(Q(left__slug=value) | Q(right__slug=value))


class QuestionPageField(LivePageSlugField):
    """The page whose questions are listed."""

    deleted_message = _("The page “%(slug)s” was deleted: its questions are not listed while it is.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.widget.attrs.update({"list": QUESTION_PAGE_OPTIONS_ID, "autocomplete": "off", "spellcheck": "false"})


class QuestionPageFilter(django_filters.CharFilter):
    field_class = QuestionPageField


# The id of the <datalist> the queue offers for its page filter: the pages with the most questions in the queue.
QUESTION_PAGE_OPTIONS_ID = "page-slug-options"


# ``?assigned=`` values: the questions no one is assigned, and those assigned to the reader (logged in only).
ASSIGNED_TO_NOBODY = "nobody"
ASSIGNED_TO_ME = "me"
# ``?status=unresolved``: open or investigating.
UNRESOLVED = "unresolved"


class QuestionFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(
        choices=[(UNRESOLVED, _("Unresolved (open or investigating)")), *QuestionStatus.choices], label=_("Status"),
        empty_label=_("Any status"), method="filter_status",
    )
    priority = django_filters.ChoiceFilter(choices=QuestionPriority.choices, label=_("Priority"), empty_label=_("Any priority"))
    # Named apart from ``page``, the API's page of results.
    # Typed, not chosen from a list: a list of every page would grow with the wiki.
    page_slug = QuestionPageFilter(field_name="page__slug", max_length=200, label=_("Page (its title or slug)"))
    assignee = django_filters.ModelChoiceFilter(
        queryset=get_user_model().objects.filter(groups__name=EDITOR_GROUP).only("id", "username").order_by("username"),
        to_field_name="username", label=_("Assignee"), empty_label=_("Anyone"),
    )
    # Apart from ``assignee``, whose values are usernames: no account's name can be mistaken for one of these.
    assigned = django_filters.ChoiceFilter(
        choices=[(ASSIGNED_TO_NOBODY, _("To no one (unassigned)")), (ASSIGNED_TO_ME, _("To me"))], label=_("Assigned"),
        empty_label=_("To anyone or no one"), method="filter_assigned",
    )

    class Meta:
        model = OpenQuestion
        fields = ["status", "priority", "page_slug", "assignee", "assigned"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self._reader_id():
            # "To me" is a logged-in reader's choice: asked anonymously, it is refused as any unknown value is. The
            # form field is made again from these choices: one already made (the schema reads the filters' fields)
            # would be copied with "To me" in it.
            assigned = self.filters["assigned"]
            assigned.extra["choices"] = [(ASSIGNED_TO_NOBODY, _("To no one (unassigned)"))]
            vars(assigned).pop("_field", None)

    def _reader_id(self) -> int | None:
        user = getattr(self.request, "user", None)
        return user.pk if user is not None and user.is_authenticated else None

    def filter_status(self, queryset: QuerySet[OpenQuestion], name: str, value: str) -> QuerySet[OpenQuestion]:
        if value == UNRESOLVED:
            return queryset.unresolved()  # type: ignore[attr-defined, no-any-return]
        return queryset.filter(status=value)

    def filter_assigned(self, queryset: QuerySet[OpenQuestion], name: str, value: str) -> QuerySet[OpenQuestion]:
        reader = self._reader_id() if value == ASSIGNED_TO_ME else None
        return queryset.assigned_to(reader)  # type: ignore[attr-defined, no-any-return]


# ``?sort=`` of the queue (the API's ``?ordering=`` offers the same: ``priority,created_at``, ``-created_at``,
# ``created_at``, ``-updated_at``). By priority, the answered and dropped questions come after the others.
QUESTION_SORTS = {
    "newest": ("-created_at", "-id"),
    "oldest": ("created_at", "id"),
    "changed": ("-updated_at", "-id"),
}
QUESTION_SORT_CHOICES = [
    ("newest", _("Newest first")), ("oldest", _("Oldest first")), ("changed", _("Recently changed first")),
]
ALL_STATUSES = "all"


class QuestionListFilter(QuestionFilter):
    """The queue's filters: the API's, a sort (the API's ``ordering``), and the unresolved questions unless a status
    is chosen (``all`` for every one)."""

    status = django_filters.ChoiceFilter(
        choices=[(UNRESOLVED, _("Unresolved (open or investigating)")), (ALL_STATUSES, _("Any status")),
                 *QuestionStatus.choices],
        label=_("Status"), empty_label=None, method="filter_status",
    )
    sort = django_filters.ChoiceFilter(choices=QUESTION_SORT_CHOICES, label=_("Sort"),
                                       empty_label=_("Priority, then oldest first"), method="filter_sort")

    class Meta(QuestionFilter.Meta):
        fields = [*QuestionFilter.Meta.fields, "sort"]

    def filter_queryset(self, queryset: QuerySet[OpenQuestion]) -> QuerySet[OpenQuestion]:
        if not self.form.cleaned_data.get("status"):
            queryset = queryset.unresolved()  # type: ignore[attr-defined]
        return super().filter_queryset(queryset)

    def filter_status(self, queryset: QuerySet[OpenQuestion], name: str, value: str) -> QuerySet[OpenQuestion]:
        return queryset if value == ALL_STATUSES else super().filter_status(queryset, name, value)

    def filter_sort(self, queryset: QuerySet[OpenQuestion], name: str, value: str) -> QuerySet[OpenQuestion]:
        return queryset.order_by(*QUESTION_SORTS[value])
