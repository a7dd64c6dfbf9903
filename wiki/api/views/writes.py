"""Viewsets that write through a service instead of the serializer's ``save()``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class ServiceWriteMixin:
    """Creation and update both call ``self._save(serializer, instance)``, which calls the service."""

    def _save(self, serializer: serializers.Serializer, instance: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def perform_create(self, serializer: serializers.Serializer) -> None:
        self._save(serializer, None)

    def perform_update(self, serializer: serializers.Serializer) -> None:
        self._save(serializer, serializer.instance)
