"""Token authentication against the hashes of editors' keys (``wiki.models.tokens``), reading ``Authorization: Token
<key>`` and ``Authorization: Bearer <key>`` (the default of generated clients); session authentication whose CSRF
failure is said in the reader's language."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from wiki.models.tokens import ApiToken
from wiki.preferences import profile_choices
from wiki.roles import Account
from wiki.services.tokens import api_token_record_use


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>`` or ``Authorization: Bearer <key>``: the same token either way, found by the
    key's hash, refused once it expired; a use is recorded about once a minute."""

    keywords = ("Token", "Bearer")
    model = ApiToken

    def authenticate(self, request: Request) -> Any:
        scheme = authentication.get_authorization_header(request).split(b" ", 1)[0].decode("latin-1")
        if scheme and scheme.lower() not in {k.lower() for k in self.keywords}:
            if scheme.lower() in settings.API_IGNORED_AUTH_SCHEMES:
                return None
            # Credentials the API does not read: answered as anonymous, a script would never learn they were ignored.
            raise exceptions.AuthenticationFailed(_("The API reads no “%(scheme)s” credentials: send Authorization: "
                                                    "Token <key> or Bearer <key>.") % {"scheme": scheme[:20]})
        # DRF compares the header's first word with ``self.keyword``; the instance lives for one request.
        self.keyword = next((k for k in self.keywords if k.lower() == scheme.lower()), self.keywords[0])
        found = super().authenticate(request)
        if found is not None:
            _speak_as_account(request, found[0])
        return found

    def authenticate_header(self, request: Request) -> str:
        """Both challenges (RFC 9110 section 11.6.1): a client told only ``Token`` would not know that the ``Bearer``
        its library sends is read as well."""
        return ", ".join(f'{keyword} realm="api"' for keyword in self.keywords)

    def authenticate_credentials(self, key: str) -> tuple[Account, ApiToken]:
        token = ApiToken.objects.matching(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if token.is_expired():
            raise exceptions.AuthenticationFailed(_("This token has expired: make a new one on the API token page."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        api_token_record_use(token=token)
        return token.user, token


def _speak_as_account(request: Request, user: Account) -> None:
    """A token acts as its account, in the language the account chose, as its session would; a script asking for a
    language with Accept-Language (or the language cookie) is answered in that one."""
    if "HTTP_ACCEPT_LANGUAGE" in request.META or settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return
    language, _zone = profile_choices(user)
    if language:
        translation.activate(language)
        request._request.LANGUAGE_CODE = translation.get_language()


class CsrfFailed(exceptions.PermissionDenied):
    default_detail = _("A write from a logged-in browser needs this site's CSRF token (the X-CSRFToken header holding the "
                       "csrftoken cookie) and to come from this site; a script sends its API token instead.")
    default_code = "csrf_failed"


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's, refusing a write without this site's CSRF token in the reader's language (DRF says "CSRF Failed: …"
    in English, with Django's reason)."""

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise CsrfFailed() from None


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's registration hook is untyped
    target_class = TokenAuthentication
    name = ["tokenAuth", "bearerAuth"]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        # either scheme (two requirements), not both at once (one requirement naming both): they share one header
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, Any]]:
        return [
            {"type": "apiKey", "in": "header", "name": "Authorization",
             "description": _("`Token <key>`: a key made on /account/token/ or by `manage.py api_token`, shown once.")},
            {"type": "http", "scheme": "bearer", "description": _("The same key as `Bearer <key>`.")},
        ]


class SessionAuthenticationScheme(SessionScheme):  # type: ignore[no-untyped-call]  # drf-spectacular's registration hook is untyped
    target_class = "wiki.api.authentication.SessionAuthentication"
