"""The demo's mail: each message kept whole in a file, one line on the console.

A club's own machine has no mail server, and the console is the club's: Django's console
backend printed every mail in full between the server's lines. ``MailFolderBackend``
(``config/settings/demo.py``, unless ``EMAIL_URL`` names a real one) writes each message
to its own ``.eml`` file in ``EMAIL_FILE_PATH`` (``mail/`` in the project folder,
git-ignored; any mail program opens it) and prints one line: to whom, the subject and the
file. A link in a mail (a password reset, a notification) is read from that file.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

__all__ = ["MailFolderBackend"]


class MailFolderBackend(BaseEmailBackend):
    """Each message to ``EMAIL_FILE_PATH/<time>-<n>.eml``, a line on ``stream`` (stdout)."""

    def __init__(
        self, *, file_path: str | None = None, stream: TextIO | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.folder = Path(str(file_path or getattr(settings, "EMAIL_FILE_PATH", None) or "mail"))
        self.stream = stream or sys.stdout

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            subject = re.sub(r"[^\w-]+", "-", str(message.subject))[:40].strip("-") or "mail"
            path = self.folder / f"{stamp}-{subject}.eml"
            path.write_bytes(message.message().as_bytes())
            self.stream.write(
                f"mail to {', '.join(message.recipients())}: {message.subject} ({path})\n"
            )
            self.stream.flush()
            sent += 1
        return sent
