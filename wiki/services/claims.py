"""Editing a claim's status, its citations and the works it is about; re-attaching or retiring an orphaned claim."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django_stubs_ext import StrOrPromise

from wiki.change_summaries import summary
from wiki.models import (
    ChangeEvent,
    Citation,
    Claim,
    ClaimRevision,
    ClaimStatus,
    Classification,
    Contrast,
    OpenQuestion,
    Page,
    Source,
)
from wiki.models.rules import max_length
from wiki.references.locators import locator_key
from wiki.roles import User, account
from wiki.search.index import search_reindex_claims
from wiki.services.changes import change_record, check_not_stale
from wiki.services.claim_text import WrittenCitation, claim_cite_in_text, written_citations
from wiki.services.page_claims import cite_other_works, cited_titles_in, reason_fields, status_after, verified_texts
from wiki.services.sources import sources_by_title


class ClaimAlreadyRetired(Exception):
    """The claim was retired already (``message`` says when, by whom and why); nothing was changed."""

    def __init__(self, claim: Claim) -> None:
        retired = ClaimRevision.objects.filter(claim=claim, kind=ClaimRevision.Kind.RETIRED).select_related("user").last()
        who = retired.user.get_username() if retired is not None and retired.user is not None else gettext("the wiki")
        when = timezone.localtime(claim.retired_at).strftime("%Y-%m-%d %H:%M") if claim.retired_at else ""
        self.message = gettext("Claim #%(id)s is already retired (%(when)s, by %(who)s: “%(reason)s”); nothing was changed.") % {
            "id": claim.pk, "when": when, "who": who, "reason": claim.retired_reason}
        super().__init__(self.message)
        self.claim = claim


@dataclass(frozen=True)
class CitationInput:
    source: Source
    locator: str
    kind: str


@transaction.atomic
def claim_update(
    *,
    claim: Claim,
    status: str,
    citations: Sequence[CitationInput],
    about: Sequence[Source],
    user: User | None = None,
    loaded_at: datetime | None = None,
) -> Claim:
    """Sets the status, replaces the citations (in the given order, locators as typed) and the works it is about.

    A claim whose sentence is on its page has its citations written into that sentence, as a revision of the page
    by ``user`` (:func:`~wiki.services.claim_text.claim_cite_in_text`): the page's text, from which every save reads
    the claims' citations, says what the claim cites, so the next edit of the page keeps them. The claim keeps its
    identity and takes the status given; its history's entry for the change names the page's revision. An orphaned
    or retired claim, which has no sentence, has its citations set on the claim alone.

    ``loaded_at`` is the claim's ``updated_at`` when the editor opened the form: if it was saved since (its sentence
    edited on the page too), :class:`StaleEdit` is raised and nothing is written, so one editor never silently undoes
    another's citations. A text that cannot be written (see ``claim_cite_in_text``) raises ``ValidationError`` and
    nothing is written either.
    """
    # The page first, as a page save takes its page and then its claims: another save of the page waits.
    list(Page.all_objects.select_for_update().filter(pk=claim.page_id).values_list("pk", flat=True))
    claim = Claim.objects.select_for_update(of=("self",)).select_related("page").get(pk=claim.pk)
    check_not_stale(claim, loaded_at=loaded_at)
    old_status = claim.status
    old_rows = list(claim.citations.order_by("position", "id").values_list("source_id", "source__short_name", "locator", "kind"))
    old_cited = _cited((name, locator) for _, name, locator, _ in old_rows)
    old_about = set(claim.about.values_list("pk", flat=True))
    claim.status = status
    claim.full_clean(exclude=["key", "page"])
    in_text = not claim.is_orphaned and claim.retired_at is None and claim.page.deleted_at is None
    if in_text:
        wanted = written_citations([(c.source, c.locator, c.kind) for c in citations])
    else:
        unique: dict[tuple[int, str], WrittenCitation] = {}
        for c in citations:
            unique.setdefault((c.source.pk, locator_key(c.locator)), WrittenCitation(c.source, c.locator, c.kind))
        wanted = list(unique.values())
    now_cited = _cited((c.source.short_name, c.locator) for c in wanted)
    cited_changed = {(c.source.pk, c.locator, c.kind) for c in wanted} != {(pk, locator, kind) for pk, _, locator, kind in old_rows}
    revision = None
    if in_text and cited_changed:
        comment = summary("claim_cited_in_text", id=claim.pk, before=old_cited, after=now_cited).text()
        revision = claim_cite_in_text(claim=claim, citations=wanted, comment=comment, user=user)
    if revision is not None:
        _check_cited(claim, wanted)
        # The save recorded the claim's new sentence; it is the editor's change of its citations, in the status the
        # claim had (the status the form sets is recorded next).
        ClaimRevision.objects.filter(claim=claim, page_revision=revision).update(
            kind=ClaimRevision.Kind.CITED, status=old_status, previous_status=old_status,
            **reason_fields([summary("claim_cited", before=old_cited, after=now_cited)]))
        claim.refresh_from_db(fields=["text", "key", "anchor", "section", "position"])
    else:
        claim.citations.all().delete()
        Citation.objects.bulk_create(Citation(claim=claim, source=c.source, locator=c.locator, kind=c.kind, position=position)
                                     for position, c in enumerate(wanted))
        if now_cited != old_cited:
            ClaimRevision.objects.create(claim=claim, kind=ClaimRevision.Kind.CITED, text=claim.text, status=old_status,
                                         user=account(user), **reason_fields([summary("claim_cited", before=old_cited, after=now_cited)]))
    claim.save(update_fields=["status", "updated_at"])
    _record_status(claim, old_status, user)
    claim.about.set([source.pk for source in about])
    others = now_cited != old_cited or old_about != {source.pk for source in about}
    if old_status != status:
        said = summary("claim_status_and_citations" if others else "claim_status", before=old_status, after=status)
    else:
        said = summary("claim_citations")
    change_record(
        kind=ChangeEvent.Kind.CLAIM, action=ChangeEvent.Action.EDITED, obj=claim, label=claim.text[:120],
        url=claim.get_absolute_url(), summary=said, user=user,
    )
    return claim


def _check_cited(claim: Claim, wanted: Sequence[WrittenCitation]) -> None:
    """After its page's save, ``claim`` is still its sentence's claim and cites what it was to cite: else
    ``ValidationError`` says why, and undoes the save."""
    if not Claim.objects.filter(pk=claim.pk, is_orphaned=False).exists():
        # A sentence outside the key points is a claim while it cites a work.
        raise ValidationError(gettext_lazy(
            "Without a citation the sentence of claim #%(id)s would be no claim: it is no key point. Edit the page to "
            "take the sentence out, or cite another work."), code="no_longer_a_claim", params={"id": claim.pk})
    cited = set(Citation.objects.filter(claim=claim).values_list("source_id", "locator", "kind"))
    if cited != {(c.source.pk, c.locator, c.kind) for c in wanted}:
        raise ValidationError(gettext_lazy(
            "The citations of claim #%(id)s could not be written into the text of “%(page)s”: edit the page to change "
            "them."), code="not_written", params={"id": claim.pk, "page": claim.page.title})


def _cited(citations: Iterable[tuple[str, str]]) -> str:
    """Citations as the history shows them: ``DeepSeekMath, §4.1; ReAct``, or "—"."""
    return "; ".join(f"{name}, {locator}" if locator else name for name, locator in citations) or "—"


def _record_status(claim: Claim, old_status: str, user: User | None) -> None:
    """A status an editor set, in the claim's history with who set it and when."""
    if claim.status != old_status:
        ClaimRevision.objects.create(claim=claim, kind=ClaimRevision.Kind.STATUS, text=claim.text, status=claim.status,
                                     previous_status=old_status, user=account(user))


def _check(condition: bool, message: StrOrPromise, code: str) -> None:
    if not condition:
        raise ValidationError(message, code=code)


def _check_sentence(sentence: Claim) -> None:
    """``sentence`` is a claim now on a page: else the error says what it is instead (for the ``sentence`` field)."""
    if sentence.retired_at is not None:
        message, code = gettext_lazy("Claim #%(id)s is retired, not a sentence on a page."), "sentence_retired"
    elif sentence.is_orphaned:
        message, code = gettext_lazy("Claim #%(id)s is orphaned, not a sentence on a page."), "sentence_orphaned"
    elif sentence.page.deleted_at is not None:
        message, code = gettext_lazy("Claim #%(id)s is on a deleted page, not a sentence on a page."), "sentence_deleted"
    else:
        return
    raise ValidationError({"sentence": ValidationError(message % {"id": sentence.pk}, code=code)})


@transaction.atomic
def claim_reattach(*, claim: Claim, sentence: Claim, user: User | None = None, loaded_at: datetime | None = None) -> Claim:
    """The orphaned ``claim`` becomes the claim of ``sentence``, a sentence now on a page (this one or another).

    The sentence's own claim gives way: its text, place and citations go to ``claim``, and what was
    attached to it (questions, contrasts, classification evidence, works it is about) moves over.
    ``claim`` keeps its identity, history and status, unless a verified claim's wording or citations
    changed (to other than a text it had while verified), which asks for verification again, or the sentence's claim
    was disputed, which leaves ``claim`` disputed. Search finds ``claim`` where the sentence's claim was.
    ``loaded_at`` is ``claim``'s ``updated_at`` as the client read it: saved since, :class:`StaleEdit` is raised.
    """
    # Pages before claims, the order a page save takes them in: moving the claim to the sentence's page checks
    # that page's row, which a save of that page holds while it rewrites its claims.
    pages = Claim.objects.filter(pk__in=[claim.pk, sentence.pk]).values_list("page_id", flat=True)
    list(Page.all_objects.select_for_update().filter(pk__in=pages).order_by("pk").values_list("pk", flat=True))
    locked = {c.pk: c for c in Claim.objects.select_for_update(of=("self",)).select_related("page")
              .filter(pk__in=[claim.pk, sentence.pk]).order_by("pk")}
    if sentence.pk not in locked:
        # Re-attached to another claim meanwhile, the sentence's claim is gone: as when its id names nothing.
        raise ValidationError({"sentence": ValidationError(
            gettext('Invalid pk "{pk_value}" - object does not exist.').format(pk_value=sentence.pk),
            code="does_not_exist")})
    claim, sentence = locked[claim.pk], locked[sentence.pk]
    check_not_stale(claim, loaded_at=loaded_at)
    _check(claim.pk != sentence.pk, gettext_lazy("A claim cannot be re-attached to itself."), "same_claim")
    _check(claim.is_orphaned and claim.retired_at is None,
           gettext_lazy("Only an orphaned claim that was not retired can be re-attached."), "not_orphaned")
    _check_sentence(sentence)
    old_text, old_status = claim.text, claim.status
    # The sentence citing the same work by another name (its short name, its title) cites no other work.
    citations_changed = cite_other_works(old_text, sentence.text, sources_by_title(cited_titles_in(old_text, sentence.text)))
    history = claim.revisions.values("text", "status", "previous_text", "previous_status")
    claim.status, recheck = status_after(claim, old_text=old_text, new_text=sentence.text, citations_changed=citations_changed,
                                         verified=verified_texts(history))
    if sentence.status == ClaimStatus.DISPUTED and claim.status != ClaimStatus.DISPUTED:
        # The sentence's dispute goes with it to the claim that takes it, as a split or merged sentence's does.
        claim.status, recheck = ClaimStatus.DISPUTED, (summary("claim_reattached_disputed", claim=sentence.pk),)
    Through = OpenQuestion.claims.through
    taken = set(Through.objects.filter(claim=claim).values_list("openquestion_id", flat=True))
    Through.objects.filter(claim=sentence).exclude(openquestion_id__in=taken).update(claim=claim)
    OpenQuestion.objects.filter(answer_claim=sentence).update(answer_claim=claim)
    Contrast.objects.filter(claim=sentence).update(claim=claim)
    Classification.objects.filter(evidence_claim=sentence).update(evidence_claim=claim)
    claim.about.add(*sentence.about.all())
    claim.citations.all().delete()
    sentence.citations.update(claim=claim)
    fields = ("page", "section", "anchor", "text", "key", "position")
    for name in fields:
        setattr(claim, name, getattr(sentence, name))
    was = sentence.pk
    sentence.delete()
    claim.is_orphaned = False
    claim.save(update_fields=[*fields, "status", "is_orphaned", "updated_at"])
    reasons = (summary("claim_reattached_to", page=claim.page.title, claim=was), *recheck)
    ClaimRevision.objects.create(
        claim=claim, kind=ClaimRevision.Kind.REATTACHED, text=claim.text, previous_text=old_text, status=claim.status,
        previous_status=old_status, **reason_fields(reasons), replaced_claim_id=was, user=account(user),
    )
    change_record(kind=ChangeEvent.Kind.CLAIM, action=ChangeEvent.Action.EDITED, obj=claim, label=claim.text[:120],
                  url=claim.get_absolute_url(), summary=summary("claim_reattached"), user=user)
    # The sentence's claim is gone: its document goes, and the re-attached claim is found at its sentence.
    search_reindex_claims([was, claim.pk])
    return claim


@transaction.atomic
def claim_retire(*, claim: Claim, reason: str, user: User | None = None, loaded_at: datetime | None = None) -> Claim:
    """Retires an orphaned claim for ``reason``: it stays (with its history) but no save brings it back.

    A claim retired already raises :class:`ClaimAlreadyRetired`, which says when, by whom and why; one saved since
    ``loaded_at`` (its ``updated_at`` as the client read it) :class:`StaleEdit`."""
    claim = Claim.objects.select_for_update(of=("self",)).select_related("page").get(pk=claim.pk)
    check_not_stale(claim, loaded_at=loaded_at)
    reason = reason.strip()
    if claim.retired_at is not None:
        raise ClaimAlreadyRetired(claim)
    _check(claim.is_orphaned, gettext_lazy("Only an orphaned claim can be retired."), "not_orphaned")
    _check(bool(reason), gettext_lazy("Say why the claim is retired."), "required")
    _check(len(reason) <= max_length(Claim, "retired_reason"),
           gettext_lazy("Say why in at most %(limit)s characters.") % {"limit": max_length(Claim, "retired_reason")}, "max_length")
    claim.retired_at, claim.retired_reason = timezone.now(), reason
    claim.save(update_fields=["retired_at", "retired_reason", "updated_at"])
    ClaimRevision.objects.create(claim=claim, kind=ClaimRevision.Kind.RETIRED, text=claim.text, status=claim.status,
                                 reason=claim.retired_reason, user=account(user))
    change_record(kind=ChangeEvent.Kind.CLAIM, action=ChangeEvent.Action.EDITED, obj=claim, label=claim.text[:120],
                  url=claim.get_detail_url(), summary=summary("claim_retired", reason=reason), user=user)
    return claim


@transaction.atomic
def claim_set_status(*, claim: Claim, status: str, user: User | None = None, loaded_at: datetime | None = None) -> Claim:
    """Sets the claim's status (verified, needs verification, disputed); its citations and works stay as they are.

    The claim's row only is locked (a page save locks its page, then its claims). ``loaded_at`` is the claim's
    ``updated_at`` as the editor read it: a save since raises :class:`StaleEdit` and nothing is written. The
    status it has already writes nothing.
    """
    claim = Claim.objects.select_for_update(of=("self",)).select_related("page").get(pk=claim.pk)
    check_not_stale(claim, loaded_at=loaded_at)
    old_status = claim.status
    if status == old_status:
        return claim
    claim.status = status
    claim.full_clean(exclude=["key", "page"])
    claim.save(update_fields=["status", "updated_at"])
    _record_status(claim, old_status, user)
    change_record(
        kind=ChangeEvent.Kind.CLAIM, action=ChangeEvent.Action.EDITED, obj=claim, label=claim.text[:120],
        url=claim.get_absolute_url(), summary=summary("claim_status", before=old_status, after=status), user=user,
    )
    return claim
