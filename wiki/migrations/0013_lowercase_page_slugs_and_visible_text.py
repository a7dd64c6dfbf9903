"""Field rules: page slugs lower case, page text without unresolved conflict markers, titles not blank with only
zero-width characters nor holding direction overrides; the contrast check constraint says what it refuses."""

import django.contrib.postgres.fields
import django.core.validators
from django.db import migrations, models

import wiki.models.rules


class Migration(migrations.Migration):

    dependencies = [
        ('wiki', '0012_search_taxonomy_markers'),
    ]

    operations = [
        migrations.AlterField(
            model_name='classification',
            name='algorithm',
            field=models.CharField(blank=True, max_length=120, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='classification',
            name='evidence_locator',
            field=models.CharField(blank=True, max_length=200, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='classification',
            name='updated',
            field=models.CharField(blank=True, max_length=300, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')], verbose_name='what is updated'),
        ),
        migrations.AlterField(
            model_name='component',
            name='name',
            field=models.CharField(max_length=200, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='contrast',
            name='axis',
            field=models.CharField(max_length=300, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='findingdismissal',
            name='reason',
            field=models.TextField(validators=[django.core.validators.MaxLengthValidator(2000), wiki.models.rules.FullMatchValidator('^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff][^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$', 'Type some visible text, without control characters (other than tab and line breaks).', code='invalid_characters')], verbose_name='reason'),
        ),
        migrations.AlterField(
            model_name='glossaryterm',
            name='aliases_en',
            field=django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=100, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]), blank=True, default=list, size=None, verbose_name='English aliases and abbreviations'),
        ),
        migrations.AlterField(
            model_name='glossaryterm',
            name='aliases_zh',
            field=django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=100, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]), blank=True, default=list, size=None, verbose_name='Chinese aliases'),
        ),
        migrations.AlterField(
            model_name='glossaryterm',
            name='name_en',
            field=models.CharField(max_length=100, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')], verbose_name='English name'),
        ),
        migrations.AlterField(
            model_name='glossaryterm',
            name='name_zh',
            field=models.CharField(max_length=100, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')], verbose_name='Chinese name'),
        ),
        migrations.AlterField(
            model_name='openquestion',
            name='title',
            field=models.CharField(max_length=300, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='page',
            name='body',
            field=models.TextField(blank=True, help_text='Markdown with [[wiki links]] and （来源：Title，locator） citations.', validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$', 'Remove the control characters (other than tab and line breaks).', code='invalid_characters'), wiki.models.rules.validate_no_conflict_markers]),
        ),
        migrations.AlterField(
            model_name='page',
            name='slug',
            field=models.CharField(max_length=200, unique=True, validators=[wiki.models.rules.FullMatchValidator('^[-0-9A-Za-z_\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff]+$', 'Use letters (Latin, Greek, Cyrillic, Chinese, Japanese, Korean), digits, hyphens and underscores.', code='invalid_slug'), wiki.models.rules.validate_lowercase]),
        ),
        migrations.AlterField(
            model_name='page',
            name='title',
            field=models.CharField(max_length=300, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='revision',
            name='comment',
            field=models.CharField(blank=True, max_length=500, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='source',
            name='arxiv_id',
            field=models.CharField(blank=True, help_text='Normalised, without version (2307.13854).', max_length=40, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters'), wiki.models.rules.validate_arxiv_id]),
        ),
        migrations.AlterField(
            model_name='source',
            name='bibtex_key',
            field=models.CharField(blank=True, max_length=200, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='source',
            name='doi',
            field=models.CharField(blank=True, help_text='Normalised, lower case, without https://doi.org/.', max_length=200, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters'), wiki.models.rules.validate_doi]),
        ),
        migrations.AlterField(
            model_name='source',
            name='short_name',
            field=models.CharField(max_length=200, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='source',
            name='title',
            field=models.CharField(max_length=500, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff\\u202a-\\u202e\\u2066-\\u2069][^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Type some visible text, without control characters (U+0000–U+001F, U+007F–U+009F) or direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterField(
            model_name='source',
            name='venue',
            field=models.CharField(blank=True, max_length=300, validators=[wiki.models.rules.FullMatchValidator('^[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]*$', 'Remove the control characters (U+0000–U+001F, U+007F–U+009F) and direction overrides (U+202A–U+202E, U+2066–U+2069).', code='invalid_characters')]),
        ),
        migrations.AlterConstraint(
            model_name='contrast',
            name='contrast_sides_differ',
            constraint=models.CheckConstraint(condition=models.Q(('left', models.F('right')), models.Q(('left_component', models.F('right_component')), models.Q(('left_component__isnull', True), ('right_component__isnull', True)), _connector='OR'), _negated=True), name='contrast_sides_differ', violation_error_code='same_sides', violation_error_message='A work (or component) cannot be contrasted with itself: choose two different sides.'),
        ),
    ]
