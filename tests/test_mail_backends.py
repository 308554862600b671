"""The demo's mail: each message whole in a file, one line on the console."""

from __future__ import annotations

import email
import io
import os
import subprocess
import sys
from pathlib import Path

from django.core.mail import EmailMessage

from config.mail_backends import MailFolderBackend

ROOT = Path(__file__).resolve().parent.parent


def test_a_mail_is_one_line_and_a_whole_file(tmp_path: Path) -> None:
    out = io.StringIO()
    backend = MailFolderBackend(file_path=str(tmp_path / "mail"), stream=out)
    body = "Återställ lösenordet: http://192.168.1.20:8000/accounts/reset/x/\n" * 20
    sent = backend.send_messages(
        [
            EmailMessage("Nytt lösenord", body, "a@klubb.se", ["anna@klubb.se"]),
            EmailMessage("Ingen mottagare", "x", "a@klubb.se", []),
        ]
    )
    assert sent == 1
    (line,) = out.getvalue().splitlines()
    assert line.startswith("mail to anna@klubb.se: Nytt lösenord (") and line.endswith(".eml)")
    (kept,) = (tmp_path / "mail").iterdir()
    assert kept.suffix == ".eml"
    message = email.message_from_bytes(kept.read_bytes())
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes) and payload.decode() == body


def test_the_demo_keeps_mail_in_a_folder_unless_a_server_is_named(tmp_path: Path) -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.EMAIL_BACKEND, getattr(settings, 'EMAIL_FILE_PATH', ''))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("EMAIL_URL", "DATABASE_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.demo", DJANGO_SECRET_KEY="x")

    def backend(**more: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**env, **more},
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip().splitlines()[-1]

    assert backend() == f"config.mail_backends.MailFolderBackend {ROOT / 'mail'}"
    assert backend(EMAIL_URL="smtp://mail.klubb.se:25").startswith(
        "django.core.mail.backends.smtp.EmailBackend"
    )
