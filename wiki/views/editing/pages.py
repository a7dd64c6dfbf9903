"""Creating and editing pages, with a server-rendered preview and the edit-conflict screen."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from wiki import markdown as wiki_markdown
from wiki.forms.pages import PageCreateForm, PageForm, new_works_from
from wiki.models import Page
from wiki.models.rules import is_control_free, max_length
from wiki.services.page_claims import page_claims_plan
from wiki.services.pages import EditConflict, PageDeleted, PagePreview, page_preview, page_save
from wiki.text.merge import merge_field, merge_texts
from wiki.views.editing import SESSION_ENDED_PREVIEW, editor_required, saved_message
from wiki.views.pages import follows_moves


def _preview(form: PageForm) -> PagePreview | None:
    if "preview" not in form.data or not form.is_valid():
        return None
    return page_preview(body=form.cleaned_data["body"], new_works=new_works_from(form.data))


def _preview_context(preview: PagePreview | None, page: Page | None) -> dict[str, object]:
    """The preview, what saving it would do to the page's claims, and how its citations resolve."""
    if preview is None:
        return {"preview": None, "claims": None, "citations": None, "page": page}
    return {"preview": preview.result, "claims": page_claims_plan(page=page, refs=preview.result.claims),
            "citations": preview.citations, "page": page}


def _save(request: HttpRequest, form: PageForm, *, slug: str, page: Page | None) -> HttpResponse:
    data = form.cleaned_data
    try:
        saved = page_save(
            slug=slug,
            title=data["title"],
            body=data["body"],
            summary=data["summary"],
            comment=data["comment"],
            user=request.user,
            base_revision=data.get("base_revision"),
            new_works=new_works_from(form.data),
        )
    except EditConflict as conflict:
        return _conflict(request, form, conflict)
    except PageDeleted as deleted:
        return _deleted(request, deleted.page)
    except wiki_markdown.MarkdownTooComplex as error:
        form.add_error("body", str(error))
        return render(request, "wiki/edit/page_form.html", {"form": form, "page": page})
    except ValidationError as error:
        for name, errors in error.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
        return render(request, "wiki/edit/page_form.html", {"form": form, "page": page})
    revision = saved.revision
    if saved.unchanged:
        messages.info(request, _("No changes to save: “%(title)s” is still at revision %(number)s.")
                      % {"title": revision.page.title, "number": revision.number})
        return redirect(revision.page)
    text = _("Saved revision %(number)s of “%(title)s”.") % {"number": revision.number, "title": revision.page.title}
    messages.success(request, saved_message(revision, text=text, citations=saved.citations))
    return redirect(revision.page)


def _conflict(request: HttpRequest, form: PageForm, conflict: EditConflict) -> HttpResponse:
    """Nothing was saved: show both versions, and offer the merge (clashes marked) based on the current revision."""
    data = form.cleaned_data
    base = conflict.page.revisions.filter(number=conflict.base_number).first()
    current = conflict.current
    merge = merge_texts(base=base.body if base else "", theirs=current.body, mine=data["body"])
    # Title and summary are merged too: a change saved meanwhile must not be undone by the resolved save.
    fields = {
        name: merge_field(base=getattr(base, name) if base else "", theirs=getattr(current, name), mine=data[name])
        for name in ("title", "summary")
    }
    merged_form = PageForm(
        initial={
            "title": fields["title"].value,
            "summary": fields["summary"].value,
            "body": merge.text(),
            "comment": data["comment"],
            "base_revision": current.number,
        }
    )
    for name, field in fields.items():
        if field.clash:
            merged_form.fields[name].help_text = _("Changed meanwhile too, to “%(theirs)s”; yours is kept here: choose.") % {"theirs": field.theirs}
    return render(
        request,
        "wiki/edit/page_conflict.html",
        {"page": conflict.page, "form": merged_form, "merge": merge, "mine": data["body"], "current": current,
         "base_number": conflict.base_number},
        status=409,
    )


def _deleted(request: HttpRequest, page: Page) -> HttpResponse:
    """The page was deleted while being edited: nothing was saved. The editor's text comes back in the new-page
    form (under another address, or the same once staff restore the page), with who deleted it, when and why."""
    form = PageCreateForm(initial={name: request.POST.get(name, "") for name in ("title", "summary", "body", "comment")})
    return render(request, "wiki/edit/page_form.html", {"form": form, "deleted": page, "page": None}, status=410)


def _session_ended(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """A page form posted after the editor's session ended: nothing is saved, and the form comes back holding what
    was posted (the revision it started from too, so a save made meanwhile is still caught), to save once logged in
    again in another tab."""
    page = None
    if slug is not None:
        page = Page.all_objects.only("id", "slug", "title").filter(slug=slug).first()
        if page is None:
            raise Http404
    form_class = PageForm if page is not None else PageCreateForm
    form = form_class(initial={name: request.POST.get(name, "") for name in form_class.base_fields})
    return render(request, "wiki/edit/page_form.html", {"form": form, "page": page, "session_ended": True}, status=403)


def _preview_session_ended(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/edit/preview.html", {"error": SESSION_ENDED_PREVIEW}, status=403)


@editor_required("wiki.add_page", forms=[PageCreateForm], session_ended=_session_ended)
def page_create(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = PageCreateForm(request.POST)
        preview = _preview(form)
        if preview is None and "preview" not in request.POST and form.is_valid():
            # Base 0: a page created by someone else meanwhile is a conflict, not an overwrite.
            form.cleaned_data["base_revision"] = 0
            return _save(request, form, slug=form.cleaned_data["slug"], page=None)
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
    page = Page.all_objects.select_related("deleted_by").filter(slug=slug).first()
    moved = page is None and request.method == "POST" and bool(request.POST.get("base_revision"))
    if moved:
        # Opened before the page was moved: what was typed is saved where the page is now, merged as any edit is
        # with the revision it started from (a form without one is not the wiki's and is not sent on).
        page = Page.all_objects.select_related("deleted_by").filter(redirects__slug=slug).first()
    if page is None:
        raise Http404
    if page.is_deleted:
        # Opened before the deletion: what was typed is kept. Opened after: the page's address says it is deleted.
        return _deleted(request, page) if request.method == "POST" else redirect(page)
    if request.method == "POST":
        form = PageForm(request.POST)
        preview = _preview(form)
        if moved:
            messages.info(request, _("While you were editing, the page moved from %(old)s to %(new)s: your edit goes to "
                                     "its new address.") % {"old": slug, "new": page.slug})
        if preview is None and "preview" not in request.POST and form.is_valid():
            return _save(request, form, slug=page.slug, page=page)
    else:
        latest = page.revisions.order_by("-number").only("number").first()
        form = PageForm(
            initial={"title": page.title, "summary": page.summary, "body": page.body,
                     "base_revision": latest.number if latest else None}
        )
        preview = None
    return render(request, "wiki/edit/page_form.html", {"form": form, **_preview_context(preview, page)})


@require_POST
@editor_required("wiki.change_page", session_ended=_preview_session_ended)
def page_preview_fragment(request: HttpRequest) -> HttpResponse:
    """The preview as an HTML fragment, for the script that previews while typing; with the page's ``slug``,
    what saving it would do to the page's claims."""
    body = request.POST.get("body", "").replace("\r\n", "\n")
    slug = request.POST.get("slug") or ""
    # PostgreSQL cannot compare a text holding NUL: no slug holds a control character anyway.
    page = Page.objects.only("id").filter(slug=slug).first() if is_control_free(slug) else None
    try:
        preview = page_preview(body=body, new_works=new_works_from(request.POST))
    except wiki_markdown.MarkdownTooComplex as error:
        return render(request, "wiki/edit/preview.html", {"error": str(error)}, status=422)
    return render(request, "wiki/edit/preview.html", _preview_context(preview, page))
