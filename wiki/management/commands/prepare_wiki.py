from typing import Any

from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections

from wiki.management.base import WikiCommand

# The PostgreSQL advisory lock every server starting on one database takes in turn (any number, the same for all).
PREPARE_LOCK = 0x77696B69  # "wiki"


class Command(WikiCommand):
    help = (
        "Brings the database up to date for serving: migrate, load the Agentic RL wiki, make the names' sort keys again "
        "(rekey_names), render the pages again "
        "(what `make run` and `make serve` do at every start). Servers starting at once on one database take turns "
        "(a PostgreSQL advisory lock): the second finds the work done instead of racing the first."
    )
    requires_migrated_database = False  # it migrates first

    def handle(self, *args: Any, **options: Any) -> None:
        # The lock is held by a connection of its own, which none of the steps can close or roll back.
        lock = connections.create_connection(DEFAULT_DB_ALIAS)
        try:
            with lock.cursor() as cursor:
                cursor.execute("SET statement_timeout = 0")  # however long the other start takes
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [PREPARE_LOCK])
                if not cursor.fetchone()[0]:
                    self.stdout.write("Waiting for another server's start-up to finish migrating and loading the wiki…")
                    cursor.execute("SELECT pg_advisory_lock(%s)", [PREPARE_LOCK])
            verbosity = options["verbosity"]
            call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout, stderr=self.stderr)
            call_command("load_wiki", verbosity=verbosity, stdout=self.stdout, stderr=self.stderr)
            # Reads every name (half a second on 2,000 works and pages, most of it pypinyin's loading) and writes none
            # unless a name reads otherwise.
            call_command("rekey_names", verbosity=max(verbosity - 1, 0), stdout=self.stdout, stderr=self.stderr)
            call_command("render_pages", verbosity=verbosity, stdout=self.stdout, stderr=self.stderr)
        finally:
            lock.close()  # ends the session, and the lock with it
