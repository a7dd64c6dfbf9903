from django.apps import AppConfig
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_migrate


def _create_editor_group(sender: AppConfig, *, using: str = DEFAULT_DB_ALIAS, **kwargs: object) -> None:
    from wiki.roles import ensure_editor_group

    # migrate --database=other must fill that database, not the default one.
    ensure_editor_group(using=using)


class WikiConfig(AppConfig):
    name = "wiki"
    verbose_name = "Agentic RL Wiki"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # After the permissions exist (auth's own post_migrate handler runs first), so the group gets them all.
        post_migrate.connect(_create_editor_group, sender=self, dispatch_uid="wiki.create_editor_group")
