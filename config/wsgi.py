import os

import django

from config.embedded_db import use_embedded_database_unless_configured
from wiki.charsets import WikiWSGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
use_embedded_database_unless_configured()
# get_wsgi_application(), with the wiki's request class (wiki.charsets.WikiWSGIRequest).
django.setup(set_prefix=False)
application = WikiWSGIHandler()
