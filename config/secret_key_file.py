"""A secret key kept in a file: made once, at random, and read on every later start.

The demo (``config.settings.demo``) signs its sessions and CSRF tokens with a key of its
own instead of the public development key, and keeps it across restarts, so a restart
does not sign everyone out. The file holds the key alone, is readable by its owner only
(mode 600) and is git-ignored. It is created with ``O_EXCL``, so two processes starting
together (the development server and its reloader) never write two different keys: the
second reads the first one's.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["KEY_BYTES", "secret_key_from_file"]

KEY_BYTES = 50  # token_urlsafe(50): 67 characters, what check --deploy asks for and more


def secret_key_from_file(path: Path) -> str:
    """The key in ``path``; a new random one written there (mode 600) if it is missing.

    An empty file counts as damaged and is refused (``ValueError``) rather than replaced:
    replacing it would sign everyone out without a word.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="utf-8").strip()
        if not key:
            raise ValueError(f"{path} is empty: delete it to have a new secret key made.") from None
        return key
    key = secrets.token_urlsafe(KEY_BYTES)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(key + "\n")
    return key
