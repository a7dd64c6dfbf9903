"""Taking edits back as a wiki does, short of reverting the whole page to an older revision: undoing one revision's
change while keeping every edit saved after it, and rolling back the latest editor's run of edits."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from wiki.change_summaries import Summary, summary
from wiki.models import Page, Revision
from wiki.roles import User
from wiki.services.page_edits import edit_values
from wiki.services.pages import EditConflict, page_locked, page_revert
from wiki.text.merge import FIELDS, merge_texts


class UndoImpossible(LookupError):
    """Revision ``number`` is not one whose change can be undone: the page has no such revision, or it is the first,
    which made the page."""

    def __init__(self, number: int) -> None:
        super().__init__(f"no change of revision {number} to undo")
        self.number = number


class UndoConflict(Exception):
    """Revisions saved after ``revision`` changed the lines its change did: it cannot be taken out of the text as it
    is now without choosing between them. Nothing is changed."""

    def __init__(self, *, revision: Revision, current: Revision) -> None:
        super().__init__(f"revision {revision.number} clashes with the edits up to {current.number}")
        self.revision = revision
        self.current = current


@dataclass(frozen=True)
class PageUndo:
    """The page as it would read with the change ``revision`` made (from the revision before it) taken out, every
    later edit kept: ``values`` (title, summary, text), to be saved from ``current`` through the edit form."""

    revision: Revision
    current: Revision
    values: dict[str, str]

    @property
    def changes_nothing(self) -> bool:
        """The page already reads without that change (it was undone, or edited away, since)."""
        return self.values == edit_values(self.current)

    def comment(self) -> Summary:
        """The edit summary an undo is saved with: the revision undone and who saved it."""
        author = self.revision.author
        if author is None:
            return summary("undone_imported", number=self.revision.number)
        return summary("undone", number=self.revision.number, user=author.get_username())


def page_undo_prepare(*, page: Page, number: int) -> PageUndo:
    """What undoing revision ``number`` of ``page`` leaves: its text merged three ways, the revision's text as the
    base, the current text as what was saved since and the text before the revision as the edit (so that a later
    edit of the lines the revision changed is a clash, :class:`UndoConflict`); its title or summary back as they were
    before it when it changed them and nothing changed them since, else as they are now. Writes nothing: the editor
    reviews the result in the edit form and saves it from the current revision, as any edit. Two queries."""
    rows = list(
        page.revisions.filter(number__in=(number - 1, number))
        .select_related("author")
        .only("id", "page_id", "number", "title", "summary", "body", "author__username")
    )
    before = next((row for row in rows if row.number == number - 1), None)
    revision = next((row for row in rows if row.number == number), None)
    if before is None or revision is None:
        raise UndoImpossible(number)
    current = page.revisions.order_by("-number").only("id", "page_id", "number", "title", "summary", "body").first()
    assert current is not None  # the page has revision ``number`` at least
    body = merge_texts(base=revision.body, theirs=current.body, mine=before.body)
    if not body.is_clean:
        raise UndoConflict(revision=revision, current=current)
    values = {"body": body.text()}
    for name in FIELDS:
        changed, kept = (
            getattr(before, name) != getattr(revision, name),
            getattr(current, name) == getattr(revision, name),
        )
        values[name] = getattr(before, name) if changed and kept else getattr(current, name)
    return PageUndo(revision=revision, current=current, values=values)


class RollbackRefused(Exception):
    """A rollback that cannot be made: ``reason`` says why (``imported``: the latest revision has no author, so no
    editor's run of edits to take back; ``only_author``: no one else saved a revision before the run)."""

    def __init__(self, reason: str, *, latest: Revision) -> None:
        super().__init__(f"rollback refused: {reason}")
        self.reason = reason
        self.latest = latest


@dataclass(frozen=True)
class Rollback:
    """The latest revision of a page, the run of revisions its author saved up to it (``count``), and ``target``:
    the revision before that run, which a rollback restores."""

    latest: Revision
    target: Revision

    @property
    def count(self) -> int:
        return self.latest.number - self.target.number

    def comment(self) -> Summary:
        """The edit summary a rollback is saved with: whose edits, how many, back to whose revision."""
        user = self.latest.author.get_username() if self.latest.author is not None else ""
        one = self.count == 1
        if self.target.author is None:
            return (
                summary("rolled_back_one_to_import", user=user)
                if one
                else summary("rolled_back_to_import", user=user, count=self.count)
            )
        other = self.target.author.get_username()
        return (
            summary("rolled_back_one", user=user, other=other)
            if one
            else summary("rolled_back", user=user, count=self.count, other=other)
        )


def rollback_for(latest: Revision) -> Rollback | None:
    """The rollback of ``latest``'s run of edits (``latest`` with its author), or None when there is none to make:
    an imported revision, or no one else's revision before the run. One query, none for an import."""
    if latest.author_id is None:
        return None
    target = (
        Revision.objects.before_run_of(latest)
        .select_related("author")
        .only("id", "page_id", "number", "created_at", "author__username")
        .first()
    )
    return None if target is None else Rollback(latest=latest, target=target)


@dataclass(frozen=True)
class RolledBack:
    """A rollback made: ``revision`` is the one it saved, or the latest when the revision restored read as the page
    did already (``unchanged``: nothing was written)."""

    rollback: Rollback
    revision: Revision

    @property
    def unchanged(self) -> bool:
        return self.revision.number == self.rollback.latest.number


@transaction.atomic
def page_rollback(*, page: Page, user: User | None, base_revision: int) -> RolledBack:
    """Reverts ``page`` to the last revision saved by someone other than the author of its latest run of edits, as a
    new revision (:func:`wiki.services.pages.page_revert`: the revisions stay, claims, links, watchers and recent
    changes follow), its summary saying whose edits, how many and to whose revision.

    ``base_revision`` is the latest revision the rollback was offered for: when the page was saved since,
    :class:`EditConflict` is raised and nothing is written, so that a rollback never takes back an edit its editor
    did not see. :class:`RollbackRefused` when there is no run to roll back.

    ``page`` is found by its id wherever it is now, as :func:`wiki.services.pages.page_revert` finds it: moved since, it
    is rolled back at its new address; deleted since, :class:`~wiki.services.pages.PageDeleted`."""
    locked = page_locked(page_id=page.pk)
    latest = locked.revisions.select_related("author").order_by("-number").first()
    assert latest is not None  # a page has its first revision from its creation on
    if latest.number != base_revision:
        raise EditConflict(page=page, base_number=base_revision, current=latest)
    if latest.author_id is None:
        raise RollbackRefused("imported", latest=latest)
    rollback = rollback_for(latest)
    if rollback is None:
        raise RollbackRefused("only_author", latest=latest)
    revision = page_revert(
        page=page,
        number=rollback.target.number,
        user=user,
        base_revision=latest.number,
        comment=rollback.comment().english(),
    )
    return RolledBack(rollback=rollback, revision=revision)
