from django.forms import Form
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from wiki.caching.responses import cached_for_readers
from wiki.graph.compare import Comparison, comparison_csv, comparison_data, comparison_for, pick_offer
from wiki.graph.forms import WorkPickForm, split_subjects
from wiki.models import Contrast
from wiki.views.merged_works import merged_works_redirect

# The contrasts the compare page offers as a way in: the latest few (the wiki may hold thousands).
LATEST_CONTRASTS = 12
# What ``?format=`` asks for instead of the page.
EXPORT_FORMATS = ("json", "csv")


@cached_for_readers(*WorkPickForm.base_fields, "format")
def compare(request: HttpRequest) -> HttpResponseBase:
    export = request.GET.get("format") or None
    form = WorkPickForm({"works": split_subjects(request.GET.getlist("works")), "q": request.GET.get("q", ""),
                         "differs": request.GET.get("differs", "")})
    if export is not None and (export not in EXPORT_FORMATS or not form.is_valid()):
        return _export_refused(export, form)
    if not form.is_valid():
        return render(request, "wiki/graph/compare.html", {"form": form, "choices": []}, status=400)
    works = form.cleaned_data["works"]
    comparison = comparison_for(works)
    comparison.differing_only = form.cleaned_data["differs"]
    if comparison.unknown and (merged := merged_works_redirect(request, works)):
        return merged
    if export is not None:
        return _export(request, comparison, export)
    status = 404 if comparison.unknown else 200
    chosen, choices, more = pick_offer(comparison, form.cleaned_data["q"])
    toggled = request.GET.copy()
    if comparison.differing_only:
        toggled.pop("differs")
    else:
        toggled["differs"] = "1"
    return render(
        request,
        "wiki/graph/compare.html",
        {"form": form, "comparison": comparison, "choices": choices, "chosen": chosen, "more_choices": more,
         "csv_query": request.GET.urlencode(), "rows_toggle_query": toggled.urlencode(),
         "latest_contrasts": Contrast.objects.newest(LATEST_CONTRASTS)},
        status=status,
    )


def _export(request: HttpRequest, comparison: Comparison, export: str) -> HttpResponse:
    """The comparison as JSON (each work's address absolute, as in the graphs' GraphML) or CSV; a work that does not
    exist is a 404 in the format asked for."""
    if comparison.unknown:
        message = _("No work in the wiki is called “%(works)s”.") % {"works": pgettext("between quoted names", "”, “").join(comparison.unknown)}
        return _export_error(export, message, code="not_found", status=404)
    if export == "json":
        data = comparison_data(comparison)
        data["works"] = [{**work, "url": request.build_absolute_uri(work["url"])} for work in data["works"]]
        return JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response = HttpResponse(comparison_csv(comparison, absolute=request.build_absolute_uri), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="agentic-rl-comparison.csv"'
    return response


def _export_refused(export: str, form: Form) -> HttpResponse:
    """A 400 for a format not offered, or for works the form refuses, in the format asked for (plain text when it is
    not one of them)."""
    if export not in EXPORT_FORMATS:
        message = _("No format “%(format)s”: ask for json or csv, or leave format out for the page.") % {"format": export}
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    errors = {field: [str(e) for e in field_errors] for field, field_errors in form.errors.items()}
    codes = {field: [e.code or "invalid" for e in field_errors] for field, field_errors in form.errors.as_data().items()}
    message = "; ".join(f"{field}: {texts[0]}" for field, texts in errors.items())
    return _export_error(export, message, code="invalid", status=400, errors=errors, codes=codes)


def _export_error(export: str, message: str, *, code: str, status: int, errors: dict[str, list[str]] | None = None,
                  codes: dict[str, list[str]] | None = None) -> HttpResponse:
    """An error as the API answers one (``detail``, ``code``, ``errors``, ``codes``) for JSON; its message as plain
    text for CSV."""
    if export == "json":
        return JsonResponse({"detail": message, "code": code, "errors": errors or {}, "codes": codes or {}}, status=status,
                            json_dumps_params={"ensure_ascii": False})
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
