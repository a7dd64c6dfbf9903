from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from wiki.roles import is_editor
from wiki.services.tokens import api_token_rotate


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """An editor's API token; POST replaces it (the old one stops working at once)."""
    if not is_editor(request.user):
        raise PermissionDenied(gettext_lazy("Only editors have API tokens."))
    if request.method == "POST":
        api_token_rotate(user=request.user)
        messages.success(request, gettext_lazy("A new token was made; the old one no longer works."))
        return redirect("wiki:api-token")
    token, _ = Token.objects.get_or_create(user=request.user)
    return render(request, "wiki/token.html", {"token": token})
