"""Merging two works through the web form as an editor does: the work to keep, then the values it takes."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse


def web_merge(client: Client, slug: str, into: str, *, take: tuple[str, ...] = ()) -> Any:
    """Merges the work at ``slug`` into the one ``into`` names; where the form then compares the two works' fields,
    the kept work takes the merged work's value of each of ``take`` and keeps its own of the others."""
    url = reverse("wiki:source-merge", kwargs={"slug": slug})
    response = client.post(url, {"into": into})
    fields = response.context.get("fields") if response.context is not None else None
    if response.status_code != 200 or fields is None:
        return response
    data = {"into": response.context["kept"].slug, "compared": "1", "kept_at": fields.initial["kept_at"].isoformat(),
            "merged_at": fields.initial["merged_at"].isoformat()}
    data |= {f"take_{choice.name}": "merged" if choice.name in take else "kept" for choice in fields.choices}
    return client.post(url, data)
