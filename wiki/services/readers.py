"""A reader's own language and time zone, and whether their edits watch what they edit."""

from __future__ import annotations

from django.db import transaction

from wiki.models import ReaderProfile
from wiki.roles import Account


@transaction.atomic
def reader_profile_save(*, user: Account, language: str | None = None, time_zone: str | None = None,
                        watch_edits: bool | None = None) -> ReaderProfile:
    """Saves what is given (None leaves a preference as it was; "" forgets it)."""
    profile, _ = ReaderProfile.objects.select_for_update().get_or_create(user=user)
    if language is not None:
        profile.language = language
    if time_zone is not None:
        profile.time_zone = time_zone
    if watch_edits is not None:
        profile.watch_edits = watch_edits
    profile.save()
    return profile
