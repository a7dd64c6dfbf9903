"""The wiki's tables in Django's admin, for staff: each module registers those of one part of the wiki."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from wiki.admin import claims, glossary, pages, questions, readers, records, sources, tokens

admin.site.site_header = _("Agentic RL Wiki administration")
admin.site.site_title = _("Agentic RL Wiki administration")
admin.site.index_title = _("The wiki's tables")

__all__ = ["claims", "glossary", "pages", "questions", "readers", "records", "sources", "tokens"]
