"""A reader's watchlist: watching and unwatching pages, works and questions, and what edits and merges do to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection, transaction

from wiki.caching import watches as watch_state
from wiki.models import ReaderProfile, Source, Watch
from wiki.models.readers import new_feed_key, profile_of
from wiki.models.watches import Watchable, watch_kind
from wiki.roles import Account, User, account

# What a conditional watch or unwatch checks under the lock: whether the account watches the item now.
WatchPrecondition = Callable[[bool], None]


def _lock_watch(user: Account, kind: str, target: Watchable, precondition: WatchPrecondition | None) -> None:
    """Until the transaction ends, no one else watches or unwatches ``target`` for the account (a lock on the watch,
    which may be no row yet); then ``precondition`` is called with whether it is watched now, as it is saved."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.watch'), hashtext(%s))", [f"{user.pk}:{kind}:{target.pk}"])
    if precondition is not None:
        precondition(Watch.objects.of(user.pk).filter(**{kind: target}).exists())


@transaction.atomic
def watch_add(*, user: Account, target: Watchable, precondition: WatchPrecondition | None = None) -> bool:
    """Puts ``target`` on the account's watchlist; False when it was there already. ``precondition`` (an If-Match or
    If-None-Match) is checked under the watch's lock: what it raises is raised with nothing changed."""
    kind = watch_kind(target)
    _lock_watch(user, kind, target, precondition)
    target_field: dict[str, Any] = {kind: target}
    _, created = Watch.objects.get_or_create(user=user, **target_field)
    watch_state.remember([(user.pk, kind, target.pk)], watching=True)
    return created


@transaction.atomic
def watch_remove(*, user: Account, target: Watchable, precondition: WatchPrecondition | None = None) -> bool:
    """Takes ``target`` off the account's watchlist; False when it was not on it. ``precondition`` as for
    :func:`watch_add`."""
    kind = watch_kind(target)
    _lock_watch(user, kind, target, precondition)
    deleted, _ = Watch.objects.of(user.pk).filter(**{kind: target}).delete()
    watch_state.remember([(user.pk, kind, target.pk)], watching=False)
    return bool(deleted)


@transaction.atomic
def watches_remove(*, user: Account, ids: list[int]) -> int:
    """Takes the account's watches of those ids off its watchlist (others' are left alone); returns how many."""
    gone = list(Watch.objects.of(user.pk).filter(pk__in=ids))
    Watch.objects.filter(pk__in=[w.pk for w in gone]).delete()
    watch_state.remember([(user.pk, w.kind, w.target_id) for w in gone], watching=False)
    return len(gone)


def watch_edited(*, user: User | None, target: Watchable) -> None:
    """Watches what an account just edited or created, unless its preferences say not to (an edit by no account,
    an import, watches nothing)."""
    editor = account(user)
    if editor is not None and profile_of(editor).watch_edits:
        watch_add(user=editor, target=target)


def watches_merge(*, merged: Source, kept: Source) -> dict[str, list[int]]:
    """A merged work's watchers watch the kept work: their watches move to it, and those who watched both keep
    theirs of the kept work. Returns what moved, for :func:`watches_merge_undo`."""
    both = set(Watch.objects.filter(source=kept).values_list("user_id", flat=True))
    rows = list(Watch.objects.filter(source=merged).values_list("id", "user_id"))
    moving = [pk for pk, user_id in rows if user_id not in both]
    dropped = [user_id for _, user_id in rows if user_id in both]
    Watch.objects.filter(pk__in=moving).update(source=kept)
    Watch.objects.filter(source=merged, user_id__in=dropped).delete()
    users = [user_id for _, user_id in rows]
    watch_state.remember([(user_id, "source", merged.pk) for user_id in users], watching=False)
    watch_state.remember([(user_id, "source", kept.pk) for user_id in users], watching=True)
    return {"watches": moving, "watches_dropped": dropped}


def watches_merge_undo(*, merged: Source, kept: Source, moved: dict[str, Any]) -> None:
    """Gives the merged work its watchers back: the watches the merge moved, and those it dropped."""
    back = list(Watch.objects.filter(pk__in=moved.get("watches", []), source=kept).values_list("user_id", flat=True))
    Watch.objects.filter(pk__in=moved.get("watches", []), source=kept).update(source=merged)
    dropped = moved.get("watches_dropped", [])
    Watch.objects.bulk_create([Watch(user_id=user_id, source=merged) for user_id in dropped], ignore_conflicts=True)
    watch_state.remember([(user_id, "source", kept.pk) for user_id in back], watching=False)
    watch_state.remember([(user_id, "source", merged.pk) for user_id in [*back, *dropped]], watching=True)


def watchlist_feed_token(*, user: Account) -> str:
    """The secret in the address of the account's watchlist feed. An account without a profile is given one now, with a
    random feed key of its own (:func:`wiki.models.readers.new_feed_key`)."""
    profile = profile_of(user)
    if profile.pk is None:
        profile, _ = ReaderProfile.objects.get_or_create(user=user)
    return profile.feed_token


@transaction.atomic
def watchlist_feed_reset(*, user: Account) -> ReaderProfile:
    """A new secret address for the account's watchlist feed; the old one answers 404 from now on."""
    profile, _ = ReaderProfile.objects.select_for_update().get_or_create(user=user)
    profile.feed_key = new_feed_key()
    profile.save(update_fields=["feed_key"])
    return profile
