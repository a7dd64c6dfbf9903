"""A contrast, an open question or a classification shows the claim it names (the contrast's claim, the question's
answer, the classification's evidence): when that claim is deleted outright (the admin's delete, or hand-written
SQL), ``on_delete=SET_NULL`` empties the column by an UPDATE that leaves ``updated_at`` as it was, and
``?updated_after=`` would never list the item again. A row trigger moves its time when the column changes and the
statement did not set the time itself (a service's save sets it, and its answer carries the time it set).

A restore of a backup sets ``wiki.keep_times`` (migration 0050) and the trigger then leaves the times alone.
"""

from django.db import migrations

COLUMNS = {
    "wiki_contrast": "claim_id",
    "wiki_openquestion": "answer_claim_id",
    "wiki_classification": "evidence_claim_id",
}

FUNCTION = """
CREATE FUNCTION updated_at_of_item_losing_claim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('wiki.keep_times', true) IS DISTINCT FROM 'on' THEN
        NEW.updated_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$"""


def _trigger(table: str) -> str:
    return f"{table}_updated_at_of_claim"


CREATE = (
    FUNCTION,
    *(f"CREATE TRIGGER {_trigger(table)} BEFORE UPDATE OF {column} ON {table} FOR EACH ROW "
      f"WHEN (OLD.{column} IS DISTINCT FROM NEW.{column} AND OLD.updated_at IS NOT DISTINCT FROM NEW.updated_at) "
      f"EXECUTE FUNCTION updated_at_of_item_losing_claim()"
      for table, column in COLUMNS.items()),
)
DROP = (
    *(f"DROP TRIGGER {_trigger(table)} ON {table}" for table in COLUMNS),
    "DROP FUNCTION updated_at_of_item_losing_claim()",
)


class Migration(migrations.Migration):
    dependencies = [("wiki", "0052_search_forms_and_live_works_index")]

    operations = [migrations.RunSQL(CREATE, DROP)]
