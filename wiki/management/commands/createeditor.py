"""``manage.py createeditor USERNAME [--password …]``: a user in the editors group."""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from config.env import env_str
from wiki.management.base import WikiCommand
from wiki.roles import ensure_editor_group


class Command(WikiCommand):
    help = ("Create an editor (or add an existing user to the editors group, reactivating a deactivated account). "
            "Password from --password, EDITOR_PASSWORD or a prompt; an existing user keeps theirs when none is given.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", metavar="USERNAME")
        parser.add_argument("--password", help="For scripts; otherwise EDITOR_PASSWORD, or a prompt on a terminal.")
        parser.add_argument("--email", default="", help="For a new user; an existing user's address is left as it is.")

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"].strip()
        if not username:
            raise CommandError("The username is empty.")
        User = get_user_model()
        existing = User.objects.filter(username=username).first()
        if existing is None:
            # The same rule as the admin's user form: a name it would refuse could not be managed there.
            try:
                User.username_validator(username)
            except ValidationError as error:
                raise CommandError(f"“{username}”: {' '.join(error.messages)}") from error
        password = options["password"] or env_str("EDITOR_PASSWORD") or None
        if password is None and existing is None:
            password = self._prompt()
        if password is not None:
            try:
                password_validation.validate_password(password, existing or User(username=username))
            except ValidationError as error:
                raise CommandError("; ".join(error.messages)) from error
        with transaction.atomic():
            user = existing or User(username=username, email=options["email"])
            if password is not None:
                user.set_password(password)
            # Making someone an editor is meant to let them in: a deactivated account could not log in.
            reactivated = not user.is_active
            user.is_active = True
            user.save()
            user.groups.add(ensure_editor_group())
        verb = "Added" if existing else "Created"
        notes = [note for note, said in (("password changed", existing and password is not None),
                                         ("reactivated", reactivated)) if said]
        changed = f" ({', '.join(notes)})" if notes else ""
        self.stdout.write(self.style.SUCCESS(f"{verb} editor {username}{changed}."))

    def _prompt(self) -> str:
        if not sys.stdin.isatty():
            raise CommandError("No password: pass --password, set EDITOR_PASSWORD, or run on a terminal to be asked.")
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("The passwords differ.")
        if not first:
            raise CommandError("The password is empty.")
        return first
