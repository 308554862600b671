"""Language: Swedish pages unless the visitor chose another language of
``settings.LANGUAGES`` (English, Danish); the API answers in the language its client asks
for, English by default.

Pages: Django's ``LocaleMiddleware`` would follow the browser's Accept-Language header,
so most visitors would get English. Bräde is played in Swedish clubs: the site is
Swedish by default, and only the language cookie (set by the switch on every page,
``set_language``) changes it. Accept-Language is ignored for pages, for Danish as for
English: a Danish visitor chooses "Dansk" with the switch once, and the cookie keeps it.

API (every path under ``/api/``): its messages (the services' error messages, e.g. a
409's "Game 2 was entered already by …") follow Django's normal negotiation without
URL prefixes (``get_language_from_request(request, check_path=False)``): the language
cookie when it names a supported language, else the first supported language of the
request's Accept-Language header. When neither names one (no header, ``*``, or only
unsupported languages) the API answers in English, not in the site's Swedish: API
clients are programs whose authors read the English API docs, and a program that wants
Swedish or Danish messages says so with ``Accept-Language: sv`` or ``da``. Every response carries
``Content-Language`` and ``Vary: Accept-Language`` (``LocaleMiddleware.process_response``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

API_PREFIX = "/api/"
API_DEFAULT_LANGUAGE = "en"


def _supported(code: str) -> str | None:
    """The supported language (``settings.LANGUAGES``) for ``code``, e.g. ``sv-SE`` → ``sv``."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def api_language(request: HttpRequest) -> str:
    """The API's language: as ``get_language_from_request(request, check_path=False)``
    (cookie, then Accept-Language), but English where Django would fall back to
    ``settings.LANGUAGE_CODE``."""
    chosen = _supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""))
    if chosen:
        return chosen
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, quality in parse_accept_lang_header(header):
        if code == "*":
            break
        if quality <= 0:
            continue  # q=0: "not this language"
        found = _supported(code)
        if found:
            return found
    return API_DEFAULT_LANGUAGE


def page_language(request: HttpRequest) -> str:
    """The pages' language: the cookie set by the switch, else ``settings.LANGUAGE_CODE``."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if code not in dict(settings.LANGUAGES):
        code = settings.LANGUAGE_CODE
    return code


class ChosenLanguageMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith(API_PREFIX):
            code = api_language(request)
        else:
            code = page_language(request)
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
