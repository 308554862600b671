from django.db import migrations, models


def number_existing(apps, schema_editor):
    """Matches drawn before tables existed get them as a new draw would: per round in
    pairing order (third-place match last), byes none."""
    Match = apps.get_model("matches", "Match")
    rows = Match.objects.order_by("round_id", "is_third_place", "slot")
    current = None
    number = 0
    changed = []
    for m in rows.only("pk", "round_id", "state", "is_third_place", "slot"):
        if m.round_id != current:
            current, number = m.round_id, 0
        if m.state == "bye":
            continue
        number += 1
        m.table = number
        changed.append(m)
    Match.objects.bulk_update(changed, ["table"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0008_live_parts"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="table",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(number_existing, migrations.RunPython.noop),
    ]
