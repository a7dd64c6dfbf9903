"""How deeply a JSON value nests, measured without recursion: what the API's bodies and the reference files that
come as JSON may nest is bounded, as Python's reader and writer recurse once a level."""

from __future__ import annotations

from typing import Any

# No write of the API needs more than three levels, nor a CSL-JSON item more than five (its names and dates).
MAX_DEPTH = 32


def depth_of(data: Any) -> int:
    """How deeply ``data`` nests lists and objects (at most one more than :data:`MAX_DEPTH` is counted)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return deepest
