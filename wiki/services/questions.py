"""Adding, triaging and resolving open questions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from wiki.change_summaries import summary
from wiki.models import ChangeEvent, Claim, OpenQuestion, QuestionStatus, Source
from wiki.roles import User
from wiki.search.index import search_reindex_questions
from wiki.services.changes import change_record, check_not_stale


def _apply(question: OpenQuestion, fields: dict[str, Any], claims: Sequence[Claim], sources: Sequence[Source]) -> None:
    for name, value in fields.items():
        setattr(question, name, value)
    question.full_clean()
    question.save()
    question.claims.set([claim.pk for claim in claims])
    question.sources.set([source.pk for source in sources])


@transaction.atomic
def question_create(
    *, fields: dict[str, Any], claims: Sequence[Claim] = (), sources: Sequence[Source] = (), user: User | None = None
) -> OpenQuestion:
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
    claims: Sequence[Claim] = (),
    sources: Sequence[Source] = (),
    user: User | None = None,
    loaded_at: datetime | None = None,
) -> OpenQuestion:
    """Triage or resolve: an answered question needs the claim that answers it (checked here and by the database).

    ``loaded_at`` is the question's ``updated_at`` when the editor opened the form; a save since raises
    :class:`StaleEdit` and nothing is written.
    """
    question = OpenQuestion.objects.select_for_update().get(pk=question.pk)
    check_not_stale(question, loaded_at=loaded_at)
    before = (question.status, question.priority, question.assignee_id)
    _apply(question, fields, claims, sources)
    after = (question.status, question.priority, question.assignee_id)
    if question.status == QuestionStatus.ANSWERED and before[0] != QuestionStatus.ANSWERED:
        said = summary("question_answered")
    elif before != after and question.assignee:
        said = summary("question_assigned", status=question.status, priority=question.priority,
                       assignee=question.assignee.get_username())
    elif before != after:
        said = summary("question_changed", status=question.status, priority=question.priority)
    else:
        said = summary("question_details")
    change_record(
        kind=ChangeEvent.Kind.QUESTION, action=ChangeEvent.Action.EDITED, obj=question, label=question.title,
        url=question.get_absolute_url(), summary=said, user=user,
    )
    search_reindex_questions([question.pk])
    return question
