from collections.abc import Sequence

from django.forms import Form
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from wiki.caching.responses import cached_for_readers
from wiki.graph.compare import Comparison, comparison_csv, comparison_data, comparison_for, pick_offer
from wiki.graph.forms import ONE_VALUE, WorkPickForm, asked_format, repeated_parameters, split_subjects
from wiki.models import Contrast
from wiki.views.merged_works import merged_works_redirect

# The contrasts the compare page offers as a way in: the latest few (the wiki may hold thousands).
LATEST_CONTRASTS = 12
# What ``?format=`` asks for instead of the page.
EXPORT_FORMATS = ("json", "csv")


@cached_for_readers(*WorkPickForm.base_fields, "format")
def compare(request: HttpRequest) -> HttpResponseBase:
    export = asked_format(request.GET)
    form = WorkPickForm({"works": split_subjects(request.GET.getlist("works")), "q": request.GET.get("q", ""),
                         "differs": request.GET.get("differs", "")})
    if repeated := repeated_parameters(request.GET):
        return _repeated_refused(request, export, form, repeated)
    if export is not None and (export not in EXPORT_FORMATS or not form.is_valid()):
        return _export_refused(export, form)
    # a picker search refused (too long) leaves the comparison of the works chosen to show beside its error
    search_refused = set(form.errors) == {"q"}
    if not form.is_valid() and not search_refused:
        return _refused(request, form)
    works = form.cleaned_data["works"]
    if export is not None and not works:
        message = _("Name the works to compare: ?works=, their slugs or short names separated by commas.")
        return _export_error(export, message, code="required", status=400, errors={"works": [message]},
                             codes={"works": ["required"]})
    comparison = comparison_for(works)
    comparison.differing_only = form.cleaned_data["differs"]
    if comparison.unknown and (merged := merged_works_redirect(request, works)):
        return merged
    if export is not None:
        return _export(request, comparison, export)
    status = 404 if comparison.unknown else 400 if search_refused else 200
    chosen, choices, more = pick_offer(comparison, None if search_refused else form.cleaned_data["q"])
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


def _refused(request: HttpRequest, form: WorkPickForm, repeated: Sequence[str] = ()) -> HttpResponse:
    """The page's 400: the form with its errors, and the works named offered as boxes to untick when there are too
    many of them to compare (their unknown ones given back in the text box)."""
    named = comparison_for(form.named) if form.named and form.has_error("works", "too_many") else Comparison()
    return render(request, "wiki/graph/compare.html",
                  {"form": form, "choices": [], "chosen": pick_offer(named, None).chosen,
                   "comparison": Comparison(unknown=named.unknown),
                   "repeated": [(name, ONE_VALUE) for name in repeated]},
                  status=400)


def _repeated_refused(request: HttpRequest, export: str | None, form: WorkPickForm, repeated: list[str]) -> HttpResponse:
    """A 400 for a parameter that takes one value sent more than once, as the API answers it: in the format asked for
    when one is, else as the page."""
    if export not in EXPORT_FORMATS:
        return _refused(request, form, repeated)
    message = str(ONE_VALUE)
    return _export_error(export, "; ".join(f"{name}: {message}" for name in repeated), code="repeated_parameter",
                         status=400, errors={name: [message] for name in repeated},
                         codes={name: ["repeated_parameter"] for name in repeated})


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
