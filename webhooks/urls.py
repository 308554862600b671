"""Pages of the webhooks app (mounted at the site's root by config/urls.py, namespace
``webhooks``): the manage page's webhook forms."""

from django.urls import URLPattern, path

from webhooks import views

app_name = "webhooks"
urlpatterns: list[URLPattern] = [
    path("tournaments/<int:pk>/webhooks/new/", views.webhook_create, name="create"),
    path(
        "tournaments/<int:pk>/webhooks/<int:hook_pk>/delete/",
        views.webhook_delete,
        name="delete",
    ),
    path("tournaments/<int:pk>/webhooks/<int:hook_pk>/test/", views.webhook_test, name="test"),
]
