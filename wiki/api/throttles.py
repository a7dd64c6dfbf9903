from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle


class AnonThrottle(AnonRateThrottle):
    """Anonymous clients, limited per IP address at ``DEFAULT_THROTTLE_RATES["anon"]``.

    The rate is read on every request (DRF's own class reads it once at import), so a changed
    setting, in a test or a deployment, takes effect.
    """

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class ScopedThrottle(ScopedRateThrottle):
    """Every client of a view with ``throttle_scope``, per user (or IP when anonymous), at that scope's rate.

    Read on every request like :class:`AnonThrottle`; a scope without a rate is not limited.
    """

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
