from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wiki.reports.agreement import agreement_report
from wiki.reports.consistency import consistency_report_cached


def consistency(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/reports/consistency.html", {"report": consistency_report_cached()})


@login_required
def classifier_agreement(request: HttpRequest) -> HttpResponse:
    return render(request, "wiki/reports/agreement.html", {"report": agreement_report()})
