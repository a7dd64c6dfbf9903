from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from wiki.forms.tokens import ApiTokenForm
from wiki.models import ApiToken
from wiki.services import tokens as services


@never_cache  # the answer to a POST shows a new key: no cache, shared or the browser's, keeps it
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """An editor's API tokens and the form making one. A new key is shown once, in the answer to the POST that made
    it: no redirect carries it and no session keeps it. Anyone else is refused (403)."""
    editor = services.api_token_holder(request.user)
    form = ApiTokenForm(request.POST if request.method == "POST" else None)
    made = None
    if form.is_valid():
        made = services.api_token_create(user=editor, name=form.cleaned_data["name"], lifetime=form.lifetime_chosen())
        form = ApiTokenForm()
    context = {"form": form, "made": made, "tokens": ApiToken.objects.of(editor), "now": timezone.now()}
    return render(request, "wiki/token.html", context, status=400 if form.errors else 200)


@never_cache
@login_required
@require_POST
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revokes one of the editor's tokens (another's is a 404): its key stops working at once."""
    revoked = services.api_token_revoke(user=services.api_token_holder(request.user), token_id=pk)
    if revoked is None:
        raise Http404
    messages.success(request, gettext("The token “%(name)s” was revoked: it no longer works.") % {
        "name": revoked.name or revoked.hint})
    return redirect("wiki:api-token")
