"""A contrast set up with a wrong axis or claim can be corrected, and one set up by mistake deleted, through the
forms and the API, each with its entry in recent changes; an edit made meanwhile by someone else is not overwritten."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.etags import if_match
from tests.factories import ContrastWiki, make_editor
from wiki.models import ChangeEvent, Claim, Contrast
from wiki.services.contrasts import contrast_update

pytestmark = pytest.mark.django_db


def _contrast(wiki: ContrastWiki) -> Contrast:
    return Contrast.objects.get(left=wiki.sft, right=wiki.grpo)


def test_an_editor_corrects_a_contrasts_axis_and_claim_in_the_form(client: Client, contrast_wiki: ContrastWiki) -> None:
    editor = make_editor()
    client.force_login(editor)
    contrast = _contrast(contrast_wiki)
    claim = Claim.objects.current().get(text__startswith="GripForge")
    url = f"/contrasts/{contrast.pk}/edit/"

    form = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    loaded_at = contrast.updated_at.isoformat()
    saved = client.post(url, {"axis": "SFT vs GRPO 策略更新 / SFT vs a GRPO policy update", "claim": claim.pk,
                              "loaded_at": loaded_at})

    assert "编辑对比" in form and "删除这个对比" in form
    assert saved.status_code == 302 and saved["Location"] == contrast_wiki.sft.get_absolute_url()
    contrast.refresh_from_db()
    assert contrast.axis == "SFT vs GRPO 策略更新 / SFT vs a GRPO policy update" and contrast.claim_id == claim.pk
    assert {"tasksmith", "gripforge"} <= set(claim.about.values_list("slug", flat=True))
    event = ChangeEvent.objects.filter(kind="contrast", object_id=contrast.pk).latest("id")
    assert (event.action, event.user_id) == ("edited", editor.pk)
    assert "编辑对比" in client.get(contrast_wiki.sft.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    # the form opened before that save: nothing is written, the editor's entries stay
    stale = client.post(url, {"axis": "something else", "claim": "", "loaded_at": loaded_at})
    assert stale.status_code == 409 and "something else" in stale.content.decode()
    contrast.refresh_from_db()
    assert contrast.axis.startswith("SFT vs GRPO 策略更新")


def test_a_claim_someone_else_set_meanwhile_is_kept_when_the_form_is_sent_again(client: Client,
                                                                             contrast_wiki: ContrastWiki) -> None:
    client.force_login(make_editor())
    contrast = _contrast(contrast_wiki)
    url = f"/contrasts/{contrast.pk}/edit/"
    form = client.get(url).context["form"]
    hidden = {"loaded_at": form.initial["loaded_at"], "opened": form.initial["opened"]}
    theirs = Claim.objects.current().get(text__startswith="GripForge")
    contrast_update(contrast=contrast, fields={"axis": contrast.axis, "claim": theirs}, user=make_editor())

    refused = client.post(url, {"axis": "SFT vs a GRPO policy update", "claim": contrast.claim_id or "", **hidden})

    assert refused.status_code == 409
    shown = refused.context["form"].data
    assert (shown["axis"], shown["claim"]) == ("SFT vs a GRPO policy update", str(theirs.pk))
    assert client.post(url, shown).status_code == 302
    contrast.refresh_from_db()
    assert (contrast.axis, contrast.claim_id) == ("SFT vs a GRPO policy update", theirs.pk)


def test_an_editor_deletes_a_contrast_set_up_by_mistake(client: Client, contrast_wiki: ContrastWiki) -> None:
    client.force_login(make_editor())
    contrast = _contrast(contrast_wiki)
    url = f"/contrasts/{contrast.pk}/delete/"

    asked = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    deleted = client.post(url, {"loaded_at": contrast.updated_at.isoformat()})

    assert 'Delete the contrast <span lang="en">TaskSmith vs GripForge</span>?' in asked
    assert deleted.status_code == 302
    assert not Contrast.objects.filter(pk=contrast.pk).exists()
    event = ChangeEvent.objects.filter(kind="contrast", object_id=contrast.pk).latest("id")
    assert event.action == "deleted" and event.summary == contrast.axis
    assert Client().get(url).status_code == 302  # readers are sent to log in, and nothing is there any more
    assert client.get(url).status_code == 404


def test_a_reader_can_neither_correct_nor_delete_a_contrast(client: Client, contrast_wiki: ContrastWiki) -> None:
    from tests.factories import make_reader

    client.force_login(make_reader())
    contrast = _contrast(contrast_wiki)

    assert client.post(f"/contrasts/{contrast.pk}/edit/", {"axis": "x"}).status_code == 403
    assert client.post(f"/contrasts/{contrast.pk}/delete/", {}).status_code == 403
    assert Contrast.objects.get(pk=contrast.pk).axis == contrast.axis


def test_the_api_corrects_and_deletes_a_contrast_with_the_version_it_read(contrast_wiki: ContrastWiki) -> None:
    api = APIClient()
    api.force_authenticate(make_editor())
    contrast = _contrast(contrast_wiki)
    url = f"/api/v1/contrasts/{contrast.pk}/"
    unrelated = Claim.objects.current().get(text__startswith="ShopWorld")

    without = api.patch(url, {"axis": "x vs y"}, format="json")
    refused = api.patch(url, {"claim": unrelated.pk}, format="json", **if_match(api, url))
    sides = api.patch(url, {"left": "shopworld"}, format="json", **if_match(api, url))
    version = if_match(api, url)
    corrected = api.patch(url, {"axis": "SFT vs GRPO"}, format="json", **version)
    stale = api.patch(url, {"axis": "again"}, format="json", **version)

    assert without.status_code == 428
    assert refused.status_code == 400 and refused.json()["code"] == "unrelated_claim"
    assert sides.status_code == 400 and "left" in sides.json()["errors"]
    assert corrected.status_code == 200 and corrected.json()["axis"] == "SFT vs GRPO"
    assert corrected.json()["unchanged"] is False
    assert stale.status_code == 412
    assert api.delete(url).status_code == 428
    assert api.delete(url, **version).status_code == 412
    assert api.delete(url, **if_match(api, url)).status_code == 204
    assert api.get(url).status_code == 404
    assert APIClient().delete(f"/api/v1/contrasts/{Contrast.objects.earliest('pk').pk}/", HTTP_IF_MATCH="*").status_code in (401, 403)


def test_a_correction_that_changes_nothing_writes_nothing(contrast_wiki: ContrastWiki) -> None:
    contrast = _contrast(contrast_wiki)
    events = ChangeEvent.objects.count()

    saved = contrast_update(contrast=contrast, fields={"axis": contrast.axis, "claim": contrast.claim})

    assert saved.updated_at == contrast.updated_at and ChangeEvent.objects.count() == events
