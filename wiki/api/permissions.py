"""Who may do what through the API."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, DjangoModelPermissionsOrAnonReadOnly
from rest_framework.request import Request


class ModelPermissionsOrAnonReadOnly(DjangoModelPermissionsOrAnonReadOnly):
    """Anyone reads; writing takes the model's add/change/delete permission.

    DRF's class builds the view's queryset on every request to learn its model, though reads need no
    permission whatever the model; the wiki's querysets carry annotations that cost more to build than a
    cached read costs to serve, so reads are let through before that.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().has_permission(request, view)
