"""The production settings plus one bare Django view at /bench/bare/, the yardstick of http_bench.py."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bench_urls"
