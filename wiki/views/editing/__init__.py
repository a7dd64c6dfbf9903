"""Editor screens. Anonymous users are sent to log in; logged-in readers get 403."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required, permission_required
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from wiki.models import Revision
from wiki.services.changes import StaleEdit
from wiki.services.citations import CitationReport
from wiki.services.page_claims import claim_report_for


def editor_required(perm: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        return login_required(permission_required(perm, raise_exception=True)(view))

    return decorate


STALE_MESSAGES = {
    "claim": _("Someone saved this claim after you opened it; nothing was saved. What is saved now is shown above "
               "the form; your entries are kept below: check them and save again."),
    "classification": _("Someone saved this classification after you opened it; nothing was saved. What is saved "
                        "now is shown above the form; your entries are kept below: check them and save again."),
    "glossary": _("Someone saved this term after you opened it; nothing was saved. What is saved now is shown above "
                  "the form; your entries are kept below: check them and save again."),
    "question": _("Someone saved this question after you opened it; nothing was saved. What is saved now is shown "
                  "above the form; your entries are kept below: check them and save again."),
    "source": _("Someone saved this source after you opened it; nothing was saved. What is saved now is shown above "
                "the form; your entries are kept below: check them and save again."),
}


def stale_form(form: forms.BaseForm, stale: StaleEdit, *, what: str) -> None:
    """Someone saved since the form was opened: nothing was saved. The editor's entries stay in the form, now
    stamped with the current save so that the next submission goes through, and the form says so."""
    data = form.data.copy()  # type: ignore[attr-defined]  # a QueryDict from the request; the stubs say Mapping
    data["loaded_at"] = stale.current.updated_at.isoformat()  # type: ignore[attr-defined]  # every editable model has it
    form.data = data
    form.add_error(None, forms.ValidationError(STALE_MESSAGES[what], code="stale"))


def saved_message(revision: Revision, *, text: str, citations: CitationReport | None = None) -> SafeString:
    """The save result: ``text``, then the works it created and the citations it left unresolved ("did you
    mean …"), then what the save did to the page's claims."""
    report = claim_report_for(revision)
    cited = render_to_string("includes/citation_matches.html", {"citations": citations, "saved": True}) \
        if citations is not None and citations.needs_attention else ""
    return format_html("<p>{}</p>{}{}", text, cited, render_to_string("includes/claim_changes.html", {"report": report}))
