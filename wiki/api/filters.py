"""Query-string filters of the API lists."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Exists, OuterRef, Q, QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter

from wiki.models import Citation, Claim, ClaimStatus, Classification, Contrast, OpenQuestion, Page, QuestionPriority, QuestionStatus, Source, SourceKind
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES, SetBy


@extend_schema_field({"type": "integer", "minimum": 1900, "maximum": 2100})
class YearFilter(django_filters.NumberFilter):
    """A year as an integer from 1900 to 2100 (sources' check constraint)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, min_value=1900, max_value=2100, **kwargs)


class PageFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Title, slug or summary contains (case-insensitive).", max_length=200)

    class Meta:
        model = Page
        fields = ["q"]

    def filter_q(self, queryset: QuerySet[Page], name: str, value: str) -> QuerySet[Page]:
        return queryset.filter(Q(title__icontains=value) | Q(slug__icontains=value) | Q(summary__icontains=value))


class SourceFilter(django_filters.FilterSet):
    mechanism = django_filters.ChoiceFilter(choices=MECHANISM_CHOICES, method="filter_classified",
                                            label="Has a classification (of the work or a component) with this mechanism.")
    verdict = django_filters.ChoiceFilter(choices=VERDICT_CHOICES, method="filter_classified",
                                          label="Has a classification with this verdict (with mechanism: the same one).")
    kind = django_filters.ChoiceFilter(choices=SourceKind.choices)
    year = YearFilter()
    year_min = YearFilter(field_name="year", lookup_expr="gte", label="Year from (inclusive).")
    year_max = YearFilter(field_name="year", lookup_expr="lte", label="Year to (inclusive).")
    q = django_filters.CharFilter(method="filter_q", max_length=200,
                                  label="Short name, title, slug, authors or abstract contains (case-insensitive).")

    class Meta:
        model = Source
        fields = ["mechanism", "verdict", "kind", "year", "year_min", "year_max", "q"]

    def filter_classified(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        # Both values must hold for one classification (Shepherd's components differ), so both are read here.
        mechanism, verdict = self.form.cleaned_data.get("mechanism"), self.form.cleaned_data.get("verdict")
        if name == "verdict" and mechanism:
            return queryset  # applied together with the mechanism
        return queryset.classified_as(mechanism=mechanism, verdict=verdict)  # type: ignore[attr-defined]

    def filter_q(self, queryset: QuerySet[Source], name: str, value: str) -> QuerySet[Source]:
        return queryset.filter(
            Q(short_name__icontains=value) | Q(title__icontains=value) | Q(slug__icontains=value)
            | Q(authors__icontains=value) | Q(abstract__icontains=value)
        )


class ClaimFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ClaimStatus.choices)
    page_slug = django_filters.CharFilter(field_name="page__slug", label="Slug of the claim's page.", max_length=200)
    source = django_filters.CharFilter(method="filter_source", label="Slug of a cited source.", max_length=120)
    is_orphaned = django_filters.BooleanFilter(label="Removed from its page's text (default: both).")

    class Meta:
        model = Claim
        fields = ["status", "page_slug", "source", "is_orphaned"]

    def filter_source(self, queryset: QuerySet[Claim], name: str, value: str) -> QuerySet[Claim]:
        return queryset.filter(Exists(Citation.objects.filter(claim=OuterRef("pk"), source__slug=value)))


class ClassificationFilter(django_filters.FilterSet):
    mechanism = django_filters.ChoiceFilter(choices=MECHANISM_CHOICES)
    verdict = django_filters.ChoiceFilter(choices=VERDICT_CHOICES)
    source = django_filters.CharFilter(field_name="source__slug", label="Slug of the classified source.", max_length=120)
    set_by = django_filters.ChoiceFilter(choices=SetBy.choices)

    class Meta:
        model = Classification
        fields = ["mechanism", "verdict", "source", "set_by"]


class ContrastFilter(django_filters.FilterSet):
    work = django_filters.CharFilter(method="filter_work", label="Slug of a source on either side.", max_length=120)

    class Meta:
        model = Contrast
        fields = ["work"]

    def filter_work(self, queryset: QuerySet[Contrast], name: str, value: str) -> QuerySet[Contrast]:
        return queryset.filter(Q(left__slug=value) | Q(right__slug=value))


class QuestionFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=QuestionStatus.choices)
    priority = django_filters.ChoiceFilter(choices=QuestionPriority.choices)
    page_slug = django_filters.CharFilter(field_name="page__slug", label="Slug of the question's page.", max_length=200)

    class Meta:
        model = OpenQuestion
        fields = ["status", "priority", "page_slug"]


class StrictOrderingFilter(OrderingFilter):
    """``?ordering=`` that answers 400 for a field it cannot order by, rather than silently keeping the default."""

    def remove_invalid_fields(self, queryset: QuerySet[Any], fields: list[str], view: Any, request: Any) -> list[str]:
        valid = {name for name, _label in self.get_valid_fields(queryset, view, {"request": request})}
        unknown = [term for term in fields if term.lstrip("-") not in valid]
        if unknown:
            raise ValidationError(
                {self.ordering_param: [f"Cannot order by {', '.join(unknown)}; choose from {', '.join(sorted(valid))} "
                                       "(prefix - for descending)."]},
                code="invalid_choice",
            )
        return fields

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        fields = getattr(view, "ordering_fields", None)
        if isinstance(fields, (list, tuple)):
            field = "-?(" + "|".join(fields) + ")"
            for parameter in parameters:
                parameter["description"] = (f"Comma-separated fields to order by, `-` first for descending: {', '.join(fields)}. "
                                            "Any other field is refused (400).")
                parameter["schema"]["pattern"] = f"^{field}(,{field})*$"
        return parameters
