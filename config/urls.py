"""Root URL configuration.

Each app adds its URLs with one ``include`` line below.
"""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # Server-rendered pages (web app, issue 6).
    path("", include("web.urls")),
]
