"""A placeholder start page, until the web app (issue "web pages") serves its own ``/``."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The start page: what the system is and where to go next."""
    return render(request, "home.html")
