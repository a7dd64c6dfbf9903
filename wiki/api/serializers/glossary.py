from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from wiki.models import GlossaryTerm, Page
from wiki.models.glossary import FACT_CHOICES
from wiki.taxonomy import MECHANISM_CHOICES, VERDICT_CHOICES


class GlossaryTermSerializer(serializers.ModelSerializer[GlossaryTerm]):
    page: serializers.SlugRelatedField[Page] = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True,
                                        help_text=gettext_lazy("The slug of the page defining the term, if any."))
    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES, allow_blank=True, read_only=True,
                                        help_text="The mechanism the term names (blank for none).")
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, allow_blank=True, read_only=True,
                                      help_text="The verdict the term names (blank for none).")
    fact = serializers.ChoiceField(choices=FACT_CHOICES, allow_blank=True, read_only=True,
                                   help_text="The rubric fact the term names (blank for none).")
    url = serializers.CharField(source="get_absolute_url", read_only=True, help_text=gettext_lazy("The entry in the browser."))

    class Meta:
        model = GlossaryTerm
        fields = ["slug", "name_zh", "name_en", "aliases_zh", "aliases_en", "definition_zh", "definition_en",
                  "mechanism", "verdict", "fact", "page", "url"]
        read_only_fields = fields
