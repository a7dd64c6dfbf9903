from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from wiki.forms.preferences import PreferencesForm
from wiki.models.readers import profile_of
from wiki.preferences import colour_scheme, remember, valid_language
from wiki.services.readers import reader_profile_save

# The switch's button (includes/language_switch.html): the page comes back at it, focused, unless the reader's
# place in the page (its #fragment, which language-switch.js adds to ``next``) says where to go back to.
SWITCH_BUTTON_ID = "switch-language"


def _csrf_failure(request: HttpRequest) -> HttpResponseBase | None:
    """Django's CSRF check, run here for a view the middleware is told to skip: None when the token holds, else the
    answer of ``CSRF_FAILURE_VIEW`` (:func:`wiki.views.editing.csrf_failure`), as for any other form."""
    return CsrfViewMiddleware(lambda r: HttpResponse()).process_view(request, None, (), {})  # type: ignore[arg-type]


@csrf_exempt
@require_POST
def set_language(request: HttpRequest) -> HttpResponseBase:
    """The header's language switch (Django's ``set_language``), also kept in a logged-in reader's profile.

    The page comes back at the switch, which the browser focuses, or at the part of the page the reader was at.
    Anonymous readers switch without a CSRF token: the switch changes only how the next page reads, and a
    token in the header would make every reader's page their own, never served from the cache.
    """
    if request.user.is_authenticated:
        failure = _csrf_failure(request)
        if failure is not None:
            return failure
    response = django_set_language(request)
    if isinstance(response, HttpResponseRedirect) and "#" not in response["Location"]:
        response["Location"] += f"#{SWITCH_BUTTON_ID}"
    language = valid_language(request.POST.get("language"))
    if language and request.user.is_authenticated:
        reader_profile_save(user=request.user, language=language)
    return response


@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """Language, time zone and colours, for anyone: cookies, and the profile for a logged-in reader (the colours are
    kept on the device alone), with whether their edits watch what they edit.

    The form starts from what this request uses: for a logged-in reader, the profile's current choice (which the
    middleware read), so a session opened before a change elsewhere does not save the old language back."""
    reader = request.user.is_authenticated
    # The zone's own name: Django's name for a zone of one fixed offset is its abbreviation (Etc/GMT+8 is "-08").
    zone = timezone.get_current_timezone()
    initial = {"language": translation.get_language(), "time_zone": getattr(zone, "key", None) or str(zone),
               "colour_scheme": colour_scheme(request), "watch_edits": reader and profile_of(request.user).watch_edits}
    form = PreferencesForm(request.POST or None, initial=initial, reader=reader)
    if request.method == "POST" and form.is_valid():
        language, zone = form.cleaned_data["language"], form.cleaned_data["time_zone"]
        if request.user.is_authenticated:
            reader_profile_save(user=request.user, language=language, time_zone=zone,
                                watch_edits=form.cleaned_data["watch_edits"])
        translation.activate(language)
        messages.success(request, _("Preferences saved."))
        response = redirect("wiki:preferences")
        remember(response, language=language, time_zone=zone, colour_scheme=form.cleaned_data["colour_scheme"])
        return response
    return render(request, "wiki/preferences.html", {"form": form, "default_time_zone": settings.TIME_ZONE})
