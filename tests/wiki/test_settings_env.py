from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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
    result = _settings_in_subprocess(DJANGO_SECURE="1", DJANGO_SECRET_KEY="x" * 50,
                                     DJANGO_SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
                                     DJANGO_SECURE_HSTS_SECONDS="3600", DJANGO_SECURE_SSL_REDIRECT="1")
    assert result.stdout.split() == ["True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')", "3600", "True"]


def test_local_use_needs_no_secret_key() -> None:
    result = _settings_in_subprocess()
    assert result.stdout.split() == ["False", "False", "None", "0", "False"]
