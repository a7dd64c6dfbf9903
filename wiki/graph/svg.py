"""One frame of a drawing as inline SVG markup.

Built with string joins rather than a template: a page draws two frames of up to fifty nodes each,
and this is the part of a graph view that runs per node.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from wiki.graph.labels import LINE_PX
from wiki.graph.layout import MARKER_R, Frame, PlacedAxis, PlacedNode
from wiki.text.lang import content_lang


def _shape(p: PlacedNode) -> str:
    node = p.node
    if p.points:
        return f'<polygon points="{p.points}"/>'
    ring = ' class="ring"' if node.shape == "ring" else ""
    return f'<circle cx="{p.x}" cy="{p.y}" r="{node.size}"{ring}/>'


def _label(p: PlacedNode) -> str:
    step = f' dy="{LINE_PX:g}"'
    spans = "".join(f'<tspan x="{p.label_x}"{step if i else ""}>{escape(line)}</tspan>' for i, line in enumerate(p.lines))
    lang = content_lang(" ".join(p.lines))
    return f'<text x="{p.label_x}" y="{p.label_y}" text-anchor="middle" class="label" lang="{lang}">{spans}</text>'


def _colour(colour: str) -> str:
    """A node's mechanism colour, from its record, as the ``--mech`` the stylesheet fills it with."""
    return f' style="--mech: {escape(colour)}"' if colour else ""


def _axis(a: PlacedAxis) -> str:
    # the axis names its line's ends, so that lighting a node dims the axes of the lines it dims
    ends = f'data-from="{escape(a.edge.source.id)}" data-to="{escape(a.edge.target.id)}"'
    if a.marker:
        # a marker beside its line is tied to it by a leader, drawn first so that the disc sits on its end, from a dot
        # that tells the line it leaves from a line it crosses
        leader = (f'<line x1="{a.leader_from[0]}" y1="{a.leader_from[1]}" x2="{a.x}" y2="{a.y}" class="axis-leader"/>'
                  f'<circle cx="{a.leader_from[0]}" cy="{a.leader_from[1]}" r="2.5" class="axis-foot"/>'
                  if a.leader_from else "")
        return (f'<g class="axis axis-marker" {ends}>{leader}<circle cx="{a.x}" cy="{a.y}" r="{MARKER_R:g}"/>'
                f'<text x="{a.x}" y="{round(a.y + 4, 1)}" text-anchor="middle" class="label axis-label">{a.marker}</text></g>')
    step = f' dy="{LINE_PX:g}"'
    spans = "".join(f'<tspan x="{a.x}"{step if i else ""}>{escape(line)}</tspan>' for i, line in enumerate(a.lines))
    return f'<g class="axis" {ends}><text x="{a.x}" y="{a.y}" text-anchor="middle" class="label axis-label">{spans}</text></g>'


def frame_svg(frame: Frame, *, svg_id: str, title: str, first: bool) -> SafeString:
    """The ``<svg>`` of ``frame``; the first frame takes ``svg_id`` itself, the others ``svg_id-name``."""
    own_id = svg_id if first else f"{svg_id}-{frame.name}"
    title_id = f"{svg_id}-{frame.name}-title"
    # Never blown up past MAX_SCALE. The wide frame is fitted to its column, whatever the drawing's size: the whole of
    # it is in sight, and zoom (or finding a node) brings labels drawn small to a readable size. The narrow frame, a
    # phone's, is never drawn so small that a label falls under 11px: its viewport scrolls instead.
    least = f"min-width:{frame.min_px}px;" if frame.name == "narrow" else ""
    out = [
        f'<svg class="graph" id="{escape(own_id)}" viewBox="{frame.view_box}" aria-labelledby="{escape(title_id)}" '
        f'style="{least}max-width:{frame.max_px}px" data-graph data-view-box="{frame.view_box}">',
        f'<title id="{escape(title_id)}">{escape(title)}</title>',
        '<g class="edges">',
    ]
    for i, placed in enumerate(frame.edges):
        edge = placed.edge
        path = f'd="{placed.path}"'
        # a contrast line opens its contrast, a link named by what the line says (its title)
        edge_title_id = f"{own_id}-edge-{i}"
        named = f' id="{escape(edge_title_id)}"' if edge.url else ""
        line = (
            f'<g class="edge edge-{edge.type}" data-from="{escape(edge.source.id)}" data-to="{escape(edge.target.id)}">'
            f'<title{named} lang="{content_lang(edge.title)}">{escape(edge.title)}</title>'
            f'<path {path}/><path class="edge-hit" {path}/></g>'
        )
        if edge.url:
            # out of the Tab order, which walks the nodes: the keyboard opens each contrast from the list under the picture
            line = (f'<a href="{escape(edge.url)}" class="edge-link" tabindex="-1" '
                    f'aria-labelledby="{escape(edge_title_id)}">{line}</a>')
        out.append(line)
    if frame.axes:
        # the axes are listed with their contrasts in the text equivalent and the edges' titles
        out.append('</g><g class="axes" aria-hidden="true">')
        out.extend(_axis(a) for a in frame.axes)
    out.append('</g><g class="nodes">')
    for p in frame.nodes:
        node = p.node
        # the names the finder above the picture knows the node by, one a line; a claim is found by its title's words
        names = "" if node.kind == "claim" else "&#10;".join(escape(name) for name in node.names)
        names_attr = f' data-names="{names}"' if names else ""
        out.append(
            f'<a href="{escape(node.url)}" class="node-link"{names_attr} data-node="{escape(node.id)}">\n'
            f'<title lang="{content_lang(node.title)}">{escape(node.title)}</title>\n'
            f'<g class="{node.css}"{_colour(node.colour)}>{_shape(p)}{_label(p)}</g></a>'
        )
    out.append("</g></svg>")
    return mark_safe("\n".join(out))  # noqa: S308 - every piece of text above is escaped
