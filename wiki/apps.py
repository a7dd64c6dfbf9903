from django.apps import AppConfig


class WikiConfig(AppConfig):
    name = "wiki"
    verbose_name = "Agentic RL Wiki"
    default_auto_field = "django.db.models.BigAutoField"
