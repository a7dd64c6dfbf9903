"""The versions every cached entry is keyed by, kept in PostgreSQL: one row, moved by each committed write.

``content`` moves with every write to the wiki's tables, ``accounts`` with every write to the accounts and readers'
profiles (``wiki.caching.versions``). Each is the time of its last move in microseconds on the database's clock, or one
more than the last when two moves fall in the same microsecond (``wiki.caching.version_row``). The table is no model: it is bookkeeping, not content (its name has no
``wiki_``, so moving it moves no version, and a backup leaves it out).
"""

from django.db import migrations

MICROSECONDS = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"
CREATE = (
    "CREATE TABLE content_version (id smallint PRIMARY KEY CHECK (id = 1), content bigint NOT NULL, "
    "accounts bigint NOT NULL)",
    f"INSERT INTO content_version (id, content, accounts) VALUES (1, {MICROSECONDS}, {MICROSECONDS})",
)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0040_watchlist")]

    operations = [migrations.RunSQL(CREATE, "DROP TABLE content_version")]
