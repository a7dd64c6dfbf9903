"""Forms for choosing which works to compare and how far a local graph reaches."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from wiki.graph.build import SubjectRef
from wiki.graph.nodes import EDGE_LABELS, EdgeType
from wiki.taxonomy import MECHANISM_CHOICES

MAX_WORKS = 12
_SUBJECT_RE = re.compile(r"^[-\w]+(?::[-\w]+)?$")


def split_subjects(values: list[str]) -> str:
    """``?works=a,b&works=c`` and ``?works=a b`` both become ``a,b,c``."""
    return ",".join(part for value in values for part in re.split(r"[\s,，]+", value) if part)


class WorkPickForm(forms.Form):
    works = forms.CharField(
        required=False, max_length=2000, label=_("Works"),
        help_text=_("Slugs separated by commas; a component as work:component (shepherd:tree-grpo)."),
    )
    q = forms.CharField(required=False, max_length=100, label=_("Find works"))

    def clean_works(self) -> list[SubjectRef]:
        tokens = [t for t in self.cleaned_data["works"].split(",") if t]
        bad = [t for t in tokens if not _SUBJECT_RE.match(t)]
        if bad:
            raise ValidationError(_("Not a work slug: %(bad)s"), code="invalid", params={"bad": ", ".join(bad)})
        refs = list(dict.fromkeys(SubjectRef.parse(t.lower()) for t in tokens))
        if len(refs) > MAX_WORKS:
            raise ValidationError(_("Compare at most %(max)d works at a time."), code="too_many", params={"max": MAX_WORKS})
        return refs


class MapFilterForm(forms.Form):
    """The map's one filter: a mechanism (all when left out)."""

    mechanism = forms.ChoiceField(choices=[("", _("All mechanisms")), *MECHANISM_CHOICES], required=False,
                                  label=_("Mechanism"))


class LocalGraphForm(forms.Form):
    depth = forms.TypedChoiceField(choices=[(1, _("1 step")), (2, _("2 steps"))], coerce=int, initial=1, required=False,
                                   widget=forms.RadioSelect)
    edges = forms.MultipleChoiceField(choices=[(t.value, EDGE_LABELS[t]) for t in EdgeType], required=False,
                                      widget=forms.CheckboxSelectMultiple, label=_("Edge types"))

    def clean_depth(self) -> int:
        return self.cleaned_data.get("depth") or 1
