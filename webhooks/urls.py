"""Pages of the webhooks app (mounted at the site's root by config/urls.py, namespace
``webhooks``): the manage page's webhook forms."""

from django.urls import URLPattern, path

from core import path_converters  # noqa: F401  (registers <id:…>, <num:…>)
from webhooks import views

app_name = "webhooks"
urlpatterns: list[URLPattern] = [
    path("tournaments/<id:pk>/webhooks/new/", views.webhook_create, name="create"),
    path(
        "tournaments/<id:pk>/webhooks/<id:hook_pk>/delete/",
        views.webhook_delete,
        name="delete",
    ),
    path("tournaments/<id:pk>/webhooks/<id:hook_pk>/test/", views.webhook_test, name="test"),
]
