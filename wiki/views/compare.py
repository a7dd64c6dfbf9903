from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render

from wiki.caching.responses import cached_for_readers
from wiki.graph.compare import comparison_csv, comparison_data, comparison_for, pick_offer
from wiki.graph.forms import WorkPickForm, split_subjects
from wiki.models import Contrast
from wiki.views.merged_works import merged_works_redirect

# The contrasts the compare page offers as a way in: the latest few (the wiki may hold thousands).
LATEST_CONTRASTS = 12


@cached_for_readers
def compare(request: HttpRequest) -> HttpResponseBase:
    form = WorkPickForm({"works": split_subjects(request.GET.getlist("works")), "q": request.GET.get("q", "")})
    if not form.is_valid():
        return render(request, "wiki/graph/compare.html", {"form": form, "choices": []}, status=400)
    works = form.cleaned_data["works"]
    comparison = comparison_for(works)
    if comparison.unknown and (merged := merged_works_redirect(request, works)):
        return merged
    status = 404 if comparison.unknown else 200
    if request.GET.get("format") == "json" and status == 200:
        return JsonResponse(comparison_data(comparison), json_dumps_params={"ensure_ascii": False})
    if request.GET.get("format") == "csv" and status == 200:
        response = HttpResponse(comparison_csv(comparison), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="agentic-rl-comparison.csv"'
        return response
    chosen, choices, more = pick_offer(comparison, form.cleaned_data["q"])
    return render(
        request,
        "wiki/graph/compare.html",
        {"form": form, "comparison": comparison, "choices": choices, "chosen": chosen, "more_choices": more,
         "csv_query": request.GET.urlencode(), "latest_contrasts": Contrast.objects.newest(LATEST_CONTRASTS)},
        status=status,
    )
