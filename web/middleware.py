"""Language: Swedish unless the visitor chose English with the switch on every page.

Django's ``LocaleMiddleware`` would follow the browser's Accept-Language header, so most
visitors would get English. Bräde is played in Swedish clubs: the site is Swedish by
default, and only the language cookie (set by the switch, ``set_language``) changes it.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ChosenLanguageMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        if code not in dict(settings.LANGUAGES):
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
