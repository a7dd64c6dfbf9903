"""Whether the database is migrated as far as the code: the management commands refuse to run on one that is not
(:mod:`wiki.management.base`), and the web server answers 503 saying what to run (:mod:`wiki.views.unmigrated`)
rather than a 500 at the first missing table or column.

The web server asks once per process: a database found migrated stays so for as long as the process runs (a deploy
migrates before it starts the new code), so a request pays nothing past the first. One found behind is asked again
at each request, which only then are answered 503 anyway, so that the server serves again as soon as the migrations
are applied, without a restart.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

# What brings the database up to date: migrate, then what the wiki's start does after it.
MIGRATE_COMMAND = "manage.py prepare_wiki"


def unapplied_migrations(database: str = DEFAULT_DB_ALIAS) -> list[str]:
    """The migrations the code has and ``database`` has not applied yet, as ``app name``, in the order they apply."""
    executor = MigrationExecutor(connections[database])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label} {migration.name}" for migration, backwards in plan if not backwards]


class _Found:
    migrated = False


def database_behind() -> list[str]:
    """:func:`unapplied_migrations` of the primary, asked of it only until it answers none once in this process.
    Raises the database's error when it cannot be reached (nothing is remembered then)."""
    if _Found.migrated:
        return []
    unapplied = unapplied_migrations()
    _Found.migrated = not unapplied
    return unapplied

