from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from classifier.taxonomy import Mechanism, Verdict, rubric_verdict
from wiki.models.labels import field_label
from wiki.models.rules import MAX_TEXT_CHARS, text_limit, validate_line, validate_optional_line
from wiki.taxonomy import MECHANISM_CHOICES, VERDICT_CHOICES, verdict_label

if TYPE_CHECKING:
    from wiki.models.claims import Claim

__all__ = ["MECHANISM_CHOICES", "VERDICT_CHOICES"]


class SetBy(models.TextChoices):
    EDITOR = "editor", _("Editor")
    CLASSIFIER = "classifier", _("Classifier suggestion")


# Classifications by their work's short name, then their component's name, as Chinese readers sort names
# (``wiki.text.sort_keys``); a work's own classification after its components'.
SUBJECT_ORDER = ("source__name_sort", "source_id", "component__name_sort", "pk")


class ClassificationQuerySet(models.QuerySet["Classification"]):
    def in_subject_order(self) -> ClassificationQuerySet:
        """In :data:`SUBJECT_ORDER`."""
        return self.order_by(*SUBJECT_ORDER)

    def with_related(self) -> ClassificationQuerySet:
        """Joins the source, component, evidence claim (and its page) and the user who set it."""
        return self.select_related("source", "component", "evidence_claim__page", "set_by_user")

    def for_cards(self) -> ClassificationQuerySet:
        """:meth:`with_related` plus the evidence claim's citations with their sources, ordered work first, then components."""
        from wiki.models.claims import Citation

        return self.with_related().prefetch_related(
            models.Prefetch(
                "evidence_claim__citations",
                queryset=Citation.objects.select_related("source").only(
                    "id", "claim_id", "locator", "kind", "position", "source__slug", "source__short_name"
                ).order_by("position"),
            )
        ).order_by(models.F("component__name_sort").asc(nulls_first=True), "pk")

    def decisions(self) -> ClassificationQuerySet:
        """Every saved classification, as a labelled example for the classifier; selects the source and component."""
        return self.select_related("source", "component").order_by("pk")

    def changed_after(self, moment: datetime) -> ClassificationQuerySet:
        """Classifications set after ``moment``, or whose work was saved since (renamed, a component added or
        renamed, merged into: the work's name and slug, and the component's name, are part of what a classification
        shows)."""
        return self.filter(models.Q(updated_at__gt=moment) | models.Q(source__updated_at__gt=moment))

    def counts_by_mechanism_and_verdict(self) -> models.QuerySet[Any, Any]:
        """Rows of ``mechanism``, ``verdict`` and ``n`` (classified works and components)."""
        return self.order_by().values("mechanism", "verdict").annotate(n=models.Count("id"))


_ClassificationQuerySetManager = models.Manager.from_queryset(ClassificationQuerySet)


class LiveClassificationManager(_ClassificationQuerySetManager["Classification"]):
    """Classifications of works not deleted."""

    def get_queryset(self) -> ClassificationQuerySet:
        return ClassificationQuerySet(self.model, using=self._db).filter(source__deleted_at__isnull=True)


class Classification(models.Model):
    """Mechanism, rubric facts and verdict of a work, or of one component of it."""

    source = models.ForeignKey("wiki.Source", on_delete=models.CASCADE, related_name="classifications",
                               verbose_name=field_label("source"))
    component = models.ForeignKey(
        "wiki.Component", null=True, blank=True, on_delete=models.CASCADE, related_name="classifications",
        verbose_name=field_label("component"),
    )
    mechanism = models.CharField(field_label("mechanism"), max_length=40, choices=MECHANISM_CHOICES)
    algorithm = models.CharField(field_label("algorithm"), max_length=120, blank=True, validators=[validate_optional_line])
    updated = models.CharField(_("what is updated"), max_length=300, blank=True, validators=[validate_optional_line])
    # The four rubric facts: yes, no, or unknown (NULL) when nothing the wiki holds says either way.
    interactive_env = models.BooleanField(_("executable agent in an environment"), null=True, blank=True, default=None)
    multi_step = models.BooleanField(_("multi-step / tool-use trajectories"), null=True, blank=True, default=None)
    verifiable_reward = models.BooleanField(_("verifiable or scalar reward"), null=True, blank=True, default=None)
    rl_update = models.BooleanField(_("RL update of the policy from the outcome"), null=True, blank=True, default=None)
    narrow = models.BooleanField(
        field_label("narrow"), default=False, help_text=_("What is updated is not the acting agent's own policy, or the action space is narrow.")
    )
    verdict = models.CharField(field_label("verdict"), max_length=20, choices=VERDICT_CHOICES)
    rationale = models.TextField(field_label("rationale"), blank=True, validators=text_limit(MAX_TEXT_CHARS))
    evidence_claim = models.ForeignKey(
        "wiki.Claim", null=True, blank=True, on_delete=models.SET_NULL, related_name="evidence_for",
        verbose_name=field_label("evidence_claim"),
    )
    evidence_locator = models.CharField(field_label("evidence_locator"), max_length=200, blank=True,
                                        validators=[validate_optional_line])
    set_by = models.CharField(field_label("set_by"), max_length=20, choices=SetBy.choices, default=SetBy.EDITOR)
    set_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("Editor who set it"),
    )
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = LiveClassificationManager()
    all_objects = ClassificationQuerySet.as_manager()

    class Meta:
        ordering = ["source", "component"]
        default_manager_name = "all_objects"
        verbose_name = _("Classification")
        verbose_name_plural = _("Classifications")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "component"], nulls_distinct=False, name="classification_one_per_work_or_component"
            ),
            models.CheckConstraint(condition=models.Q(mechanism__in=[m.value for m in Mechanism]), name="classification_mechanism_valid"),
            models.CheckConstraint(condition=models.Q(verdict__in=[v.value for v in Verdict]), name="classification_verdict_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.subject_name}: {verdict_label(self.verdict)}"

    @property
    def subject_name(self) -> str:
        if self.component_id is None:
            return self.source.short_name
        return f"{self.source.short_name} {self.component.name}"  # type: ignore[union-attr]

    @property
    def live_evidence_claim(self) -> Claim | None:
        """The evidence claim as readers see it: none while its page is deleted, whose claims leave every read with it
        (:meth:`ClassificationQuerySet.with_related` joins the claim's page)."""
        claim = self.evidence_claim
        return claim if claim is not None and claim.page.deleted_at is None else None

    @property
    def rubric_verdict(self) -> Verdict:
        """The verdict the four facts give through the rubric (an unknown fact does not hold)."""
        return rubric_verdict(
            interactive_env=self.interactive_env,
            multi_step=self.multi_step,
            verifiable_reward=self.verifiable_reward,
            rl_update=self.rl_update,
            mechanism=Mechanism(self.mechanism),
            narrow=self.narrow,
        )

    @property
    def departs_from_rubric(self) -> bool:
        return self.verdict != self.rubric_verdict.value

    def clean(self) -> None:
        """The rules every way of saving shares: a component of this work, one classification per work or component,
        and a rationale for a verdict other than the rubric's. An algorithm typed full width (ＧＲＰＯ／ＰＰＯ) is kept as
        the half-width name it is, so that comparisons find it."""
        self.algorithm = " ".join(unicodedata.normalize("NFKC", self.algorithm).split())
        errors: dict[str, ValidationError] = {}
        if self.component_id is not None and self.source_id is not None and self.component.source_id != self.source_id:  # type: ignore[union-attr]
            errors["component"] = ValidationError(_("This component belongs to another source."), code="invalid")
        elif self.source_id is not None:
            # A component of None finds the work's own classification (IS NULL); the stubs want a key.
            taken = Classification.objects.filter(source_id=self.source_id, component_id=self.component_id)  # type: ignore[misc]
            if self.pk is not None:
                taken = taken.exclude(pk=self.pk)
            if taken.exists():
                errors["component"] = ValidationError(
                    _("This work (or component) is classified already; edit that classification."), code="exists"
                )
        known = self.mechanism in dict(MECHANISM_CHOICES) and self.verdict in dict(VERDICT_CHOICES)
        if known and self.departs_from_rubric and not self.rationale.strip():
            errors["rationale"] = ValidationError(
                _("The rubric gives “%(rubric)s” for these facts; say why the verdict is “%(verdict)s”."),
                code="rationale_required",
                params={"rubric": verdict_label(self.rubric_verdict), "verdict": verdict_label(self.verdict)},
            )
        if errors:
            raise ValidationError(errors)


# A classification's fields in its form's order (mechanism, algorithm, what is updated, the facts, verdict, rationale,
# evidence, who set it): the order its history lists what changed in.
_FIELD_ORDER = {field.name: rank for rank, field in enumerate(Classification._meta.concrete_fields)}


class ClassificationChangeQuerySet(models.QuerySet["ClassificationChange"]):
    def for_history(self) -> ClassificationChangeQuerySet:
        """Newest first, with the user joined."""
        return self.select_related("user").order_by("-created_at", "-id")


class ClassificationChange(models.Model):
    """Who changed a classification, when, and its fields before and after."""

    classification = models.ForeignKey(Classification, on_delete=models.CASCADE, related_name="changes",
                                       verbose_name=_("Classification"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("User"))
    before = models.JSONField(_("Before"), default=dict, blank=True)
    after = models.JSONField(_("After"), default=dict)
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)

    objects = ClassificationChangeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("Classification change")
        verbose_name_plural = _("Classification changes")

    def __str__(self) -> str:
        return f"{self.classification} ({self.created_at:%Y-%m-%d %H:%M})"

    def changed_fields(self) -> list[tuple[str, object, object]]:
        """``(field, before, after)`` for each field whose value changed, in the order the classification's form has
        them (mechanism, algorithm, what is updated, the four facts, verdict, rationale, evidence, who set it)."""
        keys = sorted(set(self.before) | set(self.after), key=lambda name: (_FIELD_ORDER.get(name, len(_FIELD_ORDER)), name))
        return [(k, self.before.get(k), self.after.get(k)) for k in keys if self.before.get(k) != self.after.get(k)]


class ContrastQuerySet(models.QuerySet["Contrast"]):
    def with_related(self) -> ContrastQuerySet:
        """Joins both sides (source and component) and the evidence claim with its page."""
        return self.select_related("left", "left_component", "right", "right_component", "claim__page")

    def involving(self, source_ids: list[int]) -> ContrastQuerySet:
        return self.filter(models.Q(left_id__in=source_ids) | models.Q(right_id__in=source_ids))

    def changed_after(self, moment: datetime) -> ContrastQuerySet:
        """Contrasts saved after ``moment``, or one of whose works was (renamed, a component added or renamed, a work
        merged into it: what a contrast shows of its sides)."""
        return self.filter(models.Q(updated_at__gt=moment) | models.Q(left__updated_at__gt=moment)
                           | models.Q(right__updated_at__gt=moment))

    def newest(self, limit: int) -> ContrastQuerySet:
        """The ``limit`` contrasts added last, both sides and their components joined (one query)."""
        return self.select_related("left", "left_component", "right", "right_component").order_by("-created_at", "-id")[:limit]


_ContrastQuerySetManager = models.Manager.from_queryset(ContrastQuerySet)


class LiveContrastManager(_ContrastQuerySetManager["Contrast"]):
    """Contrasts between works neither of which is deleted."""

    def get_queryset(self) -> ContrastQuerySet:
        return ContrastQuerySet(self.model, using=self._db).filter(
            left__deleted_at__isnull=True, right__deleted_at__isnull=True)


class Contrast(models.Model):
    """Two works (or components) set against each other on an axis, with the claim that says so."""

    left = models.ForeignKey("wiki.Source", on_delete=models.CASCADE, related_name="contrasts_as_left",
                             verbose_name=_("One work"))
    left_component = models.ForeignKey(
        "wiki.Component", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        verbose_name=field_label("left_component"),
    )
    right = models.ForeignKey("wiki.Source", on_delete=models.CASCADE, related_name="contrasts_as_right",
                              verbose_name=_("The other work"))
    right_component = models.ForeignKey(
        "wiki.Component", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        verbose_name=field_label("right_component"),
    )
    axis = models.CharField(_("What they differ on"), max_length=300, validators=[validate_line])
    claim = models.ForeignKey("wiki.Claim", null=True, blank=True, on_delete=models.SET_NULL, related_name="contrasts",
                              verbose_name=field_label("evidence_claim"))
    created_at = models.DateTimeField(_("Created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("Updated at"), auto_now=True)

    objects = LiveContrastManager()
    all_objects = ContrastQuerySet.as_manager()

    class Meta:
        ordering = ["left__name_sort", "right__name_sort", "id"]
        default_manager_name = "all_objects"
        verbose_name = _("Contrast")
        verbose_name_plural = _("Contrasts")
        constraints = [
            models.UniqueConstraint(
                fields=["left", "left_component", "right", "right_component"],
                nulls_distinct=False,
                name="contrast_unique_pair",
            ),
            models.CheckConstraint(
                condition=~(
                    models.Q(left=models.F("right"))
                    & (
                        models.Q(left_component=models.F("right_component"))
                        | models.Q(left_component__isnull=True, right_component__isnull=True)
                    )
                ),
                name="contrast_sides_differ",
                violation_error_code="same_sides",
                violation_error_message=_("A work (or component) cannot be contrasted with itself: choose two different sides."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.left_id} vs {self.right_id}: {self.axis}"

    def get_absolute_url(self) -> str:
        """The contrast's page, its two sides (``work`` or ``work:component``) set side by side, from the works and
        components it was loaded with."""
        return reverse("wiki:contrast", kwargs={side: self._subject(side) for side in ("left", "right")})

    def _subject(self, side: str) -> str:
        work, component = getattr(self, side), getattr(self, f"{side}_component")
        return f"{work.slug}:{component.slug}" if component is not None else str(work.slug)

    def side_name(self, side: str) -> str:
        """One side by name (``left`` or ``right``): the work's short name, and its component's after it (``Herder
        Branch-GRPO``), from the work and component the contrast was loaded with, so no query for the component's
        work."""
        work, component = getattr(self, side), getattr(self, f"{side}_component")
        return f"{work.short_name} {component.name}" if component is not None else str(work.short_name)

    @property
    def label(self) -> str:
        """``Herder Branch-GRPO vs Herder overseer and CRO``."""
        return f"{self.side_name('left')} vs {self.side_name('right')}"
