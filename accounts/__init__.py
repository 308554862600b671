"""Signing in: one limit on failed sign-ins for every way in (``accounts.signin_limit``)."""
