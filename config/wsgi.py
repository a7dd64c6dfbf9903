import os
import sys

import django
from django.core.exceptions import ImproperlyConfigured

from config.embedded_db import use_embedded_database_unless_configured
from config.env import AppServer
from wiki.charsets import WikiWSGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Before the settings are read: served so, with DEBUG off, the wiki needs a secret key of its own (config/settings.py).
AppServer.running = True
use_embedded_database_unless_configured()
# get_wsgi_application(), with the wiki's request class (wiki.charsets.WikiWSGIRequest).
try:
    django.setup(set_prefix=False)
except ImproperlyConfigured as error:
    # A setting from the environment is missing or wrong: one line that says which, and the server does not start.
    sys.exit(f"ImproperlyConfigured: {error}")
application = WikiWSGIHandler()
