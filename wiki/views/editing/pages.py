"""Creating and editing pages, a whole page or one section of it, with a server-rendered preview and the diff of the
edit against the revision it started from ("Show changes"); an edit merged with what was saved meanwhile, and the
edit-conflict screen when the two clash."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from wiki import markdown as wiki_markdown
from wiki.change_summaries import comment_in_english
from wiki.forms.pages import PageCreateForm, PageForm, PageSectionForm, new_works_from
from wiki.markdown.section_links import section_ids
from wiki.models import Page, Revision
from wiki.models.rules import is_control_free, max_length
from wiki.services.page_claims import ClaimReport, page_claims_plan
from wiki.services.page_edits import (
    EditChanges,
    edit_changes,
    edit_values,
    page_save_merging,
    page_save_section,
    section_edit_values,
)
from wiki.services.pages import EditConflict, MergedEdit, PageBlanking, PageDeleted, PagePreview, page_preview
from wiki.text.merge import FIELDS, merge_edit
from wiki.text.sections import SectionNotFound, section
from wiki.views.editing import SESSION_ENDED_PREVIEW, editor_required, saved_message
from wiki.views.editing.opened_pages import opened_page
from wiki.views.editing.undo import undo_form
from wiki.views.pages import follows_moves

# The longest section title an edit summary is prefilled with (the summary holds 500 characters).
SUMMARY_TITLE_CHARS = 200


def _preview(form: PageForm, page: Page | None = None) -> PagePreview | None:
    if "preview" not in form.data or not form.is_valid():
        return None
    return page_preview(body=form.cleaned_data["body"], new_works=new_works_from(form.data), page=page)


def _changes(form: PageForm, page: Page) -> EditChanges | None:
    """For "Show changes": what the edit changes in the revision it started from, saving nothing; a revision or
    section the form names and the page lacks is an error on the form."""
    if "diff" not in form.data or not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        return edit_changes(page=page, values=data, base_revision=data.get("base_revision"), section=data.get("section"))
    except ValidationError as error:
        for name, errors in error.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    return None


def _sent_to_save(request: HttpRequest) -> bool:
    """The form was sent with "Save", not to preview it or show its changes."""
    return "preview" not in request.POST and "diff" not in request.POST


def _preview_context(preview: PagePreview | None, page: Page | None, *,
                     whole: Mapping[str, str] | None = None) -> dict[str, object]:
    """The preview, what saving it would do to the page's claims, and how its citations resolve. A section's preview
    shows the section; what it does to the claims is read from the whole text it leaves (``whole``)."""
    if preview is None:
        return {"preview": None, "claims": None, "citations": None, "page": page}
    claims = preview if whole is None else page_preview(body=whole["body"], page=page)
    return {"preview": preview.result, "claims": page_claims_plan(page=page, refs=claims.result.claims, sources=claims.sources),
            "citations": preview.citations, "page": page}


def _section_edit(page: Page | None, data: Mapping[str, object]) -> dict[str, str] | None:
    """For a section's form (its values ``data``, cleaned or as posted): the page's title, summary and text with the
    section in it; None for a whole page's form, or when the revision or the section it names is not there."""
    number, base = _number(str(data.get("section") or "")), _number(str(data.get("base_revision") or ""))
    if page is None or number is None or base is None:
        return None
    with suppress(ValidationError):
        return section_edit_values(page=page, base_revision=base, section=number,
                                   text=str(data.get("body") or "").replace("\r\n", "\n"))
    return None


def _number(value: str) -> int | None:
    """``value`` as a number of a section or revision, None when it is none (a number longer than any is none)."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def _save(request: HttpRequest, form: PageForm, *, slug: str, page: Page | None) -> HttpResponse:
    data = form.cleaned_data
    # An undo's summary, sent as prefilled in the editor's language, is kept as the wiki's own: each reader reads it
    # in theirs.
    data["comment"] = comment_in_english(data["comment"])
    try:
        if isinstance(form, PageSectionForm) and page is not None:
            saved = page_save_section(page=page, section=data["section"], text=data["body"], comment=data["comment"],
                                      user=request.user, base_revision=data["base_revision"],
                                      new_works=new_works_from(form.data), minor=data["minor"],
                                      blanking_confirmed=data["confirm_blank"])
        else:
            saved = page_save_merging(
                slug=slug,
                page_id=page.pk if page is not None else None,
                title=data["title"],
                body=data["body"],
                summary=data["summary"],
                comment=data["comment"],
                user=request.user,
                base_revision=data.get("base_revision"),
                new_works=new_works_from(form.data),
                minor=data.get("minor", False),
                blanking_confirmed=data["confirm_blank"],
            )
    except EditConflict as conflict:
        return _conflict(request, form, conflict)
    except PageDeleted as deleted:
        return _deleted(request, deleted.page)
    except wiki_markdown.MarkdownTooComplex as error:
        form.add_error("body", str(error))
        return render(request, "wiki/edit/page_form.html", {"form": form, "page": page})
    except PageBlanking as blanking:
        form.ask_to_confirm_blank(blanking.error_dict["confirm_blank"][0])
        return render(request, "wiki/edit/page_form.html", {"form": form, "page": page}, status=400)
    except ValidationError as error:
        for name, errors in error.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
        return render(request, "wiki/edit/page_form.html", {"form": form, "page": page})
    revision = saved.revision
    address = _saved_address(revision, section=data.get("section"))
    if saved.unchanged:
        messages.info(request, _("No changes to save: “%(title)s” is still at revision %(number)s.")
                      % {"title": revision.page.title, "number": revision.number})
        return redirect(address)
    text = _("Saved revision %(number)s of “%(title)s”.") % {"number": revision.number, "title": revision.page.title}
    if saved.merged is not None:
        text = format_html("{} {}", text, _merged_note(revision, saved.merged))
    messages.success(request, saved_message(revision, text=text, citations=saved.citations, foreign=saved.foreign))
    return redirect(address)


def _saved_address(revision: Revision, *, section: int | None) -> str:
    """Where a save leads: the page, at the section edited when it was one."""
    page = revision.page
    ids = section_ids(body=page.body, toc=page.toc) if section is not None else []
    return page.get_absolute_url() + (f"#{ids[section - 1]}" if section is not None and section <= len(ids) else "")


def _merged_note(revision: Revision, merged: MergedEdit) -> SafeString:
    """Says that the edit was saved merged with the revisions saved while it was being made, and links the diff from
    the latest of them to the merge: what this edit changed in it."""
    if merged.theirs == merged.base + 1:
        note = _("Revision %(number)s was saved while you were editing: your edit was merged with it.") % {
            "number": merged.theirs}
    else:
        note = _("Revisions %(first)s to %(last)s were saved while you were editing: your edit was merged with them.") % {
            "first": merged.base + 1, "last": merged.theirs}
    url = reverse("wiki:page-diff", kwargs={"slug": revision.page.slug})
    return format_html('{} <a href="{}?{}">{}</a>', note, url, urlencode({"from": merged.theirs, "to": revision.number}),
                       _("What your edit changed in revision %(number)s") % {"number": merged.theirs})


def _conflict(request: HttpRequest, form: PageForm, conflict: EditConflict) -> HttpResponse:
    """Nothing was saved: show both versions, and offer the merge (clashes marked) based on the current revision. A
    section's edit is shown as the whole text it made, which the merge holds."""
    base = conflict.page.revisions.filter(number=conflict.base_number).first()
    current = conflict.current
    mine = conflict.mine
    # Title and summary are merged too: a change saved meanwhile must not be undone by the resolved save.
    edit = merge_edit(base=edit_values(base) if base else dict.fromkeys((*FIELDS, "body"), ""),
                      theirs=edit_values(current), mine=mine)
    merged_form = PageForm(initial={**edit.values(), "comment": form.cleaned_data["comment"],
                                    "minor": form.cleaned_data.get("minor", False), "base_revision": current.number,
                                    "page_id": conflict.page.pk})
    for name, field in edit.fields.items():
        if field.clash:
            merged_form.fields[name].help_text = _("Changed meanwhile too, to “%(theirs)s”; yours is kept here: choose.") % {"theirs": field.theirs}
    return render(
        request,
        "wiki/edit/page_conflict.html",
        {"page": conflict.page, "form": merged_form, "merge": edit.body, "mine": mine["body"], "current": current,
         "base_number": conflict.base_number},
        status=409,
    )


def _deleted(request: HttpRequest, page: Page) -> HttpResponse:
    """The page was deleted while being edited: nothing was saved. The editor's text comes back in the new-page
    form (under another address, or the same once staff restore the page), with who deleted it, when and why."""
    typed = {name: request.POST.get(name, "") for name in (*FIELDS, "body", "comment")}
    # A section's edit comes back as the whole page it made.
    typed.update(_section_edit(page, request.POST.dict()) or {})
    form = PageCreateForm(initial=typed)
    return render(request, "wiki/edit/page_form.html", {"form": form, "deleted": page, "page": None}, status=410)


def _session_ended(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """A page form posted after the editor's session ended: nothing is saved, and the form comes back holding what
    was posted (the revision it started from too, so a save made meanwhile is still caught), to save once logged in
    again in another tab."""
    page = None
    if slug is not None:
        # The page the form was opened on, wherever it is now, as a save finds it; one the wiki has no trace of still
        # gives the typed text back, in the new-page form.
        page = opened_page(request, slug, Page.all_objects.only("id", "slug", "title"))
    form_class = _page_form_class(request) if page is not None else PageCreateForm
    form = form_class(initial={name: request.POST.get(name, "") for name in form_class.base_fields})
    return render(request, "wiki/edit/page_form.html", {"form": form, "page": page, "session_ended": True}, status=403)


def _page_form_class(request: HttpRequest) -> type[PageForm]:
    """The form a page's edit was sent from: one section's, or the whole page's."""
    return PageSectionForm if "section" in request.POST else PageForm


def _preview_session_ended(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/edit/preview.html", {"error": SESSION_ENDED_PREVIEW}, status=403)


@editor_required("wiki.add_page", forms=[PageCreateForm], session_ended=_session_ended)
def page_create(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = PageCreateForm(request.POST)
        preview = _preview(form)
        if _sent_to_save(request) and form.is_valid():
            # Base 0: a page created by someone else meanwhile is a conflict, not an overwrite.
            form.cleaned_data["base_revision"] = 0
            return _save(request, form, slug=form.cleaned_data["slug"], page=None)
        if _sent_to_save(request) and form.has_error("slug", "exists"):
            created = Page.objects.created_as(slug=form.cleaned_data["slug"], title=form.cleaned_data.get("title", ""),
                                              body=form.cleaned_data.get("body", ""), author=request.user)
            if created is not None:
                messages.info(request, _("This page was created already with this text; nothing was saved again."))
                return redirect(created)
    else:
        # From a wanted link: its address, and the title the links name it by ("未来页面 Future", not "未来页面 future").
        slug = request.GET.get("slug", "")
        title = request.GET.get("title", "").strip() or slug.replace("-", " ").strip()
        form = PageCreateForm(initial={"slug": slug, "title": title[: max_length(Page, "title")]})
        preview = None
    return render(request, "wiki/edit/page_form.html", {"form": form, **_preview_context(preview, None)})


@follows_moves
@editor_required("wiki.change_page", forms=[PageForm], session_ended=_session_ended)
def page_edit(request: HttpRequest, slug: str) -> HttpResponse:
    page = opened_page(request, slug, Page.all_objects.select_related("deleted_by"))
    if page is None:
        raise Http404
    # Opened before the page was moved: what was typed is saved where the page is now, merged as any edit is with the
    # revision it started from.
    moved = request.method == "POST" and page.slug != slug
    if page.is_deleted:
        # Opened before the deletion: what was typed is kept. Opened after: the page's address says it is deleted.
        return _deleted(request, page) if request.method == "POST" else redirect(page)
    if request.method == "POST":
        form = _page_form_class(request)(request.POST)
        preview, changes = _preview(form, page), _changes(form, page)
        if moved:
            messages.info(request, _("While you were editing, the page moved from %(old)s to %(new)s: your edit goes to "
                                     "its new address.") % {"old": slug, "new": page.slug})
        if _sent_to_save(request) and form.is_valid():
            return _save(request, form, slug=page.slug, page=page)
        whole = _section_edit(page, form.cleaned_data) if preview is not None else None
    elif "section" in request.GET:
        return _section_form(request, page)
    elif "undo" in request.GET:
        return undo_form(request, page)
    else:
        latest = page.revisions.order_by("-number").only("number").first()
        form = PageForm(
            initial={"title": page.title, "summary": page.summary, "body": page.body,
                     "base_revision": latest.number if latest else None, "page_id": page.pk}
        )
        preview = whole = changes = None
    try:
        context = _preview_context(preview, page, whole=whole)
    except wiki_markdown.MarkdownTooComplex as error:
        # A section within the limits that makes the page exceed them: saving it would be refused the same way.
        form.add_error("body", str(error))
        context = _preview_context(None, page)
    return render(request, "wiki/edit/page_form.html",
                  {"form": form, "changes": changes, "changed_claims": _changed_claims(changes, page), **context})


def _changed_claims(changes: EditChanges | None, page: Page) -> ClaimReport | None:
    """What saving the edit shown by "Show changes" would do to the page's claims, as Preview says it; None when
    nothing is shown or the text is past the limits (the form says so)."""
    if changes is None or changes.is_empty:
        return None
    try:
        preview = page_preview(body=changes.values["body"], page=page)
    except wiki_markdown.MarkdownTooComplex:
        return None
    return page_claims_plan(page=page, refs=preview.result.claims, sources=preview.sources)


def _section_form(request: HttpRequest, page: Page) -> HttpResponse:
    """The form that edits section ``?section=N`` of the page alone, its summary prefilled as a wiki's is
    (``/* Section title */``); a value that is no section of the page is answered with an error page, never with
    the whole page's form."""
    raw = request.GET["section"]
    number = _number(raw)
    if number is None:
        error = _("“section=%(value)s” is not a section number.") % {"value": raw[:40]}
        return render(request, "wiki/edit/page_section_missing.html", {"page": page, "error": error}, status=400)
    try:
        chosen = section(page.body, number)
    except SectionNotFound as missing:
        error = ngettext("This page has no section %(number)s: it has %(count)s section.",
                         "This page has no section %(number)s: it has %(count)s sections.",
                         missing.count) % {"number": number, "count": missing.count}
        return render(request, "wiki/edit/page_section_missing.html", {"page": page, "error": error}, status=404)
    latest = page.revisions.order_by("-number").only("number").first()
    form = PageSectionForm(initial={
        "body": page.body[chosen.start:chosen.end],
        "comment": f"/* {chosen.title[:SUMMARY_TITLE_CHARS]} */ ",
        "base_revision": latest.number if latest else None,
        "page_id": page.pk,
        "section": chosen.number,
    })
    return render(request, "wiki/edit/page_form.html", {"form": form, "section_title": chosen.title,
                                                        **_preview_context(None, page)})


@require_POST
@editor_required("wiki.change_page", session_ended=_preview_session_ended)
def page_preview_fragment(request: HttpRequest) -> HttpResponse:
    """The preview as an HTML fragment, for the script that previews while typing; for a page's form, what saving it
    would do to the claims of the page it was opened on (``page_id``, wherever that page is now; ``slug`` for a form
    naming none), and with ``section`` and ``base_revision``, a section's text in the page's. A page deleted since
    the form was opened is named with who deleted it, when and why, and no claims are read of it."""
    body = request.POST.get("body", "").replace("\r\n", "\n")
    page = _previewed_page(request)
    try:
        if page is not None and page.is_deleted:
            preview = page_preview(body=body, new_works=new_works_from(request.POST))
            context: dict[str, object] = {"preview": preview.result, "claims": None, "citations": preview.citations,
                                          "page": None, "deleted": page}
        else:
            preview = page_preview(body=body, new_works=new_works_from(request.POST), page=page)
            # A section's preview (with its number and the revision it was read from) reads the claims of the whole
            # page.
            context = _preview_context(preview, page, whole=_section_edit(page, {**request.POST.dict(), "body": body}))
    except wiki_markdown.MarkdownTooComplex as error:
        return render(request, "wiki/edit/preview.html", {"error": str(error)}, status=422)
    return render(request, "wiki/edit/preview.html", context)


def _previewed_page(request: HttpRequest) -> Page | None:
    """The page a live preview is of: the one its form was opened on, wherever it is now, deleted or not; None for
    the new-page form."""
    slug = request.POST.get("slug") or ""
    # PostgreSQL cannot compare a text holding NUL: no slug holds a control character anyway.
    slug = slug if is_control_free(slug) else ""
    if not slug and not request.POST.get("page_id"):
        return None
    pages = Page.all_objects.select_related("deleted_by").only(
        "id", "slug", "title", "body", "deleted_at", "deleted_reason", "deleted_by")
    return opened_page(request, slug, pages)
