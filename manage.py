#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.embedded_db import use_embedded_database_unless_configured

    use_embedded_database_unless_configured()
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    try:
        settings.INSTALLED_APPS  # noqa: B018 (reads config/settings.py now)
    except ImproperlyConfigured as error:
        # A setting from the environment is missing or wrong: one line that says which, not a traceback.
        sys.exit(f"ImproperlyConfigured: {error}")

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
