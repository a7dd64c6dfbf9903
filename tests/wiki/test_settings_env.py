from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What `secrets.token_urlsafe(50)` gives: the kind of key .env.example tells a deployment to make.
RANDOM_KEY = "q3JvZ2dYc0F1b2xKc2V0dGluZ3MtdGVzdC1rZXktNzQxOTI4Mzc0NjU1"
READ = re.compile(r'env_(?:str|bool|int|list)\("([A-Z0-9_]+)"')


def test_env_example_lists_every_variable_the_code_reads() -> None:
    read = {name for path in [*ROOT.joinpath("config").rglob("*.py"), *ROOT.joinpath("wiki").rglob("*.py")]
            for name in READ.findall(path.read_text(encoding="utf-8"))}
    listed = {line.split("=", 1)[0] for line in ROOT.joinpath(".env.example").read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")}
    assert "EDITOR_PASSWORD" in read
    assert read <= listed


def test_no_module_reads_the_environment_around_config_env() -> None:
    direct = [path.name for path in ROOT.joinpath("wiki").rglob("*.py") if "os.environ" in path.read_text(encoding="utf-8")]
    assert direct == []


def _settings_in_subprocess(**env: str) -> subprocess.CompletedProcess[str]:
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    code = ("from config import settings as s; "
            "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, getattr(s, 'SECURE_PROXY_SSL_HEADER', None), "
            "getattr(s, 'SECURE_HSTS_SECONDS', 0), getattr(s, 'SECURE_SSL_REDIRECT', False))")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True)


def test_secure_deployment_without_a_secret_key_refuses_to_start() -> None:
    result = _settings_in_subprocess(DJANGO_SECURE="1")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_secure_deployment_sends_cookies_over_https_only_and_reads_the_proxy_header() -> None:
    result = _settings_in_subprocess(DJANGO_SECURE="1", DJANGO_SECRET_KEY=RANDOM_KEY,
                                     DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
                                     DJANGO_SECURE_HSTS_SECONDS="3600", DJANGO_SECURE_SSL_REDIRECT="1")
    assert result.stdout.split() == ["True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')", "3600", "True"]


def test_local_use_needs_no_secret_key() -> None:
    result = _settings_in_subprocess()
    assert result.stdout.split() == ["False", "False", "None", "0", "False"]


def _free_port() -> str:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize("env", [{}, {"DJANGO_DEBUG": "0"}, {"DJANGO_SECRET_KEY": "insecure-development-key-change-me"},
                                 {"DJANGO_SECRET_KEY": "change-me"}])
def test_make_serves_gunicorn_refuses_to_start_without_a_secret_key_of_its_own(env: dict[str, str]) -> None:
    result = _run([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"],
                  {"PORT": _free_port(), "WEB_CONCURRENCY": "1", **env}, timeout=60)
    assert result.returncode != 0
    assert "ImproperlyConfigured: " in result.stderr and "DJANGO_SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_any_application_server_with_debug_off_needs_a_key_and_starts_with_one(module: str) -> None:
    code = f"import {module}; from django.conf import settings; print(settings.SECRET_KEY)"
    refused = _run([sys.executable, "-c", code], {})
    assert refused.returncode != 0
    assert refused.stderr.strip() == ("ImproperlyConfigured: DJANGO_DEBUG is off in an application server (gunicorn, "
                                      "make serve): set DJANGO_SECRET_KEY to a long random value (e.g. python -c "
                                      '"import secrets; print(secrets.token_urlsafe(50))").')
    assert _run([sys.executable, "-c", code], {"DJANGO_SECRET_KEY": RANDOM_KEY}).stdout.strip() == RANDOM_KEY
    # DEBUG on is development, whatever serves it.
    assert _run([sys.executable, "-c", code], {"DJANGO_DEBUG": "1"}).returncode == 0


def test_make_runs_development_server_needs_no_secret_key() -> None:
    """`make run` is manage.py runserver, which reads the settings first and then loads the WSGI application."""
    served = _manage("shell", "-c", "from django.core.servers.basehttp import get_internal_wsgi_application; "
                                    "get_internal_wsgi_application(); print('serving')")
    assert served.returncode == 0, served.stderr
    assert served.stdout.strip().endswith("serving")


@pytest.mark.parametrize("key", ["change-me", "insecure-development-key-change-me", "short-but-random-Zx81", "x" * 60,
                                 "django-insecure-" + "k2j3h4g5f6d7s8a9" * 3])
def test_secure_deployment_refuses_a_placeholder_or_weak_key_in_one_line(key: str) -> None:
    result = _manage("check", DJANGO_SECURE="1", DJANGO_SECRET_KEY=key)
    assert result.returncode != 0
    assert result.stderr.startswith("ImproperlyConfigured: DJANGO_SECRET_KEY is ")
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_check_deploy_without_a_key_fails_with_one_line_naming_the_variable() -> None:
    result = _manage("check", "--deploy", DJANGO_SECURE="1")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("ImproperlyConfigured: DJANGO_SECURE is on: set DJANGO_SECRET_KEY")


def test_a_deployment_with_every_documented_variable_set_passes_check_deploy() -> None:
    result = _manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_DEBUG="0", DJANGO_SECURE="1",
                     DJANGO_SECRET_KEY=RANDOM_KEY, DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
                     DJANGO_SECURE_HSTS_SECONDS="31536000", DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
                     DJANGO_SECURE_HSTS_PRELOAD="1", DJANGO_SECURE_SSL_REDIRECT="1", EMAIL_HOST="smtp.example.org")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def _email_settings(**env: str) -> list[str]:
    code = "from config import settings as s; print(s.EMAIL_BACKEND.rsplit('.', 2)[-2], s.WIKI_SENDS_EMAIL, s.EMAIL_PORT, s.EMAIL_USE_TLS)"
    return _run([sys.executable, "-c", code], env).stdout.split()


def test_email_goes_to_the_smtp_server_when_set_else_to_the_console_locally_and_nowhere_in_a_deployment() -> None:
    assert _email_settings(EMAIL_HOST="smtp.example.org") == ["smtp", "True", "587", "True"]
    assert _email_settings(EMAIL_HOST="localhost", EMAIL_PORT="25", EMAIL_USE_TLS="0") == ["smtp", "True", "25", "False"]
    assert _email_settings() == ["console", "True", "587", "True"]
    assert _email_settings(DJANGO_SECURE="1", DJANGO_SECRET_KEY=RANDOM_KEY) == ["dummy", "False", "587", "True"]


def test_email_tls_and_ssl_together_are_refused() -> None:
    result = _run([sys.executable, "-c", "import config.settings"], {"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"})
    assert result.returncode != 0 and "EMAIL_USE_TLS and EMAIL_USE_SSL" in result.stderr


def _setting(name: str, **env: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-c", f"from config import settings as s; print({name})"], env)


def test_no_proxy_is_trusted_by_default_and_the_count_goes_to_the_throttles() -> None:
    assert _setting("s.REST_FRAMEWORK['NUM_PROXIES']").stdout.split() == ["0"]
    assert _setting("s.REST_FRAMEWORK['NUM_PROXIES']", WIKI_TRUSTED_PROXIES="1").stdout.split() == ["1"]


@pytest.mark.parametrize("value", ["-1", "one", "1.5"])
def test_trusted_proxies_other_than_a_whole_number_are_refused(value: str) -> None:
    result = _setting("s.REST_FRAMEWORK['NUM_PROXIES']", WIKI_TRUSTED_PROXIES=value)
    assert result.returncode != 0 and "ImproperlyConfigured: WIKI_TRUSTED_PROXIES must be" in result.stderr


def test_the_feed_tag_authority_is_read_from_the_environment() -> None:
    assert _setting("s.FEED_TAG_AUTHORITY").stdout.split() == ["agentic-rl-wiki.invalid"]
    assert _setting("s.FEED_TAG_AUTHORITY", WIKI_FEED_TAG_AUTHORITY="wiki.example.org").stdout.split() == ["wiki.example.org"]
    assert _setting("s.FEED_TAG_AUTHORITY", WIKI_FEED_TAG_AUTHORITY="owner@example.org").stdout.split() == ["owner@example.org"]


@pytest.mark.parametrize("value", ["", "wiki example.org", "wiki.example.org,2024", "tag:wiki.example.org", "wiki.example.org\t"])
def test_a_feed_tag_authority_that_is_no_domain_or_address_is_refused(value: str) -> None:
    result = _setting("s.FEED_TAG_AUTHORITY", WIKI_FEED_TAG_AUTHORITY=value)
    assert result.returncode != 0 and "ImproperlyConfigured: WIKI_FEED_TAG_AUTHORITY must be" in result.stderr


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "manage.py", *args], env)


def _run(command: list[str], env: dict[str, str], *, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    import os

    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "EMAIL_"))}
    clean.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    return subprocess.run(command, cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=timeout)


def _settings_values(expression: str, **env: str) -> str:
    import os

    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "WIKI_STATEMENT"))}
    clean.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    result = subprocess.run([sys.executable, "-c", f"from config import settings as s; print({expression})"], cwd=ROOT,
                            env={**clean, **env}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_served_app_cancels_a_query_running_longer_than_its_timeout_and_commands_do_not() -> None:
    options = "s.DATABASES['default']['OPTIONS']['options']"

    assert _settings_values(options, WIKI_STATEMENT_TIMEOUT="30") == "-c jit=off -c statement_timeout=30000"
    assert _settings_values(options) == "-c jit=off"
    # gunicorn's configuration sets it to the worker timeout for the app it serves
    env = {k: v for k, v in os.environ.items() if k != "WIKI_STATEMENT_TIMEOUT"}
    code = "import runpy, os; runpy.run_path('config/gunicorn.conf.py'); print(os.environ['WIKI_STATEMENT_TIMEOUT'])"
    served = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, "WEB_TIMEOUT": "25"}, capture_output=True,
                            text=True)
    assert served.stdout.strip() == "25", served.stderr


def test_behind_https_the_health_check_is_answered_over_plain_http_and_the_language_cookie_is_secure() -> None:
    values = _settings_values("s.SECURE_REDIRECT_EXEMPT, s.LANGUAGE_COOKIE_SECURE", DJANGO_SECURE="1",
                              DJANGO_SECRET_KEY=RANDOM_KEY, DJANGO_SECURE_SSL_REDIRECT="1")

    assert values == "['^health/$'] True"
    assert _settings_values("s.LANGUAGE_COOKIE_SECURE") == "False"


def test_commands_run_with_hashed_static_names_before_collectstatic_wrote_the_manifest(tmp_path: Path) -> None:
    result = _manage("check", WIKI_HASHED_STATIC="1", WIKI_VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr


def test_every_database_connection_is_checked_before_a_request_uses_it_and_a_replica_connects_briefly() -> None:
    values = _settings_values("[(a, d['CONN_HEALTH_CHECKS'], d['CONN_MAX_AGE']) for a, d in s.DATABASES.items()], "
                              "s.DATABASES['replica2']['OPTIONS']['connect_timeout'], s.DATABASE_REPLICA_RETRY_SECONDS",
                              DATABASE_REPLICA_URLS="postgres://r@10.0.0.7/wiki,postgres://r@10.0.0.8/wiki")
    assert values == "[('default', True, 60), ('replica1', True, 60), ('replica2', True, 60)] 2 5"


def test_log_lines_are_json_when_asked_and_another_format_is_refused() -> None:
    assert _settings_values("s.LOGGING['handlers']['console']['formatter']") == "line"
    assert _settings_values("s.LOGGING['handlers']['console']['formatter']", WIKI_LOG_FORMAT="json") == "json"
    result = _setting("s.LOG_FORMAT", WIKI_LOG_FORMAT="yaml")
    assert result.returncode != 0 and "ImproperlyConfigured: WIKI_LOG_FORMAT must be line or json" in result.stderr


def test_the_cache_in_the_database_keeps_thousands_of_entries_and_culls_a_fifth() -> None:
    options = "s.CACHES['default'].get('OPTIONS')"
    assert _setting(options, REDIS_URL="").stdout.strip() == "{'MAX_ENTRIES': 20000, 'CULL_FREQUENCY': 5}"
    assert _setting(options, REDIS_URL="", CACHE_MAX_ENTRIES="100000", CACHE_CULL_FREQUENCY="10").stdout.strip() == (
        "{'MAX_ENTRIES': 100000, 'CULL_FREQUENCY': 10}")
    # Redis drops what it needs to by its own policy (allkeys-lru); a memcached client would refuse the options.
    assert "MAX_ENTRIES" not in _setting(options, REDIS_URL="redis://127.0.0.1:6379/0").stdout
    assert "MAX_ENTRIES" not in _setting(options, REDIS_URL="", CACHE_BACKEND="django.core.cache.backends.memcached.PyMemcacheCache").stdout
