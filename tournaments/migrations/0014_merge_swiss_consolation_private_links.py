"""Joins four migrations made side by side (Swiss byes, consolation for third place,
private links, the Monrad format); none depends on another."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_consolation_third_place"),
        ("tournaments", "0013_private_links"),
        ("tournaments", "0013_swiss_pairing_numbers_and_half_point_byes"),
        ("tournaments", "0013_tournament_format_monrad"),
    ]

    operations = []
