from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Sign-in: the failed-attempt limit shared by every way to sign in."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Sign-in"
