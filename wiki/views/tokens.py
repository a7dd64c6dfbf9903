from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from wiki.services.tokens import api_token_get, api_token_rotate


@never_cache  # the page shows a secret: no cache, shared or the browser's, keeps it
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """An editor's API token; POST replaces it (the old one stops working at once). Anyone else is refused (403)."""
    if request.method == "POST":
        api_token_rotate(user=request.user)
        messages.success(request, gettext_lazy("A new token was made; the old one no longer works."))
        return redirect("wiki:api-token")
    return render(request, "wiki/token.html", {"token": api_token_get(user=request.user)})
