"""Negation and contrast triggers, pronouns and generic Latin tokens."""

from __future__ import annotations

import re

from classifier.lexicon.starts import Guarded, guarded

# Negation and contrast triggers. "scope" cues negate what follows them up
# to the clause end; "after" cues negate what comes just before them.
NEGATION = guarded(re.compile(
    r"(?P<before>没有|并不|并非|不是|不等于|不属于|不应|不能|不再|不会|不用|无需|无(?!法|论|关|疑)|未(?!来)|"
    r"而非|而不是|非(?!常)|避免|即使|即便|"
    r"(?i:(?<![A-Za-z])(?:not(?! only| just)|no(?! longer| more than)|never|without|rather than|"
    r"instead of|as opposed to|unlike|in contrast (?:to|with)|contrary to|neither|nor|lacks?|lacking|cannot|can't|doesn't|don't|isn't|"
    r"aren't|won't|even if|even though|bypass(?:es|ing)?|eliminat(?:e|es|ing) the need (?:for|of)|"
    r"(?:need|needs) no|free of|absent|avoid(?:s|ing)? (?:the )?(?:constraints?|limitations?|need|reliance|dependence) "
    r"(?:of|on|for))(?![A-Za-z])))"
    r"|(?P<after>(?i:-free(?![A-Za-z])|保持冻结|(?<![A-Za-z])(?:remains? frozen|are (?:kept )?frozen)))"
    # Comparisons and objects of evaluation: what follows is a baseline or
    # the thing measured, not the work's own method ("outperforms PPO",
    # "gains over SFT models", "a benchmark for evaluating multi-turn RL").
    r"|(?P<compare>(?i:(?<![A-Za-z])(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|"
    r"compar(?:e|es|ed|ing) (?:to|with|against)|in comparison (?:to|with)|relative to|than|"
    r"(?:improvements?|gains?|advantages?)(?: (?:[^,.;]|(?<=\d)\.(?=\d)){1,50}?)? over|match(?:es|ed|ing)|rivall?(?:s|ed|ing)?|"
    r"on par with|comparable to|competitive with|baselines? (?:such as|like|including|for)|"
    r"baseline results for|(?:experiments?|evaluations?) (?:across|on)|evaluated (?:on|across)|tested on|(?:shortcomings|limitations|drawbacks|weaknesses) of|for (?:evaluating|benchmarking|measuring|assessing)|to (?:evaluate|benchmark|"
    r"measure|assess))(?![A-Za-z])))"
))

# Conjunctions after which a negation no longer reaches.
SCOPE_BREAK = Guarded(re.compile(r"但|但是|而(?!非|不是)|却|(?i:(?<![A-Za-z])(?:but|however|whereas|while|yet|instead)"
                                 r"(?![A-Za-z]))"))

# Openings of a clause that carry the previous subject on.
PRONOUN = re.compile(r"^\s*(?:它们|它|其|该|这|此|(?i:(?:it|they|this|these|its|their|the (?:paper|work|"
                     r"method|approach|model|system|framework|benchmark|environment|agent|authors))"
                     r"(?![A-Za-z])))")

# Words in Latin script that look like names but are generic vocabulary.
COMMON_TOKENS = frozenset(
    """agent agents llm llms vlm gui cua rl rlhf rlvr sft dpo kto ppo grpo rloo mcts es api apis kv cot
    policy reward rollout rollouts trajectory trajectories harness skill skills tool tools env gpu gpus
    agentic ai ml nlp qa swe os cpu sota llama qwen gpt""".split()
)

# Subjects are matched on these tokens; the rest is filler.
SUBJECT_STOPWORDS = frozenset({"and", "the", "of", "a", "an", "for", "with", "to", "in", "on", "&", "与", "和", "及"})
