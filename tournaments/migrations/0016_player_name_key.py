"""Within a club, one name is one player: each player's name key (``name_key``, as
``tournaments.player_names`` makes it) is stored, and a unique constraint on the key and
the club holds it from now on (players of no club are not held to it).

Decision: a database with players of one club who share a name (by that key) is not
changed. The migration stops, names every such club, name and player number, and asks
for them to be told apart first (rename one, e.g. “Anna Lind d.y.”; or, if they are one
person, move one's entries and results to the other and delete it), then ``migrate``
again. It does not merge or rename them itself: two rows with one name may be two
people (a parent and a child) or one person entered twice, and only the club knows
which; a silent merge would move results between people.
"""

import unicodedata
from collections import defaultdict

from django.apps.registry import Apps
from django.core.management.base import CommandError
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

BATCH = 1000
SHOWN = 50  # clubs and names listed in the refusal; the rest are counted


def _key(name: str) -> str:
    """``tournaments.player_names.player_name_key`` as it was when the keys were made
    (a migration keeps its own copy: the module may change later)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def keys_fill(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("tournaments", "Player")
    Club = apps.get_model("tournaments", "Club")
    batch = []
    shared: dict[tuple[int, str], list[tuple[int, str]]] = defaultdict(list)
    for player in Player.objects.only("pk", "name", "club_id").order_by("pk").iterator(BATCH):
        player.name_key = _key(player.name)
        batch.append(player)
        if player.club_id is not None:
            shared[(player.club_id, player.name_key)].append((player.pk, player.name))
        if len(batch) >= BATCH:
            Player.objects.bulk_update(batch, ["name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["name_key"])
    clashes = sorted((key, rows) for key, rows in shared.items() if len(rows) > 1)
    if clashes:
        clubs = dict(
            Club.objects.filter(pk__in={club for (club, _key), _rows in clashes}).values_list(
                "pk", "name"
            )
        )
        lines = [
            f"- {clubs[club]} (club #{club}): "
            + ", ".join(f"#{pk} “{name}”" for pk, name in rows)
            for (club, _name), rows in clashes[:SHOWN]
        ]
        if len(clashes) > SHOWN:
            lines.append(f"- and {len(clashes) - SHOWN} more names shared within a club")
        raise CommandError(
            "Within a club, one name must be one player from now on, and these players "
            "share a name with another of their club (case and spacing ignored):\n"
            + "\n".join(lines)
            + "\nNothing was changed. Tell each pair apart first: rename one (e.g. "
            "“Anna Lind d.y.”), or, if they are one person, move one's entries and "
            "results to the other and delete it. Then run migrate again."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_paired_round_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("name_key", "club"), name="player_name_once_per_club"
            ),
        ),
    ]
