from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from wiki.forms.contrasts import ContrastDeleteForm, ContrastEditForm, ContrastForm, contrast_exists_message
from wiki.models import Contrast
from wiki.services.changes import StaleEdit
from wiki.services.contrasts import ContrastExists, contrast_create, contrast_delete, contrast_update
from wiki.views.editing import editor_required, stale_form

# The button that sends the form to be shown again with the components and claims of the works typed in it, saving nothing.
SHOW_CHOICES = "show_choices"


@editor_required("wiki.add_contrast", forms=[ContrastForm])
def contrast_create_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and SHOW_CHOICES in request.POST:
        form = ContrastForm.shown_again(request.POST)
    elif request.method == "POST":
        form = ContrastForm(request.POST)
    else:
        form = ContrastForm(initial=request.GET.dict())
    if form.is_bound and form.is_valid():
        try:
            contrast = contrast_create(**form.cleaned_data, user=request.user)
        except ContrastExists as exists:  # added by someone else since the form was checked
            form.add_error(None, contrast_exists_message(exists.contrast))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Contrast added: %(axis)s.") % {"axis": contrast.axis})
            return redirect(contrast.left)
    return render(request, "wiki/edit/contrast_form.html", {"form": form, "show_choices": SHOW_CHOICES})


def _contrast(pk: int) -> Contrast:
    return get_object_or_404(Contrast.objects.select_related("left", "right", "left_component", "right_component"), pk=pk)


@editor_required("wiki.change_contrast", forms=[ContrastEditForm])
def contrast_edit_view(request: HttpRequest, pk: int) -> HttpResponse:
    contrast = _contrast(pk)
    form = ContrastEditForm(request.POST, contrast=contrast) if request.method == "POST" else ContrastEditForm.of(contrast)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            contrast_update(contrast=contrast, fields={"axis": form.cleaned_data["axis"], "claim": form.cleaned_data["claim"]},
                            user=request.user, loaded_at=form.cleaned_data["loaded_at"])
        except StaleEdit as stale:
            stale_form(form, stale, what="contrast")
            contrast, status = _contrast(pk), 409
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Contrast saved: %(axis)s.") % {"axis": form.cleaned_data["axis"]})
            return redirect(contrast.left)
    return render(request, "wiki/edit/contrast_edit.html", {"form": form, "contrast": contrast}, status=status)


@editor_required("wiki.delete_contrast", forms=[])
def contrast_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    contrast = _contrast(pk)
    form = ContrastDeleteForm(request.POST or None, initial={"loaded_at": contrast.updated_at.isoformat()})
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            contrast_delete(contrast=contrast, user=request.user, loaded_at=form.cleaned_data["loaded_at"])
        except StaleEdit as stale:
            stale_form(form, stale, what="contrast")
            contrast, status = _contrast(pk), 409
        else:
            messages.success(request, _("Contrast deleted: %(label)s.") % {"label": contrast.label})
            return redirect(contrast.left)
    return render(request, "wiki/edit/contrast_delete.html", {"form": form, "contrast": contrast}, status=status)
