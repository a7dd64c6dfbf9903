from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from wiki.management.base import WikiCommand
from wiki.models import ApiToken
from wiki.roles import Account
from wiki.services.tokens import (
    DEFAULT_LIFETIME,
    MAX_LIFETIME,
    NotAnEditor,
    api_token_create,
    api_token_revoke,
    api_tokens_revoke_all,
)


class Command(WikiCommand):
    help = ("Make an API token for the editor USERNAME and print its key, once: the wiki keeps only its hash. "
            "--list shows their tokens, --revoke ID or --revoke-all revokes them. Only editors have tokens, as on "
            "/account/token/.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", metavar="USERNAME")
        parser.add_argument("--name", default="", help="What the new token is for (shown on the token page).")
        parser.add_argument("--expires", type=int, metavar="DAYS", default=DEFAULT_LIFETIME.days,
                            help=f"Days the new token works (default {DEFAULT_LIFETIME.days}, at most {MAX_LIFETIME.days}).")
        actions = parser.add_mutually_exclusive_group()
        actions.add_argument("--list", action="store_true", help="List the user's tokens instead of making one.")
        actions.add_argument("--revoke", type=int, metavar="ID", help="Revoke the user's token ID (from --list).")
        actions.add_argument("--revoke-all", action="store_true", help="Revoke every token of the user.")

    def handle(self, *args: object, **options: object) -> None:
        username = str(options["username"])
        try:
            user = get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user named {username!r}.") from None
        if options["list"]:
            self._list(user)
        elif options["revoke"] is not None:
            if api_token_revoke(user=user, token_id=int(str(options["revoke"]))) is None:
                raise CommandError(f"{username!r} has no token {options['revoke']} (see --list).")
            self.stderr.write(f"Revoked token {options['revoke']} of {username!r}.")
        elif options["revoke_all"]:
            self.stderr.write(f"Revoked {api_tokens_revoke_all(user=user)} token(s) of {username!r}.")
        else:
            self._make(user, name=str(options["name"]), days=int(str(options["expires"])))

    def _make(self, user: Account, *, name: str, days: int) -> None:
        if not 1 <= days <= MAX_LIFETIME.days:
            raise CommandError(f"--expires takes 1 to {MAX_LIFETIME.days} days, not {days}.")
        try:
            made = api_token_create(user=user, name=name or "manage.py api_token", lifetime=timedelta(days=days))
        except NotAnEditor as error:
            inactive = "" if user.is_active else " (the account is deactivated)"
            raise CommandError(f"No token for {user.username!r}{inactive}: {error} "
                               f"`manage.py createeditor {user.username}` makes them one.") from None
        # The key alone on standard output, for TOKEN=$(manage.py api_token …); the rest on standard error.
        self.stdout.write(made.key)
        expires = timezone.localtime(made.token.expires_at).strftime("%Y-%m-%d %H:%M %Z") if made.token.expires_at else "never"
        self.stderr.write(f"Token {made.token.pk} ({made.token.name}) works until {expires}; "
                          "its key is not shown again.")

    def _list(self, user: Account) -> None:
        def shown(value: object) -> str:
            return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value is not None else "never"  # type: ignore[arg-type]

        now = timezone.now()
        for token in ApiToken.objects.of(user):
            expired = " (expired)" if token.is_expired(now=now) else ""
            self.stdout.write(f"{token.pk}\t{token.hint}…\t{token.name or '-'}\tcreated {shown(token.created_at)}\t"
                              f"last used {shown(token.last_used_at)}\texpires {shown(token.expires_at)}{expired}")
