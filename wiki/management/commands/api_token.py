from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.authtoken.models import Token

from wiki.services.tokens import api_token_rotate


class Command(BaseCommand):
    help = "Print the API token of USERNAME, creating it when the user has none (--regenerate replaces it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--regenerate", action="store_true", help="Replace the existing token with a new one.")

    def handle(self, *args: object, **options: object) -> None:
        try:
            user = get_user_model().objects.get_by_natural_key(str(options["username"]))
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user named {options['username']!r}.") from None
        if options["regenerate"]:
            token = api_token_rotate(user=user)
        else:
            token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
