from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Case, F, IntegerField, Value, When
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from wiki.models.labels import field_label
from wiki.models.rules import MAX_TEXT_CHARS, text_limit, validate_line
from wiki.models.sort_keys import SortKeyed, SortKeyedQuerySet, SortKeyField


class QuestionStatus(models.TextChoices):
    OPEN = "open", _("Open")
    INVESTIGATING = "investigating", _("Investigating")
    ANSWERED = "answered", _("Answered")
    DROPPED = "dropped", _("Dropped")


class QuestionPriority(models.TextChoices):
    HIGH = "high", _("High")
    NORMAL = "normal", _("Normal")
    LOW = "low", _("Low")


PRIORITY_RANK: dict[str, int] = {QuestionPriority.HIGH: 0, QuestionPriority.NORMAL: 1, QuestionPriority.LOW: 2}
# Statuses in the order a question goes through them, where their names would sort "answered" first.
STATUS_RANK: dict[str, int] = {QuestionStatus.OPEN: 0, QuestionStatus.INVESTIGATING: 1, QuestionStatus.ANSWERED: 2, QuestionStatus.DROPPED: 3}
UNRESOLVED = (QuestionStatus.OPEN, QuestionStatus.INVESTIGATING)


def _rank(field: str, ranks: dict[str, int]) -> Case:
    return Case(*(When(**{field: value}, then=Value(rank)) for value, rank in ranks.items()), default=Value(9),
                output_field=IntegerField())


def priority_order() -> Case:
    """A question's priority as a number that sorts high first."""
    return _rank("priority", PRIORITY_RANK)


def status_order() -> Case:
    """A question's status as a number that sorts open, investigating, answered, dropped."""
    return _rank("status", STATUS_RANK)


class OpenQuestionQuerySet(SortKeyedQuerySet["OpenQuestion"]):
    def in_title_order(self) -> OpenQuestionQuerySet:
        """By title as Chinese readers sort names: a Chinese title by its pinyin (``wiki.text.sort_keys``)."""
        return self.order_by("title_sort", "id")

    def live(self) -> OpenQuestionQuerySet:
        """Questions of no page or of a page not deleted: a deleted page's questions leave the lists with it, and
        come back when it is restored."""
        return self.filter(models.Q(page__isnull=True) | models.Q(page__deleted_at__isnull=True))

    def unresolved(self) -> OpenQuestionQuerySet:
        """Open or investigating."""
        return self.filter(status__in=UNRESOLVED)

    def assigned_to(self, user_id: int | None) -> OpenQuestionQuerySet:
        """Assigned to that account; to no one when ``user_id`` is None."""
        return self.filter(assignee__isnull=True) if user_id is None else self.filter(assignee_id=user_id)

    def queue(self) -> OpenQuestionQuerySet:
        """:meth:`live` questions in the queue order: priority first, then oldest first; page and assignee joined."""
        return (
            self.live().select_related("page", "assignee").annotate(priority_rank=priority_order())
            .order_by("priority_rank", "created_at", "id")
        )

    def resolved_last(self) -> OpenQuestionQuerySet:
        """:meth:`queue` with the answered and dropped questions after those still open, each part in queue order."""
        resolved = Case(When(status__in=[QuestionStatus.ANSWERED, QuestionStatus.DROPPED], then=Value(1)), default=Value(0),
                         output_field=IntegerField())
        return self.queue().order_by(resolved, F("priority_rank"), "created_at", "id")

    def with_links(self) -> OpenQuestionQuerySet:
        """Prefetches linked claims (with their page; a deleted page's claims are left out, as from every read) and
        sources; joins the answering claim and its page."""
        from wiki.models.claims import Claim
        from wiki.models.sources import Source

        return self.select_related("answer_claim__page").prefetch_related(
            models.Prefetch("claims", queryset=Claim.objects.on_live_pages().select_related("page").in_page_order()),
            models.Prefetch("sources", queryset=Source.objects.only("id", "slug", "short_name", "title").in_name_order()),
        )

    def with_last_answer(self) -> OpenQuestionQuerySet:
        """Annotates, in the same query, when the question was last marked answered and by whom (``answered_at``,
        ``answered_by``, a username; None when no change records it: a question added answered, or by no one), from
        the changes the services record: a question reopened since shows its answer as a former one."""
        from wiki.models.changes import ChangeEvent

        answered = ChangeEvent.objects.filter(
            kind=ChangeEvent.Kind.QUESTION, object_id=models.OuterRef("pk"),
            summary_key__in=("question_answered", "question_answered_and"),
        ).order_by("-created_at", "-id")
        return self.annotate(
            answered_at=models.Subquery(answered.values("created_at")[:1]),
            answered_by=models.Subquery(answered.values("user__username")[:1]),
        )


class OpenQuestion(SortKeyed):
    """A question to verify, from a page's 待核实问题 or a survey's open problems."""

    page = models.ForeignKey("wiki.Page", null=True, blank=True, on_delete=models.SET_NULL, related_name="questions",
                             verbose_name=field_label("page"))
    title = models.CharField(field_label("title"), max_length=300, validators=[validate_line])
    title_sort = SortKeyField(_("Title as sorted"), source="title")
    text = models.TextField(field_label("text"), blank=True, validators=text_limit(MAX_TEXT_CHARS))
    status = models.CharField(field_label("status"), max_length=20, choices=QuestionStatus.choices, default=QuestionStatus.OPEN)
    priority = models.CharField(field_label("priority"), max_length=10, choices=QuestionPriority.choices,
                                default=QuestionPriority.NORMAL)
    assignee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                 verbose_name=field_label("assignee"))
    resolution_criteria = models.TextField(_("what would resolve it"), blank=True, validators=text_limit(MAX_TEXT_CHARS))
    claims = models.ManyToManyField("wiki.Claim", blank=True, related_name="questions", verbose_name=field_label("claims"))
    sources = models.ManyToManyField("wiki.Source", blank=True, related_name="questions", verbose_name=field_label("sources"))
    answer_claim = models.ForeignKey(
        "wiki.Claim", null=True, blank=True, on_delete=models.SET_NULL, related_name="answers",
        verbose_name=field_label("answer_claim"),
    )
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = OpenQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("Open question")
        verbose_name_plural = _("Open questions")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(status="answered") | models.Q(answer_claim__isnull=False),
                name="question_answered_has_claim",
            ),
        ]
        indexes = [models.Index(fields=["title_sort", "id"], name="question_title_sort")]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("wiki:question-detail", kwargs={"pk": self.pk})
