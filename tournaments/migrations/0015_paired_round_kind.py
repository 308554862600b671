"""A round paired from the standings is stored as ``paired``, whichever format pairs it (a
Swiss, a Monrad): the rounds stored as ``swiss`` become ``paired``, and back on reversal."""

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def swiss_to_paired(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Round = apps.get_model("tournaments", "Round")
    Round.objects.filter(kind="swiss").update(kind="paired")


def paired_to_swiss(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Round = apps.get_model("tournaments", "Round")
    Round.objects.filter(kind="paired").update(kind="swiss")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_merge_swiss_consolation_private_links"),
    ]

    operations = [
        migrations.AlterField(
            model_name="round",
            name="kind",
            field=models.CharField(
                choices=[
                    ("knockout", "knockout round"),
                    ("round_robin", "round robin round"),
                    ("paired", "paired round"),
                    ("consolation", "consolation bracket round"),
                    ("losers", "losers' bracket round"),
                    ("grand_final", "grand final"),
                ],
                default="knockout",
                help_text="a knockout round feeds the next by bracket position; a round robin's not",
                max_length=24,
            ),
        ),
        migrations.RunPython(swiss_to_paired, paired_to_swiss),
    ]
