"""The login and password reset screens: Django's views with the wiki's throttle, redirects and mail errors."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from wiki.accounts import throttling
from wiki.forms.accounts import MailedPasswordResetForm, MailNotSent, ThrottledAuthenticationForm
from wiki.views.editing import EDITOR_FORM

# Where logging in must never lead back to: the header's "Log in" link on these pages names them as next.
_NOT_NEXT = {"login", "logout"}


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def get_redirect_url(self, request: HttpRequest | None = None) -> str:  # Django's takes none; its stubs one
        url = super().get_redirect_url()
        try:
            name = resolve(urlsplit(url).path).url_name if url else None
        except Resolver404:
            name = None
        return "" if name in _NOT_NEXT else url

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "password_reset_offered": settings.WIKI_SENDS_EMAIL,
                "for_editors": _for_editors(self.get_redirect_url())}

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error("__all__", "throttled"):
            response.status_code = 429
        return response


def _for_editors(url: str) -> bool:
    """Whether ``url`` is an editor's form: a reader sent here from one is told why, one who clicked the header's
    "Log in" (whose next is the page they were reading) is not."""
    try:
        return hasattr(resolve(urlsplit(url).path).func, EDITOR_FORM) if url else False
    except Resolver404:
        return False


class PasswordResetView(auth_views.PasswordResetView):
    form_class = MailedPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.WIKI_SENDS_EMAIL:
            return render(request, "registration/password_reset_form.html", status=404)  # the template says whom to ask instead
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        refused = throttling.reset_requested(self.request, form.cleaned_data["email"])
        if refused is not None:
            until = formats.time_format(timezone.localtime(refused.until), "H:i")
            form.add_error(None, ValidationError(_("Too many reset links were asked for. Try again after %(time)s."),
                                                 code="throttled", params={"time": until}))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        try:
            return super().form_valid(form)
        except MailNotSent:
            form.add_error(None, ValidationError(
                _("The e-mail could not be sent, so no reset link is on its way. Try again later, or ask an "
                  "administrator to reset your password."), code="not_sent"))
            return self.render_to_response(self.get_context_data(form=form), status=503)
