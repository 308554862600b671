"""Rounds store how many rounds follow them instead of an English name: the name is made
in the reader's language when a page or the API shows it (``tournaments.models.round_label``)."""

from typing import Any

from django.db import migrations, models
from django.db.models import Max


def fill_rounds_after(apps: Any, schema_editor: Any) -> None:
    Round = apps.get_model("tournaments", "Round")
    last = dict(Round.objects.values_list("tournament_id").annotate(last=Max("number")).order_by())
    for rnd in Round.objects.all().only("id", "tournament_id", "number"):
        rnd.rounds_after = last[rnd.tournament_id] - rnd.number
        rnd.save(update_fields=["rounds_after"])


def fill_names(apps: Any, schema_editor: Any) -> None:
    Round = apps.get_model("tournaments", "Round")
    for rnd in Round.objects.all():
        after = rnd.rounds_after
        rnd.name = {0: "Final", 1: "Semifinal", 2: "Quarterfinal"}.get(after, f"Round {rnd.number}")
        rnd.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_tournament_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="rounds_after",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="rounds after this one: 0 the final, 1 the semifinals, …"
            ),
        ),
        migrations.RunPython(fill_rounds_after, fill_names),
        migrations.RemoveField(model_name="round", name="name"),
    ]
