"""Colours in the stylesheets stay readable in both colour schemes: body and badge text at WCAG AA, the focus ring
visible on every surface, and every colour variable given a light and a dark value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from classifier.mechanisms import MECHANISM_RECORDS, MechanismRecord

STATIC = Path(settings.BASE_DIR) / "static" / "css"
CSS = (STATIC / "wiki.css").read_text(encoding="utf-8")
SCHEMES = ("light", "dark")
HEX = r"#[0-9a-fA-F]{6}"
# --name: light-dark(#light, #dark);
VARIABLES = {name: {"light": light, "dark": dark}
             for name, light, dark in re.findall(rf"--([a-z-]+):\s*light-dark\(({HEX}),\s*({HEX})\)\s*;", CSS)}


def _colour(value: str, scheme: str) -> str:
    match = re.fullmatch(r"var\(--([a-z-]+)\)", value)
    return VARIABLES[match.group(1)][scheme] if match else value


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str, scheme: str) -> float:
    light, dark = sorted((_luminance(_colour(first, scheme)), _luminance(_colour(second, scheme))), reverse=True)
    return (light + 0.05) / (dark + 0.05)


BADGE_RULES = re.findall(
    r"^\.((?:verdict|priority|status)-[a-z_]+|mech) \{ background: ([^;]+); color: ([^;]+); \}", CSS, re.MULTILINE
)


def test_the_stylesheet_declares_badge_colours_and_a_dark_value_for_each_colour() -> None:
    assert len(BADGE_RULES) >= 12
    assert {"ink", "paper", "card", "panel", "accent", "on-accent", "ok", "bad", "warn"} <= set(VARIABLES)
    # every colour variable of the palette has both values: a single value would read the same in the dark
    assert not re.findall(rf"--[a-z-]+:\s*{HEX}\s*;", CSS)
    assert all(_colour(value, "dark") != value for _, background, foreground in BADGE_RULES
               for value in (background, foreground))


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("name", "background", "foreground"), BADGE_RULES)
def test_badge_text_meets_wcag_aa(name: str, background: str, foreground: str, scheme: str) -> None:
    assert contrast(foreground, background, scheme) >= 4.5, (name, scheme)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("text", "surface"), [
    ("ink", "paper"), ("ink", "card"), ("ink", "panel"), ("ink-soft", "paper"), ("muted", "paper"),
    ("muted", "card"), ("accent", "paper"), ("accent", "card"), ("on-accent", "accent"), ("bad", "card"),
    ("wanted", "paper"), ("wanted-ink", "wanted-soft"), ("bad", "bad-soft"), ("ok", "card"),
])
def test_text_meets_wcag_aa_on_its_surfaces(text: str, surface: str, scheme: str) -> None:
    assert contrast(f"var(--{text})", f"var(--{surface})", scheme) >= 4.5, (text, surface, scheme)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("surface", ["paper", "card", "panel", "accent-soft"])
def test_the_focus_ring_stands_out_from_every_surface(surface: str, scheme: str) -> None:
    assert contrast("var(--focus)", f"var(--{surface})", scheme) >= 3, (surface, scheme)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("record", MECHANISM_RECORDS, ids=lambda record: record.key)
def test_every_mechanism_colour_stands_out_from_every_surface_a_graph_is_drawn_on(record: MechanismRecord, scheme: str) -> None:
    # WCAG 1.4.11: a graph's node and its legend swatch are told apart by their mechanism's colour, at 3:1 or more
    for surface in ("paper", "card", "panel"):
        assert contrast(record.colour, f"var(--{surface})", scheme) >= 3, (record.key, surface, scheme)


def test_no_stylesheet_paints_a_fixed_white_or_black_that_the_dark_scheme_would_keep() -> None:
    # surfaces and text take the palette's variables; fixed colours are left to mid-tones readable on both
    for path in STATIC.glob("*.css"):
        if path.name == "swagger.css":  # the API explorer keeps Swagger UI's own light look
            continue
        text = re.sub(r"light-dark\([^)]*\)", "", path.read_text(encoding="utf-8"))
        assert not re.findall(r"(?<![\w-])(?:#fff(?:fff)?|#000(?:000)?|white|black)\b(?!-)", text, re.IGNORECASE), path.name


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("verdict", ["strict", "strict_narrow", "adjacent", "not_strict"])
def test_a_chart_segment_stands_out_from_the_card_and_from_the_line_between_segments(verdict: str, scheme: str) -> None:
    # WCAG 1.4.11: a segment is told from its neighbour by the card-coloured line between them
    colour = f"var(--seg-{verdict.replace('_', '-')})"
    assert f".seg-{verdict} {{ background: {colour}; }}" in CSS
    assert contrast(colour, "var(--card)", scheme) >= 3, (verdict, scheme)
    assert re.search(r"^\.chart \.bar a \+ a \{ border-left: 2px solid var\(--card\); \}", CSS, re.MULTILINE)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("surface", ["paper", "card", "panel"])
def test_a_fields_border_stands_out_from_the_surface_it_is_on(surface: str, scheme: str) -> None:
    assert contrast("var(--field-line)", f"var(--{surface})", scheme) >= 3, (surface, scheme)


def test_chart_segments_are_large_enough_to_tap() -> None:
    # WCAG 2.5.8: a link target at least 24 CSS pixels (1.5rem) each way, however small its count
    bar = re.search(r"^\.chart \.bar \{[^}]*height: ([\d.]+)rem", CSS, re.MULTILINE)
    segment = re.search(r"^\.chart \.bar a, \.chart \.bar \.seg \{[^}]*min-width: ([\d.]+)rem", CSS, re.MULTILINE)
    assert bar and float(bar.group(1)) >= 1.5
    assert segment and float(segment.group(1)) >= 1.5


GRAPH_LINES = {name: {"light": light, "dark": dark} for name, light, dark in re.findall(
    rf"--(edge[a-z-]*):\s*light-dark\(({HEX}),\s*({HEX})\)\s*;", (STATIC / "graph.css").read_text(encoding="utf-8"))}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("line", ["edge", "edge-faint", "edge-cites", "edge-about", "edge-links"])
def test_every_kind_of_graph_line_stands_out_from_every_surface_a_graph_is_drawn_on(line: str, scheme: str) -> None:
    # WCAG 1.4.11: a line says which works a claim cites or is about; one a reader cannot see says nothing
    for surface in ("paper", "card", "panel"):
        assert contrast(GRAPH_LINES[line][scheme], f"var(--{surface})", scheme) >= 3, (line, surface, scheme)
