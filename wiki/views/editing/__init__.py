"""Editor screens. Anonymous users are sent to log in; logged-in readers get 403. A form posted after the session
ended, or with a token that expired meanwhile, loses nothing the editor typed without saying so."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeAlias
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import permission_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render, resolve_url
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from wiki.field_labels import field_label_of, form_field_label
from wiki.forms.opened import OPENED, merge_saved_meanwhile
from wiki.markdown import ForeignMarkup
from wiki.models import Page, Revision, Source
from wiki.services.changes import StaleEdit
from wiki.services.citations import CitationReport
from wiki.services.page_claims import claim_report_for
from wiki.views.editing.opened_pages import named_id

SESSION_ENDED_PREVIEW = _("Your session has ended: log in in another tab, then save again. Your text is kept here.")
FORM_EXPIRED_PREVIEW = _("This form has expired: the preview cannot be updated. Your text is kept here: copy it "
                         "before reloading the page.")
# What the wiki's forms post besides what the editor typed: the token, the save stamps, the buttons, the triage
# queue's place, a finding's key, the work a restore merges into, the page or work a form was opened on.
BOOKKEEPING = frozenset({"csrfmiddlewaretoken", "loaded_at", "base_revision", "save", "preview", "import", "accept",
                         "reattach", "retire", "then", "p", "order", "key", "merge_into", "new_works", "next",
                         "page_id", "source_id"})
# The inputs an editor types into; a choice, a tick box, a file, a password or a hidden value is not kept.
TYPED_INPUTS = frozenset({"text", "number", "url", "email", "search", "tel"})
FORMSET_FIELD = re.compile(r".+-\d+-(?P<name>[^-]+)")
FORMSET_MANAGEMENT = re.compile(r".+-(?:TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS")
# The view attribute that marks an editor form (set by ``editor_required`` and ``staff_required``; ``functools.wraps``
# carries it to the decorators around them).
EDITOR_FORM = "editor_form"
FormClass: TypeAlias = "type[forms.Form] | type[forms.ModelForm[Any]]"


@dataclass(frozen=True)
class EditorForm:
    """What an editor view's form posts that the editor typed: the text fields of ``forms`` (a formset's too), or,
    when no form class describes it (``forms`` None), every value but the wiki's bookkeeping."""

    forms: tuple[FormClass, ...] | None = None

    def label(self, name: str) -> str | None:
        """The label of the field posted as ``name``, None when it holds nothing typed."""
        bare = found["name"] if (found := FORMSET_FIELD.fullmatch(name)) else name
        if name in BOOKKEEPING or bare in BOOKKEEPING or FORMSET_MANAGEMENT.fullmatch(name):
            return None
        if self.forms is None:
            return field_label_of(bare)
        for form in self.forms:
            if (field := form.base_fields.get(bare)) is not None:
                typed = isinstance(field.widget, forms.Textarea) or getattr(field.widget, "input_type", "") in TYPED_INPUTS
                return form_field_label(bare, field.label) if typed else None
        return None

    def kept(self, post: QueryDict) -> list[tuple[str, str]]:
        """Each non-empty text value of ``post`` with its field's label, in the order sent (the form's)."""
        return [(label, value) for name, values in post.lists() if (label := self.label(name)) is not None
                for value in values if value.strip()]


def mark_editor_form(view: Callable[..., Any], form: EditorForm) -> None:
    """Marks ``view`` as an editor form whose typed text ``form`` finds, for :func:`csrf_failure`."""
    setattr(view, EDITOR_FORM, form)


def next_address(request: HttpRequest) -> str:
    """Where a form goes back to once saved or cancelled (``next``, as the triage queue opens the classification
    form): an address on this site, else ""."""
    address = request.POST.get("next") or request.GET.get("next") or ""
    if address.startswith("/") and url_has_allowed_host_and_scheme(address, allowed_hosts={request.get_host()},
                                                                    require_https=request.is_secure()):
        return address
    return ""


def _form_address(request: HttpRequest) -> str:
    """Where the form was: the page that sent it (a claim's retire form sits on the claim's page), else the address
    it was sent to."""
    referer = request.headers.get("referer", "")
    if url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        parts = urlsplit(referer)
        if parts.netloc and parts.path:
            return parts.path + (f"?{parts.query}" if parts.query else "")
    return request.get_full_path()


# The forms of a page that name the page they were opened on (``page_id``), and of a work naming the work
# (``source_id``): each view's name, with the field naming it and its model.
OPENED_FORMS: dict[str, tuple[str, type[Page] | type[Source]]] = {
    **dict.fromkeys(("wiki:page-edit", "wiki:page-revert", "wiki:page-move", "wiki:page-delete"), ("page_id", Page)),
    "wiki:source-delete": ("source_id", Source),
}


def _opened_form_address(request: HttpRequest) -> str:
    """Where the form was (:func:`_form_address`); for a page's or work's form naming what it was opened on
    (``page_id``, ``source_id``), the same form at its address now, so that a page moved since is acted on again
    there, never a page (or work) that took its former address meanwhile."""
    address = _form_address(request)
    match = request.resolver_match
    if match is None or match.view_name not in OPENED_FORMS:
        return address
    field, model = OPENED_FORMS[match.view_name]
    opened_on = named_id(request, field)
    if opened_on is None:
        return address
    slug = model.all_objects.filter(pk=opened_on).values_list("slug", flat=True).first()
    if slug is None:
        return address
    query = urlsplit(address).query
    return reverse(match.view_name, kwargs={**match.kwargs, "slug": slug}) + (f"?{query}" if query else "")


def session_ended_page(request: HttpRequest, form: EditorForm) -> HttpResponse:
    """An editor form posted after the session ended: nothing is saved. The wiki's 403 page says so and shows what
    was typed, to copy back into the form once logged in again in another tab (the link opens the form there)."""
    address = _form_address(request)
    log_in = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({REDIRECT_FIELD_NAME: address})}"
    return render(request, "403.html", {"session_ended": True, "kept": form.kept(request.POST), "log_in_again_url": log_in},
                  status=403)


def anonymous_answer(request: HttpRequest, form: EditorForm) -> HttpResponse:
    """An editor view reached without a session: a form posted is answered with what was typed
    (:func:`session_ended_page`), anything else is sent to log in."""
    if request.method == "POST":
        return session_ended_page(request, form)
    return redirect_to_login(request.get_full_path())


def editor_required(
    perm: str, *, forms: Iterable[FormClass] | None = None,
    session_ended: Callable[..., HttpResponse] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Editors only (``perm``): a logged-in reader gets 403, an anonymous GET is sent to log in. A form sent for
    something deleted meanwhile is answered 404 with the text typed into it, to copy.

    A form posted after the session ended (logged out in another tab, or expired) must not lose what was typed:
    ``session_ended`` answers it with the posted values kept (the page form, the live preview). Without one, the
    403 page says nothing was saved and shows the text typed into ``forms``, the view's form classes (without them,
    every value posted but the wiki's bookkeeping), to copy; so does a token that expired (:func:`csrf_failure`)."""
    form = EditorForm(tuple(forms) if forms is not None else None)

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        guarded = permission_required(perm, raise_exception=True)(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.user.is_authenticated:
                try:
                    return guarded(request, *args, **kwargs)
                except Http404:
                    # What the form edits was deleted meanwhile (a contrast, a question's page…): nothing was saved,
                    # and what was typed is shown to copy rather than lost with a bare "not found".
                    if request.method != "POST" or not (kept := form.kept(request.POST)):
                        raise
                    return render(request, "404.html", {"kept": kept}, status=404)
            if request.method == "POST" and session_ended is not None:
                return session_ended(request, *args, **kwargs)
            return anonymous_answer(request, form)

        mark_editor_form(wrapper, form)
        return wrapper

    return decorate


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent with a token that no longer holds (opened before logging in or out in
    another tab) or without the cookie it needs. Nothing was done. The wiki's 403 page says so, and that Back still
    holds the form; an editor form's text is shown there too, to copy. The live preview gets a fragment for its pane.
    The language switch, which checks its token itself (:mod:`wiki.views.preferences`), answers with this too."""
    match = request.resolver_match
    if match is not None and match.view_name == "wiki:page-preview":
        return render(request, "wiki/edit/preview.html", {"error": FORM_EXPIRED_PREVIEW}, status=403)
    form = getattr(match.func, EDITOR_FORM, None) if match is not None else None
    kept = form.kept(request.POST) if isinstance(form, EditorForm) else []
    return render(request, "403.html", {"form_expired": True, "kept": kept, "form_url": _opened_form_address(request) if kept else ""},
                  status=403)


STALE_MESSAGES = {
    "claim": _("Someone saved this claim after you opened it; nothing was saved. What is saved now is shown above "
               "the form; your entries are kept below: check them and save again."),
    "classification": _("Someone saved this classification after you opened it; nothing was saved. What is saved "
                        "now is shown above the form; your entries are kept below: check them and save again."),
    "contrast": _("Someone saved this contrast after you opened it; nothing was saved. What is saved now is shown "
                  "above the form; your entries are kept below: check them and save again."),
    "glossary": _("Someone saved this term after you opened it; nothing was saved. What is saved now is shown above "
                  "the form; your entries are kept below: check them and save again."),
    "page": _("Someone retitled this page after you opened this form; nothing was moved. Its title now is in the "
              "form unless you changed it too: check it and move the page again."),
    "page_moved": _("Someone moved this page after you opened this form; nothing was moved. Its address now is said "
                    "above the form: check the form and move the page again from there."),
    "question": _("Someone saved this question after you opened it; nothing was saved. What is saved now is shown "
                  "above the form; your entries are kept below: check them and save again."),
    "source": _("Someone saved this source after you opened it; nothing was saved. What is saved now is shown above "
                "the form; your entries are kept below: check them and save again."),
}


def stale_form(form: forms.BaseForm, stale: StaleEdit, *, what: str) -> None:
    """Someone saved since the form was opened: nothing was saved. The editor's entries stay in the form, now
    stamped with the current save so that the next submission goes through, and the form says so; in a form that
    knows what it was opened with, each field the editor left as it was takes what was saved since
    (:func:`~wiki.forms.opened.merge_saved_meanwhile`)."""
    if OPENED in form.fields:
        merge_saved_meanwhile(form, stale.current)
    data = form.data.copy()  # type: ignore[attr-defined]  # a QueryDict from the request; the stubs say Mapping
    data["loaded_at"] = stale.current.updated_at.isoformat()  # type: ignore[attr-defined]  # every editable model has it
    form.data = data
    form.add_error(None, forms.ValidationError(STALE_MESSAGES[what], code="stale"))


def saved_message(revision: Revision, *, text: str, citations: CitationReport | None = None,
                  foreign: Sequence[ForeignMarkup] = ()) -> SafeString:
    """The save result: ``text``, then the works it created and the citations it left unresolved ("did you
    mean …"), the markup of other wikis the text holds and what to write instead, then what the save did to the
    page's claims."""
    report = claim_report_for(revision)
    cited = render_to_string("includes/citation_matches.html", {"citations": citations, "saved": True}) \
        if citations is not None and citations.needs_attention else ""
    markup = render_to_string("includes/foreign_markup.html", {"foreign": foreign, "saved": True}) if foreign else ""
    return format_html("<p>{}</p>{}{}{}", text, cited, markup,
                       render_to_string("includes/claim_changes.html", {"report": report}))
