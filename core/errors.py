"""Domain errors raised by the services of every app (tournaments, matches, clubs).

The API maps them to JSON: ``ValidationError`` → 400, ``PermissionDeniedError``
→ 403, ``NotFoundError`` → 404, ``ConflictError`` → 409 (with the current state
so the client can show it), ``PreconditionRequiredError`` → 428 (a change that must
name the version it changes did not). Every message says what to do, in plain words.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base class; ``message`` is for people, ``code`` for programs."""

    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra: dict[str, Any] = extra

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class ValidationError(DomainError):
    code = "invalid"
    status = 400


class PermissionDeniedError(DomainError):
    code = "permission_denied"
    status = 403


class NotFoundError(DomainError):
    code = "not_found"
    status = 404


class ConflictError(DomainError):
    """The request no longer fits the current state (someone was first)."""

    code = "conflict"
    status = 409


class PreconditionRequiredError(DomainError):
    """The request must name the version it changes (a correction without one)."""

    code = "precondition_required"
    status = 428
