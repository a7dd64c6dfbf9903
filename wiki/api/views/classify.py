from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from classifier import classify
from wiki.api.serializers.classify import ClassifyRequestSerializer, SuggestionSerializer
from wiki.api.throttles import AccountThrottle, AnonThrottle, ScopedThrottle
from wiki.api.views.base import WikiAPIView


class ClassifyView(WikiAPIView):
    """Suggests mechanism, rubric facts and verdict for a text, with the evidence spans that decided them.
    Nothing is saved, so anyone may ask; each request costs far more than a read, so it has its own, tighter rate."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle, AccountThrottle, ScopedThrottle]
    throttle_scope = "classify"

    @extend_schema(summary=gettext_lazy("Suggest a classification for a text"), request=ClassifyRequestSerializer, responses={200: SuggestionSerializer})
    def post(self, request: Request) -> Response:
        params = ClassifyRequestSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        suggestion = classify(params.validated_data["text"], subject=params.validated_data.get("subject") or None)
        return Response(suggestion.to_dict())
