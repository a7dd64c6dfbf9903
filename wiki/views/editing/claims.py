"""Editing a claim: status, citations (a formset, locators as typed) and the works it is about; re-attaching or
retiring an orphaned claim."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from wiki.forms.claims import CitationForm, CitationFormSet, ClaimForm, ClaimReattachForm, ClaimRetireForm
from wiki.forms.opened import remember_opened
from wiki.forms.opened_citations import merge_citations_saved_meanwhile, remember_opened_citations
from wiki.models import Claim
from wiki.services.changes import StaleEdit
from wiki.services.claims import CitationInput, ClaimAlreadyRetired, claim_reattach, claim_retire, claim_update
from wiki.views.claims import render_claim_detail
from wiki.views.editing import editor_required, stale_form


@editor_required("wiki.change_claim", forms=[ClaimForm, CitationForm])
def claim_edit(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim.objects.with_citations().select_related("page__deleted_by"), pk=pk)
    if claim.page.is_deleted and request.method != "POST":
        raise Http404
    if request.method == "POST":
        form = ClaimForm(request.POST)
        formset = CitationFormSet(request.POST, prefix="citations")
        if claim.page.is_deleted:
            # Opened before its page was deleted: nothing is saved, what was typed is kept, with who deleted the page.
            return render(request, "wiki/edit/claim_form.html",
                          {"claim": claim, "form": form, "formset": formset, "deleted": claim.page}, status=410)
        if form.is_valid() and formset.is_valid():
            citations = [
                CitationInput(source=f.cleaned_data["source"], locator=f.cleaned_data["locator"], kind=f.cleaned_data["kind"])
                for f in formset.forms
                if f.cleaned_data and not f.cleaned_data.get("DELETE")
            ]
            try:
                saved = claim_update(claim=claim, status=form.cleaned_data["status"], citations=citations,
                                     about=list(form.cleaned_data["about"]), user=request.user,
                                     loaded_at=form.cleaned_data["loaded_at"])
            except StaleEdit as stale:
                current = Claim.objects.with_citations().get(pk=claim.pk)
                stale_form(form, stale, what="claim")
                formset = merge_citations_saved_meanwhile(form=form, formset=formset, current=current)
                return render(request, "wiki/edit/claim_form.html",
                              {"claim": current, "form": form, "formset": formset, "stale": True}, status=409)
            except ValidationError as error:
                # The citations cannot be written into the page's text: nothing was saved, the entries stay.
                form.add_error(None, error)
                return render(request, "wiki/edit/claim_form.html", {"claim": claim, "form": form, "formset": formset},
                              status=400)
            messages.success(request, _("Claim saved."))
            # Its sentence may cite otherwise now, which gives it another anchor on the page.
            return redirect(saved)
    else:
        form = ClaimForm(initial={"status": claim.status, "about": list(claim.about.all()),
                                  "loaded_at": claim.updated_at.isoformat()})
        remember_opened(form, claim)
        remember_opened_citations(form, claim)
        formset = CitationFormSet(
            prefix="citations",
            initial=[{"source": c.source, "locator": c.locator, "kind": c.kind} for c in claim.citations.all()],
        )
    return render(request, "wiki/edit/claim_form.html", {"claim": claim, "form": form, "formset": formset})


@require_POST
@editor_required("wiki.change_claim", forms=[ClaimReattachForm])
def claim_reattach_view(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim.objects.on_live_pages().only("id"), pk=pk)
    form = ClaimReattachForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a sentence that is on a page now."))
        return redirect("wiki:claim-detail", pk=pk)
    try:
        claim = claim_reattach(claim=claim, sentence=form.cleaned_data["sentence"], user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("wiki:claim-detail", pk=pk)
    messages.success(request, _("Claim #%(id)s is re-attached to its sentence on “%(page)s”.") % {"id": claim.pk, "page": claim.page.title})
    return redirect("wiki:claim-detail", pk=pk)


@require_POST
@editor_required("wiki.change_claim", forms=[ClaimRetireForm])
def claim_retire_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Retires the orphan; a refused reason comes back in the form, as typed, with the error beside it."""
    claim = get_object_or_404(Claim.objects.on_live_pages().only("id", "is_orphaned", "retired_at"), pk=pk)
    form = ClaimRetireForm(request.POST)
    if form.is_valid():
        try:
            claim_retire(claim=claim, reason=form.cleaned_data["reason"], user=request.user)
        except ClaimAlreadyRetired as retired:
            messages.error(request, retired.message)
            return redirect("wiki:claim-detail", pk=pk)
        except ValidationError as error:
            if error.code == "not_orphaned":
                messages.error(request, " ".join(error.messages))
                return redirect("wiki:claim-detail", pk=pk)
            form.add_error("reason", error)
        else:
            messages.success(request, _("Claim #%(id)s is retired.") % {"id": pk})
            return redirect("wiki:claim-detail", pk=pk)
    if claim.is_retired:
        messages.error(request, ClaimAlreadyRetired(Claim.objects.get(pk=pk)).message)
        return redirect("wiki:claim-detail", pk=pk)
    if not claim.is_orphaned:
        messages.error(request, _("Only an orphaned claim can be retired."))
        return redirect("wiki:claim-detail", pk=pk)
    return render_claim_detail(request, Claim.objects.for_detail().get(pk=pk), retire_form=form, status=400)
