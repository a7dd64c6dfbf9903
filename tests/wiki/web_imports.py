"""Importing a reference file through the web form as an editor does: the preview, then its confirmation."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse


def web_import(client: Client, data: dict[str, Any]) -> Any:
    """Sends ``data`` (``entry`` pasted or ``file`` uploaded) to the import form, then confirms the preview as it was
    shown; the answer to the confirmation."""
    preview = client.post(reverse("wiki:source-create"), {**data, "import": "1"})
    assert preview.status_code == 200 and "confirm_form" in preview.context, preview.content.decode()[:2000]
    confirm = dict(preview.context["confirm_form"].initial)
    return client.post(reverse("wiki:source-create"), {**confirm, "confirm": "1"})
