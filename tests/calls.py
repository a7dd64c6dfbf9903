"""Counting the Python functions a call runs, so that tests can say that the work grows with the data, not faster,
as the query-count tests say it of the queries: the same count for the same data on any machine."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any


def python_calls(run: Callable[[], Any]) -> int:
    """How many Python function calls (a generator resumed counts as one) ``run`` makes."""
    count = 0

    def counted(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(counted)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def python_steps(run: Callable[[], Any]) -> int:
    """How many bytecode instructions of Python code ``run`` executes: unlike calls, a loop inside one call counts."""
    count = 0

    def traced(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return traced

    sys.settrace(traced)
    try:
        run()
    finally:
        sys.settrace(None)
    return count
