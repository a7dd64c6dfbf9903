"""Adding, triaging and resolving open questions."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from wiki.change_summaries import Summary, clauses, summary
from wiki.models import ChangeEvent, Claim, OpenQuestion, QuestionStatus, Source
from wiki.models.questions import UNRESOLVED
from wiki.roles import Account, User
from wiki.search.index import search_reindex_questions
from wiki.services.changes import change_record, check_not_stale


class QuestionDuplicate(Exception):
    """The same question (title, text and page) is in the queue already as ``question``, unresolved: a form sent
    twice, or a request repeated, asks it once, and an edit does not make one question the same as another."""

    def __init__(self, question: OpenQuestion) -> None:
        super().__init__(f"asked already: {question.pk}")
        self.question = question


def _lock_the_queue() -> None:
    """Until the transaction ends no one else adds a question or edits what one asks: of two that would make the
    same question at once, the second finds the first."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('wiki.question.create'))")


def _asked_already(*, title: str, text: str, page_id: int | None, other_than: int | None = None) -> OpenQuestion | None:
    """The question asking this (title, text and page) unresolved in the queue, the first asked; ``other_than`` aside."""
    same = OpenQuestion.objects.live().unresolved().filter(title=title, text=text)
    same = same.filter(page__isnull=True) if page_id is None else same.filter(page_id=page_id)
    return same.exclude(pk=other_than).order_by("pk").first() if other_than else same.order_by("pk").first()


def unrelated_answer(*, question: OpenQuestion | None, answer: Claim | None, page_id: int | None,
                     claim_ids: Iterable[int]) -> ValidationError | None:
    """Why ``answer`` cannot answer ``question`` (None when new) as edited to be on page ``page_id`` linked to
    ``claim_ids``; None when it can. The answer is a current claim of the question's page or of those it is linked to
    (as the edit leaves them, or as they were), as the question form offers; the answer a question has already stays
    its answer, retired or orphaned since."""
    if answer is None or (question is not None and answer.pk == question.answer_claim_id):
        return None
    linked = [*claim_ids, *(question.claims.values_list("pk", flat=True) if question is not None and question.pk else [])]
    if Claim.objects.answering(page_id=page_id, claim_ids=linked).filter(pk=answer.pk).exists():
        return None
    return ValidationError({"answer_claim": ValidationError(
        _("The answer must be a current claim of the question's page or one of the claims it is linked to."),
        code="answer_unrelated")})


Asked = tuple[str, str, int | None, bool]


def _what_it_asks(question: OpenQuestion) -> Asked:
    return question.title, question.text, question.page_id, question.status in UNRESOLVED


def _duplicate_of(question: OpenQuestion, *, asked: Asked, lock: bool) -> OpenQuestion | None:
    """The unresolved question in the queue that ``question``, as edited, asks the same as, when the edit changed what
    it asked (``asked``) and leaves it unresolved; ``lock`` takes the queue's lock before looking."""
    title, text, page_id, unresolved = now = _what_it_asks(question)
    if not unresolved or now == asked:
        return None
    if lock:
        _lock_the_queue()  # taken after the question's own lock, which no one holds while waiting for this one
    return _asked_already(title=title, text=text, page_id=page_id, other_than=question.pk)


def question_asked_already(*, question: OpenQuestion, fields: dict[str, Any]) -> OpenQuestion | None:
    """The question :func:`question_update` would refuse to make ``question`` the same as, were ``fields`` written to
    it (see :class:`QuestionDuplicate`); None when none. For a form to say so before it saves: read without the queue's
    lock, and the service checks again under it."""
    edited = copy.copy(question)
    for name, value in fields.items():
        setattr(edited, name, value)
    return _duplicate_of(edited, asked=_what_it_asks(question), lock=False)


def _state(question: OpenQuestion) -> dict[str, Any]:
    """What an editor can change on a question, to tell a save that changes nothing."""
    return {field.attname: getattr(question, field.attname) for field in question._meta.concrete_fields
            if field.name not in ("created_at", "updated_at")}


def _apply(question: OpenQuestion, fields: dict[str, Any], claims: Sequence[Claim] | None,
           sources: Sequence[Source] | None) -> None:
    """Writes ``fields`` and links ``question`` to ``claims`` and ``sources``; None keeps the links it has."""
    for name, value in fields.items():
        setattr(question, name, value)
    question.full_clean()
    question.save()
    if claims is not None:
        question.claims.set([claim.pk for claim in claims])
    if sources is not None:
        question.sources.set([source.pk for source in sources])


def _triage_changes(question: OpenQuestion, title: str, status: str, priority: str, assignee: Account | None) -> list[Summary]:
    """What an edit changed of ``question``'s title, status, priority and assignee (as they were before it), from
    what; its text, page, links and criteria are its details."""
    changes = []
    if question.title != title:
        changes.append(summary("question_retitled", before=title, after=question.title))
    if question.status != status:
        changes.append(summary("question_status", before=status, after=question.status))
    if question.priority != priority:
        changes.append(summary("question_priority", before=priority, after=question.priority))
    now = question.assignee
    if now != assignee:
        if assignee is None:
            changes.append(summary("question_assigned_to", after=now.get_username()))  # type: ignore[union-attr]
        elif now is None:
            changes.append(summary("question_unassigned", before=assignee.get_username()))
        else:
            changes.append(summary("question_reassigned", before=assignee.get_username(), after=now.get_username()))
    return changes


def _unchanged(question: OpenQuestion, fields: dict[str, Any], claims: Sequence[Claim] | None,
               sources: Sequence[Source] | None) -> bool:
    """Whether saving ``fields``, ``claims`` and ``sources`` (None: the links kept) would change nothing (the fields
    are set on ``question``)."""
    before = _state(question)
    for name, value in fields.items():
        setattr(question, name, value)
    return (_state(question) == before
            and (claims is None or set(question.claims.values_list("pk", flat=True)) == {claim.pk for claim in claims})
            and (sources is None or set(question.sources.values_list("pk", flat=True)) == {source.pk for source in sources}))


@transaction.atomic
def question_create(
    *, fields: dict[str, Any], claims: Sequence[Claim] = (), sources: Sequence[Source] = (), user: User | None = None
) -> OpenQuestion:
    """Adds a question to the queue; the same question unresolved in the queue already raises :class:`QuestionDuplicate`."""
    _lock_the_queue()
    page = fields.get("page")
    existing = _asked_already(title=fields.get("title", ""), text=fields.get("text", ""), page_id=page.pk if page else None)
    if existing is not None:
        raise QuestionDuplicate(existing)
    if (refusal := unrelated_answer(question=None, answer=fields.get("answer_claim"), page_id=page.pk if page else None,
                                    claim_ids=[claim.pk for claim in claims])) is not None:
        raise refusal
    question = OpenQuestion()
    _apply(question, fields, claims, sources)
    change_record(
        kind=ChangeEvent.Kind.QUESTION, action=ChangeEvent.Action.CREATED, obj=question, label=question.title,
        url=question.get_absolute_url(), summary=summary("question_created", priority=question.priority), user=user,
    )
    search_reindex_questions([question.pk])
    return question


@transaction.atomic
def question_update(
    *,
    question: OpenQuestion,
    fields: dict[str, Any],
    claims: Sequence[Claim] | None = None,
    sources: Sequence[Source] | None = None,
    user: User | None = None,
    loaded_at: datetime | None = None,
) -> OpenQuestion:
    """Triage or resolve: an answered question needs the claim that answers it (checked here and by the database),
    one of its page's or of those it is linked to (see :func:`unrelated_answer`, a :class:`ValidationError` otherwise).

    ``claims`` and ``sources`` given are the claims and works the question is linked to from now on (empty unlinks
    them all); left out, the question keeps those it has.

    ``loaded_at`` is the question's ``updated_at`` when the editor opened the form; a save since raises
    :class:`StaleEdit` and nothing is written. A save that changes nothing writes nothing. An edit that makes it ask
    what another unresolved question in the queue asks (title, text and page), as a rename or a reopening may, raises
    :class:`QuestionDuplicate`, as adding that question would, and nothing is written.
    """
    question = OpenQuestion.objects.select_for_update().get(pk=question.pk)
    check_not_stale(question, loaded_at=loaded_at)
    before = (question.title, question.status, question.priority, question.assignee)
    asked = _what_it_asks(question)
    stored = copy.copy(question)
    if _unchanged(question, fields, claims, sources):
        return question
    if (refusal := unrelated_answer(question=stored, answer=question.answer_claim, page_id=question.page_id,
                                    claim_ids=[claim.pk for claim in claims or ()])) is not None:
        raise refusal
    if (existing := _duplicate_of(question, asked=asked, lock=True)) is not None:
        raise QuestionDuplicate(existing)
    _apply(question, fields, claims, sources)
    changed = _triage_changes(question, *before)
    if question.status == QuestionStatus.ANSWERED and before[1] != QuestionStatus.ANSWERED:
        # the answer, and what else the edit changed of its title and triage (the status being said by "answered")
        others = [{"key": part.key, "values": dict(part.values)} for part in changed if part.key != "question_status"]
        said = summary("question_answered_and", clauses=others) if others else summary("question_answered")
    else:
        said = clauses(*changed) if changed else summary("question_details")
    change_record(
        kind=ChangeEvent.Kind.QUESTION, action=ChangeEvent.Action.EDITED, obj=question, label=question.title,
        url=question.get_absolute_url(), summary=said, user=user,
    )
    search_reindex_questions([question.pk])
    return question
