"""A claim with its history across page revisions, and the claims of a page (with those awaiting a decision)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_safe

from wiki.forms.claims import ClaimReattachForm, ClaimRetireForm
from wiki.forms.rendering import without_controls
from wiki.models import Claim, ClaimRevision, Page
from wiki.models.claims import merge_that_orphaned
from wiki.paginator import Paginator
from wiki.views.listing import PER_PAGE
from wiki.views.pages import follows_moves


@require_safe
def claim_detail(request: HttpRequest, pk: int) -> HttpResponse:
    claim = Claim.objects.on_live_pages().for_detail().filter(pk=pk).first()
    if claim is None:
        # A claim that gave its sentence to a re-attached one lives on as that claim.
        replaced = ClaimRevision.objects.replacing(pk).first()
        if replaced is None:
            raise Http404
        return redirect("wiki:claim-detail", pk=replaced.claim_id, permanent=True)
    return render_claim_detail(request, claim)


def render_claim_detail(request: HttpRequest, claim: Claim, *, retire_form: ClaimRetireForm | None = None,
                        status: int = 200) -> HttpResponse:
    """``claim`` (read with ``for_detail()``) with its history; for an editor, an orphan's re-attach and retire forms
    (``retire_form`` as submitted, when it was refused)."""
    history = list(ClaimRevision.objects.history().filter(claim=claim))
    context: dict[str, object] = {"claim": claim, "history": history, "merged": merge_that_orphaned(reversed(history)) if claim.is_orphaned else None}
    if claim.is_orphaned and not claim.is_retired and request.user.has_perm("wiki.change_claim"):
        # ?page=<slug> offers the sentences of another page to re-attach to; its field gives back the page found.
        slug = without_controls(request.GET.get("page") or "")
        other = Page.objects.only("id", "slug", "title").filter(slug=slug).first() if slug else None
        target = other or claim.page
        context.update(target=target, other_page=other, reattach_form=ClaimReattachForm(page_id=target.pk),
                       retire_form=retire_form or ClaimRetireForm())
    return render(request, "wiki/claim_detail.html", context, status=status)


@require_safe
@follows_moves
def page_claims(request: HttpRequest, slug: str) -> HttpResponse:
    page = get_object_or_404(Page.objects.only("id", "slug", "title"), slug=slug)
    claims = Claim.objects.filter(page=page).only(
        "id", "text", "section", "status", "is_orphaned", "retired_at", "retired_reason", "position", "anchor", "page_id"
    ).order_by("is_orphaned", "position", "id")
    # A page may state thousands of claims: a hundred a page, its current ones first, then its orphans.
    page_obj = Paginator(claims, PER_PAGE).get_page(request.GET.get("p"))
    return render(request, "wiki/page_claims.html", {"page": page, "page_obj": page_obj})
