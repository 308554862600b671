from django.contrib import admin

from notifications.models import Notification, NotificationChoice

admin.site.register(Notification)
admin.site.register(NotificationChoice)
