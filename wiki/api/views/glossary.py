from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view

from wiki.api.serializers.glossary import GlossaryTermSerializer
from wiki.api.views.writes import ServiceViewSet
from wiki.models import GlossaryTerm
from wiki.models.glossary import ORDER as GLOSSARY_ORDER


@extend_schema_view(list=extend_schema(summary=gettext_lazy("List glossary terms")),
                    retrieve=extend_schema(summary=gettext_lazy("A glossary term")))
class GlossaryTermViewSet(ServiceViewSet):
    """The bilingual glossary, by slug: each term's Chinese and English names and aliases, its definition, the
    mechanism, verdict or rubric fact it names and the page defining it. Search expands a query naming a term
    to all its names. Editors change terms in the browser (/glossary/) or the admin."""

    serializer_class = GlossaryTermSerializer
    lookup_field = "slug"
    ordering_fields = ["name_en", "name_zh", "slug"]
    ordering = list(GLOSSARY_ORDER)
    http_method_names = ["get", "head", "options"]

    def get_queryset(self) -> QuerySet[GlossaryTerm]:
        return GlossaryTerm.objects.listed()
