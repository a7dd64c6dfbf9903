"""A suggestion reads only the claims of pages not deleted (``Claim.objects.current()``), so deleting or restoring a
page marks the works its claims cite or are about, as migration 0021's triggers mark the works of any other write.

A TRUNCATE has no transition tables to tell which works it touched: one of a table whose rows a suggestion reads marks
every live work (a refresh reads them all again and classifies only those whose text changed).

The works of the claims of pages deleted when this migration runs are marked: their rows were stored from texts that
still read those claims.
"""

from importlib import import_module

from django.db import migrations

MARK_EVERY_WORK = import_module("wiki.migrations.0021_stale_suggestion_marks").MARK_EVERY_WORK


def _works_of_claims_on(pages: str) -> str:
    """The works cited by or named as the subject of the claims of ``pages`` (an SQL condition on ``k.page_id``)."""
    return (f"SELECT c.source_id FROM wiki_citation c JOIN wiki_claim k ON k.id = c.claim_id WHERE {pages} "
            f"UNION SELECT a.source_id FROM wiki_claim_about a JOIN wiki_claim k ON k.id = a.claim_id WHERE {pages}")


FUNCTIONS = {
    # A row trigger, fired only by an update that deletes or restores a page (its WHEN clause): other updates of
    # pages, such as rendering them again, pay nothing.
    "stale_suggestion_of_page": f"""
BEGIN
    INSERT INTO stale_suggestion (source_id) {_works_of_claims_on("k.page_id = NEW.id")};
    RETURN NULL;
END""",
    "stale_suggestion_of_truncate": f"""
BEGIN
    {MARK_EVERY_WORK};
    RETURN NULL;
END""",
}

# The tables migration 0021 watches, and the pages.
TRUNCATED = ("wiki_source", "wiki_page", "wiki_claim", "wiki_citation", "wiki_claim_about", "wiki_component",
             "wiki_classification")

CREATE = (
    *(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $${body}\n$$" for name, body in FUNCTIONS.items()),
    "CREATE TRIGGER wiki_page_stale_suggestion_deletion AFTER UPDATE OF deleted_at ON wiki_page FOR EACH ROW "
    "WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION stale_suggestion_of_page()",
    *(f"CREATE TRIGGER {table}_stale_suggestion_truncate AFTER TRUNCATE ON {table} "
      "FOR EACH STATEMENT EXECUTE FUNCTION stale_suggestion_of_truncate()" for table in TRUNCATED),
)
DROP = (
    "DROP TRIGGER wiki_page_stale_suggestion_deletion ON wiki_page",
    *(f"DROP TRIGGER {table}_stale_suggestion_truncate ON {table}" for table in TRUNCATED),
    *(f"DROP FUNCTION {name}()" for name in FUNCTIONS),
)
MARK_WORKS_OF_DELETED_PAGES = (
    f"INSERT INTO stale_suggestion (source_id) "
    f"{_works_of_claims_on('k.page_id IN (SELECT id FROM wiki_page WHERE deleted_at IS NOT NULL)')}"
)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0021_stale_suggestion_marks")]

    operations = [
        migrations.RunSQL(CREATE, DROP),
        migrations.RunSQL(MARK_WORKS_OF_DELETED_PAGES, migrations.RunSQL.noop),
    ]
