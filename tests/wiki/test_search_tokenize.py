from wiki.search.tokenize import document_tokens, fold_variants, query_terms, tsquery_text


def test_cjk_runs_become_bigrams_and_single_characters() -> None:
    tokens = document_tokens("信用分配")

    assert tokens[:3] == ["信用", "用分", "分配"]
    assert set(tokens[3:]) == {"信", "用", "分", "配"}


def test_latin_words_are_lower_cased_and_split_on_punctuation() -> None:
    assert document_tokens("SkillForge uses Tree-GRPO")[:4] == ["skillforge", "uses", "tree", "grpo"]


def test_long_latin_words_also_index_their_prefixes_once() -> None:
    tokens = document_tokens("SkillForge skills GRPO")

    assert tokens == ["skillforge", "skills", "grpo", "skil", "skill", "skillf", "skillfo", "skillfor", "skillforg"]


def test_full_width_letters_fold_to_ascii() -> None:
    assert document_tokens("ＧＲＰＯ") == ["grpo"]


def test_mixed_query_keeps_latin_words_and_cjk_bigrams() -> None:
    assert query_terms("ES 参数空间") == ["es", "参数", "数空", "空间"]


def test_a_one_character_query_stays_whole() -> None:
    assert query_terms("奖") == ["奖"]


def test_tsquery_ands_exact_terms() -> None:
    assert tsquery_text("skill 信用") == "skill & 信用"
    assert tsquery_text("ES") == "es"


def test_operators_and_quotes_never_reach_the_tsquery() -> None:
    assert tsquery_text("a & !b | 'c' <-> (d)") == "a & b & c & d"
    assert tsquery_text("&|!()'\\:*") == ""


def test_traditional_characters_are_read_as_simplified_ones() -> None:
    assert query_terms("強化學習") == query_terms("强化学习") == ["强化", "化学", "学习"]
    assert document_tokens("臺灣的獎勵模型") == document_tokens("台湾的奖励模型")


def test_folding_keeps_every_character_in_its_place() -> None:
    text = "信用分配與獎勵 GRPO 乾坤 𠀀"

    assert fold_variants(text) == "信用分配与奖励 GRPO 干坤 𠀀"
    assert len(fold_variants(text)) == len(text)
