"""Test settings: fast hashing, eager Celery unless REDIS_URL is given."""

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
