"""An item's ``updated_at`` moves whenever what the API shows of it changes, also when the change is written to
another table, so that ``?updated_after=`` finds it (``wiki.api.filters.UpdatedAfterFilter``).

What the API shows of a claim, an open question or a work and lives in other rows:

- a claim's citations (``wiki_citation``) and the works it is about (``wiki_claim_about``);
- an open question's claims and works (``wiki_openquestion_claims``, ``wiki_openquestion_sources``);
- a work's components (``wiki_component``);
- the address and title of the page a claim, a question or a glossary term is on or defined by, and whether that page
  is deleted (its claims and questions leave the lists with it and come back when it is restored);
- the slug and short name of a work a claim cites or is about, or a question names.

As in migrations 0021 and 0022, the database does it, so that a service, a form, the admin, ``bulk_create``,
``QuerySet.update`` and hand-written SQL are all seen alike: a statement-level trigger on each linking table reads
the rows the statement wrote (its transition tables: one UPDATE of the items per statement, however many rows it
wrote), and a row trigger on pages and works, fired only when a name or the deletion mark changes (its WHEN
clause), touches the items naming them. The time is ``clock_timestamp()``, when the statement ran, not when its
transaction began (``now()``), which may be before a client read the list. A restore of a backup, which writes
each row's time as it was, sets ``wiki.keep_times`` for its transaction, and the triggers then leave the times alone.

A classification or a contrast names one or two works only, and a classification's own time says when it was set: a
work renamed leaves them alone, and their lists find them by their works' times instead
(``ClassificationQuerySet.changed_after``, ``ContrastQuerySet.changed_after``).
"""

from django.db import migrations

TOUCH = "UPDATE {table} SET updated_at = clock_timestamp() WHERE id IN ({ids})"


def _of_links(owner: str, column: str) -> str:
    """A trigger body for rows that belong to an item of table ``owner`` through ``column``: the items of the rows
    inserted or deleted, and of those updated, before and after (an update changing nothing of a row touches none)."""
    touch = TOUCH.format(table=owner, ids="SELECT {column} FROM changed")
    return f"""
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH changed AS (SELECT DISTINCT {column} FROM new_rows) {touch.format(column=column)};
    ELSIF TG_OP = 'DELETE' THEN
        WITH changed AS (SELECT DISTINCT {column} FROM old_rows) {touch.format(column=column)};
    ELSE
        WITH changed AS (
            SELECT DISTINCT side.{column} FROM new_rows n JOIN old_rows o ON o.id = n.id
            CROSS JOIN LATERAL (VALUES (o.{column}), (n.{column})) AS side ({column})
            WHERE n IS DISTINCT FROM o
        ) {touch.format(column=column)};
    END IF;
    RETURN NULL;
END"""


FUNCTIONS = {
    "updated_at_of_claims_by_links": _of_links("wiki_claim", "claim_id"),
    "updated_at_of_questions_by_links": _of_links("wiki_openquestion", "openquestion_id"),
    "updated_at_of_sources_by_components": _of_links("wiki_source", "source_id"),
    # Row triggers, fired by their WHEN clause only.
    "updated_at_of_items_on_page": f"""
BEGIN
    {TOUCH.format(table="wiki_claim", ids="SELECT id FROM wiki_claim WHERE page_id = NEW.id")};
    {TOUCH.format(table="wiki_openquestion", ids="SELECT id FROM wiki_openquestion WHERE page_id = NEW.id")};
    {TOUCH.format(table="wiki_glossaryterm", ids="SELECT id FROM wiki_glossaryterm WHERE page_id = NEW.id")};
    RETURN NULL;
END""",
    "updated_at_of_items_naming_source": f"""
BEGIN
    {TOUCH.format(table="wiki_claim", ids="SELECT claim_id FROM wiki_citation WHERE source_id = NEW.id "
                                          "UNION SELECT claim_id FROM wiki_claim_about WHERE source_id = NEW.id")};
    {TOUCH.format(table="wiki_openquestion", ids="SELECT openquestion_id FROM wiki_openquestion_sources WHERE source_id = NEW.id")};
    RETURN NULL;
END""",
}

ALL = ("INSERT", "UPDATE", "DELETE")
STATEMENT_TRIGGERS = [
    ("wiki_citation", "updated_at_of_claims_by_links"),
    ("wiki_claim_about", "updated_at_of_claims_by_links"),
    ("wiki_openquestion_claims", "updated_at_of_questions_by_links"),
    ("wiki_openquestion_sources", "updated_at_of_questions_by_links"),
    ("wiki_component", "updated_at_of_sources_by_components"),
]
TRANSITION = {"INSERT": "NEW TABLE AS new_rows", "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
              "DELETE": "OLD TABLE AS old_rows"}
ROW_TRIGGERS = {
    "wiki_page_updated_at_of_items": (
        "wiki_page", "slug, title, deleted_at",
        "(OLD.slug, OLD.title, OLD.deleted_at IS NULL) IS DISTINCT FROM (NEW.slug, NEW.title, NEW.deleted_at IS NULL)",
        "updated_at_of_items_on_page",
    ),
    "wiki_source_updated_at_of_items": (
        "wiki_source", "slug, short_name",
        "(OLD.slug, OLD.short_name) IS DISTINCT FROM (NEW.slug, NEW.short_name)",
        "updated_at_of_items_naming_source",
    ),
}


def _trigger(table: str, event: str) -> str:
    return f"{table}_updated_at_{event.lower()}"


# A restore (``wiki.services.backup.wiki_import``) writes the times the backup holds: it says so for its transaction.
KEEP_TIMES = "wiki.keep_times"
_KEPT = f"""
BEGIN
    IF current_setting('{KEEP_TIMES}', true) = 'on' THEN
        RETURN NULL;
    END IF;"""

CREATE = (
    *(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $${body.replace(chr(10) + 'BEGIN', _KEPT, 1)}\n$$"
      for name, body in FUNCTIONS.items()),
    *(f"CREATE TRIGGER {_trigger(table, event)} AFTER {event} ON {table} REFERENCING {TRANSITION[event]} "
      f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
      for table, function in STATEMENT_TRIGGERS for event in ALL),
    *(f"CREATE TRIGGER {name} AFTER UPDATE OF {columns} ON {table} FOR EACH ROW WHEN ({when}) EXECUTE FUNCTION {function}()"
      for name, (table, columns, when, function) in ROW_TRIGGERS.items()),
)
DROP = (
    *(f"DROP TRIGGER {_trigger(table, event)} ON {table}" for table, _function in STATEMENT_TRIGGERS for event in ALL),
    *(f"DROP TRIGGER {name} ON {table}" for name, (table, *_rest) in ROW_TRIGGERS.items()),
    *(f"DROP FUNCTION {name}()" for name in FUNCTIONS),
)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0049_source_imports")]

    operations = [migrations.RunSQL(CREATE, DROP)]
