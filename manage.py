#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.embedded_db import use_embedded_database_unless_configured

    use_embedded_database_unless_configured()

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
