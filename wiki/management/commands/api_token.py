from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from wiki.management.base import WikiCommand
from wiki.services.tokens import NotAnEditor, api_token_get, api_token_rotate


class Command(WikiCommand):
    help = ("Print the API token of the editor USERNAME, creating it when they have none (--regenerate replaces it; "
            "the old one stops working at once). Only editors have tokens, as on /account/token/.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", metavar="USERNAME")
        parser.add_argument("--regenerate", action="store_true", help="Replace the existing token with a new one.")

    def handle(self, *args: object, **options: object) -> None:
        username = str(options["username"])
        try:
            user = get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user named {username!r}.") from None
        try:
            token = api_token_rotate(user=user) if options["regenerate"] else api_token_get(user=user)
        except NotAnEditor as error:
            inactive = "" if user.is_active else " (the account is deactivated)"
            raise CommandError(f"No token for {username!r}{inactive}: {error} "
                               f"`manage.py createeditor {username}` makes them one.") from None
        self.stdout.write(token.key)
