"""Classifications per second on the dev set (one core, no caching), and the slowest hostile texts.

Each round prints two rates: per second of wall-clock time, and per second of this process's own CPU time.
On a machine shared with other work the first falls whenever the process waits for the core; the second is
what one core does, and moves far less between runs.

    .venv/bin/python benchmarks/classify_bench.py [--seconds 3] [--rounds 5]
    .venv/bin/python benchmarks/classify_bench.py --hostile [--length 20000]

``--hostile`` times texts made to make a regular expression re-read them (long runs of one kind of
character or word) at the length the classify API accepts, with and without a subject.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from classifier import classify  # noqa: E402

DEV_SET = ROOT / "tests" / "classifier" / "data" / "classification_dev.json"


def hostile_texts(length: int) -> dict[str, str]:
    runs = {
        "spaces": " ", "tabs": "\t", "no-break spaces": "\u00a0", "newlines": "\n", "letters": "a",
        "commas and spaces": ", ", "full stops": ". ", "Chinese": "强化学习", "words": "agent ",
        "we propose": "we propose ", "existing": "existing ", "not": "not ", "outperforms": "outperforms ",
        "training the": "training the ", "source notes": "（来源：", "hyphens": "a-", "quote": "“a b ",
    }
    return {name: ("We train an agent with GRPO. " + run * length)[:length] for name, run in runs.items()}


def hostile(length: int) -> None:
    timings = []
    for name, text in hostile_texts(length).items():
        for subject in (None, "agent"):
            start = time.perf_counter()
            classify(text, subject)
            timings.append((time.perf_counter() - start, name, subject))
    for seconds, name, subject in sorted(timings, reverse=True)[:8]:
        print(f"{seconds:7.3f}s  {name} ({length:,} chars){', subject ' + subject if subject else ''}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of a round")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to run, with their median and best")
    parser.add_argument("--file", type=Path, default=DEV_SET)
    parser.add_argument("--hostile", action="store_true", help="time hostile texts instead")
    parser.add_argument("--length", type=int, default=20_000, help="hostile texts' length (the API's limit)")
    args = parser.parse_args()
    if args.hostile:
        hostile(args.length)
        return 0
    items = json.loads(args.file.read_text(encoding="utf-8"))
    pairs = [(item["text"], item.get("subject") or item.get("name")) for item in items]
    start = time.perf_counter()
    classify(*pairs[0])
    print(f"weights loaded and first text classified in {time.perf_counter() - start:.2f}s")
    chars = sum(len(t) for t, _ in pairs) / len(pairs)
    rates, cpu_rates = [], []
    for _ in range(args.rounds):
        done = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < args.seconds:
            for text, subject in pairs:
                classify(text, subject)
            done += len(pairs)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        rates.append(done / elapsed)
        cpu_rates.append(done / cpu)
        print(f"{done} classifications in {elapsed:.2f}s: {done / elapsed:,.0f}/s, "
              f"{done / cpu:,.0f} per CPU second ({len(pairs)} items, mean {chars:.0f} chars)")
    if args.rounds > 1:
        print(f"median {statistics.median(rates):,.0f}/s, best {max(rates):,.0f}/s over {args.rounds} rounds; "
              f"per CPU second median {statistics.median(cpu_rates):,.0f}, best {max(cpu_rates):,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
