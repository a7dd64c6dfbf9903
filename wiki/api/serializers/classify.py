from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from classifier import Fact
from wiki.api.serializers.json_types import JSONTypes
from wiki.models.classifications import MECHANISM_CHOICES, VERDICT_CHOICES
from wiki.models.rules import validate_optional_line, validate_some_text

MAX_TEXT_LENGTH = 20_000


class ClassifyRequestSerializer(JSONTypes, serializers.Serializer):
    """Text about a work to classify (an abstract, a claim), optionally naming the one work to focus on."""

    text = serializers.CharField(
        max_length=MAX_TEXT_LENGTH,
        validators=[validate_some_text],
        help_text=gettext_lazy("An abstract or claim about a work, Chinese or English."),
    )
    subject = serializers.CharField(max_length=200, required=False, allow_blank=True, validators=[validate_optional_line],
                                    help_text=gettext_lazy("The one work to focus on when the text names several."))


class SpanSerializer(serializers.Serializer):
    start = serializers.IntegerField(help_text=gettext_lazy("Offset of the cue in the text sent."))
    end = serializers.IntegerField()
    cue = serializers.CharField()
    decides = serializers.CharField(help_text=gettext_lazy("What the cue decided (a fact, the mechanism, …)."))
    negated = serializers.BooleanField(help_text=gettext_lazy("The cue sits inside a negation or contrast."))
    contribution = serializers.FloatField(help_text=gettext_lazy(
        "What the cue's feature added to the fitted model's score: for a fact, to its being true (negative: "
        "towards false); for the mechanism, to the suggested mechanism."
    ))


class FactFindingSerializer(serializers.Serializer):
    fact = serializers.ChoiceField(choices=[(f.value, f.value) for f in Fact])
    value = serializers.ChoiceField(choices=[("true", "true"), ("false", "false"), ("unknown", "unknown")])
    evidence = SpanSerializer(many=True)


class FactFindingsSerializer(serializers.Serializer):
    interactive_env = FactFindingSerializer()
    multi_step = FactFindingSerializer()
    verifiable_reward = FactFindingSerializer()
    rl_update = FactFindingSerializer()


class SuggestionSerializer(serializers.Serializer):
    """The classifier's suggestion: for an editor to confirm or override, never saved by this endpoint."""

    mechanism = serializers.ChoiceField(choices=MECHANISM_CHOICES)
    verdict = serializers.ChoiceField(choices=VERDICT_CHOICES)
    facts = FactFindingsSerializer()
    algorithm = serializers.CharField(allow_null=True)
    updated = serializers.CharField(allow_null=True, help_text=gettext_lazy("What the training updates, when the text says."))
    narrow = serializers.BooleanField()
    evidence = SpanSerializer(many=True, help_text=gettext_lazy("The spans that decided the mechanism and verdict."))
    confidence = serializers.FloatField(min_value=0, max_value=1)
    rationale = serializers.CharField()
