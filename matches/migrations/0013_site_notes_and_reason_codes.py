"""What the site itself says is kept as a code, worded when read (``matches.site_words``).

Before, the site stored its own words: a result or report recorded move by move had the
note ``recorded move by move`` in the language of whoever recorded it (``protokollfört
drag för drag`` in Swedish), a game entered from a referee's record ``from game record
#N``, and the audit rows of walkovers, withdrawals and resets the English reasons ``the
opponent withdrew``, ``<name> withdrew``, ``given in admin``, ``withdrawn in admin`` and
``reset in admin by <user>``. Those texts become codes: ``site_note`` on results and
reports (the person's ``note`` left empty), ``reason_code`` in the audit row's data (its
``reason`` removed). Any other text is a person's and stays as it is; so does a ``from
game record #N`` whose row no longer links record N (the number would be lost).
Backwards, the codes become the English texts again.
"""

import re
from collections.abc import Iterator
from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

BATCH = 1000
RECORDED_LIVE = {"recorded move by move", "protokollfört drag för drag"}
FROM_RECORD = re.compile(r"from game record #(\d+)")
NOTED = ("GameResult", "GameReport")
EVENT_KINDS = ("walkover", "withdrawal", "reset")
SITE_NOTE_CHOICES = [
    ("recorded_live", "recorded move by move on the digital scoresheet"),
    ("from_record", "entered from a game record a referee submitted"),
]


def _batches(rows: Any) -> Iterator[list[Any]]:
    batch = []
    for row in rows.order_by("pk").iterator(BATCH):
        batch.append(row)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    yield batch


def _site_note(note: str, submission_id: int | None) -> str:
    if note.strip() in RECORDED_LIVE:
        return "recorded_live"
    found = FROM_RECORD.fullmatch(note.strip())
    if found and submission_id is not None and int(found.group(1)) == submission_id:
        return "from_record"
    return ""


def notes_to_codes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for name in NOTED:
        model = apps.get_model("matches", name)
        rows = model.objects.filter(
            models.Q(note__in=RECORDED_LIVE) | models.Q(note__startswith="from game record #")
        ).only("pk", "note", "site_note", "submission_id")
        for batch in _batches(rows):
            changed = []
            for row in batch:
                code = _site_note(row.note, row.submission_id)
                if code:
                    row.site_note, row.note = code, ""
                    changed.append(row)
            model.objects.bulk_update(changed, ["site_note", "note"])


def _withdrew(event: Any, names: dict[int, str]) -> bool:
    """``<name> withdrew`` naming the walkover's loser (the site's words, not a person's)."""
    match = event.match
    loser = match.player2_id if event.data.get("winner") == match.player1_id else match.player1_id
    return event.kind == "walkover" and event.data["reason"] == f"{names.get(loser)} withdrew"


def _reason_code(event: Any, names: dict[int, str]) -> str:
    reason = event.data.get("reason")
    if not isinstance(reason, str):
        return ""
    if reason == "the opponent withdrew" or _withdrew(event, names):
        return "opponent_withdrew"
    if reason in ("given in admin", "withdrawn in admin"):
        return "admin"
    if event.kind == "reset" and reason.startswith("reset in admin by "):
        return "admin"
    return ""


def reasons_to_codes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    MatchEvent = apps.get_model("matches", "MatchEvent")
    Player = apps.get_model("tournaments", "Player")
    rows = MatchEvent.objects.filter(kind__in=EVENT_KINDS).select_related("match")
    for batch in _batches(rows):
        ids = {p for e in batch for p in (e.match.player1_id, e.match.player2_id) if p}
        names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        changed = []
        for event in batch:
            code = _reason_code(event, names)
            if code:
                data = {k: v for k, v in event.data.items() if k != "reason"}
                event.data = {**data, "reason_code": code}
                changed.append(event)
        MatchEvent.objects.bulk_update(changed, ["data"])


def codes_to_notes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for name in NOTED:
        model = apps.get_model("matches", name)
        model.objects.filter(site_note="recorded_live", note="").update(
            note="recorded move by move"
        )
        rows = model.objects.filter(site_note="from_record", note="")
        for batch in _batches(rows):
            for row in batch:
                row.note = (
                    f"from game record #{row.submission_id}"
                    if row.submission_id is not None
                    else "from a game record"
                )
            model.objects.bulk_update(batch, ["note"])


def codes_to_reasons(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    MatchEvent = apps.get_model("matches", "MatchEvent")
    words = {"opponent_withdrew": "the opponent withdrew", "admin": "given in admin"}
    for batch in _batches(MatchEvent.objects.filter(kind__in=EVENT_KINDS)):
        changed = []
        for event in batch:
            code = event.data.get("reason_code")
            if code in words:
                data = {k: v for k, v in event.data.items() if k != "reason_code"}
                event.data = {**data, "reason": words[code]}
                changed.append(event)
        MatchEvent.objects.bulk_update(changed, ["data"])


class Migration(migrations.Migration):
    dependencies = [("matches", "0012_report_record_evidence")]

    operations = [
        migrations.AddField(
            model_name="gamereport",
            name="site_note",
            field=models.CharField(blank=True, choices=SITE_NOTE_CHOICES, max_length=16),
        ),
        migrations.AddField(
            model_name="gameresult",
            name="site_note",
            field=models.CharField(blank=True, choices=SITE_NOTE_CHOICES, max_length=16),
        ),
        migrations.RunPython(notes_to_codes, codes_to_notes),
        migrations.RunPython(reasons_to_codes, codes_to_reasons),
    ]
