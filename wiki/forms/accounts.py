from __future__ import annotations

import logging
from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.template import loader
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from wiki.accounts import throttling

logger = logging.getLogger(__name__)


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing attempts while too many have failed (:mod:`wiki.accounts.throttling`)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _("Too many failed attempts to log in. Try again after %(time)s."),
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        refused = throttling.refusal(self.request, username)
        if refused is not None:
            until = formats.time_format(timezone.localtime(refused.until), "H:i")
            raise ValidationError(self.error_messages["throttled"], code="throttled", params={"time": until})
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                throttling.failed(self.request, username)
            raise
        if self.user_cache is not None:
            throttling.succeeded(self.request, username)
        return cleaned


class ThrottledAdminAuthenticationForm(ThrottledAuthenticationForm, AdminAuthenticationForm):
    """The admin's login form, counted and refused alike: it is another door to the same accounts."""


class MailNotSent(Exception):
    """The mail server refused or could not be reached; the reason is in the log."""


class MailedPasswordResetForm(PasswordResetForm):
    """Django's reset form, whose ``save`` raises :class:`MailNotSent` when a message cannot be sent (Django's
    logs the failure and carries on, so the reader would be told a message is on its way)."""

    def send_mail(self, subject_template_name: str, email_template_name: str, context: dict[str, Any],
                  from_email: str | None, to_email: str, html_email_template_name: str | None = None) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        try:
            message.send()
        except Exception as error:  # smtplib, socket and TLS errors alike
            logger.exception("Failed to send a password reset e-mail to user %s", context["user"].pk)
            raise MailNotSent from error
