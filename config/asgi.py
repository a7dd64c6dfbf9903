import os
import sys

from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

from config.embedded_db import use_embedded_database_unless_configured
from config.env import AppServer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Before the settings are read: served so, with DEBUG off, the wiki needs a secret key of its own (config/settings.py).
AppServer.running = True
use_embedded_database_unless_configured()
try:
    application = get_asgi_application()
except ImproperlyConfigured as error:
    sys.exit(f"ImproperlyConfigured: {error}")
