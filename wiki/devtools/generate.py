"""Generating large, realistic wikis for benchmarks and query-count tests.

Everything is written with ``bulk_create`` in batches; page bodies go through the real
Markdown pipeline (:func:`wiki.markdown.render`) so that generated pages, claims, citations and
links look exactly like those the editors' services write. Search documents are not built here:
the returned :class:`GeneratedWiki` holds the ids to index afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Never, TypeVar

from django.db import transaction
from django.db.models import Model
from tqdm import tqdm

from classifier.taxonomy import Mechanism, Verdict, rubric_verdict
from wiki import markdown as wiki_markdown
from wiki.markdown import SourceRef
from wiki.markdown.wikilinks import link_key, target_slug
from wiki.models import (
    ChangeEvent,
    Citation,
    Claim,
    ClaimStatus,
    Classification,
    Component,
    Contrast,
    OpenQuestion,
    Page,
    QuestionPriority,
    QuestionStatus,
    Revision,
    SetBy,
    Source,
    SourceKind,
    WikiLink,
)
from wiki.services.pages import link_targets

BATCH = 2000
T = TypeVar("T")
M = TypeVar("M", bound=Model)

_PREFIXES = ["Skill", "Tree", "Flash", "Web", "Agent", "Reward", "Tool", "Code", "Star", "Terminal", "Trace", "Deep",
             "Meta", "Auto", "Open", "Long", "Gui", "Browse", "Step", "Plan"]
_SUFFIXES = ["Forge", "Harness", "RL", "Bench", "Search", "Gym", "Pilot", "Critic", "Loop", "Mind", "Arena", "Smith",
             "Tune", "Guard", "Runner", "Zero"]
_TOPICS_EN = ["long-horizon web agents", "tool-use reasoning", "terminal tasks", "computer-use agents",
              "software engineering agents", "multi-turn dialogue agents", "research agents", "GUI navigation",
              "embodied household tasks", "data-science notebooks"]
_TOPICS_ZH = ["长程网页任务", "工具调用推理", "终端任务", "计算机使用 Agent", "软件工程 Agent", "多轮对话 Agent",
              "自动研究 Agent", "GUI 导航", "具身家务任务", "数据科学笔记本"]
_PAGE_TOPICS = ["信用分配", "Reward Hacking", "Process Reward", "Rollout 成本", "Tool-Use RL", "环境构建",
                "Verifier Design", "Skill Library", "Self-Play", "Off-Policy Correction", "Harness Evolution",
                "Preference Optimization 边界", "Test-Time Search", "Trajectory Distillation", "Async Rollout"]
_LINK_TARGETS = ["Agentic RL", "GRPO", "Policy Gradient", "Credit Assignment", "Evolution Strategies", "Reward Model",
                 "Supervised Fine-Tuning", "DPO", "REINFORCE"]

# How often each mechanism is drawn: policy-gradient works dominate a real Agentic RL reading list. A mechanism
# not named in the tables below (a new record) is drawn as often as the rarest and described by its labels.
_SHARES: dict[Mechanism, float] = {
    Mechanism.POLICY_GRADIENT: 5, Mechanism.EVOLUTION_STRATEGIES: 1, Mechanism.SFT_DISTILLATION: 2,
    Mechanism.PREFERENCE_OPTIMIZATION: 1, Mechanism.INFERENCE_TIME_SEARCH: 1, Mechanism.HARNESS: 2,
    Mechanism.ENVIRONMENT: 1.5, Mechanism.INFRASTRUCTURE: 1,
}
_ALGORITHMS: dict[Mechanism, list[str]] = {
    Mechanism.POLICY_GRADIENT: ["GRPO", "PPO", "REINFORCE++", "RLOO", "actor-critic", "Tree-GRPO"],
    Mechanism.EVOLUTION_STRATEGIES: ["evolution strategy", "CMA-ES", "OpenAI-ES"],
    Mechanism.SFT_DISTILLATION: ["SFT", "rejection-sampling fine-tuning", "distillation"],
    Mechanism.PREFERENCE_OPTIMIZATION: ["DPO", "KTO", "IPO", "step-DPO"],
    Mechanism.INFERENCE_TIME_SEARCH: ["MCTS", "best-of-N", "beam search"],
    Mechanism.HARNESS: ["", "skill evolution", "prompt optimisation"],
    Mechanism.ENVIRONMENT: [""],
    Mechanism.INFRASTRUCTURE: [""],
}
_UPDATED: dict[Mechanism, list[str]] = {
    Mechanism.POLICY_GRADIENT: ["agent policy", "agent policy (env actions + tool calls)", "LoRA adapters of the agent"],
    Mechanism.EVOLUTION_STRATEGIES: ["full model parameters"],
    Mechanism.SFT_DISTILLATION: ["student model weights"],
    Mechanism.PREFERENCE_OPTIMIZATION: ["policy weights"],
    Mechanism.INFERENCE_TIME_SEARCH: [""],
    Mechanism.HARNESS: ["external harness / skill bank, not the policy"],
    Mechanism.ENVIRONMENT: [""],
    Mechanism.INFRASTRUCTURE: [""],
}
_KIND_BY_MECHANISM: dict[Mechanism, str] = {
    Mechanism.ENVIRONMENT: SourceKind.ENVIRONMENT,
    Mechanism.INFRASTRUCTURE: SourceKind.FRAMEWORK,
    Mechanism.HARNESS: SourceKind.PROJECT,
}
# Sentences per mechanism: {work} is the cited work, {algo} its algorithm, {topic} a task domain.
_SENTENCES: dict[Mechanism, list[str]] = {
    Mechanism.POLICY_GRADIENT: [
        "{work} 是严格 Agentic RL 的正例：{algo} 依据{topic}中的 outcome reward 更新 agent policy",
        "{work} trains the agent policy with {algo} on multi-step rollouts in {topic_en}, using a verifiable reward",
    ],
    Mechanism.EVOLUTION_STRATEGIES: [
        "{work} 用轨迹回报更新完整参数，但采用 {algo}，而非策略梯度式 RL",
    ],
    Mechanism.SFT_DISTILLATION: [
        "{work} 在{topic}中生成 rollout 并用 verifier 筛选成功轨迹，但只做 {algo}，没有用环境回报更新 agent policy",
        "{work} distils filtered trajectories from {topic_en} with {algo}; there is no RL update of the policy",
    ],
    Mechanism.PREFERENCE_OPTIMIZATION: [
        "{work} 用 {algo} 更新参数，但偏好并非来自可执行环境中的 agent rollout",
    ],
    Mechanism.INFERENCE_TIME_SEARCH: [
        "{work} 在推理时用 {algo} 搜索{topic}的动作序列，没有参数更新",
    ],
    Mechanism.HARNESS: [
        "{work} 只演化外部 harness 与 skill bank，不更新模型参数，属于{topic}的 scaffold 工程",
        "{work} evolves an external harness for {topic_en} without any parameter update",
    ],
    Mechanism.ENVIRONMENT: [
        "{work} 定义了{topic}的多步环境和终局 reward，但原论文只评测固定模型",
    ],
    Mechanism.INFRASTRUCTURE: [
        "{work} 提供 rollout 与分布式训练基础设施，本身不是一种 RL 算法",
    ],
}


@dataclass
class GeneratedWiki:
    """What one run wrote: the ids to index or inspect afterwards."""

    tag: str
    source_ids: list[int] = field(default_factory=list)
    component_ids: list[int] = field(default_factory=list)
    page_ids: list[int] = field(default_factory=list)
    claim_ids: list[int] = field(default_factory=list)
    question_ids: list[int] = field(default_factory=list)
    contrast_ids: list[int] = field(default_factory=list)
    classification_ids: list[int] = field(default_factory=list)
    citations: int = 0

    def lines(self) -> list[str]:
        return [
            f"run {self.tag}: {len(self.source_ids)} works, {len(self.component_ids)} components, "
            f"{len(self.classification_ids)} classifications, {len(self.page_ids)} pages, {len(self.claim_ids)} claims, "
            f"{self.citations} citations, {len(self.contrast_ids)} contrasts, {len(self.question_ids)} open questions"
        ]


@dataclass
class _Work:
    index: int
    short_name: str
    title: str
    mechanism: Mechanism
    algorithm: str
    components: list[tuple[str, str, Mechanism]] = field(default_factory=list)
    source: Source = field(init=False)  # set once the sources are created


def _batched(items: Sequence[T], size: int = BATCH) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _bulk(model: type[M], rows: Sequence[M], bar: tqdm[Never] | None = None) -> list[M]:
    created: list[M] = []
    for chunk in _batched(rows):
        created += model._default_manager.bulk_create(chunk)
        if bar is not None:
            bar.update(len(chunk))
    return created


def _run_tag(seed: int) -> str:
    """A slug prefix no earlier run used, so that several runs can share one database."""
    n = 1
    while Source.objects.filter(slug__startswith=f"g{seed}r{n}-").exists():
        n += 1
    return f"g{seed}r{n}"


def _locator(rng: random.Random) -> str:
    first = rng.randint(1, 30)
    return rng.choice([f"pp.{first}-{first + rng.randint(1, 4)}", f"§{rng.randint(1, 7)}.{rng.randint(1, 5)}",
                       f"Table {rng.randint(1, 9)}", f"Fig. {rng.randint(1, 12)}", f"p.{first}", ""])


def _facts(mechanism: Mechanism, rng: random.Random) -> dict[str, bool]:
    interacts = mechanism not in (Mechanism.PREFERENCE_OPTIMIZATION, Mechanism.INFRASTRUCTURE) or rng.random() < 0.3
    return {
        "interactive_env": interacts,
        "multi_step": interacts and rng.random() < 0.95,
        "verifiable_reward": mechanism not in (Mechanism.HARNESS, Mechanism.INFRASTRUCTURE) and rng.random() < 0.9,
        "rl_update": mechanism is Mechanism.POLICY_GRADIENT and rng.random() < 0.92,
    }


def _make_works(*, count: int, tag: str, rng: random.Random) -> list[_Work]:
    mechanisms = list(Mechanism)
    weights = [_SHARES.get(m, 1) for m in mechanisms]
    works: list[_Work] = []
    for i in range(count):
        mechanism = rng.choices(mechanisms, weights)[0]
        short = f"{rng.choice(_PREFIXES)}{rng.choice(_SUFFIXES)}-{tag.upper()}-{i + 1}"
        topic = rng.randrange(len(_TOPICS_EN))
        title = f"{short}: {rng.choice(['Scaling', 'Learning', 'Evolving', 'Benchmarking', 'Training'])} agents for {_TOPICS_EN[topic]}"
        work = _Work(i, short, title, mechanism, rng.choice(_ALGORITHMS.get(mechanism, [""])))
        if rng.random() < 0.05:
            work.components = [("trainer", "Trainer", Mechanism.POLICY_GRADIENT),
                               ("runtime-supervisor", "Runtime supervisor", Mechanism.HARNESS)]
        works.append(work)
    return works


def _sentences(mechanism: Mechanism) -> list[str]:
    return _SENTENCES.get(mechanism) or [f"{{work}} 在{{topic}}中属于{mechanism.label_zh}",
                                         f"{{work}} is {mechanism.label} for {{topic_en}}"]


def _claim_text(work: _Work, rng: random.Random, serial: int) -> str:
    topic = rng.randrange(len(_TOPICS_EN))
    sentence = rng.choice(_sentences(work.mechanism)).format(
        work=work.short_name, algo=work.algorithm or "scaffold", topic=_TOPICS_ZH[topic], topic_en=_TOPICS_EN[topic]
    )
    return f"{sentence}（实验 {serial}）"


def _page_body(*, title: str, works: Sequence[_Work], n_claims: int, rng: random.Random, page_titles: Sequence[str],
               serial: int) -> tuple[str, list[tuple[_Work, _Work]]]:
    """A page in the wiki's own form: summary, key points citing works, contrasts, scope, open questions."""
    pairs: list[tuple[_Work, _Work]] = []
    lines = ["## 摘要", "", f"{title} 汇总了 {len(works)} 项工作的训练目标、奖励与更新机制；参见 [[{rng.choice(_LINK_TARGETS)}]]。", "",
             "## 核心内容", "", "### 关键要点", ""]
    for k in range(n_claims):
        work = works[k % len(works)]
        link = f"[[{rng.choice(page_titles)}]]" if rng.random() < 0.3 else ""
        if k % 5 == 4 and len(works) > 1:
            other = works[(k + 1) % len(works)]
            pairs.append((work, other))
            text = (f"{work.short_name} 与 {other.short_name} 形成“{work.mechanism.label}”与“{other.mechanism.label}”的对照 {link}"
                    f"（第 {serial}.{k} 条）（来源：{work.title}、{other.title}，{_locator(rng) or 'p.1'}）")
        else:
            locator = _locator(rng)
            cite = f"（来源：{work.title}，{locator}）" if locator else f"（综合：{work.title}）"
            text = f"{_claim_text(work, rng, serial * 100 + k)}{link}。{cite}"
        lines.append(f"- {text}")
    lines += ["", "## 适用范围与边界", "", "环境可供 RL 使用，不能反推环境论文自身属于 RL。The title never decides: the update does.",
              "", "## 待核实问题", "", f"- {title} 中的结果是否在多 seed 下复现？"]
    return "\n".join(lines), pairs


@transaction.atomic
def wiki_generate(*, works: int, claims: int, pages: int | None = None, seed: int = 0, progress: bool = False) -> GeneratedWiki:
    """Writes ``works`` sources (with classifications and some components), ``pages`` pages holding
    ``claims`` claims in total (default: ten per page), their citations, links, contrasts and questions.

    Deterministic for a given ``seed`` and database; several runs can share one database.
    """
    if works < 2 or claims < 1:
        raise ValueError("at least two works and one claim are needed")
    pages = pages or max(1, claims // 10)
    rng = random.Random(seed)
    tag = _run_tag(seed)
    result = GeneratedWiki(tag=tag)

    def bar(total: int, desc: str) -> tqdm[Never]:
        return tqdm(total=total, desc=desc, disable=not progress, unit="rows", leave=True)

    # works, components, classifications come first: the page bodies cite the works by title
    planned = _make_works(count=works, tag=tag, rng=rng)
    with bar(len(planned), "works") as b:
        sources = [
            Source(slug=f"{tag}-{w.index + 1}", short_name=w.short_name, title=w.title,
                   kind=_KIND_BY_MECHANISM.get(w.mechanism, rng.choice([SourceKind.PAPER, SourceKind.PREPRINT])),
                   year=rng.randint(2019, 2026), authors="; ".join(rng.sample(["Li Wei", "Zhang Min", "A. Smith", "J. Doe", "Wang Fang", "R. Patel"], 2)),
                   venue=rng.choice(["NeurIPS", "ICLR", "ICML", "ACL", "arXiv", ""]),
                   abstract=f"We study {w.mechanism.label.lower()} for {rng.choice(_TOPICS_EN)}. 本文研究{rng.choice(_TOPICS_ZH)}。")
            for w in planned
        ]
        for source in sources:
            source.derive_keys()  # bulk_create skips save(), which derives them
        for w, s in zip(planned, _bulk(Source, sources, b), strict=True):
            w.source = s
    result.source_ids = [w.source.pk for w in planned]

    components = [Component(source=w.source, slug=slug, name=name) for w in planned for slug, name, _ in w.components]
    created_components = _bulk(Component, components)
    result.component_ids = [c.pk for c in created_components]
    component_by_key = {(c.source_id, c.slug): c for c in created_components}

    page_titles = [f"{rng.choice(_PAGE_TOPICS)} {tag}-{i + 1}" for i in range(pages)]
    refs = {w.title: SourceRef(slug=w.source.slug, short_name=w.short_name) for w in planned}
    # Links to the wiki's fixed targets lead where the live renderer sends them: a page, else a glossary entry.
    fixed = link_targets(target_slug(t) for t in _LINK_TARGETS)
    existing = frozenset(target_slug(t) for t in page_titles) | fixed.pages
    per_page, extra = divmod(claims, pages)
    window = max(2, min(12, works))
    page_rows: list[Page] = []
    rendered: list[wiki_markdown.RenderResult] = []
    pairs_by_page: list[list[tuple[_Work, _Work]]] = []
    with bar(pages, "pages rendered") as b:
        for i, title in enumerate(page_titles):
            # each page reads a window of neighbouring works, so that neighbourhoods overlap like a real wiki's
            start = (i * works // pages) % works
            chosen = [planned[(start + j) % works] for j in range(window)]
            body, pairs = _page_body(title=title, works=chosen, n_claims=per_page + (1 if i < extra else 0), rng=rng,
                                     page_titles=page_titles, serial=i + 1)
            out = wiki_markdown.render(body, sources=refs, existing_pages=existing, terms=fixed.terms)
            page_rows.append(Page(slug=target_slug(title), title=title, title_key=link_key(title), summary=f"{title}：生成的测试页面。", body=body,
                                  rendered_html=out.html, toc=out.toc))
            rendered.append(out)
            pairs_by_page.append(pairs)
            b.update(1)
    with bar(pages, "pages") as b:
        created_pages = _bulk(Page, page_rows, b)
    result.page_ids = [p.pk for p in created_pages]
    _bulk(Revision, [Revision(page=p, number=1, title=p.title, summary=p.summary, body=p.body, comment="generated",
                              size=len(p.body), size_delta=len(p.body)) for p in created_pages])
    _bulk(WikiLink, [WikiLink(source_page=p, target_slug=link.target_slug, target_title=link.target_title[:300], label=link.label[:300])
                     for p, out in zip(created_pages, rendered, strict=True) for link in out.links if link.target_slug != p.slug])
    _bulk(ChangeEvent, [ChangeEvent(kind=ChangeEvent.Kind.PAGE, action=ChangeEvent.Action.IMPORTED, object_id=p.pk,
                                    label=p.title, url=p.get_absolute_url(), summary="generated") for p in created_pages])

    statuses = [ClaimStatus.VERIFIED, ClaimStatus.NEEDS_VERIFICATION, ClaimStatus.DISPUTED]
    claim_rows = [
        Claim(page=p, key=ref.key, anchor=ref.anchor, section=ref.section[:300], text=ref.text, position=pos,
              status=rng.choices(statuses, [3, 6, 1])[0])
        for p, out in zip(created_pages, rendered, strict=True) for pos, ref in enumerate(out.claims)
    ]
    with bar(len(claim_rows), "claims") as b:
        created_claims = _bulk(Claim, claim_rows, b)
    result.claim_ids = [c.pk for c in created_claims]

    source_by_title = {w.title: w.source for w in planned}
    citation_rows: list[Citation] = []
    about_rows: list[Model] = []
    first_citation: dict[int, tuple[Claim, str]] = {}
    claim_iter = iter(created_claims)
    claims_by_page: list[list[Claim]] = []
    for out in rendered:
        page_claims = []
        for ref in out.claims:
            claim = next(claim_iter)
            page_claims.append(claim)
            seen: set[tuple[int, str]] = set()
            for position, cited in enumerate(ref.citations):
                source = source_by_title[cited.title]
                if (source.pk, cited.locator) in seen:
                    continue
                seen.add((source.pk, cited.locator))
                citation_rows.append(Citation(claim=claim, source=source, locator=cited.locator, kind=cited.kind, position=position))
                first_citation.setdefault(source.pk, (claim, cited.locator))
            for source_id in {pk for pk, _ in seen}:
                about_rows.append(Claim.about.through(claim_id=claim.pk, source_id=source_id))
        claims_by_page.append(page_claims)
    with bar(len(citation_rows), "citations") as b:
        _bulk(Citation, citation_rows, b)
    _bulk(Claim.about.through, about_rows)
    result.citations = len(citation_rows)

    classification_rows: list[Classification] = []
    for w in planned:
        subjects = [(None, w.mechanism, w.algorithm)] if not w.components else [
            (component_by_key[(w.source.pk, slug)], mech, rng.choice(_ALGORITHMS[mech])) for slug, _, mech in w.components
        ]
        for component, mechanism, algorithm in subjects:
            facts = _facts(mechanism, rng)
            narrow = facts["rl_update"] and rng.random() < 0.1
            verdict = rubric_verdict(mechanism=mechanism, narrow=narrow, **facts)
            if rng.random() < 0.03:  # editors sometimes depart from the rubric, and say why
                verdict = rng.choice([v for v in Verdict if v is not verdict])
            evidence, locator = first_citation.get(w.source.pk, (None, ""))
            classification_rows.append(Classification(
                source=w.source, component=component, mechanism=mechanism.value, algorithm=algorithm,
                updated=rng.choice(_UPDATED.get(mechanism, [""])), narrow=narrow, verdict=verdict.value, evidence_claim=evidence,
                evidence_locator=locator, set_by=rng.choice([SetBy.EDITOR, SetBy.CLASSIFIER]),
                rationale=f"{w.short_name}：{mechanism.label}，{'更新 policy' if facts['rl_update'] else '没有用环境回报更新 policy'}。",
                **facts,
            ))
    with bar(len(classification_rows), "classifications") as b:
        result.classification_ids = [c.pk for c in _bulk(Classification, classification_rows, b)]

    contrast_rows: dict[tuple[int, int], Contrast] = {}
    for page_claims, pairs, out in zip(claims_by_page, pairs_by_page, rendered, strict=True):
        contrast_claims = [c for c, ref in zip(page_claims, out.claims, strict=True) if len({x.title for x in ref.citations}) == 2]
        for claim, (left, right) in zip(contrast_claims, pairs, strict=False):
            key = (left.source.pk, right.source.pk)
            if left.source.pk == right.source.pk or key in contrast_rows or key[::-1] in contrast_rows:
                continue
            contrast_rows[key] = Contrast(left=left.source, right=right.source, claim=claim,
                                          axis=f"{left.mechanism.label} vs {right.mechanism.label}")
    with bar(len(contrast_rows), "contrasts") as b:
        result.contrast_ids = [c.pk for c in _bulk(Contrast, list(contrast_rows.values()), b)]

    question_rows: list[OpenQuestion] = []
    links: list[tuple[int, list[Claim]]] = []
    for i, (page, page_claims) in enumerate(zip(created_pages, claims_by_page, strict=True)):
        if i % 3 or not page_claims:
            continue
        answered = rng.random() < 0.15
        question_rows.append(OpenQuestion(
            page=page, title=f"{page.title}：结果能否在真实环境中复现？", text="需要多 seed 与未见环境的验证。Needs multi-seed runs.",
            status=QuestionStatus.ANSWERED if answered else rng.choice([QuestionStatus.OPEN, QuestionStatus.INVESTIGATING]),
            priority=rng.choice(list(QuestionPriority)), resolution_criteria="A multi-seed replication on unseen environments.",
            answer_claim=page_claims[-1] if answered else None,
        ))
        links.append((len(question_rows) - 1, page_claims[:2]))
    created_questions = _bulk(OpenQuestion, question_rows)
    result.question_ids = [q.pk for q in created_questions]
    cited_by_claim: dict[int, set[int]] = {}
    for citation in citation_rows:
        cited_by_claim.setdefault(citation.claim_id, set()).add(citation.source_id)
    q_claims, q_sources = OpenQuestion.claims.through, OpenQuestion.sources.through
    _bulk(q_claims, [q_claims(openquestion_id=created_questions[i].pk, claim_id=c.pk) for i, cs in links for c in cs])
    _bulk(q_sources, [q_sources(openquestion_id=created_questions[i].pk, source_id=s)
                      for i, cs in links for s in sorted({s for c in cs for s in cited_by_claim.get(c.pk, ())})])
    return result
