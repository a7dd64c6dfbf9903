"""Factories that make the rows a test needs, each through the service that derives what the row implies.

A page is saved as a revision (rendered HTML, links, claims, citations, the search index); a claim is a cited
sentence on a page; a classification, contrast or question goes through its service (history, recent changes, the
search index). Tests build their own data with these; only the tests about the seed wiki ask for the ``seed``
fixture.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import factory
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from factory.django import DjangoModelFactory

from wiki.models import (
    Claim,
    Classification,
    Component,
    Contrast,
    FindingDismissal,
    GlossaryTerm,
    OpenQuestion,
    Page,
    PageRedirect,
    ReaderProfile,
    Source,
    SourceImport,
    SourceMerge,
)
from wiki.reports.consistency import classification_key, consistency_report
from wiki.roles import Account, User, ensure_editor_group
from wiki.search.index import search_reindex_sources
from wiki.services.claims import claim_set_status
from wiki.services.classifications import classification_save
from wiki.services.contrasts import contrast_create
from wiki.services.findings import finding_dismiss
from wiki.services.glossary import glossary_term_create
from wiki.services.merges import source_merge
from wiki.services.pages import page_save_revision
from wiki.services.questions import question_create
from wiki.services.source_import import sources_import
from wiki.services.tokens import api_token_create
from wiki.services.watches import watch_add

PASSWORD = "correct horse battery"


@functools.cache
def hashed(password: str) -> str:
    """``password`` hashed once per test run: hashing is slow on purpose, and accounts need not differ in salt."""
    return make_password(password)

_counter = itertools.count(1)


class ReaderFactory(DjangoModelFactory[Account]):
    """An account with no role; its password is :data:`PASSWORD`."""

    class Meta:
        model = Account
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"reader{n}")
    password = factory.LazyFunction(lambda: hashed(PASSWORD))


class EditorFactory(ReaderFactory):
    """An account in the editors group."""

    class Meta:
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"editor{n}")

    @factory.post_generation
    def editor_group(obj: Account, create: bool, extracted: object, **kwargs: object) -> None:  # noqa: N805
        if create:
            group: Group = ensure_editor_group()
            obj.groups.add(group)


class SourceFactory(DjangoModelFactory[Source]):
    """A work, indexed for search as a saved source is."""

    class Meta:
        model = Source

    slug = factory.Sequence(lambda n: f"work-{n}")
    short_name = factory.Sequence(lambda n: f"Work {n}")
    title = factory.LazyAttribute(lambda o: f"{o.short_name}: A Study")

    @classmethod
    def _create(cls, model_class: type[Source], *args: Any, **kwargs: Any) -> Source:
        source = super()._create(model_class, *args, **kwargs)
        search_reindex_sources([source.pk])
        return source


class ComponentFactory(DjangoModelFactory[Component]):
    """A named part of a work (a method, a framework's module) that can be classified on its own."""

    class Meta:
        model = Component

    source = factory.SubFactory(SourceFactory)
    slug = factory.Sequence(lambda n: f"part-{n}")
    name = factory.Sequence(lambda n: f"Part {n}")


STRICT_FACTS: dict[str, Any] = {"interactive_env": True, "multi_step": True, "verifiable_reward": True, "rl_update": True}


class ClassificationFactory(DjangoModelFactory[Classification]):
    """A work's classification saved by an editor (history, recent changes, the work's search document);
    strict policy-gradient Agentic RL unless told otherwise."""

    class Meta:
        model = Classification

    source = factory.SubFactory(SourceFactory)
    component = None
    mechanism = "policy_gradient"
    verdict = "strict"
    interactive_env = True
    multi_step = True
    verifiable_reward = True
    rl_update = True

    @classmethod
    def _create(cls, model_class: type[Classification], *args: Any, **kwargs: Any) -> Classification:
        source = kwargs.pop("source")
        component = kwargs.pop("component", None)
        user = kwargs.pop("set_by_user", None)
        set_by = kwargs.pop("set_by", "editor")
        unsaved = Classification(**kwargs)
        if unsaved.departs_from_rubric and not kwargs.get("rationale"):
            kwargs["rationale"] = "As the work itself reports."
        return classification_save(source=source, component=component, fields=kwargs, user=user, set_by=set_by)


class PageFactory(DjangoModelFactory[Page]):
    """A page saved as its first revision by ``author`` (anonymous by default), with all that saving derives."""

    class Meta:
        model = Page

    slug = factory.Sequence(lambda n: f"page-{n}")
    title = factory.Sequence(lambda n: f"Page {n}")
    summary = ""
    body = "Text."
    author: Any = None

    @classmethod
    def _create(cls, model_class: type[Page], *args: Any, **kwargs: Any) -> Page:
        revision = page_save_revision(slug=kwargs["slug"], title=kwargs["title"], summary=kwargs["summary"],
                                      body=kwargs["body"], user=kwargs.get("author"))
        return revision.page


def cite(*sources: Source, locator: str = "", synthesised: bool = False) -> str:
    """The wiki's citation of ``sources`` (by title), as a page's text writes it."""
    titles = "、".join(source.title for source in sources)
    return f"（{'综合' if synthesised else '来源'}：{titles}{'，' + locator if locator else ''}）"


def make_claim(text: str, *, cites: Sequence[Source] = (), locator: str = "", page: Page | None = None,
               status: str = "", user: User | None = None) -> Claim:
    """The claim made by the key point ``text`` citing ``cites``: on a new page, or added to the end of ``page``."""
    bullet = f"- {text}{cite(*cites, locator=locator) if cites else ''}"
    if page is None:
        page = PageFactory.create(body=f"## 关键要点\n\n{bullet}\n", author=user)
    else:
        page_save_revision(slug=page.slug, title=page.title, summary=page.summary, body=f"{page.body.rstrip()}\n{bullet}\n", user=user)
    claim = Claim.objects.current().get(page=page, text__startswith=text)
    if status:
        claim = claim_set_status(claim=claim, status=status, user=user)
    return claim


def make_contrast(left: Source, right: Source, *, axis: str = "what is updated", claim: Claim | None = None,
                  left_component: Component | None = None, right_component: Component | None = None) -> Contrast:
    return contrast_create(left=left, right=right, axis=axis, claim=claim, left_component=left_component,
                           right_component=right_component)


def make_editor(username: str = "", *, password: str = PASSWORD) -> Account:
    if username:
        return EditorFactory.create(username=username, password=hashed(password))
    return EditorFactory.create(password=hashed(password))


def make_staff(username: str = "curator") -> Account:
    """An editor who is staff too: who deletes and restores pages and works."""
    user = make_editor(username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def make_reader(username: str = "", *, password: str = PASSWORD) -> Account:
    if username:
        return ReaderFactory.create(username=username, password=hashed(password))
    return ReaderFactory.create(password=hashed(password))


def make_api_token(user: Account, *, name: str = "A script") -> str:
    """A new API token of the editor ``user``: its key, which the wiki keeps only as a hash."""
    return api_token_create(user=user, name=name).key


def make_source(**fields: object) -> Source:
    return SourceFactory.create(**fields)


def make_classification(source: Source, **fields: object) -> Classification:
    """A classification row as stored, with no history or recent change (:class:`ClassificationFactory` saves one
    through the service)."""
    defaults: dict[str, object] = {"mechanism": "policy_gradient", "verdict": "strict", **STRICT_FACTS}
    defaults.update(fields)
    return Classification.objects.create(source=source, **defaults)


def make_page(*, slug: str = "", title: str = "", body: str = "Text.", user: User | None = None, summary: str = "") -> Page:
    fields: dict[str, object] = {"body": body, "summary": summary, "author": user}
    if slug:
        fields["slug"] = slug
    if title:
        fields["title"] = title
    return PageFactory.create(**fields)


def make_question(**fields: object) -> OpenQuestion:
    """A question row as stored, with no recent change (:func:`question_create` records one and indexes it)."""
    fields.setdefault("title", f"Question {next(_counter)}")
    return OpenQuestion.objects.create(**fields)


def make_indexed_question(*, claims: Sequence[Claim] = (), sources: Sequence[Source] = (), user: User | None = None,
                          **fields: object) -> OpenQuestion:
    """A question saved through its service: recorded as a recent change and indexed for search."""
    fields.setdefault("title", f"Question {next(_counter)}")
    return question_create(fields=fields, claims=claims, sources=sources, user=user)


def claims_of(page: Page) -> list[Claim]:
    return list(page.claims.current().order_by("position"))


@dataclass(frozen=True)
class SmallWiki:
    """A wiki with a row in every table: works of several mechanisms and verdicts (one with a classified component, one
    unclassified), a page whose key points cite them with locators and link to a second page, a contrast resting on a
    claim, an open and an answered question, a glossary term, a dismissed finding, a work merged into its duplicate, an editor with a reader profile."""

    editor: Account
    strict: Source
    part: Component
    harness: Source
    envs: tuple[Source, Source]
    unclassified: Source
    page: Page
    notes: Page
    claims: tuple[Claim, ...]
    contrast: Contrast
    question: OpenQuestion
    answered: OpenQuestion
    term: GlossaryTerm
    dismissal: FindingDismissal
    merge: SourceMerge

    def addresses(self) -> dict[str, str]:
        """What fills each templated API path of the schema with one of this wiki's rows."""
        classification = Classification.objects.filter(source=self.strict, component=None).get()
        return {
            "/api/v1/pages/{slug}/": self.page.slug, "/api/v1/sources/{slug}/": self.strict.slug,
            "/api/v1/classifications/{id}/": str(classification.pk), "/api/v1/questions/{id}/": str(self.question.pk),
            "/api/v1/claims/{id}/": str(self.claims[0].pk), "/api/v1/contrasts/{id}/": str(self.contrast.pk),
            "/api/v1/imports/{id}/": str(SourceImport.objects.get().pk), "/api/v1/glossary/{slug}/": self.term.slug,
            "/api/v1/watchlist/pages/{slug}/": self.page.slug, "/api/v1/watchlist/sources/{slug}/": self.strict.slug,
            "/api/v1/watchlist/questions/{id}/": str(self.question.pk),
        }


def make_wiki() -> SmallWiki:
    editor = make_editor()
    ReaderProfile.objects.create(user=editor, language="zh-hans", time_zone="Asia/Shanghai")
    strict = SourceFactory.create(slug="skillloop", short_name="SkillLoop", title="SkillLoop: Reinforcing Agents with Verified Skills",
                           year=2025, authors="Ada Lovelace; Alan Turing", abstract="We train a web agent with GRPO on the task reward.")
    part = ComponentFactory.create(source=strict, slug="loop-grpo", name="Loop-GRPO")
    harness = SourceFactory.create(slug="harnesskit", short_name="HarnessKit", title="HarnessKit: Evolving Agent Harnesses", year=2026)
    envs = (SourceFactory.create(slug="shopworld", short_name="ShopWorld", title="ShopWorld: A Web Environment for Agents", year=2024),
            SourceFactory.create(slug="deskworld", short_name="DeskWorld", title="DeskWorld: Benchmarking Computer-Use Agents", year=2024))
    unclassified = SourceFactory.create(slug="lonework", short_name="LoneWork", title="LoneWork: An Unread Preprint", year=2026)
    ClassificationFactory.create(source=strict, set_by_user=editor, algorithm="GRPO", updated="agent policy")
    ClassificationFactory.create(source=strict, component=part, set_by_user=editor, algorithm="Loop-GRPO")
    harness_card = ClassificationFactory.create(source=harness, mechanism="harness", verdict="not_strict", rl_update=False, set_by_user=editor)
    for env in envs:
        ClassificationFactory.create(source=env, mechanism="environment", verdict="not_strict", rl_update=False, set_by_user=editor)
    notes = PageFactory.create(slug="loop-notes", title="Loop Notes", body="笔记：SkillLoop 的训练细节。", author=editor)
    PageRedirect.objects.create(slug="loop-notes-draft", page=notes)  # the notes were at another address before
    body = (
        "## 摘要\n\n一个小的 Agentic RL 例子，细节见 [[Loop Notes|笔记]]。\n\n## 关键要点\n\n"
        f"- SkillLoop 用 GRPO 依据环境回报更新 agent policy。{cite(strict, locator='§3.1')}\n"
        f"- HarnessKit 只演化外部 harness，不更新模型参数。{cite(harness, locator='p.4')}\n"
        f"- ShopWorld 与 DeskWorld 定义多步环境，但只评测固定模型。{cite(*envs)}\n"
    )
    page = PageFactory.create(slug="loop-wiki", title="Loop Wiki", summary="一个小的 Agentic RL 例子。", body=body, author=editor)
    claims = tuple(claims_of(page))
    contrast = make_contrast(strict, harness, axis="policy update vs harness evolution", claim=claims[1],
                             left_component=part)
    question = make_indexed_question(title="多 seed 的验证", text="SkillLoop 的结果尚需多 seed 验证。", priority="high", page=page,
                             resolution_criteria="Runs with five seeds.", claims=claims[:1], sources=[strict], user=editor)
    answered = make_indexed_question(title="HarnessKit 是否更新参数", status="answered", page=page, answer_claim=claims[1],
                             sources=[harness], user=editor)
    term = glossary_term_create(fields={
        "slug": "loop-credit", "name_zh": "循环信用", "name_en": "Loop Credit", "aliases_en": ["loop credit share"],
        "definition_zh": "SkillLoop 把终局回报分给轨迹中的各步动作。", "definition_en": "SkillLoop's share of a final reward among the steps that led to it.",
    }, user=editor)
    unevidenced = consistency_report().find("no_evidence", classification_key(harness_card.pk))
    assert unevidenced is not None
    dismissal = finding_dismiss(finding=unevidenced, reason="The paper is its own evidence.", user=editor)
    duplicate = SourceFactory.create(slug="skillloop-preprint", short_name="SkillLoop preprint",
                                     title="SkillLoop: Verified Skills for Agents (preprint)", year=2024)
    merge = source_merge(merged=duplicate, kept=strict, user=editor)
    make_api_token(editor, name="Loop script")
    watch_add(user=editor, target=question)
    # a reference manager's file naming a work the wiki has: recorded, nothing created
    sources_import(text=f"@article{{skillloop, title={{{strict.title}}}, year={{2025}}}}", user=editor)
    return SmallWiki(merge=merge, dismissal=dismissal, term=term, editor=editor, strict=strict, part=part, harness=harness, envs=envs, unclassified=unclassified,
                     page=page, notes=notes, claims=claims, contrast=contrast, question=question, answered=answered)


@dataclass(frozen=True)
class ContrastWiki:
    """Works set against each other, as a wiki page's key points argue them: a strict policy-gradient work contrasted
    with two harnesses (one claim about all three), an SFT work and an evolution-strategies work contrasted with it on
    their own claims, a work whose two components are classified apart and contrasted, a narrow strict work, an
    environment and an unclassified guide contrasted with it; the page links to a page not written yet and raises a
    question."""

    page: Page
    grpo: Source
    harness: Source
    harness2: Source
    sft: Source
    es: Source
    split: Source
    split_rl: Component
    split_runtime: Component
    narrow: Source
    env: Source
    unclassified: Source


def make_contrast_wiki() -> ContrastWiki:
    grpo = SourceFactory.create(slug="gripforge", short_name="GripForge", title="GripForge: Reinforcing Skill Calls with Outcome Rewards", year=2026)
    harness = SourceFactory.create(slug="polarharness", short_name="PolarHarness", title="PolarHarness", year=2026)
    harness2 = SourceFactory.create(slug="recurva", short_name="Recurva", title="Recurva", year=2026)
    sft = SourceFactory.create(slug="tasksmith", short_name="TaskSmith", title="TaskSmith: Terminal Tasks Distilled from Verified Rollouts", year=2026)
    es = SourceFactory.create(slug="evoopt", short_name="EvoOpt", title="EvoOpt: Evolving Agent Weights on a Small Memory Budget", year=2026)
    split = SourceFactory.create(slug="herder", short_name="Herder", title="Herder: Programmable Meta-Agents with Reversible Traces", year=2026)
    split_rl = ComponentFactory.create(source=split, slug="branch-grpo", name="Branch-GRPO")
    split_runtime = ComponentFactory.create(source=split, slug="overseer-cro", name="overseer and CRO")
    narrow = SourceFactory.create(slug="lookfirst", short_name="LookFirst", title="LookFirst: Safety Checks Before Acting", year=2026)
    env = SourceFactory.create(slug="shopworld", short_name="ShopWorld", title="ShopWorld: A Web Environment for Agents", year=2024,
                               kind="environment")
    guide = SourceFactory.create(slug="harness-guide", short_name="Harness Guide", title="The Harness Guide to Agent RL", kind="blog")
    body = (
        "这些工作怎样算 [[Agentic RL]]，见各条要点。\n\n## 关键要点\n\n"
        f"- GripForge 是严格 Agentic RL 的正例：GRPO 同时更新环境动作和 skill calling；它与 Recurva、PolarHarness 形成“策略更新”与“外部 harness 演化”的对照。{cite(grpo)}\n"
        f"- TaskSmith 在可执行 terminal 环境中生成 rollout，但实际用这些轨迹做 SFT，论文没有用环境回报更新 agent policy。{cite(sft, locator='§3.1 / §5')}\n"
        f"- EvoOpt 用轨迹回报更新完整参数，但采用 evolution strategy（参数空间 ES），而非策略梯度式 RL。{cite(es, locator='pp.3-4')}\n"
        f"- Herder 的 Branch-GRPO 用 clipped GRPO 更新 worker policy；运行时 overseer 与 CRO 没有参数更新。{cite(split, locator='§4.3')}\n"
        f"- LookFirst 用 GRPO 训练动作前的安全检查，是严格但较窄的正例。{cite(narrow)}\n"
        f"- ShopWorld 定义多步环境和终局 reward，但只评测固定模型。{cite(env)}\n"
    )
    page = PageFactory.create(slug="contrast-wiki", title="Contrast Wiki", body=body)
    grpo_claim, sft_claim, es_claim, split_claim, narrow_claim, env_claim = claims_of(page)
    grpo_claim.about.add(grpo, harness, harness2)
    ClassificationFactory.create(source=grpo, algorithm="GRPO", updated="agent policy and skill calling", evidence_claim=grpo_claim)
    harness_facts = {"interactive_env": None, "multi_step": None, "verifiable_reward": None, "rl_update": False}
    ClassificationFactory.create(source=harness, mechanism="harness", verdict="not_strict", **harness_facts, evidence_claim=grpo_claim)
    ClassificationFactory.create(source=harness2, mechanism="harness", verdict="not_strict", **harness_facts, evidence_claim=grpo_claim)
    ClassificationFactory.create(source=sft, mechanism="sft_distillation", verdict="not_strict", rl_update=False, algorithm="SFT",
                                 evidence_claim=sft_claim, evidence_locator="§3.1 / §5")
    ClassificationFactory.create(source=es, mechanism="evolution_strategies", verdict="adjacent", rl_update=False,
                                 algorithm="evolution strategy", evidence_claim=es_claim, evidence_locator="pp.3-4")
    ClassificationFactory.create(source=split, component=split_rl, algorithm="Branch-GRPO", evidence_claim=split_claim,
                                 evidence_locator="§4.3")
    ClassificationFactory.create(source=split, component=split_runtime, mechanism="harness", verdict="not_strict",
                                 verifiable_reward=None, rl_update=False, evidence_claim=split_claim)
    ClassificationFactory.create(source=narrow, verdict="strict_narrow", narrow=True, algorithm="GRPO", evidence_claim=narrow_claim)
    ClassificationFactory.create(source=env, mechanism="environment", verdict="not_strict", rl_update=False, evidence_claim=env_claim)
    harness_axis = "策略更新 vs 外部 harness 演化 / policy update vs external harness evolution"
    make_contrast(grpo, harness, axis=harness_axis, claim=grpo_claim)
    make_contrast(grpo, harness2, axis=harness_axis, claim=grpo_claim)
    make_contrast(sft, grpo, axis="SFT vs GRPO 策略更新 / SFT on verifier-filtered trajectories vs GRPO policy update", claim=sft_claim)
    make_contrast(es, grpo, axis="参数空间 ES vs 策略梯度式 RL / parameter-space evolution strategy vs policy-gradient RL", claim=es_claim)
    make_contrast(split, split, left_component=split_rl, right_component=split_runtime,
                  axis="参数更新 vs 无参数更新 / parameter update vs no parameter update", claim=split_claim)
    make_contrast(guide, env, axis="policy 训练 vs 环境层 / policy training vs environment layer")
    make_question(page=page, title="Herder 的 overseer 是否算 policy？", priority="high")
    return ContrastWiki(page=page, grpo=grpo, harness=harness, harness2=harness2, sft=sft, es=es, split=split,
                        split_rl=split_rl, split_runtime=split_runtime, narrow=narrow, env=env,
                        unclassified=guide)
