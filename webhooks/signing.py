"""The signature of a delivery: HMAC-SHA256 over the raw body with the hook's secret.

Header ``X-Brade-Signature: sha256=<hex digest>``; a receiver computes the same digest
over the bytes it received (before parsing the JSON) and compares in constant time
(README, "Webhooks", has the snippet).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "X-Brade-Signature"
EVENT_HEADER = "X-Brade-Event"
EVENT_ID_HEADER = "X-Brade-Event-Id"
ATTEMPT_HEADER = "X-Brade-Delivery-Attempt"


def secret_new() -> str:
    """A new hook secret: 32 random bytes as 64 hex characters."""
    return secrets.token_hex(32)


def signature(secret: str, body: bytes) -> str:
    """The header's value for ``body`` signed with ``secret``."""
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def signature_valid(secret: str, body: bytes, header: str) -> bool:
    """What a receiver does: True if ``header`` is ``body``'s signature with ``secret``."""
    return hmac.compare_digest(signature(secret, body), header)
