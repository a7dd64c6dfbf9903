"""Editor screens. Anonymous users are sent to log in; logged-in readers get 403. A form posted after the session
ended, or with a token that expired meanwhile, loses nothing the editor typed without saying so."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from wiki.field_labels import field_label_of
from wiki.models import Revision
from wiki.services.changes import StaleEdit
from wiki.services.citations import CitationReport
from wiki.services.page_claims import claim_report_for

SESSION_ENDED = _("Your session had ended, so nothing was saved. Go back with your browser's Back button to copy what "
                  "you typed, then log in and enter it again.")
SESSION_ENDED_PREVIEW = _("Your session has ended: log in in another tab, then save again. Your text is kept here.")
FORM_EXPIRED_PREVIEW = _("This form has expired: the preview cannot be updated. Your text is kept here: copy it "
                         "before reloading the page.")
# The page forms' fields an expired form shows back to copy, in the form's order.
PAGE_FORM_FIELDS = ("title", "slug", "summary", "body", "comment")


def editor_required(
    perm: str, *, session_ended: Callable[..., HttpResponse] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Editors only (``perm``): a logged-in reader gets 403, an anonymous GET is sent to log in.

    A form posted after the session ended (logged out in another tab, or expired) must not lose what was typed:
    ``session_ended`` answers it with the posted values kept (the page form, the live preview). Without one, the
    editor is sent to log in, told that nothing was saved and that Back still holds the form."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        guarded = permission_required(perm, raise_exception=True)(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.user.is_authenticated:
                return guarded(request, *args, **kwargs)
            if request.method == "POST":
                if session_ended is not None:
                    return session_ended(request, *args, **kwargs)
                messages.warning(request, SESSION_ENDED)
            return redirect_to_login(request.get_full_path())

        return wrapper

    return decorate


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent with a token that no longer holds (opened before logging in or out in
    another tab) or without the cookie it needs. Nothing was done. The wiki's 403 page says so, and that Back still
    holds the form; a page form's text is shown there too, to copy. The live preview gets a fragment for its pane.
    The language switch, which checks its token itself (:mod:`wiki.views.preferences`), answers with this too."""
    name = request.resolver_match.view_name if request.resolver_match else ""
    if name == "wiki:page-preview":
        return render(request, "wiki/edit/preview.html", {"error": FORM_EXPIRED_PREVIEW}, status=403)
    kept: list[tuple[str, str]] = []
    if name in ("wiki:page-create", "wiki:page-edit"):
        from wiki.forms.pages import PageCreateForm

        kept = [(str(PageCreateForm.base_fields[field].label or field_label_of(field)), value) for field in PAGE_FORM_FIELDS
                if (value := request.POST.get(field, "")).strip()]
    return render(request, "403.html", {"form_expired": True, "kept": kept, "form_url": request.path if kept else ""},
                  status=403)


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
