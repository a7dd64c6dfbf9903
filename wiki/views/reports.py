from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.reports.consistency import consistency_report_cached


def consistency(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/reports/consistency.html", {"report": consistency_report_cached()})
