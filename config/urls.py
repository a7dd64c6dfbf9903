from csp.decorators import csp_update
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from wiki.api.views import fallback
from wiki.api.views.docs import RedocView, SchemaView, SwaggerView
from wiki.forms.accounts import ThrottledAdminAuthenticationForm
from wiki.views import accounts
from wiki.views.health import health

# The admin's login counts failed attempts with the wiki's own (wiki.accounts.throttling).
admin.site.login_form = ThrottledAdminAuthenticationForm
# Swagger UI and Redoc style themselves inline and Redoc runs a worker from a blob; their scripts are still ours.
_docs_csp = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})

urlpatterns = [
    path("admin/", admin.site.urls),
    # Django's account screens under their usual names, two of them the wiki's own (throttled login, mail errors).
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("health/", health, name="health"),
    # Pages that are not the wiki's own (the browsable API, Redoc) name no icon, so browsers ask for this one.
    # Its address is looked up when asked for: with hashed names, in a manifest that collectstatic may not have written
    # yet when a command (migrate, check) imports the URLs.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"), permanent=True)),
    path("api/", include("wiki.api.urls")),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/docs/", _docs_csp(SwaggerView.as_view(url_name="api-schema")), name="api-docs"),
    path("api/redoc/", _docs_csp(RedocView.as_view(url_name="api-schema")), name="api-redoc"),
    # The API's root leads to its one version; any other address under /api/ is a 404 in the API's error shape.
    path("api/", RedirectView.as_view(pattern_name="api:api-root", query_string=True)),
    re_path(r"^api/", fallback.not_found),
    path("", include("wiki.urls")),
]

handler400 = "wiki.api.errors.bad_request"
handler500 = "wiki.api.errors.server_error"
