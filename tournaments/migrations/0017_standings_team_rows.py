from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_teams_and_keep_apart"),
    ]

    operations = [
        migrations.AddField(
            model_name="standings",
            name="team_rows",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
