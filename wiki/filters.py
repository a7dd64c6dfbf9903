"""GET filter forms for the source list and the open-questions queue."""

from __future__ import annotations

import django_filters
from django import forms
from django.contrib.auth import get_user_model

from wiki.models import OpenQuestion, Page, QuestionStatus, Source, SourceKind
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.models.sources import SourceQuerySet
from wiki.roles import EDITOR_GROUP


class YearFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField


class SourceFilter(django_filters.FilterSet):
    mechanism = django_filters.ChoiceFilter(choices=MECHANISM_CHOICES, label="Mechanism", empty_label="Any mechanism")
    verdict = django_filters.ChoiceFilter(choices=VERDICT_CHOICES, label="Verdict", empty_label="Any verdict")
    kind = django_filters.ChoiceFilter(choices=SourceKind.choices, label="Kind", empty_label="Any kind")
    year = YearFilter(label="Year", min_value=1900, max_value=2100)

    class Meta:
        model = Source
        fields = ["mechanism", "verdict", "kind", "year"]

    def filter_queryset(self, queryset: SourceQuerySet) -> SourceQuerySet:
        data = self.form.cleaned_data
        # Mechanism and verdict must hold for the same classification (Shepherd's components differ).
        queryset = queryset.classified_as(mechanism=data.get("mechanism") or None, verdict=data.get("verdict") or None)
        for name in ("kind", "year"):
            queryset = self.filters[name].filter(queryset, data.get(name))
        return queryset


class QuestionFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=QuestionStatus.choices, label="Status", empty_label="Any status")
    page = django_filters.ModelChoiceFilter(
        queryset=Page.objects.for_listing(), to_field_name="slug", label="Page", empty_label="Any page"
    )
    assignee = django_filters.ModelChoiceFilter(
        queryset=get_user_model().objects.filter(groups__name=EDITOR_GROUP).only("id", "username").order_by("username"),
        to_field_name="username", label="Assignee", empty_label="Anyone",
    )

    class Meta:
        model = OpenQuestion
        fields = ["status", "page", "assignee"]
