"""The bilingual cue table: what a phrase says about mechanism and rubric facts.

Cues name methods and concepts, never particular works. When two cues could
start at the same place the one listed first wins, so longer phrases come
before the words they contain.
"""

from __future__ import annotations

from classifier.lexicon.cue import (
    ENV,
    ENVIRONMENT,
    ES,
    HARNESS,
    INFRA,
    PG,
    PREF,
    REWARD,
    SEARCH,
    SFT,
    STEP,
    UPDATE,
    Cue,
    CueRole,
    _cues,
)
from classifier.lexicon.facts import FACT_CUES

_RL_FACTS = ((UPDATE, 2.0), (REWARD, 0.5))
_ALGO_FACTS = ((UPDATE, 3.0), (REWARD, 1.0))
# What a Chinese name of a training tool is for, and its head noun ("…框架", "…工具箱"; not "工具调用").
_ZH_TRAINING = r"(?:后训练|训练|微调|精调|对齐)"
_ZH_TOOL = r"(?:工具箱|工具包|工具(?!调用|使用|集)|引擎|库|平台|系统|框架)"

MECHANISM_CUES: list[Cue] = [
    # Names are not cues: a title-case phrase or a token glued to "RL"
    # ("Multi-Harness RL", "prime-rl", "RLinf") decides nothing.
    *_cues(None, 0, r"(?:严格但较窄|较窄的严格)\s*(?:的)?\s*(?:Agentic RL|智能体强化学习)?\s*(?:的)?\s*正例|"
           r"(?:strict but narrow|narrow(?:er)? strict)(?: agentic RL)?",
           facts=((ENV, 1.0), (STEP, 1.0), (REWARD, 0.5)), role=CueRole.ASSERT, narrow=True, word=False),
    *_cues(None, 0, r"严格(?:的)?\s*(?:Agentic RL|智能体强化学习)(?:\s*(?:的)?\s*(?:正例|对照))?|严格正例|"
           r"strict(?:ly)? agentic RL",
           facts=((ENV, 1.0), (STEP, 1.0), (REWARD, 0.5)), role=CueRole.ASSERT, word=False),
    *_cues(None, 0, r"(?:[A-Z][\w.+]*(?:-[A-Za-z][\w.+]*)*\s+)+RL(?:HF)?", cs=True, role=CueRole.NAME),
    *_cues(None, 0, r"[A-Za-z][\w.]*-rl|[A-Za-z]*[a-z]RL[\w]*|RL[a-z]\w*|[A-Za-z]+-R1",
           cs=True, role=CueRole.NAME),
    # --- policy gradient and other explicit RL objectives -------------
    # ...except an RL training framework or RL system, which is infrastructure (listed first:
    # it contains "RL training").
    # "We train and evaluate a diverse range of agents (using RL, imitation learning ...)" measures
    # baselines in the work's environment; listed before the RL cues that would take "train ... using RL".
    *_cues(ENVIRONMENT, 3.0, r"(?:train|fine-tune)s? and evaluate[sd]? (?:a (?:diverse |wide |broad )?(?:range|variety|"
           r"set|suite) of |several |various |many |multiple |baseline )(?:[\w-]+ )?(?:agents|models|baselines|"
           r"methods)", facts=((UPDATE, -2.0),), word=False),
    # A benchmark introduced "to evaluate the model" serves the work's own model; it is not the contribution.
    *_cues(ENVIRONMENT, 1.5, r"to evaluate (?:the|our) (?:[\w-]+ )?(?:model|agent|system|method|approach)(?:'s)?"
           r"(?: [\w-]+){0,3}?,? we (?:introduce|present|release|build|construct|create) [A-Z][\w.-]*",
           word=False),
    # An "RLHF framework" is a training framework; a method says "RLHF algorithm" or "method".
    *_cues(INFRA, 4.0, r"RLHF (?:training )?frameworks?", word=False),
    *_cues(INFRA, 4.0, r"(?:RL|reinforcement learning|RLHF) (?:training (?:framework|library|system|engine|platform|"
           r"stack)|(?:library|system|engine|platform|stack|infrastructure))s?", word=False),
    # A Chinese compound names a training tool by its head noun ("强化学习微调框架", "大模型微调框架",
    # "训练大模型的完整工具箱"); listed before the cues that would take "强化学习" or "微调" alone.
    *_cues(INFRA, 4.0, r"(?:强化学习|RLHF|RL)\s*" + _ZH_TRAINING + "?" + _ZH_TOOL, word=False),
    *_cues(INFRA, 4.0, _ZH_TRAINING + r"(?:[^。；，,、\n]{0,8}?(?:工具箱|工具包|框架)|" + _ZH_TOOL + ")", word=False),
    *_cues(PG, 3.5, r"(?:Tree-|Dr\.\s?)?GRPO(?:-style)?", facts=_ALGO_FACTS, algorithm="GRPO", cs=True),
    *_cues(PG, 3.5, r"PPO(?:-style)?", facts=_ALGO_FACTS, algorithm="PPO", cs=True),
    *_cues(PG, 3.5, r"REINFORCE\+\+|REINFORCE(?:-style)?", facts=_ALGO_FACTS,
           algorithm="REINFORCE", cs=True),
    *_cues(PG, 3.5, r"RLOO", facts=_ALGO_FACTS, algorithm="RLOO", cs=True),
    *_cues(PG, 3.5, r"DAPO|GSPO|VAPO|TRPO|A2C|A3C", facts=_ALGO_FACTS, algorithm="PPO-family", cs=True),
    *_cues(PG, 3.5, r"proximal policy optimi[sz]ation", facts=_ALGO_FACTS, algorithm="PPO"),
    *_cues(PG, 3.5, r"group relative policy optimi[sz]ation", facts=_ALGO_FACTS, algorithm="GRPO"),
    # A coined "<Name> Policy Optimization" is an RL algorithm whatever its name.
    *_cues(PG, 3.5, r"(?:[A-Z][\w-]*\s+){1,4}Policy Optimi[sz]ation", facts=_ALGO_FACTS,
           algorithm="policy optimisation", cs=True),
    *_cues(PG, 3.0, r"actor[- ]critic|actor network", facts=_ALGO_FACTS, algorithm="actor-critic"),
    *_cues(PG, 3.0, r"policy[- ]gradients?|策略梯度", facts=_ALGO_FACTS, algorithm="policy gradient",
           word=False),
    *_cues(PG, 2.5, r"Q-learning|temporal[- ]difference|TD learning|Bellman|value-based RL",
           facts=_ALGO_FACTS, algorithm="value-based RL"),
    # "we propose a novel RL algorithm": the work's own objective.
    *_cues(PG, 3.5, r"(?:propos|introduc|present|develop|design)\w* (?:a |an |our )?(?:(?:novel|new|simple|"
           r"principled|scalable|efficient|general) )*(?:[\w-]+ ){0,2}?(?:RL|reinforcement learning) "
           r"(?:algorithm|method|approach|objective|recipe)s?", facts=_ALGO_FACTS, algorithm="RL algorithm"),
    # A pipeline whose SFT stage is followed by an RL stage ("SFT for cold start, and RL for
    # generalisation", "SFT followed by RL"): the RL stage is the method.
    *_cues(PG, 3.0, r"(?:supervised fine-?tuning|SFT)[^.;]{0,60}?(?:,|;)? (?:(?:and|then|followed by|before|"
           r"prior to)(?: an?)?|\(\d\)) (?:[\w()-]+ ){0,2}?(?:RL|reinforcement learning)(?! (?:training )?"
           r"(?:library|system|engine|platform|stack|infrastructure|framework)s?)(?![\w-])",
           facts=_RL_FACTS, algorithm="RL", word=False),
    # "we propose X, a staged training approach for stable RL training".
    *_cues(PG, 3.0, r"(?:propos|introduc|present|develop|design)\w* [A-Z][\w-]*,? an? (?:[\w-]+ ){0,3}?"
           r"(?:training |optimi[sz]ation )?(?:approach|method|algorithm|strategy|recipe) (?:for|to) (?:[\w-]+ ){0,4}?"
           r"(?:RL|reinforcement learning)(?![\w-])", facts=_ALGO_FACTS, algorithm="RL algorithm", word=False),
    # "trains X via reinforcement learning", "through scaling RL": the work's own objective.
    *_cues(PG, 3.0, r"(?:train|optimi[sz]|fine-?tun|teach|incentivi[sz]|reinforc|align)\w* (?:[\w-]+ ){0,12}?"
           r"(?:with|via|using|through|by) (?:[\w-]+ ){0,2}?"
           r"(?:RL|reinforcement learning)(?![\w-])",
           facts=_RL_FACTS, algorithm="RL"),
    # "agentic RL" trains an agent that acts on an environment or tools.
    *_cues(PG, 2.5, r"agentic (?:RL|reinforcement learning)(?! (?:training )?(?:library|system|engine|platform|stack|"
           r"infrastructure)s?)", facts=((UPDATE, 2.0), (REWARD, 0.5), (STEP, 0.5), (ENV, 1.0))),
    *_cues(PG, 2.5, r"(?:multi-turn|multi-agent|online|offline|on-policy|off-policy|hierarchical|end-to-end|"
           r"large-scale|outcome-based|asynchronous|rule-based|deep|outcome-driven) "
           # "an asynchronous RL system" is infrastructure; "a multi-turn RL framework for
           # training web agents" is still a method.
           r"(?:RL|reinforcement learning)(?! (?:training )?(?:library|system|engine|platform|stack|"
           r"infrastructure)s?)",
           facts=((UPDATE, 2.0), (REWARD, 0.5), (STEP, 0.5))),
    *_cues(PG, 2.0, r"reinforcement fine-tuning|RL fine-tuning|RL training|RL (?:算法|训练)|"
           r"RL-trained|trained with RL|train(?:ed|s|ing)? (?:\w+ ){0,3}(?:with|via|using) RL",
           facts=_RL_FACTS),
    # Chinese: the work trains with RL ("用 GRPO 端到端训练", "通过强化学习训练智能体", "智能体强化学习").
    *_cues(PG, 3.0, r"(?:基于|通过|使用|采用|利用|用)\s*(?:端到端的?|在线|多轮|大规模)?\s*(?:强化学习|RL)\s*(?:进行|来)?\s*"
           r"(?:端到端)?(?:训练|微调|优化|更新)|(?:强化学习|RL)\s*(?:训练|微调)(?:的|了)?\s*(?:智能体|模型|策略|agent|Agent)|"
           r"智能体\s*(?:强化学习|RL)(?!\s*(?:训练)?(?:框架|系统|库|平台|基础设施))|端到端强化学习",
           facts=((UPDATE, 2.0), (REWARD, 0.5), (STEP, 0.5)), algorithm="RL", word=False),
    *_cues(PG, 1.5, r"reinforcement learning|强化学习|RLVR|RLHF", facts=_RL_FACTS, word=False),
    *_cues(PG, 1.0, r"RL", facts=((UPDATE, 1.0),), cs=True),
    *_cues(PG, 1.5, r"on-policy|off-policy|advantages?(?: estimation| function)?|GAE|value "
           r"(?:function|head|model)|critic-free|importance sampling|policy optimi[sz]ation|"
           r"policy loss|KL penalty|clipp(?:ed|ing) (?:objective|ratio|surrogate)",
           facts=((UPDATE, 1.0), (REWARD, 0.5))),
    # --- evolution strategies over parameters -------------------------
    *_cues(ES, 4.0, r"evolution(?:ary)? strateg(?:y|ies)|进化策略|演化策略|CMA-ES|natural evolution",
           facts=((REWARD, 0.5),), algorithm="ES", word=False),
    *_cues(ES, 2.5, r"ES", algorithm="ES", cs=True),
    *_cues(ES, 2.5, r"parameter[- ]space (?:search|perturbations?|noise|exploration|optimi[sz]ation)|"
           r"参数空间|antithetic|zeroth[- ]order|perturb(?:s|ed|ing|ations? (?:of|to))? (?:the )?"
           r"(?:model )?(?:parameters|weights)|gradient-free (?:optimi[sz]ation|fine-tuning)",
           word=False),
    # --- SFT and distillation -----------------------------------------
    # Distilling experience into skills, insights or memory writes text for the prompt, not weights
    # (listed before the distillation cues that would take "distill").
    *_cues(HARNESS, 2.5, r"(?:we )?distill?(?:s|ed|ing)? (?:[\w-]+ ){0,6}?(?:into|as) (?:[\w-]+ ){0,3}?(?:skills?|insights?|"
           r"rules|memor(?:y|ies)|knowledge|lessons|guidelines|prompts?|experiences?|tips|playbooks?|principles|"
           r"notes|workflows?|procedures|documents?|findings|capabilit(?:y|ies)|information|wisdom|summar(?:y|ies))|"
           r"(?:we )?distill?(?:s|ed|ing)? (?:[\w-]+ ){0,2}?(?:insights|lessons|experiences?|skills|rules|principles|guidelines|"
           r"knowledge from (?:past|prior|previous|historical))|experience distillation|"
           r"(?:提炼|总结|沉淀)(?:为|成)?.{0,6}(?:经验|技能|规则|记忆)", word=False),
    *_cues(PREF, 3.5, r"(?:iterative|online|on-policy|self-play) (?:direct )?preference optimi[sz]ation|"
           r"(?:iterative|online|on-policy) (?:DPO|KTO)|(?:在线|迭代式?)\s*(?:DPO|KTO|偏好优化)", algorithm="DPO-family",
           facts=((UPDATE, 1.0),), role=CueRole.OWN_ROLLOUTS, word=False),
    *_cues(PREF, 3.5, r"(?:distilled|offline|step-level|multi-turn) "
           r"(?:direct )?preference optimi[sz]ation", algorithm="DPO-family", facts=((UPDATE, 1.0),)),
    # A cold-start or warm-up SFT stage precedes the method; it is not the method.
    *_cues(SFT, 0.5, r"(?:rejection[- ]sampling fine-?tuning|supervised fine-?tuning|SFT|RFT) "
           r"(?:(?:for|as) (?:an? )?(?:effective |initial |brief )?)?(?:cold[- ]start|warm[- ]?up)|cold[- ]start (?:SFT|supervised fine-?tuning|stage|phase)",
           facts=((UPDATE, -0.5),), algorithm="SFT"),
    *_cues(SFT, 3.0, r"指令微调|指令调整|指令精调|指令数据|对话数据|监督数据|SFT ?数据|全参数监督微调|全量监督微调", facts=((UPDATE, -1.0),),
           word=False),
    *_cues(SFT, 4.0, r"rejection[- ]sampling fine-?tuning|RFT on|behaviou?r cloning|imitation learning|"
           r"supervised fine-?tun(?:e|es|ed|ing)|监督微调", facts=((UPDATE, -1.0),),
           algorithm="SFT"),
    *_cues(SFT, 3.0, r"SFT", facts=((UPDATE, -1.0),), algorithm="SFT", cs=True),
    # A named release described as a training dataset is training data, not a benchmark
    # ("we present FooBench, an instruction-tuning dataset").
    *_cues(SFT, 3.0, r"(?:introduc|present|releas|propos|buil|construct|creat|collect)\w*\s+(?:[A-Z][\w.-]*,?\s+)?"
           r"(?:an?|the) (?:[\w-]+ ){0,2}?(?:instruction[- ]tuning|fine-?tuning|training|SFT|distillation) "
           r"(?:dataset|corpus|data)", algorithm="SFT", word=False),
    # The work's own artifact is a fine-tuned model ("we release Foo, a finetuned LLaMA-based model").
    *_cues(SFT, 4.0, r"(?:introduc|present|releas|propos|develop|buil)\w*\s+[A-Z][\w.-]*,?\s+an?\s+(?:[\w-]+ )?"
           r"fine-?tuned", algorithm="SFT", word=False),
    # The work's own fine-tuning ("we fine-tune LLaMA", "we instruction-tune ...");
    # an RL objective after it is taken by the RL cues listed above.
    *_cues(SFT, 1.2, r"we (?:further |then |first )?(?:fine-?tune|instruction-tune|distill)", algorithm="SFT",
           word=False),
    *_cues(SFT, 2.5, r"self-supervised (?:way|manner|fashion|training|learning|objective)", algorithm="SFT",
           word=False),
    # Learning to imitate a teacher's outputs, or from annotations collected for training, is supervised.
    *_cues(SFT, 3.0, r"learns? to imitate|imitat(?:e|es|ing) the (?:[\w-]+ ){0,2}(?:reasoning|outputs?|style|"
           r"behaviou?r|process)|imitation (?:data|signals)|(?:explanation|thought) traces|training annotations|"
           r"annotations (?:of|for) (?:[\w-]+ ){0,3}?(?:training|fine-?tuning)", algorithm="SFT", word=False),
    # Keeping the samples that reached the right answer is rejection sampling.
    *_cues(SFT, 2.0, r"(?:that|which) (?:ultimately |eventually )?(?:yield(?:ed)?|le[ad]d? to|reach(?:ed)?|"
           r"produc(?:e|ed)) (?:the )?correct (?:answers?|solutions?|outputs?)", algorithm="SFT", word=False),
    *_cues(SFT, 2.5, r"distill(?:s|ed|ing|ation)?|蒸馏|rejection sampling|expert iteration|"
           r"self-training|instruction[- ]tun(?:e|ed|ing)|trajectory tuning|agent tuning",
           algorithm="SFT", word=False),
    *_cues(SFT, 2.5, r"fine-?tun(?:e|es|ed|ing)\s+(?:[\w-]+(?:\.[\w-]+)*\s+){0,4}(?:on|with|using)\s+(?:the\s+|these\s+|those\s+)?"
           r"(?:[\w-]+(?:\.[\w-]+)*\s+){0,3}(?:trajectories|rationales|demonstrations|data|examples|samples|traces|"
           r"solutions|corpus|outputs)", algorithm="SFT"),
    *_cues(SFT, 1.5, r"(?:filter(?:s|ed|ing)?|select(?:s|ed|ing)?|keep(?:s|ing)?) (?:\w+ ){0,3}"
           r"(?:trajectories|rationales|samples|solutions)|筛选.{0,8}轨迹|(?:expert|teacher|"
           r"successful|high-quality|correct|synthesi[sz]ed) (?:trajectories|demonstrations|"
           r"rationales)|teacher model|student model|微调", word=False),
    *_cues(SFT, 2.5, r"(?:an?|the) fine-?tuned (?:[\w-]+(?:\.[\w-]+)* ){0,2}(?:model|LLM|LM)s?|"
           r"(?:with|via|using|through) supervised (?:learning|training)", algorithm="SFT"),
    *_cues(SFT, 0.8, r"fine-?tun(?:e|es|ed|ing)|trained on|training data|trajectory data|datasets? of "
           r"(?:\w+ )?trajectories"),
    # --- preference optimisation -------------------------------------
    *_cues(PREF, 4.0, r"DPO|KTO|ORPO|SimPO|IPO", algorithm="DPO-family", cs=True,
           facts=((UPDATE, 1.0),)),
    *_cues(PREF, 3.5, r"(?:direct )?preference optimi[sz]ation|偏好优化", algorithm="DPO-family",
           facts=((UPDATE, 1.0),), word=False),
    *_cues(PREF, 2.5, r"preference (?:loss|objective)|(?:human-annotated|annotated|labell?ed|ranked) (?:response )?pairs|"
           r"response pairs|contrastive (?:action |response |step )?pairs|preference feedback|"
           r"(?:optimi[sz]\w*|learn\w*) (?:over |from |with )?(?:[\w\"-]+ ){0,3}?(?:general|pairwise|pair-wise) "
           r"preferences", word=False),
    *_cues(PREF, 1.5, r"preference (?:pairs|data|dataset|learning|labels)|偏好|chosen and rejected|"
           r"pairwise preferences?|Bradley-Terry|preferred (?:and|over) (?:dis)?preferred", word=False),
    *_cues(PREF, 0.7, r"preferences?"),
    # --- inference-time search ---------------------------------------
    *_cues(SEARCH, 4.0, r"MCTS", algorithm="MCTS", cs=True),
    *_cues(SEARCH, 4.0, r"Monte[- ]Carlo tree search|蒙特卡洛树搜索", algorithm="MCTS", word=False),
    *_cues(SEARCH, 3.5, r"tree[- ]search|树搜索|推理时搜索|测试时搜索|best[- ]of[- ]N|beam search|束搜索|"
           r"A\* search|tree[- ]of[- ]thoughts?|search over (?:the )?(?:tree|space) of|"
           r"(?:inference|test)[- ]time (?:search|compute|scaling)|(?:scaling|extra|more) inference compute|"
           r"search(?:es|ing)? over (?:candidate|possible|multiple|the space)|(?:at (?:test|inference) time,? )(?:we )?"
           r"(?:generate|sample|draw)s? (?:many|multiple|several|N|\d+) (?:candidate )?(?:solutions|responses|answers|"
           r"completions|outputs)|(?:ranked|scored|rated) highest by (?:the |a )?(?:verifier|reward model|critic)",
           algorithm="search", word=False),
    # Reranking retrieved documents is part of a retrieval pipeline, not a search over solutions.
    *_cues(HARNESS, 1.5, r"rerank(?:s|ing|ed)? (?:the )?(?:retrieved )?(?:documents|passages|chunks|results|evidence)|"
           r"rerankers?|reranking models?|重排(?:序)?", word=False),
    *_cues(SEARCH, 2.0, r"lookahead|look-ahead|backtrack(?:s|ing)?|self-consistency|majority vot(?:e|ing)|"
           r"rerank(?:s|ing)?|value-guided|guided search|search algorithms?|"
           r"explor(?:e|es|ing) (?:multiple|different|alternative) (?:reasoning )?(?:paths|branches)|"
           r"deliberate (?:search|planning)|sampl(?:e|es|ing) (?:multiple|many|N) (?:candidate|"
           r"solutions|responses|trajectories)"),
    # --- harness, scaffold, prompting, skills and context -------------
    *_cues(HARNESS, 3.0, r"training[- ]free|tuning[- ]free|免训练|无需训练|without (?:any )?(?:additional )?"
           r"(?:training|fine-?tuning|parameter updates?|weight updates?|gradient updates?|updating "
           r"(?:the )?(?:model|weights|parameters))|not by updating (?:model )?weights|"
           r"(?:requires?|needs?|with) no (?:additional |extra |further )?(?:training|fine-?tuning)|"
           r"(?:weights|parameters) (?:of (?:the )?(?:[\w-]+ ){0,3})?(?:are|is|remain) never "
           r"(?:changed|updated|modified)|without (?:modifying|changing|updating|touching) (?:the )?"
           r"(?:model'?s? )?(?:weights|parameters)|no weight updates?",
           facts=((UPDATE, -3.0),), word=False),
    *_cues(HARNESS, 3.0, r"(?:platform|framework|toolkit|library) for (?:the )?(?:development|building|"
           r"creation|design|implementation) of (?:[\w-]+ ){0,4}agents|(?:platform|framework|toolkit) for "
           r"(?:building|developing|creating|designing|implementing|orchestrating)[\w, -]{0,60}?agents|"
           r"orchestration (?:framework|layer|library)|"
           r"compound AI systems?|(?:two|three|four|multi|fixed|simple|simplistic)[- ](?:phase|stage|step) "
           r"(?:process|pipeline|workflow|procedure)", word=False),
    *_cues(HARNESS, 3.0, r"(?:framework|platform|library|toolkit|SDK)s? (?:that|which) (?:allows?|lets?|enables?|helps?) "
           r"(?:developers|users|you|programmers|builders) (?:to )?(?:build|develop|create|compose|program) "
           r"(?:[\w-]+ ){0,3}?(?:applications|apps|agents|assistants|workflows|chatbots)", word=False),
    *_cues(HARNESS, 1.5, r"agentic systems?|agent(?:ic)? system designs?", word=False),
    *_cues(HARNESS, 2.5, r"agent-computer interfaces?|interfaces? (?:designed )?for (?:LM |LLM |language model )?"
           r"agents", word=False),
    *_cues(HARNESS, 1.5, r"retrieval[- ]augmented generation|RAG|(?:tool-)?augmented (?:large )?language models?",
           word=False),
    # A society of prompted agents is a harness ("specialized agents communicate").
    *_cues(HARNESS, 2.0, r"(?:specialized|role-playing|communicative|collaborative|cooperative|multiple LLM) "
           r"(?:[\w-]+ )?agents|(?:prompting|reasoning|planning) (?:paradigm|strateg(?:y|ies)|pipeline)s?",
           word=False),
    *_cues(HARNESS, 3.0, r"(?:智能体|Agent|agent|AI ?应用|大模型应用|LLM ?应用)\s*(?:开发)?(?:框架|平台|应用)|开发框架|应用开发|"
           r"知识库问答|问答系统|工作流编排|可视化编排|插件(?:市场|系统)|无需(?:训练|微调)|不(?:更新|训练|微调)(?:模型)?(?:参数|权重)?",
           word=False),
    *_cues(HARNESS, 2.5, r"harness(?:es)?|scaffold(?:s|ing)?|verbal (?:feedback|reinforcement)|"
           r"linguistic feedback|(?:skill|experience|memory|insight|plan) (?:library|libraries|bank|pool|store)|技能库|context (?:engineering|"
           r"evolution|management)|interleav(?:e|es|ed|ing) (?:\w+ ){0,3}(?:reasoning|thoughts?)"
           r"(?: traces)? and (?:task-specific )?actions|外部 ?harness|harness 演化", word=False),
    *_cues(HARNESS, 2.0, r"prompt(?:ed|ing)|提示(?:词)?|in-context (?:learning|examples|demonstrations)|"
           r"few-shot|self-reflect(?:ion|ive)?|reflect(?:s|ion|ions)|反思|episodic memory|memory "
           r"(?:buffer|module|bank|stream)|self-refine|self-correct(?:ion)?|iterative refinement|"
           r"supervisor|orchestrat(?:e|es|or|ion)|meta-agent|运行时|runtime|black-box (?:LLMs?|"
           r"models?|queries|API)|(?:blackbox|API) queries|skills?(?: discovery| evolution| "
           r"extraction)|automatic curriculum|workflows?|上下文|记忆|multi-agent|multiple agents|planner and executor|"
           r"conversation patterns|insights|experiences",
           word=False),
    # A prompt (a noun: "labeler-written prompts", "the prompt distribution") is often data.
    *_cues(HARNESS, 0.7, r"prompts?", word=False),
    *_cues(HARNESS, 1.5, r"(?:固定|冻结)的?(?:研究)?(?:智能体|agent|Agent)|(?:fixed|frozen) (?:\w+ )?"
           r"(?:agent|LLM)s?", role=CueRole.FROZEN, facts=((ENV, 1.0), (STEP, 0.5)), word=False),
    *_cues(None, 0, r"冻结|frozen|freez(?:e|es|ing)|kept fixed|保持冻结", role=CueRole.FROZEN, word=False),
    # --- environments and benchmarks ---------------------------------
    *_cues(ENVIRONMENT, 4.0, r"(?:do|does|did) not train (?:any )?(?:new )?(?:models?|agents?|policies)|"
           r"(?:conduct|present|perform|report)\w* (?:a |an )?(?:(?:large-scale|systematic|comprehensive|"
           r"extensive|controlled|empirical) )+(?:evaluation|study|analysis) of|evaluation (?:protocol|harness)",
           facts=((UPDATE, -2.0),), word=False),
    *_cues(ENVIRONMENT, 4.0, r"只评测|仅评测|只评估|only evaluat(?:e|es|ed|ing)|eval(?:uation)?-only|"
           r"环境论文|evaluate[sd]? (?:\d+ |several |various |many |existing |state-of-the-art |"
           r"frontier |popular |leading )+(?:\w+ )?(?:LLMs|models|agents|systems)",
           facts=((UPDATE, -2.0),), word=False),
    *_cues(ENVIRONMENT, 4.0, r"(?:introduc|present|releas|propos|buil|construct|develop|creat|design)(?:e|es|ed|"
           r"ing|d|s)?\s+(?:[A-Z][\w.-]*(?:,|:|\s+-{1,2}|\s+\u2014)?\s+)?(?:an?\s+|the\s+|our\s+)?(?:(?!for |to |in |with |that |which |"
           r"on |and )[\w-]+\s+){0,4}(?:benchmark|environment|testbed|gym|suite|simulator|arena)s?|"
           r"(?:introduc|present|releas|propos|buil|develop|creat)\w*\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?"
           r"(?:featuring|offering|with|comprising) (?:a variety of|a suite of|\d+|many|diverse|multiple) "
           r"(?:[\w-]+ )?(?:environments|benchmarks|tasks)|"
           r"(?:定义|构建|提供|搭建|设计).{0,8}(?:环境|基准)|is an? (?:[\w-]+ ){0,3}(?:benchmark|testbed|"
           r"environment)", word=False),
    # A study, an analysis or a position: what it contributes is knowledge about agents, not an agent.
    *_cues(ENVIRONMENT, 2.0, r"(?:we|this (?:paper|work|study)|the authors) (?:empirically |systematically |"
           r"further )?(?:study|investigate|analy[sz]e|examine|characteri[sz]e|audit|argue|survey|revisit|"
           r"quantify|measure)s?(?![\w-])|(?:empirical|case|user|interview|pilot|qualitative|measurement|"
           r"longitudinal|ablation) stud(?:y|ies)|position paper|(?:our )?(?:findings|results|analysis) "
           r"(?:reveal|show|suggest|indicate|highlight)|实证研究|案例研究|用户研究|我们(?:研究|分析|考察|调查)了?|"
           r"本文(?:研究|分析|考察|调查)了?|综述|调研", word=False),
    # Benchmarks the work is evaluated on are not its contribution.
    *_cues(ENVIRONMENT, 0.3, r"(?:experiments|evaluations?|results|evaluated|tested|evaluate|test) (?:[\w-]+ ){0,2}?"
           r"(?:on|across|over) (?:[\w-]+ ){0,5}?(?:benchmarks?|datasets?)", word=False),
    # A proposed "<Name>-Bench", "<Name>Gym", "<Name>Arena" is a benchmark or environment.
    *_cues(ENVIRONMENT, 4.0, r"(?:introduc|propos|present|releas|buil|construct|creat)\w*\s+[A-Z][\w.-]*?"
           r"-?(?:[Bb]ench|Gym|Arena|World)(?:[\w-]*)(?![\w-])(?<!-RL)(?: [A-Z][\w-]*)?", word=False, cs=True),
    *_cues(ENVIRONMENT, 2.5, r"评测框架|评测工具|测评基准|评估基准|排行榜|榜单|一键(?:测评|评测)|评测(?:脚本|结果|平台)|能力(?:测评|评测|评估)",
           word=False),
    *_cues(ENVIRONMENT, 1.5, r"评测|评估|测评", word=False),
    *_cues(ENVIRONMENT, 2.0, r"benchmarks?|评测基准|基准测试|基准|testbeds?|leaderboard|评测集|测评", word=False),
    *_cues(ENVIRONMENT, 2.5, r"提供.{0,12}(?:环境|状态|沙箱|判分)|可供 ?RL ?使用的环境|usable for (?:RL|training)|(?:supports?|used for|usable for|designed to support) (?:both )?"
           r"evaluation and (?:[\w-]+ )?training|"
           r"(?:human|expert) performance|(?:best|strongest|top)(?:-performing)? (?:\w+ )?(?:model|agent|"
           r"system)s? (?:only )?(?:achieves?|reaches?|solves?|succeeds?)|任务构建|环境构建|"
           r"task (?:synthesis|construction|suite)|gym", word=False),
    *_cues(ENVIRONMENT, 1.5, r"判分|grading|graders?|reproducible|realistic|execution-based evaluation|"
           r"\d+ (?:task )?(?:tasks|problems|instances|questions|environments|task types)|dataset", word=False),
    # --- infrastructure ----------------------------------------------
    *_cues(INFRA, 4.0, r"(?:训练|微调|后训练|强化学习|RL|RLHF|推理|部署)(?:工具|引擎|库|平台|系统|框架|工具包)|一站式.{0,8}(?:训练|微调)|"
           r"(?:支持|实现了?|集成了?|提供)(?:[^。；\n]{0,40}?)(?-i:PPO|GRPO|DPO|REINFORCE|RLOO|KTO|SFT)(?:[^。；\n]{0,30}?)"
           r"(?:等|多种)?(?:训练|算法|方法)", word=False),
    *_cues(INFRA, 4.0, r"infrastructure|基础设施|训练框架|(?:RL|RLHF|reinforcement learning|training|"
           r"post-training|rollout) (?:training )?(?:framework|library|system|engine|platform|stack)s?",
           word=False),
    *_cues(INFRA, 4.0, r"(?:(?:full-stack|open-source|modular|scalable|distributed|efficient|flexible) )*"
           r"(?:framework|library|toolkit|platform|system|stack)(?:,[^,.;]{1,40},)? for (?:[\w-]+ ){0,3}?"
           r"(?:training|post-training|fine-tuning|optimi[sz]ing|improving) (?:[\w-]+ ){0,3}?(?:via|with|using) "
           r"(?:RL|reinforcement learning)|RL (?:backends?|trainers?)|(?:specifically |specially )?(?:designed|built|"
           r"tailored) for (?:scalable |efficient |large-scale |distributed )?(?:training|post-training|fine-tuning)",
           word=False),
    *_cues(INFRA, 4.0, r"(?:toolkit|library)s? for (?:efficient |scalable )?(?:model |LLM )?(?:alignment|post-training|RLHF)|"
           r"(?:framework|platform|system|library|toolkit)s? (?:that|which) (?:enables?|supports?|allows?|facilitates?) "
           r"(?:[\w()-]+ ){0,3}?(?:RL|reinforcement learning)[\w()-]*[- ]based training", word=False),
    # A README that lets "you" train is a training tool.
    *_cues(INFRA, 2.5, r"(?:lets|allows|enables|helps) you (?:to )?(?:train|fine-tune|post-train|scale)|"
           r"you can (?:easily )?(?:train|fine-tune|post-train)", word=False),
    *_cues(INFRA, 4.0, r"(?:supports?|supporting|trainers? for|backends? for|implementations? of|(?:various|multiple|several|"
           r"different|popular|a (?:suite|range|variety|collection|family) of) (?:RL |RLHF )?algorithms,? (?:including|such as|like)|"
           r"implementations? for (?:[\w-]+ ){0,5}?(?:such as|including|like):?)\s+[^.;。；]{0,80}?"
           r"(?-i:PPO|GRPO|DPO|REINFORCE|RLOO|RLHF)(?![\w-])(?:[\w ,+()-]{0,60}(?:(?-i:PPO|GRPO|DPO|REINFORCE|RLOO)"
           r"(?![\w-])|variants))?",
           word=False),
    *_cues(INFRA, 3.0, r"(?:full-stack |open-source |modular |scalable )?(?:library|toolkit)", word=False),
    *_cues(INFRA, 2.5, r"resharding|dataflows?|(?:single|multi)-controller|(?:rollout|training|inference|"
           r"generation) workers?|(?:tensor|pipeline|sequence) parallelism", word=False),
    *_cues(INFRA, 2.5, r"rollout inference|inference engine|serving|throughput|分布式|distributed|"
           r"KV(?: cache)?|pause/resume|colocat(?:e|ed|ion)|hybrid engine|Ray|vLLM|SGLang|Megatron|"
           r"FSDP|DeepSpeed|(?:training|rollout|generation|end-to-end|throughput) speedups?|GPU utili[sz]ation|decoupl(?:e|es|ed|ing) "
           r"(?:between )?(?:\w+ ){0,2}(?:generation|rollouts?|execution) (?:and|from) (?:\w+ )?training|"
           r"(?:training|trainer)-(?:agent|rollout|inference) disaggregation|disaggregat(?:ed|ion)", word=False),
    # "open-source models / agents / alternatives" describes the models, not a training stack.
    *_cues(None, 0, r"open-source (?:[\w-]+ ){0,2}?(?:LLMs?|models?|agents?|alternatives?|weights|counterparts)",
           word=False),
    *_cues(INFRA, 1.0, r"framework|system|open-source[d]?|scalab(?:le|ility)|modular|"
           r"asynchronous|GPUs?|系统", word=False),
]

# Cues about rubric facts and narrowness come after every mechanism cue, so a
# mechanism phrase wins where both could start ("first listed wins").
CUES: tuple[Cue, ...] = (*MECHANISM_CUES, *FACT_CUES)
