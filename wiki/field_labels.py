"""The names of the wiki's fields in the reader's language, one name for each wherever it is shown: the models' verbose
names (``wiki.models.labels``), a form's label where Django would make one from the field's name (which cannot be
translated), the fields a change lists in recent changes, a merge's and a reference file's fields offered field by
field, and the field an import's error names."""

from __future__ import annotations

from django.forms.utils import pretty_name
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from classifier.taxonomy import Fact
from wiki.taxonomy import fact_label

FIELD_LABELS: dict[str, Promise | str] = {
    "title": _("Title"), "summary": _("Summary"), "body": _("Text"), "slug": _("Address (slug)"),
    "status": _("Status"), "about": _("Works it is about"), "source": _("Source"), "locator": _("Locator"),
    "kind": _("Kind"), "reason": _("Reason"), "page": _("Page"), "assignee": _("Assignee"), "text": _("Text"),
    "claims": _("Claims"), "sources": _("Sources"), "answer_claim": _("Answer claim"), "priority": _("Priority"),
    "short_name": _("Short name"), "authors": _("Authors"), "year": _("Year"), "venue": _("Venue"),
    "abstract": _("Abstract"), "notes": _("Notes"), "component": _("Component"), "mechanism": _("Mechanism"),
    "algorithm": _("Algorithm"), "verdict": _("Verdict"), "rationale": _("Rationale"),
    "evidence_claim": _("Evidence claim"), "evidence_locator": _("Evidence locator"), "narrow": _("Narrow"),
    "left_component": _("…or one of its components"), "right_component": _("…or one of its components"),
    "claim": _("Claim"), "sentence": _("Sentence"), "DELETE": _("Delete"),
    "url": "URL", "arxiv_id": "arXiv ID", "doi": "DOI", "bibtex_key": _("BibTeX key"), "entry_type": _("Entry type"),
    "extra_fields": _("Other fields"),
    "updated": _("What is updated"), "set_by": _("Set by"), "comment": _("Edit summary"),
    "axis": _("Axis"), "base_revision": _("Revision started from"), "bibliographic": _("Bibliographic details"),
    "component_name": _("Component name"), "departs_from_rubric": _("Departs from the rubric"),
    "html_url": _("Address in the browser"), "left": _("Left work"), "right": _("Right work"),
    "new_component": _("New component"), "new_works": _("New works"), "rubric_verdict": _("Verdict by the rubric"),
    "set_by_user": _("Editor who set it"), "subject": _("What is classified"), "take_over": _("Take over the address"),
    "confirm_blank": _("Leave the page without text all the same"),
    "page_id": _("Id of the page read"),
}


def field_label_of(name: str) -> str:
    """The field ``name`` in the reader's language, as a label (a rubric fact by its label, a work's bibliographic
    detail by its own with a capital, as the work's page shows it: ``Pages``; an unknown name as it is)."""
    from wiki.references.draft import BIBLIOGRAPHIC_FIELDS

    if name.startswith("extra_fields."):  # one of a work's other fields, as an import offers it
        return gettext("%(name)s (other field)") % {"name": name.removeprefix("extra_fields.")}
    if name in FIELD_LABELS:
        return str(FIELD_LABELS[name])
    if name in {fact.value for fact in Fact}:
        return fact_label(name)
    if name in BIBLIOGRAPHIC_FIELDS:
        return capfirst(str(BIBLIOGRAPHIC_FIELDS[name]))
    return name.replace("_", " ")


def form_field_label(name: str, label: object) -> str:
    """A form field's label in the reader's language: its own (``label``) when it was given one, else the field
    name's."""
    shown = pretty_name(name) if label is None else str(label)
    if name in FIELD_LABELS and shown in {pretty_name(name), capfirst(name.replace("_", " "))}:
        return str(FIELD_LABELS[name])
    return shown
