"""Settings for the Agentic RL Wiki, read from the environment (see .env.example)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy

from config.embedded_db import var_dir
from config.env import (
    DEVELOPMENT_SECRET_KEY,
    AppServer,
    env_bool,
    env_int,
    env_list,
    env_str,
    secret_key_refused,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = var_dir()

DEBUG = env_bool("DJANGO_DEBUG", default=False)
# Off for `make run` and the tests on one machine; on for a deployment reached over HTTPS.
SECURE = env_bool("DJANGO_SECURE", default=False)
# The key signs sessions, CSRF tokens, password-reset links and the readers' slots in shared pages. A key anyone can
# read here would let anyone forge them, so a deployment refuses to start without one of its own: an application
# server (gunicorn: `make serve`) with DEBUG off, or any process with DJANGO_SECURE on. The development server of
# `make run` and the tests fall back to the published development key.
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if SECURE:
    secret_key_refused(SECRET_KEY, needed_because="DJANGO_SECURE is on")
elif AppServer.running and not DEBUG:
    secret_key_refused(SECRET_KEY, needed_because="DJANGO_DEBUG is off in an application server (gunicorn, make serve)")
SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "wiki",
]

MIDDLEWARE = [
    "config.logs.RequestIdMiddleware",
    # Before anything reads the Host: a load balancer's probe names the server's address, which ALLOWED_HOSTS need not.
    "wiki.views.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session middleware: it reads the Vary that the session and CSRF middleware add.
    "wiki.caching.private_pages.PrivatePagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything asks the database: one not migrated as far as the code answers 503, naming what to run.
    "wiki.views.unmigrated.UnmigratedDatabaseMiddleware",
    "django.middleware.common.CommonMiddleware",
    "wiki.api.encoding.QueryEncodingMiddleware",
    "wiki.api.write_parameters.WriteParametersMiddleware",
    "wiki.api.conditional.ApiConditionalGetMiddleware",
    "wiki.api.throttles.RateLimitHeadersMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "wiki.preferences.ReaderPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
# forms give typed values back without control characters (wiki.forms.rendering)
FORM_RENDERER = "wiki.forms.rendering.FormRenderer"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "wiki.caching.readers.reader",
                "wiki.preferences.colour_scheme_context",
            ],
        },
    },
]

# manage.py and config/wsgi.py start the embedded PostgreSQL and set DATABASE_URL when it is unset.
_database_url = env_str("DATABASE_URL")
if not _database_url:
    raise ImproperlyConfigured(
        "DATABASE_URL is not set: run through manage.py (which starts the embedded PostgreSQL), "
        "or set it, e.g. DATABASE_URL=$(python -m config.embedded_db)."
    )
# A connection is kept for DATABASE_CONN_MAX_AGE seconds, and checked before a request first uses it: one that
# PostgreSQL closed meanwhile (a restart, a failover, pg_terminate_backend) is replaced instead of failing the request.
_conn_max_age = env_int("DATABASE_CONN_MAX_AGE", 60)
DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=_conn_max_age, conn_health_checks=True)}
# Streaming replicas of the primary, comma-separated: reads go to them, writes and an editor's next reads to the primary.
# A replica that cannot be connected to within a few seconds is left out for DATABASE_REPLICA_RETRY_SECONDS
# (config/routers.py), its reads going to the primary.
for _n, _url in enumerate(env_list("DATABASE_REPLICA_URLS", []), start=1):
    DATABASES[f"replica{_n}"] = dj_database_url.parse(_url, conn_max_age=_conn_max_age, conn_health_checks=True)
    DATABASES[f"replica{_n}"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
DATABASE_REPLICA_RETRY_SECONDS = env_int("DATABASE_REPLICA_RETRY_SECONDS", 5)
# The wiki's queries are short: PostgreSQL's JIT compiles a search over a large index for longer than it runs
# (334 of 387 ms at 100,000 pages).
# A query that runs longer than WIKI_STATEMENT_TIMEOUT seconds (set for the served app by config/gunicorn.conf.py) is
# cancelled: a table locked by a migration or a runaway query answers an error instead of holding every thread.
_statement_timeout = env_int("WIKI_STATEMENT_TIMEOUT", 0)
for _database in DATABASES.values():
    _database.setdefault("OPTIONS", {})
    _options = f"{_database['OPTIONS'].get('options', '')} -c jit=off"
    if _statement_timeout:
        _options += f" -c statement_timeout={_statement_timeout * 1000}"
    _database["OPTIONS"]["options"] = _options.strip()
DATABASE_REPLICAS = [alias for alias in DATABASES if alias != "default"]
if DATABASE_REPLICAS:
    DATABASE_ROUTERS = ["config.routers.ReplicaRouter"]
    MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware"), "config.routers.PrimaryAfterWriteMiddleware")
# How long after an edit that browser's reads stay on the primary, in seconds.
DATABASE_PRIMARY_PIN_SECONDS = env_int("DATABASE_PRIMARY_PIN_SECONDS", 10)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "wiki:home"
LOGOUT_REDIRECT_URL = "wiki:home"
# A form sent with an expired token gets the wiki's own page (what happened, and that Back keeps the text).
CSRF_FAILURE_VIEW = "wiki.views.editing.csrf_failure"

# The interface is Chinese first with English beside it: a reader's own choice (the switch in the header, kept in
# a cookie and, for a logged-in reader, in their profile), then the browser's Accept-Language, then Chinese.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "wiki_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = SECURE
# Times are stored in UTC and shown in the reader's zone: their own choice (cookie, profile), else this one.
TIME_ZONE = env_str("WIKI_TIME_ZONE", "Asia/Shanghai")
TIME_ZONE_COOKIE_NAME = "wiki_time_zone"
# Light or dark colours, chosen on the preferences page and kept on the device; without it the device's setting.
COLOUR_SCHEME_COOKIE_NAME = "wiki_colour_scheme"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# WhiteNoise serves from the finders in development; it warns when the root is missing.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# In production (`collectstatic` done, DEBUG off) file names carry a hash of their content and are cached for
# a year; `make run` and the tests serve the files as they are.
WIKI_HASHED_STATIC = env_bool("WIKI_HASHED_STATIC", default=False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage" if WIKI_HASHED_STATIC
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
if SECURE:
    # Behind a proxy that ends TLS, e.g. "HTTP_X_FORWARDED_PROTO,https"; unset when the app serves HTTPS itself.
    _proxy_header = env_list("DJANGO_SECURE_PROXY_SSL_HEADER", [])
    if _proxy_header and len(_proxy_header) != 2:
        raise ImproperlyConfigured("DJANGO_SECURE_PROXY_SSL_HEADER must be a header and a value, e.g. HTTP_X_FORWARDED_PROTO,https")
    SECURE_PROXY_SSL_HEADER = (_proxy_header[0], _proxy_header[1]) if _proxy_header else None
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=False)
    # A load balancer's health check asks over plain HTTP and takes a redirect for a failure.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]

# E-mail (password reset links) goes through EMAIL_HOST when it is set. Without it, a local run (DJANGO_SECURE off)
# prints each message on standard output, and a deployment sends none: the wiki then offers no password reset.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: set one of them to 0.")
# A mail server that does not answer must not hold a worker for long.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "wiki@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif not SECURE:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
# Whether the wiki can send a reader a password reset link (the login page offers one only then).
WIKI_SENDS_EMAIL = EMAIL_BACKEND != "django.core.mail.backends.dummy.EmailBackend"

# Failed log-ins counted in the shared cache: this many for one username from one address, from one address, or for one
# username from anywhere, within the window (seconds after the last failure), refuse the attempts they count until the
# window has passed.
WIKI_LOGIN_FAILURES_PER_USERNAME = env_int("WIKI_LOGIN_FAILURES_PER_USERNAME", 5)
WIKI_LOGIN_FAILURES_PER_ADDRESS = env_int("WIKI_LOGIN_FAILURES_PER_ADDRESS", 20)
WIKI_LOGIN_FAILURES_PER_USERNAME_ANYWHERE = env_int("WIKI_LOGIN_FAILURES_PER_USERNAME_ANYWHERE", 50)
WIKI_LOGIN_FAILURE_WINDOW = env_int("WIKI_LOGIN_FAILURE_WINDOW", 15 * 60)
# Password-reset mails asked for within the window (seconds after the last request): past this many to one e-mail
# address, or from one client address, no more are sent until the window has passed.
WIKI_PASSWORD_RESETS_PER_EMAIL = env_int("WIKI_PASSWORD_RESETS_PER_EMAIL", 3)
WIKI_PASSWORD_RESETS_PER_ADDRESS = env_int("WIKI_PASSWORD_RESETS_PER_ADDRESS", 10)
WIKI_PASSWORD_RESET_WINDOW = env_int("WIKI_PASSWORD_RESET_WINDOW", 60 * 60)
# How many reverse proxies in front of the app append the address they were reached from to X-Forwarded-For: the
# client's address, which the log-in and API throttles count by, is that many entries from the header's end. 0 (the
# default) reads REMOTE_ADDR only, since a client reaching the app directly can write any X-Forwarded-For it likes;
# 1 behind one proxy such as nginx.
WIKI_TRUSTED_PROXIES = env_int("WIKI_TRUSTED_PROXIES", 0)
if WIKI_TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured(f"WIKI_TRUSTED_PROXIES must be 0 or more, got {WIKI_TRUSTED_PROXIES}")
# Authorization schemes the API lets through as no credentials at all: a site behind a proxy asking for HTTP Basic
# authentication (a staging server) sets "Basic", which browsers then send with every request. Any other scheme than
# Token and Bearer is a 401, so that a script sending credentials the API does not read is not answered as anonymous.
API_IGNORED_AUTH_SCHEMES = frozenset(scheme.lower() for scheme in env_list("API_IGNORED_AUTH_SCHEMES", []))

# One cache shared by every worker and server: rendered pages and fragments, the content version that
# invalidates them, sessions and API throttles. Redis in production (REDIS_URL); otherwise a table in
# the wiki's own PostgreSQL, which needs no other service.
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    _cache_backend, _cache_location = "wiki.caching.backends.RedisCache", REDIS_URL
else:
    _cache_backend = env_str("CACHE_BACKEND", "django.core.cache.backends.db.DatabaseCache")
    _cache_location = env_str("CACHE_LOCATION", "django_cache")
# Every key starts with CACHE_KEY_PREFIX, so wikis sharing one Redis database never read each other's entries.
CACHES: dict[str, dict[str, Any]] = {"default": {"BACKEND": _cache_backend, "LOCATION": _cache_location,
                                               "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "wiki")}}
if REDIS_URL:
    # A Redis that stops answering costs a request a second or two, not a hung worker: the wiki serves on without it.
    CACHES["default"]["OPTIONS"] = {"socket_connect_timeout": 1, "socket_timeout": 2}
elif _cache_backend.startswith(("django.core.cache.backends.db.", "django.core.cache.backends.locmem.",
                                "django.core.cache.backends.filebased.")):
    # Past this many entries a write first drops the expired ones, then one in CULL_FREQUENCY. Django's 300 would hold
    # a few dozen pages with their fragments, sessions and throttle counts: a few hundred requests for other addresses
    # would push everything out.
    CACHES["default"]["OPTIONS"] = {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 20_000),
                                    "CULL_FREQUENCY": env_int("CACHE_CULL_FREQUENCY", 5)}
# How long a rendered page or fragment is kept; a write makes it unreachable at once whatever this says.
WIKI_CACHE_SECONDS = env_int("WIKI_CACHE_SECONDS", 24 * 60 * 60)
# What rendered a cached page (wiki/caching/release.py): a deploy's name for its release, or by default a
# digest of the code, templates and data that render.
WIKI_RELEASE = env_str("WIKI_RELEASE")
# How long a process keys pages by the versions it last read from PostgreSQL, where every write moves them, before it
# reads them again (one query); meanwhile the shared cache's copy, which every server writes its moves to, is trusted
# as well. The longest a page is served older than the last saved edit by a server that could not reach Redis.
WIKI_VERSION_CHECK_SECONDS = env_int("WIKI_VERSION_CHECK_SECONDS", 1)
if WIKI_VERSION_CHECK_SECONDS < 0:
    raise ImproperlyConfigured(f"WIKI_VERSION_CHECK_SECONDS must be 0 or more, got {WIKI_VERSION_CHECK_SECONDS}")
# Each worker also keeps the pages it served last in its own memory (never stale: keys hold the version).
WIKI_LOCAL_CACHE_BYTES = env_int("WIKI_LOCAL_CACHE_MB", 32) * 1024 * 1024
# Django's cached_db (the cache in front of PostgreSQL); with Redis each worker keeps the sessions it read until Redis
# says one changed (wiki/caching/sessions.py), so a logged-in request makes no round trip for its session.
SESSION_ENGINE = "wiki.caching.sessions"
# Every logged-in request reads its account: from the cache, keyed by a version that account writes move.
AUTHENTICATION_BACKENDS = ["wiki.caching.users.CachedModelBackend"]

# Page bodies above this many characters are refused with a clear message.
WIKI_MAX_BODY_CHARS = env_int("WIKI_MAX_BODY_CHARS", 200_000)
# A browser sends a form percent-encoded: up to 9 bytes a Chinese character. Django's default 2.5 MB would answer a
# 1 MB paste with a bare "Bad Request" and the text gone; up to this size the form itself says what is too long
# and keeps the text.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024 * 1024

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header is what lets a missing or wrong credential answer 401, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "wiki.api.authentication.TokenAuthentication",
        "wiki.api.authentication.SessionAuthentication",
    ],
    # JSON only: one request format for clients and fuzzers, and no multipart parser to guess with.
    "DEFAULT_PARSER_CLASSES": ["wiki.api.parsers.WikiJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "wiki.api.renderers.BrowsableAPIRenderer"],
    "DEFAULT_PERMISSION_CLASSES": ["wiki.api.permissions.ModelPermissionsOrAnonReadOnly"],
    "DEFAULT_FILTER_BACKENDS": [
        "wiki.api.filters.StrictFilterBackend",
        "wiki.api.filters.UpdatedAfterFilter",
        "wiki.api.filters.StrictOrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "wiki.api.pagination.WikiPagination",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "wiki.api.negotiation.StrictContentNegotiation",
    # OPTIONS describes each write by the body the schema declares for it, not by the serializer a view reads with.
    "DEFAULT_METADATA_CLASS": "wiki.api.metadata.WriteMetadata",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "wiki.api.schema.WikiAutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["wiki.api.throttles.AnonThrottle", "wiki.api.throttles.AccountThrottle"],
    # DRF's default (None) takes the whole X-Forwarded-For as the client, so a client escapes every limit by changing it.
    "NUM_PROXIES": WIKI_TRUSTED_PROXIES,
    "EXCEPTION_HANDLER": "wiki.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "600/minute"),
        "classify": env_str("API_CLASSIFY_RATE", "60/minute"),
        "user": env_str("API_USER_RATE", "1200/minute"),
        "schema": env_str("API_SCHEMA_RATE", "30/minute"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Agentic RL Wiki API",
    "DESCRIPTION": gettext_lazy("Pages, sources, claims, classifications, contrasts, open questions and graphs of the Agentic RL wiki."),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The browser gets Swagger UI and Redoc from static/, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Deep links put a link inside each operation's expand button, which assistive technology cannot reach.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A serializer is described by its own docstring, or its serializer parents', never by a mixin's.
    "GET_LIB_DOC_EXCLUDES": "wiki.api.schema.doc_excludes",
    # The error responses and headers every operation may answer, declared once for the whole schema.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "wiki.api.schema_hooks.declare_shared_responses"],
    # OpenAPI 3.1: a field that may be null is oneOf its type and null, which 3.0's `nullable` beside a $ref cannot say
    "OAS_VERSION": "3.1.0",
    "ENUM_NAME_OVERRIDES": {
        "MechanismEnum": "wiki.models.classifications.MECHANISM_CHOICES",
        "VerdictEnum": "wiki.models.classifications.VERDICT_CHOICES",
        "ClaimStatusEnum": "wiki.models.claims.ClaimStatus",
        "CitationKindEnum": "wiki.models.claims.CitationKind",
        "SourceKindEnum": "wiki.models.sources.SourceKind",
        "QuestionStatusEnum": "wiki.models.questions.QuestionStatus",
        "QuestionPriorityEnum": "wiki.models.questions.QuestionPriority",
        "SetByEnum": "wiki.models.classifications.SetBy",
        "SearchKindEnum": "wiki.models.search.SearchDocument.Kind",
        "FindingKindEnum": "wiki.reports.consistency.FINDING_KINDS",
        "ChangeKindEnum": "wiki.models.changes.ChangeEvent.Kind",
        "ChangeActionEnum": "wiki.models.changes.ChangeEvent.Action",
        "OutcomeEnum": "wiki.api.serializers.pages.CITATION_OUTCOMES",
        "ClaimChangeOutcomeEnum": "wiki.api.serializers.claims.CLAIM_CHANGE_OUTCOMES",
    },
}

# Scripts and styles come from the wiki's own static files only; style attributes (chart bar widths) are allowed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# One line per event with its time, level and source, on standard error (gunicorn adds its access log); with
# WIKI_LOG_FORMAT=json one JSON object a line instead, with the request's id (config/logs.py), gunicorn's lines too.
LOG_FORMAT = env_str("WIKI_LOG_FORMAT", "line")
if LOG_FORMAT not in {"line", "json"}:
    raise ImproperlyConfigured(f"WIKI_LOG_FORMAT must be line or json, got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}, "one_line_warning": {"()": "config.logs.OneLineWarning"}},
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s [%(name)s] %(message)s"},
                   "json": {"()": "config.logs.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING").upper()},
    "loggers": {
        # A body over DATA_UPLOAD_MAX_MEMORY_SIZE is the client's doing, answered 413 (wiki.api.errors.bad_request) and
        # logged as such by django.request, in one line: not as an ERROR with a traceback.
        "django.security.RequestDataTooBig": {"level": "CRITICAL"},
        # So is a Host that ALLOWED_HOSTS does not list (answered 400): one warning naming it, not 14 lines of ERROR.
        "django.security.DisallowedHost": {"filters": ["one_line_warning"]},
        # An entry bibtexparser cannot read is the typist's doing, which the import's report says in the reader's words
        # and with its line: not a warning of the server's, nor a line on the command line's standard error.
        "bibtexparser": {"level": "ERROR"},
    },
}
WHITENOISE_USE_FINDERS = not WIKI_HASHED_STATIC

# The authority of the changes feed's ids (tag: URIs, RFC 4151): a domain name or an e-mail address, set once for good.
# A feed reader then sees the same id for a change whatever host, scheme or proxy it reads the feed through; changing
# it would repeat every entry. A comma or colon would end the authority early, a space make the id no URI.
FEED_TAG_AUTHORITY = env_str("WIKI_FEED_TAG_AUTHORITY", "agentic-rl-wiki.invalid")
if not FEED_TAG_AUTHORITY or any(c.isspace() or c in ",:" for c in FEED_TAG_AUTHORITY):
    raise ImproperlyConfigured("WIKI_FEED_TAG_AUTHORITY must be a domain name or an e-mail address (no spaces, commas "
                               f"or colons), e.g. wiki.example.org; got {FEED_TAG_AUTHORITY!r}")
