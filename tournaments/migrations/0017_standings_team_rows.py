from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_standings_texts"),
    ]

    operations = [
        migrations.AddField(
            model_name="standings",
            name="team_rows",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
