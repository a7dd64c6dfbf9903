"""Colours in the stylesheet stay readable: badge text at WCAG AA, the focus ring visible on every surface."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

CSS = (Path(settings.BASE_DIR) / "static" / "css" / "wiki.css").read_text(encoding="utf-8")
VARIABLES = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;", CSS))


def _colour(value: str) -> str:
    match = re.fullmatch(r"var\(--([a-z-]+)\)", value)
    return VARIABLES[match.group(1)] if match else value


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    light, dark = sorted((_luminance(_colour(first)), _luminance(_colour(second))), reverse=True)
    return (light + 0.05) / (dark + 0.05)


BADGE_RULES = re.findall(
    r"^\.((?:verdict|priority|status)-[a-z_]+|mech) \{ background: ([^;]+); color: ([^;]+); \}", CSS, re.MULTILINE
)


def test_the_stylesheet_declares_badge_colours() -> None:
    assert len(BADGE_RULES) >= 12


@pytest.mark.parametrize(("name", "background", "foreground"), BADGE_RULES)
def test_badge_text_meets_wcag_aa(name: str, background: str, foreground: str) -> None:
    assert contrast(foreground, background) >= 4.5, name


@pytest.mark.parametrize("surface", ["paper", "card", "panel", "accent-soft"])
def test_the_focus_ring_stands_out_from_every_surface(surface: str) -> None:
    assert contrast("var(--focus)", f"var(--{surface})") >= 3, surface


def test_chart_segments_are_large_enough_to_tap() -> None:
    # WCAG 2.5.8: a link target at least 24 CSS pixels (1.5rem) each way, however small its count
    bar = re.search(r"^\.chart \.bar \{[^}]*height: ([\d.]+)rem", CSS, re.MULTILINE)
    segment = re.search(r"^\.chart \.bar a, \.chart \.bar \.seg \{[^}]*min-width: ([\d.]+)rem", CSS, re.MULTILINE)
    assert bar and float(bar.group(1)) >= 1.5
    assert segment and float(segment.group(1)) >= 1.5
