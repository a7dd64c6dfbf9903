"""How well claims keep their identity when reworded, on the wiki's own sentences.

    .venv/bin/python benchmarks/claim_matching.py [--threshold 0.55] [--negatives 400] [--show 5]

The sentences of both seed documents (the scraped text in ../shared/seeds/ and the Markdown in
fixtures/pages/) are edited the way editors edit: a typo fixed, a qualifier added, a citation or its
locator changed, re-punctuation, one word replaced, a clause dropped, two edits at once; plus the
hand-written edits in tests/wiki/data/claim_edits.json. Each edited sentence is matched inside its
whole document (every other sentence of the page is a candidate too). Negative pairs are different
claims of the same document, the most similar ones first: matching one to the other must never
keep the identity. Prints the share of rewordings that kept their claim and the number of
different claims given one identity.

Then what a save does beyond one sentence: a sentence coming back (edited once) as an orphan had it
before its last text, which must restore that orphan; a sentence of two or more parts split in its
place into pieces each given a qualifier and edited once more, which must keep the claim on one piece and name it on the other; and a sentence replaced in
its place by two other sentences of the page, which must not be taken for a split. Then the short
clauses of the documents (six to eleven letters and digits, as ``奖励模型需要校准``): given a word
saying the same (``需要`` → ``必须``), a qualifier or a typo, each must keep its claim; with two of its
characters replaced by two of another clause (another subject, as ``记忆`` → ``规划``), none may. Last,
the time to match a rewritten page of 2,000 claims.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wiki.text.claim_matching import (  # noqa: E402
    CONTAINMENT,
    THRESHOLD,
    Outcome,
    Previous,
    Sentence,
    dice,
    features,
    match_claims,
    normalise,
)
from wiki.text.claim_words import INTERCHANGEABLE  # noqa: E402

# The scraped seed documents sit beside the repository (../shared/seeds), or beside its parent for a worktree.
SEEDS = next((p for p in (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds") if p.is_dir()), None)
DOCUMENTS = [*(sorted(SEEDS.glob("*.txt")) if SEEDS else []), *sorted((ROOT / "fixtures" / "pages").glob("*.md"))]
HAND_WRITTEN = ROOT / "tests" / "wiki" / "data" / "claim_edits.json"
CITATION = re.compile(r"（(来源|综合)：([^（）\n]*)）")
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
QUALIFIERS_ZH = ["通常", "在多数设置下", "明显", "至少在原论文中", "（初步）"]
QUALIFIERS_EN = ["largely ", "in practice ", "often ", "arguably "]
WORD_SWAPS = [("严格", "狭义"), ("更新", "优化"), ("论文", "原文"), ("重要", "关键"), ("不能", "不应"), ("环境", "环境中"),
              ("policy", "policies"), ("model", "models"), ("reward", "rewards"), ("RL", "reinforcement learning"),
              ("是", "属于"), ("Agent", "agent"), ("训练", "训练过程")]
PUNCT_SWAPS = [("，", "、"), ("。", "；"), ("：", ":"), ("，", ", "), ("“", "「"), ("”", "」"), ("（", "("), ("）", ")")]


def is_sentence(line: str) -> bool:
    """A statement rather than a heading, a table row, a formula or a label ("Search / Research Agent")."""
    if line.startswith(("#", "|", "$", "\\")):
        return False
    return bool(re.search(r"[，。；：,.;:！？!?]", line)) or len(normalise(line)) >= 30


def sentences_of(path: Path) -> list[str]:
    """Each line that states something, without its list marker and without duplicates."""
    out: list[str] = []
    seen: list[Counter[str]] = []
    text = FRONT_MATTER.sub("", path.read_text(encoding="utf-8"))
    lines = [MARKER.sub("", line).strip() for line in text.splitlines()]
    for line in sorted({line for line in lines if len(normalise(line)) >= 12 and is_sentence(line)}, key=lines.index):
        grams = features(CITATION.sub("", line))
        # The scraped text repeats itself (formulas twice, the summary in the front matter): keep one of each.
        if any(_contained(grams, other) or _contained(other, grams) for other in seen):
            continue
        seen.append(grams)
        out.append(line)
    return out


def _contained(piece: Counter[str], whole: Counter[str]) -> bool:
    return piece.total() > 0 and (piece & whole).total() / piece.total() >= CONTAINMENT


def statement(text: str) -> str:
    return CITATION.sub("", text).strip() or text


def typo(text: str, rng: random.Random) -> str | None:
    words = list(re.finditer(r"[A-Za-z]{5,}", text))
    if words:
        m = rng.choice(words)
        w = m.group(0)
        k = rng.randrange(1, len(w) - 2)
        return text[: m.start()] + w[:k] + w[k + 1] + w[k] + w[k + 2 :] + text[m.end() :]
    chars = [i for i, c in enumerate(text) if "\u4e00" <= c <= "\u9fff"]
    if not chars:
        return None
    i = rng.choice(chars)
    return text[:i] + ("得" if text[i] != "得" else "的") + text[i + 1 :]


def qualifier(text: str, rng: random.Random) -> str | None:
    cuts = [m.end() for m in re.finditer(r"[，：；]", text)] or [0]
    at = rng.choice(cuts)
    words = QUALIFIERS_ZH if re.search(r"[\u4e00-\u9fff]", text) else QUALIFIERS_EN
    return text[:at] + rng.choice(words) + text[at:]


def citation(text: str, rng: random.Random) -> str | None:
    m = CITATION.search(text)
    if m is None:
        return text.rstrip("。") + "。（来源：The Landscape of Agentic Reinforcement Learning for LLMs: A Survey，§3）"
    body = m.group(2)
    if "，" in body:
        head, locator = body.rsplit("，", 1)
        locator = re.sub(r"\d+", lambda d: str(int(d.group(0)) + 1), locator, count=1)
        body = f"{head}，{locator}"
    else:
        body = f"{body}，pp.{rng.randrange(1, 20)}-{rng.randrange(20, 30)}"
    return text[: m.start()] + f"（{m.group(1)}：{body}）" + text[m.end() :]


def repunctuate(text: str, rng: random.Random) -> str | None:
    options = [(a, b) for a, b in PUNCT_SWAPS if a in text]
    if not options:
        return text.replace(" ", "", 1) if " " in text else None
    a, b = rng.choice(options)
    return text.replace(a, b)


def one_word(text: str, rng: random.Random) -> str | None:
    options = [(a, b) for a, b in WORD_SWAPS if a in text]
    if not options:
        return None
    a, b = rng.choice(options)
    return text.replace(a, b, 1)


def drop_clause(text: str, rng: random.Random) -> str | None:
    clauses = list(re.finditer(r"[^，；。,;]+[，；。,;]", statement(text)))
    small = [m for m in clauses if len(m.group(0)) <= 0.25 * len(text)]
    if len(clauses) < 3 or not small:
        return None
    m = rng.choice(small)
    return text[: m.start()] + text[m.end() :]


EDITS = {"typo": typo, "qualifier": qualifier, "citation": citation, "re-punctuation": repunctuate,
         "one word": one_word, "dropped clause": drop_clause}


def edited_pairs(rng: random.Random) -> list[tuple[int, str, str, str]]:
    """(document index, kind, old, new) for every sentence and every edit that applies to it, and two edits at once."""
    pairs = []
    for d, path in enumerate(DOCUMENTS):
        for old in sentences_of(path):
            for kind, edit in EDITS.items():
                new = edit(old, rng)
                if new and new != old:
                    pairs.append((d, kind, old, new))
            first, second = rng.sample(sorted(EDITS), 2)
            new = EDITS[first](old, rng)
            new = EDITS[second](new, rng) if new else None
            if new and new != old:
                pairs.append((d, "two edits", old, new))
    return pairs


def run(threshold: float, negatives: int, show: int) -> int:
    rng = random.Random(16)
    documents = [sentences_of(path) for path in DOCUMENTS]
    pairs = edited_pairs(rng)
    for row in json.loads(HAND_WRITTEN.read_text(encoding="utf-8")):
        pairs.append((-1, "hand-written", row["old"], row["new"]))
    kept: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong = 0
    misses: list[tuple[str, str, str, str]] = []
    start = time.perf_counter()
    for d, kind, old, new in pairs:
        page = documents[d] if d >= 0 else [old]
        index = page.index(old)
        previous = [Previous(id=i, text=statement(t), position=i) for i, t in enumerate(page)]
        sentences = [Sentence(text=statement(new if i == index else t), position=i) for i, t in enumerate(page)]
        plan = match_claims(previous, sentences, threshold=threshold).for_sentence()
        total[kind] += 1
        found = plan[index]
        if found.claim_id == index:
            kept[kind] += 1
        else:
            misses.append((kind, found.outcome, old, new))
        wrong += sum(1 for i, m in plan.items() if m.claim_id is not None and m.claim_id != i)
    elapsed = time.perf_counter() - start

    hard: list[tuple[float, str, str]] = []
    for page in documents:
        grams = [features(statement(text)) for text in page]
        for x in range(len(page)):
            for y in range(len(page)):
                if x != y:
                    hard.append((dice(grams[x], grams[y]), page[x], page[y]))
    hard.sort(reverse=True)
    chosen = hard[:negatives]
    merged = []
    for score, first, second in chosen:
        negative = match_claims([Previous(id=1, text=statement(first), position=0)],
                                [Sentence(text=statement(second), position=0)], threshold=threshold)
        if negative.for_sentence()[0].claim_id is not None:
            merged.append((score, first, second))

    true_total = sum(total.values())
    print(f"threshold {threshold}; {len(DOCUMENTS)} documents, {sum(map(len, documents))} sentences")
    print(f"true rewordings: {true_total} pairs, identity kept for {sum(kept.values())} "
          f"({100 * sum(kept.values()) / true_total:.1f}%), each matched inside its whole document")
    for kind in sorted(total):
        print(f"  {kind:15} {kept[kind]:4}/{total[kind]:<4} {100 * kept[kind] / total[kind]:5.1f}%")
    print(f"other sentences given a wrong identity in those documents: {wrong}")
    print(f"negative pairs (different claims, the {len(chosen)} most similar ordered pairs of the same documents): "
          f"{len(merged)} given one identity; highest similarity among them {chosen[0][0]:.3f}")
    print(f"matching time: {1000 * elapsed / len(pairs):.1f} ms per document save")
    for kind, outcome, old, new in misses[:show]:
        print(f"  MISS {kind} -> {outcome}: {old[:70]} || {new[:70]}")
    for score, first, second in chosen[:show]:
        print(f"  nearest different claims {score:.3f}: {first[:60]} || {second[:60]}")
    for score, first, second in merged[:show]:
        print(f"  MERGED {score:.3f}: {first[:70]} || {second[:70]}")
    false_splits = beyond_one_sentence(documents, rng)
    other_subjects = short_clauses(documents, rng, show)
    return 0 if not merged and not wrong and not false_splits and not other_subjects else 1


def _page_with(page: list[str], index: int, replacement: list[str]) -> list[Sentence]:
    texts = page[:index] + replacement + page[index + 1 :]
    return [Sentence(text=statement(t), position=i) for i, t in enumerate(texts)]


def beyond_one_sentence(documents: list[list[str]], rng: random.Random) -> int:
    """Restores from an earlier text, splits in place, and the number of replacements taken for splits."""
    restored = restores = splits_kept = splits = false_splits = replacements = 0
    edits = [EDITS["typo"], EDITS["qualifier"], EDITS["one word"], EDITS["re-punctuation"]]
    for page in documents:
        for index, old in enumerate(page):
            # The orphan's last text is another sentence of the page; the returning one was its text before.
            other = page[(index + len(page) // 2) % len(page)]
            back = next((new for edit in rng.sample(edits, len(edits)) if (new := edit(old, rng))), old)
            previous = [Previous(id=i, text=statement(t), position=i) for i, t in enumerate(page) if i != index]
            previous.append(Previous(id=index, text=statement(other), position=index, orphaned=True,
                                     earlier=(statement(old),)))
            found = match_claims(previous, _page_with(page, index, [back])).for_sentence()[index]
            restores += 1
            restored += found.claim_id == index and found.outcome is Outcome.RESTORED
            parts = [p for p in re.split(r"(?<=[。；;！？!?])\s*", statement(old)) if len(normalise(p)) >= 10]
            if len(parts) < 2:
                parts = [p for p in re.split(r"(?<=[，,：:])\s*", statement(old)) if len(normalise(p)) >= 10]
            if len(parts) >= 2 and index + 1 < len(page):
                half = (len(parts) + 1) // 2
                pieces = ["".join(parts[:half]), "".join(parts[half:])]
                # Each piece made to stand alone: a qualifier added and a word changed or a typo fixed.
                pieces = [EDITS["qualifier"](p, rng) or p for p in pieces]
                pieces = [next((new for edit in rng.sample(edits[::2], 2) if (new := edit(p, rng))), p) for p in pieces]
                previous = [Previous(id=i, text=statement(t), position=i) for i, t in enumerate(page)]
                plan = match_claims(previous, _page_with(page, index, pieces)).for_sentence()
                splits += 1
                a, b = plan[index], plan[index + 1]
                splits_kept += (a.claim_id, b.related) == (index, index) or (b.claim_id, a.related) == (index, index)
            if 0 < index < len(page) - 2:
                # Two other sentences of the page in its place (their own claims gone): never a split.
                replacement = [page[(index + 7) % len(page)], page[(index + 13) % len(page)]]
                previous = [Previous(id=i, text=statement(t), position=i) for i, t in enumerate(page)
                            if t not in replacement]
                plan = match_claims(previous, _page_with(page, index, replacement)).for_sentence()
                replacements += 1
                false_splits += any(plan[j].claim_id == index or plan[j].related == index for j in (index, index + 1))
    print(f"orphans coming back as an earlier text (edited once): {restored}/{restores} restored")
    print(f"sentences split in their place, each piece given a qualifier and edited once: {splits_kept}/{splits} "
          "kept their claim on one piece, named on the other")
    print(f"sentences replaced in their place by two other sentences: {false_splits}/{replacements} taken for a split")
    before = [f"第 {i} 条：agent {i} 用 GRPO 在环境 env-{i} 上以 reward-{i} 更新 policy-{i}，并记录 trace-{i}。" for i in range(2000)]
    after = [f"条目 {i}：在 sandbox-{i} 里，planner {i} 以 SFT 拟合 demo-{i}；没有 reward。" for i in range(2000)]
    start = time.perf_counter()
    match_claims([Previous(id=i, text=t, position=i) for i, t in enumerate(before)],
                 [Sentence(text=t, position=i) for i, t in enumerate(after)])
    print(f"a page of 2,000 claims rewritten: {1000 * (time.perf_counter() - start):.0f} ms")
    return false_splits


def clauses_of(documents: list[list[str]]) -> list[str]:
    """The short Chinese clauses of the documents' sentences (cut at punctuation), each once."""
    out: list[str] = []
    for page in documents:
        for text in page:
            for clause in re.split(r"[，。；：,;:！？!?（）()、“”]", statement(text)):
                clause = clause.strip()
                if 6 <= len(normalise(clause)) <= 11 and re.search(r"[\u4e00-\u9fff]{4}", clause) \
                        and features(clause).total() < 10 and clause not in out:
                    out.append(clause)
    return out


def same_claim(old: str, new: str) -> bool:
    plan = match_claims([Previous(id=1, text=old, position=0)], [Sentence(text=new, position=0)])
    return plan.for_sentence()[0].claim_id == 1


def short_clauses(documents: list[list[str]], rng: random.Random, show: int) -> int:
    """Short clauses reworded (a word saying the same, a qualifier, a typo) and given another subject; returns how many
    of the latter kept the claim."""
    clauses = clauses_of(documents)
    words = [(word, group) for group in INTERCHANGEABLE for word in group if re.match(r"[\u4e00-\u9fff]", word)]
    reworded: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    other = 0
    wrong: list[tuple[str, str]] = []
    for clause in clauses:
        edits = {"interchangeable word": next((clause.replace(word, rng.choice([w for w in group if w != word]), 1)
                                               for word, group in words if word in clause), None),
                 "qualifier": EDITS["qualifier"](clause, rng), "typo": EDITS["typo"](clause, rng)}
        for kind, new in edits.items():
            if new and new != clause:
                reworded[kind] += 1
                kept[kind] += same_claim(clause, new)
        chars = [i for i in range(len(clause) - 1) if re.fullmatch(r"[\u4e00-\u9fff]{2}", clause[i : i + 2])]
        donor = rng.choice([c for c in clauses if c != clause])
        pairs = [donor[i : i + 2] for i in range(len(donor) - 1) if re.fullmatch(r"[\u4e00-\u9fff]{2}", donor[i : i + 2])]
        if not chars or not pairs:
            continue
        at = rng.choice(chars)
        pair = rng.choice(pairs)
        new = clause[:at] + pair + clause[at + 2 :]
        if pair[0] == clause[at] or pair[1] == clause[at + 1] or any(w in clause[at : at + 2] for w, _ in words):
            continue
        other += 1
        if same_claim(clause, new):
            wrong.append((clause, new))
    print(f"short clauses ({len(clauses)}): reworded, identity kept for "
          + ", ".join(f"{kind} {kept[kind]}/{reworded[kind]}" for kind in sorted(reworded)))
    print(f"short clauses with two characters replaced by two of another clause: {len(wrong)}/{other} kept the claim")
    for clause, new in wrong[:show]:
        print(f"  SAME CLAIM: {clause} || {new}")
    return len(wrong)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--negatives", type=int, default=400)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    return run(args.threshold, args.negatives, args.show)


if __name__ == "__main__":
    raise SystemExit(main())
