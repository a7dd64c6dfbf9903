"""Progress bars for the management commands that rebuild the search index."""

from __future__ import annotations

from types import TracebackType

from tqdm import tqdm


class KindBars:
    """One tqdm bar per kind of document, opened on its first chunk: pass the instance as ``progress``."""

    def __init__(self, *, label: str = "", enabled: bool = True) -> None:
        self._label = label
        self._enabled = enabled
        self._bars: dict[str, tqdm] = {}  # type: ignore[type-arg]

    def __call__(self, kind: str, n: int) -> None:
        if kind not in self._bars:
            self._bars[kind] = tqdm(desc=f"{self._label}{kind}s", unit="docs", disable=not self._enabled)
        self._bars[kind].update(n)

    def __enter__(self) -> KindBars:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        for bar in self._bars.values():
            bar.close()
