"""One test per general English rule added for generality (held-out set)."""

import pytest

from classifier import Fact, FactValue, Mechanism, Verdict, classify
from classifier.engine import analyse
from classifier.lexicon import scan


def _fact(text: str, fact: Fact, subject: str | None = None) -> FactValue:
    return next(f.value for f in classify(text, subject).facts if f.fact is fact)


@pytest.mark.parametrize(
    "text",
    [
        "We propose Duplicating Sampling Policy Optimization, in which the web agent calls search tools over "
        "many turns and is rewarded for a correct final answer.",
        "Our Clipped Trajectory Policy Optimization trains the agent in the ALFWorld environment with episodic "
        "task success as reward.",
    ],
)
def test_a_coined_policy_optimization_name_is_an_rl_algorithm(text: str) -> None:
    s = classify(text)
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_training_through_reinforcement_learning_is_the_works_own_objective() -> None:
    s = classify(
        "We present a framework for end-to-end training of deep research agents through scaling "
        "reinforcement learning in real-world environments with web search tools and answer rewards; "
        "a multi-agent architecture extracts page content."
    )
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_actor_and_critic_networks_are_actor_critic() -> None:
    s = classify("We treat the code-generating LM as an actor network and train a critic network that "
                 "predicts the functional correctness of generated programs.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.algorithm == "actor-critic"


def test_a_cold_start_sft_stage_does_not_make_the_work_sft() -> None:
    s = classify("Our pipeline uses a rejection sampling fine-tuning cold start followed by agentic RL "
                 "training in which the web agent interacts with search tools and is rewarded for correctness.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_a_released_fine_tuned_model_is_sft() -> None:
    s = classify("We release Toolsmith, a finetuned LLaMA-based model that writes accurate API calls.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_fine_tuning_with_supervised_learning_is_sft() -> None:
    s = classify("We run an expert agent on the tasks, keep the resolved runs and fine-tune the model on them "
                 "with supervised learning.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_a_qualified_preference_optimization_is_preference_optimization() -> None:
    s = classify("Starting from outputs ranked by a teacher, we apply distilled direct preference optimization "
                 "to learn a chat model from a teacher's rankings.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION


@pytest.mark.parametrize(
    "text",
    [
        "TextOpt backpropagates textual feedback to improve the prompts of a compound AI system, while the "
        "weights of the underlying models are never changed.",
        "The framework requires no additional training: it adds an agentic search workflow to the reasoning "
        "model's prompt.",
    ],
)
def test_weights_that_never_change_mean_harness(text: str) -> None:
    s = classify(text)
    assert s.mechanism is Mechanism.HARNESS
    assert s.verdict is Verdict.NOT_STRICT


def test_a_platform_for_building_agents_is_a_harness() -> None:
    s = classify("We introduce a platform for the development of AI agents that write code, use a command line "
                 "and browse the web, with sandboxed execution and many benchmarks.")
    assert s.mechanism is Mechanism.HARNESS


def test_a_fixed_multi_phase_pipeline_is_a_harness() -> None:
    s = classify("Our approach employs a simplistic three-phase process of localization, repair and patch "
                 "validation for software agents.")
    assert s.mechanism is Mechanism.HARNESS


def test_an_evaluation_study_that_trains_nothing_is_environment() -> None:
    s = classify("We conduct a large-scale evaluation of 18 released agents across 12 held-out environments. "
                 "We do not train any new models; we vary tool interfaces and horizons.")
    assert s.mechanism is Mechanism.ENVIRONMENT
    assert s.verdict is Verdict.NOT_STRICT


def test_a_framework_for_training_agents_via_rl_is_infrastructure() -> None:
    s = classify("AgentKit is an open-source framework for post-training language agents via reinforcement "
                 "learning: you can build custom environments and a trainer plugs into RL backends for PPO "
                 "and GRPO-style updates.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE
    assert s.verdict is Verdict.NOT_STRICT


def test_a_single_final_answer_is_not_multi_step() -> None:
    text = "Each population member's fitness is the accuracy of its single final answer on countdown problems."
    assert _fact(text, Fact.MULTI_STEP) is FactValue.FALSE


def test_a_game_theoretic_formulation_is_not_an_environment() -> None:
    s = classify("We treat alignment as a constant-sum two-player game and propose Self-Play Preference "
                 "Optimization, iterative policy updates that approximate the Nash equilibrium, unlike DPO.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION
    assert s.verdict is Verdict.NOT_STRICT


def test_without_process_rewards_still_leaves_the_outcome_reward() -> None:
    text = ("We train the model with outcome-based RL to invoke external search systems during reasoning, "
            "without requiring process rewards.")
    assert _fact(text, Fact.VERIFIABLE_REWARD) is FactValue.TRUE
    assert classify(text).verdict is Verdict.STRICT


def test_gui_is_a_word_not_a_prefix() -> None:
    found = [m.group() for m in scan("Keeping simplicity as a guiding principle, evolution guided search.")]
    assert not any(f.lower() == "gui" for f in found)


def test_to_narrow_the_gap_is_not_a_narrow_update() -> None:
    s = classify("To narrow the gap, we train the LLM agent with PPO in the Overcooked environment with "
                 "multi-step episodes and the game score as reward.")
    assert s.verdict is Verdict.STRICT


def test_a_frozen_actor_with_a_trained_helper_is_narrow() -> None:
    s = classify("We learn a retrospective model with policy gradient from environment rewards across multi-step "
                 "tasks in ALFWorld; it rewrites the agent prompt while the actor LLM itself stays frozen.")
    assert s.verdict is Verdict.STRICT_NARROW


@pytest.mark.parametrize(
    ("text", "mechanism"),
    [
        ("We apply GRPO with a tool-use reward and obtain a 15% gain over SFT models on tool benchmarks.",
         Mechanism.POLICY_GRADIENT),
        ("We introduce a benchmark for evaluating multi-turn RL for LLMs and report baseline results for PPO "
         "and filtered behaviour cloning.", Mechanism.ENVIRONMENT),
    ],
)
def test_what_is_compared_against_does_not_decide(text: str, mechanism: Mechanism) -> None:
    assert classify(text).mechanism is mechanism


@pytest.mark.parametrize(
    ("text", "compared", "without"),
    [
        ("Our DPO-trained agent outperforms PPO and GRPO baselines on WebShop.", {"PPO", "GRPO"},
         "Our DPO-trained agent outperforms baselines on WebShop."),
        ("We apply GRPO with a tool-use reward and obtain a 15% gain over SFT models on tool benchmarks.", {"SFT"},
         "We apply GRPO with a tool-use reward and obtain a 15% gain on tool benchmarks."),
    ],
)
def test_the_methods_a_work_is_compared_with_change_nothing(text: str, compared: set[str], without: str) -> None:
    hits = analyse(text).hits
    assert {text[h.start:h.end] for h in hits if h.reading == "cmp"} == compared
    assert classify(text).mechanism is classify(without).mechanism
    assert classify(text).verdict is classify(without).verdict


def test_a_comparison_stops_at_a_preposition() -> None:
    # "on MATH and GSM8K" is the work's own single-turn setting, not part of the baseline.
    text = "Our method outperforms PPO on MATH and GSM8K with fewer updates."
    assert _fact(text, Fact.INTERACTIVE_ENV) is FactValue.FALSE


def test_a_sentence_about_current_practice_weighs_less() -> None:
    s = classify("Current LLMs often undergo supervised fine-tuning to acquire tool use and struggle to "
                 "generalize. We train LLMs for tool selection with reinforcement learning.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_an_rl_algorithm_takes_the_algorithm_bonus_from_sft() -> None:
    s = classify("Supervised fine-tuning remains imperative for preference alignment; we introduce ORPO, "
                 "a monolithic preference optimization that needs no SFT phase.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION


def test_proposing_a_novel_rl_algorithm_outweighs_a_side_benchmark() -> None:
    s = classify("To study this, we first introduce a new benchmark where an LLM agent collaborates with a human "
                 "over multiple turns on realistic programming tasks. We propose a novel RL algorithm that trains "
                 "a critic with training-time information to give step-level rewards for improving the policy.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_what_some_agents_do_is_background() -> None:
    s = classify("Although some agents enable iterative refinement through verbal feedback, they cannot learn "
                 "from rewards. We optimise the agent with policy gradient from environment rewards over "
                 "multi-step tasks in WebShop.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_an_update_verb_does_not_swallow_policy_gradient() -> None:
    s = classify("We optimise the agent with policy gradient from environment rewards over multi-step tasks.")
    assert s.algorithm == "policy gradient"


def test_what_agents_are_usually_trained_with_and_what_is_matched_is_not_the_method() -> None:
    s = classify("LLM agents are usually trained with policy-gradient RL. We instead fine-tune agent parameters "
                 "with evolution strategies: the agent acts over many turns in web environments and each "
                 "perturbation is scored by its episodic return, matching PPO on agentic benchmarks.")
    assert s.mechanism is Mechanism.EVOLUTION_STRATEGIES
    assert s.verdict is Verdict.ADJACENT


def test_a_sentence_can_end_on_an_acronym_but_not_on_an_initial() -> None:
    from classifier.text import segments

    text = "Agents are usually trained with RL. We use ES. See J. Smith for details."
    assert len({s.sentence for s in segments(text)}) == 3


@pytest.mark.parametrize("gap", [" ", "   ", "\t ", " " * 5000])
def test_a_while_clause_is_its_own_segment_however_long_the_space_before_it(gap: str) -> None:
    from classifier.text import segments

    for text, head in ((f"X trains with PPO{gap}while Y prompts.", "X trains with PPO"),
                       (f"X trains with PPO ,{gap}while Y prompts.", "X trains with PPO "),
                       (f"X trains with PPO{gap}but Y prompts.", None)):
        parts = [text[s.start:s.end] for s in segments(text)]
        if head is None:
            assert parts == [text]
        else:
            assert parts == [head, "Y prompts."]


@pytest.mark.parametrize(
    "text",
    [
        "We present a fully asynchronous RL system that decouples generation from training: rollout workers "
        "generate outputs while training workers update the model, with staleness-aware PPO.",
        "We propose a hybrid dataflow with single-controller and multi-controller paradigms and efficient "
        "actor model resharding between training and generation, running RLHF algorithms such as PPO.",
    ],
)
def test_an_rl_system_with_workers_and_resharding_is_infrastructure(text: str) -> None:
    assert classify(text).mechanism is Mechanism.INFRASTRUCTURE


def test_a_multi_turn_rl_framework_for_training_agents_is_still_a_method() -> None:
    s = classify("We present an end-to-end multi-turn RL framework for training web agents from online "
                 "interactions with web environments, guided by binary task-success rewards.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_plain_words_of_a_descriptive_subject_do_not_focus_the_text() -> None:
    from classifier.text import focus

    text = ("Open web agents fail on long tasks. We let the agent explore websites and train it with DPO on its "
            "own successful and failed rollouts judged by the environment.")
    assert focus(text, "Web agent DPO from environment feedback") == [(0, len(text))]


def test_a_model_trained_with_multi_turn_rl_and_kernel_speedups_is_policy_gradient() -> None:
    s = classify("We present a model trained with multi-turn reinforcement learning to write GPU kernels: it "
                 "proposes code, receives compiler errors and profiling from an execution environment over several "
                 "turns, and rewards combine correctness and speedup.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_in_contrast_to_sft_and_its_shortcomings_do_not_make_sft() -> None:
    s = classify("We first assess the shortcomings of supervised fine-tuning for translation. Then, in contrast "
                 "to SFT which mimics references, we introduce Contrastive Preference Optimization.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION


def test_searching_over_candidate_plans_is_inference_time_search() -> None:
    s = classify("We propose a search algorithm that searches over candidate plans in natural language, "
                 "without any additional training, scaling inference compute.")
    assert s.mechanism is Mechanism.INFERENCE_TIME_SEARCH


def test_specialized_communicating_agents_are_a_harness() -> None:
    s = classify("We introduce a chat-powered software development framework in which specialized agents "
                 "driven by large language models communicate through multi-turn dialogues.")
    assert s.mechanism is Mechanism.HARNESS


def test_benchmarks_a_method_is_evaluated_on_are_not_its_contribution() -> None:
    s = classify("We propose a modular prompting paradigm that detaches reasoning from tool observations. "
                 "Comprehensive evaluations across six public NLP benchmarks and a curated dataset show gains.")
    assert s.mechanism is Mechanism.HARNESS


def test_a_negation_reaches_every_item_of_a_list() -> None:
    s = classify("It does not require any supervised training data, additional training, or reinforcement "
                 "learning, and instead uses a single LLM as generator, refiner and feedback provider.")
    assert s.mechanism is Mechanism.HARNESS


def test_a_negation_does_not_reach_a_following_clause_that_is_no_list_item() -> None:
    s = classify("We do not use SFT, PPO is used instead with rewards from web environments over multiple turns.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_multiple_turns_are_multi_step_and_existing_single_turn_methods_are_not_the_work() -> None:
    s = classify("We develop multi-turn RL algorithms that preserve the flexibility of existing single-turn RL "
                 "methods while accommodating multiple turns and delayed rewards, with an actor-critic for LLM "
                 "agents on agent tasks in interactive environments.")
    assert _fact_value(s, Fact.MULTI_STEP) is FactValue.TRUE
    assert s.verdict is Verdict.STRICT


def test_a_phrase_does_not_cross_a_sentence_end() -> None:
    found = [m.group() for m in scan("We align models by fine-tuning with human feedback. Starting with "
                                     "labeler-written prompts and demonstrations, we continue.")]
    assert not any("." in f for f in found)


def test_an_agent_computer_interface_is_a_harness() -> None:
    s = classify("We introduce an agent-computer interface, a custom set of commands and feedback formats that "
                 "lets an LM agent edit code files and execute tests in repositories.")
    assert s.mechanism is Mechanism.HARNESS


def _fact_value(s: object, fact: Fact) -> FactValue:
    from classifier import Suggestion

    assert isinstance(s, Suggestion)
    return next(f.value for f in s.facts if f.fact is fact)


def test_a_readme_that_lets_you_build_agents_is_a_harness_not_a_trainer() -> None:
    s = classify("AgentGraph is a low-level orchestration framework for building, managing, and deploying "
                 "long-running, stateful agents, with memory and human-in-the-loop inspection; it lets you "
                 "model agent workflows as graphs.")
    assert s.mechanism is Mechanism.HARNESS


def test_a_proposed_name_bench_is_a_benchmark() -> None:
    s = classify("Autonomous systems fix bugs in repositories. We propose CodeFix-Bench Visual, to evaluate "
                 "systems on their ability to fix visual JavaScript bugs; it features 617 task instances.")
    assert s.mechanism is Mechanism.ENVIRONMENT


def test_only_the_concessive_clause_is_background() -> None:
    s = classify("While recent advances in agent models have shown promise, open problems remain in "
                 "multi-turn reinforcement learning and environment stability. We present an agent model "
                 "trained with a stabilized multi-turn RL framework in a hybrid GUI environment with sandboxes "
                 "for large-scale rollouts and task-success rewards.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_a_gain_of_decimal_points_over_baselines_is_a_comparison() -> None:
    s = classify("We train research agents with reinforcement learning, with improvements of up to 28.9 points "
                 "over prompt engineering-based baselines.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_reinforcement_inside_a_word_is_not_the_reinforce_algorithm() -> None:
    s = classify("We present a framework featuring a variety of environments and tasks, with 14 environments. "
                 "The platform is designed to support both evaluation and reinforcement-learning-based training "
                 "of LLM agents.")
    assert s.mechanism is Mechanism.ENVIRONMENT


def test_a_tool_designed_for_training_with_a_suite_of_algorithms_is_infrastructure() -> None:
    s = classify("AgentTrainer is an extension specifically designed for training large language model agents "
                 "via reinforcement learning. It supports multi-turn rollouts and a suite of RL algorithms "
                 "including GRPO, PPO, DAPO and RLOO.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE


def test_a_repo_that_trains_llms_with_rl_is_a_method_even_if_it_supports_several_algorithms() -> None:
    s = classify("This repo trains LLMs to reason and call a search engine in an interleaved manner with "
                 "reinforcement learning, over multiple rounds of retrieval; the reward is exact match of the "
                 "final answer. We support PPO, GRPO and REINFORCE.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_a_named_library_for_optimizing_with_rl_is_infrastructure() -> None:
    s = classify("We introduce an open-source modular library, LMTrainer, for optimizing language generators "
                 "with RL, consisting of on-policy RL algorithms usable with any reward function.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE


def test_an_rl_training_framework_is_infrastructure_before_rl_training_is_read() -> None:
    s = classify("We open-source an RL training framework optimised for long-horizon agentic tasks, separating "
                 "rollout workers from trainer workers that update the policy with PPO-style objectives.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE


def test_updates_use_proximal_policy_optimisation_names_ppo() -> None:
    s = classify("The language model policy acts in a text-based household simulator over many steps, the "
                 "episode ends with a reward of 1 at the goal, and updates use proximal policy optimisation.")
    assert s.algorithm == "PPO"
    assert s.verdict is Verdict.STRICT


def test_a_live_database_over_up_to_ten_turns_is_interactive_and_multi_step() -> None:
    s = classify("Text-to-SQL systems typically generate a query in one shot. We train an agent that can run "
                 "intermediate queries against a live database and revise its final query over up to ten turns, "
                 "optimised with a group-relative policy gradient on execution accuracy.")
    assert s.verdict is Verdict.STRICT


def test_a_contrastive_preference_loss_on_annotated_pairs_is_preference_optimisation() -> None:
    s = classify("Aligning chat assistants usually relies on RLHF with PPO. We instead fine-tune the assistant "
                 "with a contrastive preference loss on 200k human-annotated response pairs; compared with a "
                 "PPO-trained model it wins 54% of comparisons.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION


def test_rivalling_rl_agents_with_an_experience_library_is_a_harness() -> None:
    s = classify("After each episode, insights are stored in an experience library and retrieved into the "
                 "prompt, rivalling agents fine-tuned with reinforcement learning on the same environments.")
    assert s.mechanism is Mechanism.HARNESS


def test_fitness_and_game_scores_are_rewards() -> None:
    s = classify("Each perturbed copy of the parameters plays full games of a text adventure over up to 100 "
                 "turns with evolution strategies, and its fitness is the final game score.")
    assert s.verdict is Verdict.ADJACENT


def test_characters_that_case_fold_onto_ascii_do_not_break_the_scan() -> None:
    # "ı" (dotless i) and "K" (Kelvin sign) match ASCII letters case-insensitively.
    suggestion = classify("ı We train the web agent with GRPO on WebArena tasks \u212a ıİ")
    assert suggestion.mechanism.value == "policy_gradient"


def test_an_rlhf_framework_is_training_infrastructure() -> None:
    s = classify("Models aligned with RLHF keep improving, yet existing tools are hard to scale. We introduce a "
                 "lightweight open-source RLHF framework that places the actor, critic and reward model on "
                 "separate GPUs and speeds up training.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE


def test_a_named_release_described_as_training_data_is_not_a_benchmark() -> None:
    s = classify("We first present WidgetBench, an instruction-tuning dataset of multi-step API calls written by "
                 "a stronger model, and then train a smaller model on it.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_self_supervised_tool_learning_is_supervised_fine_tuning() -> None:
    s = classify("The model learns when to insert calls to a calculator and a search engine in a self-supervised "
                 "way, keeping only the calls that lower its loss on the following tokens.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_keeping_samples_that_reached_the_correct_answer_is_rejection_sampling() -> None:
    s = classify("The loop samples explanations for many questions, keeps the explanations that led to the "
                 "correct answer in a large dataset, trains on them and repeats.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_a_prompt_as_data_is_not_prompting() -> None:
    s = classify("From a set of user prompts we collect written demonstrations and rankings of model outputs, "
                 "then fine-tune the model using reinforcement learning from human feedback on this prompt "
                 "distribution.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_prompts_collected_through_an_api_are_no_tool_use() -> None:
    s = classify("Prompts submitted through a public API are ranked by labelers, and the model is tuned with "
                 "PPO against a reward model trained on those rankings.")
    assert s.verdict is Verdict.NOT_STRICT
    assert _fact("Prompts submitted through a public API are ranked by labelers.", Fact.INTERACTIVE_ENV) \
        is not FactValue.TRUE


def test_failed_trajectories_are_judged_by_outcome() -> None:
    s = classify("The agent explores the household simulator, pairs its failed trajectories with successful "
                 "ones and updates its policy with direct preference optimization on those pairs.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION
    assert s.verdict is Verdict.STRICT


def test_training_and_evaluating_a_range_of_agents_is_a_benchmark_baseline() -> None:
    s = classify("We build GardenSim -- a simulated gardening website environment with thousands of plants and "
                 "written instructions. We train and evaluate a diverse range of agents using reinforcement "
                 "learning and imitation learning; the best model is far below human performance.")
    assert s.mechanism is Mechanism.ENVIRONMENT
    assert s.verdict is Verdict.NOT_STRICT


def test_a_released_fine_tuned_model_outweighs_the_benchmark_made_to_evaluate_it() -> None:
    s = classify("We release Marmot, a finetuned open model that writes correct calls to cloud APIs. To evaluate "
                 "the model's accuracy, we introduce CallBench, a dataset of documented APIs.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_a_framework_that_lets_developers_build_agent_applications_is_a_harness() -> None:
    s = classify("Parley is an open-source framework that allows developers to build LLM applications from "
                 "several conversing agents, mixing models, people and tools in configurable patterns.")
    assert s.mechanism is Mechanism.HARNESS


def test_agentic_rl_implies_an_acting_agent() -> None:
    s = classify("We build a post-training recipe for hard lookup questions: synthetic puzzles, a short warm-up, "
                 "and an efficient agentic RL algorithm that lifts accuracy on complex information-seeking tasks.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert _fact("An efficient agentic RL algorithm improves the model.", Fact.INTERACTIVE_ENV) is FactValue.TRUE


def test_a_name_ending_in_rl_is_not_a_gym() -> None:
    s = classify("We introduce HarborGym-RL, a modular framework that trains language agents from scratch with "
                 "multi-turn reinforcement learning across many interactive environments, and we propose "
                 "StagedHorizon, a staged training approach for stable long-horizon RL.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_sft_for_cold_start_then_rl_is_an_rl_method() -> None:
    s = classify("Our browsing agent is built in four stages: data construction, trajectory sampling, supervised "
                 "fine-tuning for an effective cold start, and reinforcement learning for better generalisation; "
                 "it calls web search tools over many turns.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT
    assert s.verdict is Verdict.STRICT


def test_avoiding_the_constraints_of_sft_negates_it() -> None:
    s = classify("We stabilise multi-turn RL with a code interpreter tool by dropping void turns from the policy "
                 "update; by avoiding the constraints of supervised fine-tuning, the model finds new patterns.")
    assert s.mechanism is Mechanism.POLICY_GRADIENT


def test_contrastive_action_pairs_are_preference_data() -> None:
    s = classify("Monte Carlo rollouts estimate step-level rewards for the agent in interactive shopping and "
                 "household environments; comparing its actions with the expert's step yields contrastive action "
                 "pairs that train the agent over multi-step trajectories.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION
    assert s.verdict is Verdict.STRICT


def test_optimising_general_preferences_from_feedback_is_preference_optimisation() -> None:
    s = classify("We post-train chat models with preference feedback from a strong oracle, optimizing over "
                 "pair-wise or general preferences with a regression objective instead of a point-wise reward.")
    assert s.mechanism is Mechanism.PREFERENCE_OPTIMIZATION


def test_reranking_many_candidates_with_a_verifier_is_test_time_search() -> None:
    s = classify("We collect a dataset of school maths problems and train verifiers to judge answers. At test "
                 "time, we generate many candidate solutions and keep the one ranked highest by the verifier.")
    assert s.mechanism is Mechanism.INFERENCE_TIME_SEARCH


def test_learning_to_imitate_a_teachers_explanations_is_distillation() -> None:
    s = classify("Our 13B model learns to imitate the reasoning process of a larger model, learning from its "
                 "explanation traces and step-by-step thoughts; it nears the larger model on a hard benchmark.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION


def test_agentic_systems_designed_in_code_are_a_harness() -> None:
    s = classify("We search over agentic systems written in code: a meta agent programs new agentic systems "
                 "from an archive, mixing prompts, tool use and workflows, and they transfer across domains.")
    assert s.mechanism is Mechanism.HARNESS


def test_a_toolkit_with_implementations_of_alignment_algorithms_is_infrastructure() -> None:
    s = classify("We create Aligna, a toolkit for model alignment that scales to a thousand GPUs, with optimized "
                 "implementations for paradigms such as: Reinforcement Learning from Human Feedback (RLHF), "
                 "Direct Preference Optimization (DPO) and rejection sampling.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE
    assert s.verdict is Verdict.NOT_STRICT


def test_a_framework_enabling_rl_based_training_of_any_agent_is_infrastructure() -> None:
    s = classify("We present Bolt, a flexible framework that enables RL-based training of LLMs for any agent; it "
                 "decouples agent execution from training and adds a hierarchical RL algorithm for credit "
                 "assignment, with a training-agent disaggregation architecture.")
    assert s.mechanism is Mechanism.INFRASTRUCTURE


def test_analysis_tools_and_open_source_models_are_not_environment_or_infrastructure_cues() -> None:
    assert _fact("We release the code, models and analysis tools.", Fact.INTERACTIVE_ENV) is FactValue.UNKNOWN
    s = classify("We train open-source LLM agents on annotated subgoals: large-scale training annotations teach a "
                 "planning module and a grounding module; the agents beat larger open-source agents.")
    assert s.mechanism is Mechanism.SFT_DISTILLATION
