from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _create_editor_group(sender: AppConfig, **kwargs: object) -> None:
    from wiki.roles import ensure_editor_group

    ensure_editor_group()


class WikiConfig(AppConfig):
    name = "wiki"
    verbose_name = "Agentic RL Wiki"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # After the permissions exist (auth's own post_migrate handler runs first), so the group gets them all.
        post_migrate.connect(_create_editor_group, sender=self, dispatch_uid="wiki.create_editor_group")
