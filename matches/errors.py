"""The domain errors now live in ``core.errors`` (below both tournaments and matches); this
module re-exports them for code not yet moved over (``clubs/``). New code imports
``core.errors``."""

from core.errors import (
    ConflictError,
    DomainError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionRequiredError,
    ValidationError,
)

__all__ = [
    "ConflictError",
    "DomainError",
    "NotFoundError",
    "PermissionDeniedError",
    "PreconditionRequiredError",
    "ValidationError",
]
