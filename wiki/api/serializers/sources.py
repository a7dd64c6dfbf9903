from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from wiki.api.serializers.json_types import JSONTypes
from wiki.api.serializers.links import BrowserURLField
from wiki.models import Claim, Classification, Component, Contrast, Source, rules
from wiki.models.classifications import VERDICT_CHOICES
from wiki.models.rules import LinkURLValidator, validate_arxiv_id, validate_doi, validate_optional_line
from wiki.models.rules import validate_bibtex_key as bibtex_key_rule
from wiki.references.draft import BIBLIOGRAPHIC_FIELDS, ENTRY_TYPE_LABELS, MAX_BIBLIOGRAPHIC_CHARS, clean_bibliographic
from wiki.references.extra_fields import MAX_EXTRA_CHARS, clean_extra_fields
from wiki.references.locators import is_valid_locator

FACT_FIELDS = ("interactive_env", "multi_step", "verifiable_reward", "rl_update")
# A rubric fact is yes, no or unknown: true, false or null.
FACT_KWARGS = {name: {"help_text": _("A rubric fact: true, false, or null when unknown.")} for name in FACT_FIELDS}


class ComponentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Component
        fields = ["id", "slug", "name"]
        read_only_fields = fields


class ClassificationSerializer(JSONTypes, serializers.ModelSerializer):
    """A work's (or component's) mechanism, rubric facts and verdict.

    ``rubric_verdict`` is what the four facts give through the rubric; a ``verdict`` that differs
    from it needs a ``rationale``.
    """

    source = serializers.SlugRelatedField(slug_field="slug", queryset=Source.objects.all())  # type: ignore[assignment]  # a field named like Field.source
    component = serializers.PrimaryKeyRelatedField(queryset=Component.objects.all(), allow_null=True, required=False)
    component_name = serializers.CharField(source="component.name", read_only=True, allow_null=True, default=None)
    new_component = serializers.CharField(
        write_only=True, required=False, allow_blank=True, max_length=200, validators=[validate_optional_line],
        help_text=_("On creating only, instead of component: the name of a part of the work to add and classify apart, "
                    "in the same request."))
    subject = serializers.CharField(source="subject_name", read_only=True)
    rubric_verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, read_only=True, help_text="The verdict the four facts give through the rubric.")
    departs_from_rubric = serializers.BooleanField(read_only=True)
    evidence_claim = serializers.PrimaryKeyRelatedField(queryset=Claim.objects.all(), allow_null=True, required=False)
    set_by_user = serializers.CharField(source="set_by_user.get_username", read_only=True, allow_null=True, default=None)

    class Meta:
        model = Classification
        fields = [
            "id", "source", "component", "new_component", "component_name", "subject", "mechanism", "algorithm", "updated",
            "interactive_env", "multi_step", "verifiable_reward", "rl_update", "narrow", "verdict",
            "rubric_verdict", "departs_from_rubric", "rationale", "evidence_claim", "evidence_locator",
            "set_by", "set_by_user", "updated_at",
        ]
        read_only_fields = ["id", "set_by", "set_by_user", "updated_at"]
        extra_kwargs = FACT_KWARGS
        validators: list[object] = []  # the one-per-work rule is Classification.clean's, with a field-level message

    def validate_evidence_locator(self, value: str) -> str:
        value = value.strip()
        if value and not is_valid_locator(value):
            raise serializers.ValidationError(_("Not a locator: use p.3, pp.3-4, §3.1, Table 2, Appendix B…"), code="invalid_locator")
        return value

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        # The rubric's rationale rule and the one-per-work rule are Classification.clean's, run by the service.
        if self.instance is not None and str(attrs.get("new_component", "")).strip():
            raise serializers.ValidationError(
                {"new_component": [_("A new component is named only when classifying, and instead of a component.")]},
                code="read_only")
        if self.instance is not None:
            for name in ("source", "component"):
                if name in attrs and getattr(attrs[name], "pk", None) != getattr(self.instance, f"{name}_id"):
                    raise serializers.ValidationError(
                        {name: [_("A classification stays with its work and component; classify the other one instead.")]},
                        code="read_only",
                    )
        return attrs


class SourceClassificationSerializer(serializers.ModelSerializer):
    component = ComponentSerializer(read_only=True, allow_null=True)
    rubric_verdict = serializers.ChoiceField(choices=VERDICT_CHOICES, read_only=True, help_text="The verdict the four facts give through the rubric.")

    class Meta:
        model = Classification
        fields = ["id", "component", "mechanism", "algorithm", "updated", "interactive_env", "multi_step",
                  "verifiable_reward", "rl_update", "narrow", "verdict", "rubric_verdict", "rationale"]
        read_only_fields = fields
        extra_kwargs = FACT_KWARGS


class SourceSerializer(JSONTypes, serializers.ModelSerializer):
    """A cited work with its classifications (the work's and its components')."""

    html_url = BrowserURLField()
    classifications = SourceClassificationSerializer(many=True, read_only=True)
    components = ComponentSerializer(many=True, read_only=True)
    bibliographic = serializers.DictField(
        child=serializers.CharField(), read_only=True,
        help_text=_("Pages, volume, number, publisher and the like, by BibTeX's field names; written back in the exports."))
    extra_fields = serializers.DictField(
        child=serializers.CharField(), read_only=True,
        help_text=_("What the reference file said that the wiki has no place for (keywords, langid, urldate, editor…), "
                    "by BibTeX's field names; written back in the exports (CSL-JSON: those it has a variable for)."))

    class Meta:
        model = Source
        fields = ["slug", "short_name", "title", "kind", "authors", "year", "venue", "url", "arxiv_id", "doi",
                  "bibtex_key", "entry_type", "bibliographic", "extra_fields", "abstract", "notes", "components",
                  "classifications",
                  "created_at", "updated_at", "html_url"]
        read_only_fields = ["created_at", "updated_at"]
        extra_kwargs = {"slug": {"required": False}}


class ContrastSerializer(JSONTypes, serializers.ModelSerializer):
    """Two works (or components of them) set against each other on an axis, with the claim that says so."""

    left: serializers.SlugRelatedField[Source] = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    right: serializers.SlugRelatedField[Source] = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    left_name = serializers.CharField(source="left.short_name", read_only=True)
    right_name = serializers.CharField(source="right.short_name", read_only=True)
    left_component = ComponentSerializer(read_only=True, allow_null=True)
    right_component = ComponentSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Contrast
        fields = ["id", "left", "left_name", "left_component", "right", "right_name", "right_component", "axis", "claim",
                  "created_at", "updated_at"]
        read_only_fields = fields


class LinkURLField(serializers.URLField):
    """A work's URL as the model checks it (:class:`~wiki.models.rules.LinkURLValidator`: a host with an underscore
    is one), rather than by DRF's stricter rule, so that a work imported with one can be written back as it is."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [LinkURLValidator() if isinstance(v, URLValidator) else v for v in self.validators]


class SourceWriteSerializer(JSONTypes, serializers.ModelSerializer):
    """The fields an editor sets on a source; the slug is made from the short name, identifiers are normalised."""

    read_only_names = frozenset(SourceSerializer.Meta.fields)
    serializer_field_mapping = {**serializers.ModelSerializer.serializer_field_mapping, rules.LinkURLField: LinkURLField}

    entry_type = serializers.ChoiceField(
        choices=list(ENTRY_TYPE_LABELS),
        required=False, allow_blank=True,
        help_text=_("The BibTeX entry type the exports write the work as (its CSL type follows); empty: its kind decides."))
    bibliographic = serializers.DictField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=True, max_length=MAX_BIBLIOGRAPHIC_CHARS),
        required=False,
        help_text=format_lazy(_("Pages, volume, number, publisher and the like, by BibTeX's field names ({fields}), one line "
                                "each; sent, it replaces the details saved (an empty value leaves that one out)."),
                              fields=", ".join(BIBLIOGRAPHIC_FIELDS)))
    extra_fields = serializers.DictField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=True, max_length=MAX_EXTRA_CHARS),
        required=False,
        help_text=_("Any other field of the reference file by its BibTeX name (keywords, langid, urldate, editor…), one line "
                    "each; not a name the work keeps in a field of its own (title, pages…). Sent, it replaces the other "
                    "fields saved (an empty value leaves that one out)."))

    class Meta:
        model = Source
        fields = ["short_name", "title", "kind", "authors", "year", "venue", "url", "arxiv_id", "doi", "bibtex_key",
                  "entry_type", "bibliographic", "extra_fields", "abstract", "notes"]
        extra_kwargs = {
            "short_name": {"required": False, "allow_blank": True, "help_text": _("Made from the title when left out.")},
            "authors": {"help_text": "People separated by semicolons (、 and ； read as such), each as Family, Given: "
                                     "\"Yao, Shunyu; Zhao, Jeffrey; et al.\", \"张伟; 李娜\". Not BibTeX's \"and\": "
                                     "\"A and B\" is one author (an organisation's name). An organisation's name in "
                                     "braces, \"{Google DeepMind}\", is kept whole: written braced in BibTeX, as a "
                                     "literal name in CSL-JSON, and shown without the braces."},
            # Duplicates are the service's call (409 with the existing source), not a per-field uniqueness check;
            # identifiers are checked and normalised by Source.clean, whichever way the source is saved.
            "arxiv_id": {"validators": [validate_optional_line, validate_arxiv_id],
                         "help_text": _("Any form: 2509.21240v2, arXiv:…, an arxiv.org URL.")},
            "doi": {"validators": [validate_optional_line, validate_doi], "help_text": _("Bare or as a doi.org URL.")},
            "bibtex_key": {"help_text": _("Letters, digits and - _ : . / + only (as BibTeX and biber read keys).")},
        }
        validators: list[object] = []

    def validate_bibliographic(self, value: dict[str, str]) -> dict[str, str]:
        try:
            return clean_bibliographic(value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages, code="invalid") from None

    def validate_extra_fields(self, value: dict[str, str]) -> dict[str, str]:
        try:
            return clean_extra_fields(value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages, code="invalid") from None

    def validate_bibtex_key(self, value: str) -> str:
        # A key the exports could not use would be replaced there by the slug, unlike what was sent; a work's key
        # from before this rule is kept as long as it is not changed.
        if self.instance is None or value != self.instance.bibtex_key:
            bibtex_key_rule(value)
        return value


class ContrastUpdateSerializer(JSONTypes, serializers.Serializer):
    """What a contrast says its works differ on and the claim that says so; its sides stay (another pair is another
    contrast). The claim must cite one of its works or be about one, and becomes about both."""

    read_only_names = frozenset(ContrastSerializer.Meta.fields) - {"axis", "claim"}

    axis = serializers.CharField(max_length=300)
    claim = serializers.PrimaryKeyRelatedField(queryset=Claim.objects.all(), allow_null=True, required=False)


class ContrastWriteSerializer(JSONTypes, serializers.Serializer):
    """Two works (or components) and the axis they differ on; the claim saying so becomes about both."""

    read_only_names = frozenset(ContrastSerializer.Meta.fields)

    left = serializers.SlugRelatedField(slug_field="slug", queryset=Source.objects.all())
    left_component = serializers.PrimaryKeyRelatedField(queryset=Component.objects.all(), allow_null=True, required=False)
    right = serializers.SlugRelatedField(slug_field="slug", queryset=Source.objects.all())
    right_component = serializers.PrimaryKeyRelatedField(queryset=Component.objects.all(), allow_null=True, required=False)
    axis = serializers.CharField(max_length=300)
    claim = serializers.PrimaryKeyRelatedField(queryset=Claim.objects.all(), allow_null=True, required=False)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        for side in ("left", "right"):
            component = attrs.get(f"{side}_component")
            if component is not None and component.source_id != attrs[side].pk:  # type: ignore[attr-defined]
                raise serializers.ValidationError({f"{side}_component": [_("This component belongs to another source.")]}, code="invalid")
        return attrs
