from django.apps import AppConfig
from django.db import DEFAULT_DB_ALIAS
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate, pre_migrate


def _create_editor_group(sender: AppConfig, *, using: str = DEFAULT_DB_ALIAS, **kwargs: object) -> None:
    from wiki.roles import ensure_editor_group

    # migrate --database=other must fill that database, not the default one.
    ensure_editor_group(using=using)


def _create_cache_table(sender: AppConfig, *, using: str = DEFAULT_DB_ALIAS, **kwargs: object) -> None:
    from django.core.management import call_command

    # The database cache (the default without Redis) needs its table; a no-op for other backends.
    call_command("createcachetable", database=using, verbosity=0)


class WikiConfig(AppConfig):
    name = "wiki"
    verbose_name = "Agentic RL Wiki"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # After the permissions exist (auth's own post_migrate handler runs first), so the group gets them all.
        post_migrate.connect(_create_editor_group, sender=self, dispatch_uid="wiki.create_editor_group")
        # Before any migration writes: a write moves the content version, kept in that table by default.
        pre_migrate.connect(_create_cache_table, sender=self, dispatch_uid="wiki.create_cache_table")
        from wiki.accounts import token_revocation
        from wiki.caching.versions import install, watch_outages

        # A new password, a deactivation or leaving the editors revokes the account's API tokens.
        token_revocation.connect()

        # Every write to a wiki table moves the content version that cached pages are keyed by.
        connection_created.connect(install, dispatch_uid="wiki.watch_writes")
        # Writes made while Redis could not be reached move it when Redis answers again.
        watch_outages()
