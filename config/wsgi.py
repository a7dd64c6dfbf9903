import os

from django.core.wsgi import get_wsgi_application

from config.embedded_db import use_embedded_database_unless_configured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
use_embedded_database_unless_configured()
application = get_wsgi_application()
