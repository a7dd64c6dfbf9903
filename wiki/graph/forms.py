"""Forms for choosing which works to compare and how far a local graph reaches."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from wiki.filters.changes import TickField
from wiki.forms.pickers import works_named
from wiki.graph.build import SubjectRef
from wiki.graph.nodes import EDGE_LABELS, EdgeType
from wiki.taxonomy import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.text.lists import LIST_SEPARATOR, joined, split_list

MAX_WORKS = 12
# the comparison's parameters that take one value each
SINGLE_VALUED = ("q", "differs", "format")
_SUBJECT_RE = re.compile(r"^[-\w]+(?::[-\w]+)?$")


def split_subjects(values: list[str]) -> str:
    """``?works=a,b&works=c`` and ``?works=a b`` both become ``a,b,c``; a value with commas (or 、) is parted at them
    alone, so that a short name may hold spaces (``SkillForge, Reward Placebo Trial``)."""
    parts = (split_list(value) if LIST_SEPARATOR.search(value) else value.split() for value in values)
    return ",".join(part for split in parts for part in split if part)


class WorkPickForm(forms.Form):
    works = forms.CharField(
        required=False, max_length=2000, label=_("Works"),
        help_text=_("Slugs or short names separated by commas; a component as work:component (shepherd:tree-grpo)."),
    )
    q = forms.CharField(required=False, max_length=100, label=_("Find works"))
    # the comparison table's switch (?differs=1): the rows where the works differ, the others left out; any other
    # value (differs=0, as a script turning it off would send) leaves every row in, as /changes/ reads its boxes
    differs = TickField(required=False, label=_("Only the rows where the works differ"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the works named, once read: set even when there are too many to compare
        self.named: list[SubjectRef] = []

    def clean_works(self) -> list[SubjectRef]:
        # a component as work:component, its colon of either width
        typed = [token.replace("：", ":") for token in split_list(self.cleaned_data["works"])]
        # A work typed by its short name (通义深度研究, MiMo-V2.6) stands for its slug; one query for them all.
        named = works_named(token.partition(":")[0] for token in typed)
        tokens, several = [], []
        for token in typed:
            work, colon, component = token.partition(":")
            found = named.get(work.lower(), [])
            several += [token] if len(found) > 1 else []
            tokens.append(f"{found[0].slug}{colon}{component}" if len(found) == 1 else token)
        if several:
            raise ValidationError(_("More than one work is called %(names)s: type the slug of the one you mean."),
                                  code="ambiguous", params={"names": joined(several)})
        bad = [t for t in tokens if not _SUBJECT_RE.match(t)]
        if bad:
            raise ValidationError(_("No work has this slug or short name: %(bad)s"), code="invalid",
                                  params={"bad": joined(bad)})
        refs = list(dict.fromkeys(SubjectRef.parse(t.lower()) for t in tokens))
        # kept for the page refusing too many, to offer them as boxes to untick
        self.named = refs
        if len(refs) > MAX_WORKS:
            raise ValidationError(_("Compare at most %(max)d works at a time."), code="too_many", params={"max": MAX_WORKS})
        return refs


# What each parameter that takes one value but came several times is told.
ONE_VALUE = _("Send this parameter once; it takes one value.")


def repeated_parameters(query: QueryDict) -> list[str]:
    """The parameters of the comparison that take one value but were sent more than once (``works`` takes several)."""
    return [name for name in SINGLE_VALUED if len(query.getlist(name)) > 1]


def asked_format(query: QueryDict) -> str | None:
    """The export ``?format=`` asks for; None for the page, or when several different formats are asked for."""
    formats = set(query.getlist("format"))
    return formats.pop() or None if len(formats) == 1 else None


class MapFilterForm(forms.Form):
    """The map's filters: a mechanism and a verdict (all when left out)."""

    mechanism = forms.ChoiceField(choices=[("", _("All mechanisms")), *MECHANISM_CHOICES], required=False,
                                  label=_("Mechanism"))
    verdict = forms.ChoiceField(choices=[("", _("All verdicts")), *VERDICT_CHOICES], required=False, label=_("Verdict"))


class LocalGraphForm(forms.Form):
    depth = forms.TypedChoiceField(choices=[(1, _("1 step")), (2, _("2 steps"))], coerce=int, initial=1, required=False,
                                   widget=forms.RadioSelect)
    edges = forms.MultipleChoiceField(choices=[(t.value, EDGE_LABELS[t]) for t in EdgeType], required=False,
                                      widget=forms.CheckboxSelectMultiple, label=_("Edge types"))

    def clean_depth(self) -> int:
        return self.cleaned_data.get("depth") or 1
