"""How to cite a work: its reference in two styles and as a file for a reference manager.

Not kept in the response cache: the GB/T 7714 reference of a work read online carries the day it is cited.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from wiki.models import Source
from wiki.references.citation_files import citation_files
from wiki.references.citation_keys import citation_keys
from wiki.references.exports import EXPORTS
from wiki.references.work_citation import ONLINE_TYPES, apa, gbt7714, gbt_type, plain


@require_safe
def source_cite(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The work's reference in an APA-like and a GB/T 7714-like style, and as BibTeX, CSL-JSON and RIS, each to copy;
    ``?format=bib``, ``csl`` or ``ris`` downloads that one entry (one query)."""
    asked = request.GET.get("format")
    export = EXPORTS.get(asked or "")
    if asked is not None and export is None:
        message = _("No format “%(format)s”: ask for bib, csl or ris, or leave format out for the page.") % {"format": asked}
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    source = Source.objects.filter(slug=slug).first()
    if source is None:
        gone = Source.all_objects.gone(slug)
        if gone is not None and gone.merged_into is not None:
            kept = reverse("wiki:source-cite", kwargs={"slug": gone.merged_into.slug})
            return redirect(f"{kept}?{request.GET.urlencode()}" if request.GET else kept, permanent=True)
        if gone is not None:
            return render(request, "wiki/deleted.html", {"object": gone, "kind": "source"}, status=410)
        raise Http404
    key = citation_keys([source])[source.pk]
    if export is not None:
        response = HttpResponse(export.write([source]), content_type=f"{export.media_type}; charset=utf-8")
        response["Content-Disposition"] = content_disposition_header(True, f"{key}.{export.extension}") or ""
        return response
    styles = {"apa": apa(source), "gbt": gbt7714(source, cited=timezone.localdate())}
    files = citation_files({name: export.write([source]) for name, export in EXPORTS.items()})
    return render(request, "wiki/source_cite.html", {
        "source": source, "key": key, "styles": styles, "plain": {name: plain(parts) for name, parts in styles.items()},
        "files": files, "retrieved": timezone.localdate(), "cited_online": gbt_type(source) in ONLINE_TYPES,
    })
