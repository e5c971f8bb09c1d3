"""Baseline models: fixed rules that run through the very same tasks, logs and report as real models.

`--model uxbench/baseline/<strategy>`; the strategies (the verdict they give when asked to judge,
Task 1 or as a grader, and the reply they write in Tasks 2/3):

- `always-good`: verdict good, P(good) = 1; as a writer, a short polite content-free reply.
- `always-bad`: verdict bad, P(good) = 0; as a writer, a one-line refusal.
- `longer`: good iff the judged reply is at least as long as the assistant's previous turn,
  P(good) = n / (n + m); as a writer, a long markdown reply (headers, lists, bold) around
  the user's message.
- `length`: good iff the judged reply has at least `threshold` characters,
  P(good) = n / (n + threshold); as a writer, the user's last message echoed.

n is the judged reply's length in characters; m the previous assistant turn's (the
`threshold` when the conversation has none). `-M threshold=N` sets the length rule's cut
(default 250, between the median liked and disliked reply of our sample data). A verdict
is asked for when the prompt is a rendering of one of our judge / GRM templates, or of
`-M template=<file>`; the reply is read back out of the prompt through the template, so
the rules see exactly what a real judge sees. With `--logprobs`, text answers carry the
label token with P(good) spread over the good and bad label tokens, so calibration
metrics and GRM scores work on baselines too.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.data.templates import Template, load_template
from uxbench.judge_answer.prompt import (
    JudgePrompt,
    builtin_templates,
    last_assistant_turn,
    read_judge_prompt,
    verdict_text,
)
from uxbench.runtime.errors import DataError

STRATEGIES = ("always-good", "always-bad", "longer", "length")
DEFAULT_THRESHOLD = 250

POLITE_REPLY = (
    "好的，我明白你的意思。建议先把问题拆成几个小步骤，逐一确认每一步的结果；"
    "如果哪里还不清楚，告诉我具体情况，我再帮你细化。"
)
REFUSAL = "抱歉，我无法帮助处理这个请求。"
LONG_REPLY = """## 关于你的问题

> {message}

这是一个很好的问题，下面从几个方面**系统地**梳理一下。

### 一、背景

- **明确目标**：先想清楚你最终想得到什么结果。
- **了解现状**：把已知条件和限制列出来。
- **收集信息**：查找可靠的资料，对比不同的说法。

### 二、具体步骤

1. 把问题拆成若干个小问题，逐个击破。
2. 每完成一步，检查结果是否符合预期。
3. 遇到困难时，回到第一步重新审视目标。
4. 记录过程中的关键决定，方便以后回顾。

### 三、注意事项

- **不要急于求成**：复杂的问题往往需要多次尝试。
- **保持灵活**：情况变化时及时调整计划。
- **寻求帮助**：必要时咨询有经验的人。

### 总结

**总之**，只要目标清楚、步骤合理、及时复盘，这个问题一定可以解决。如果你愿意提供更多细节，我可以给出更有针对性的建议。
"""


def p_good(strategy: str, prompt: JudgePrompt, threshold: int) -> float:
    """The baseline's probability that the user liked the judged reply (see the module table)."""
    if strategy == "always-good":
        return 1.0
    if strategy == "always-bad":
        return 0.0
    n = len(prompt.fields.get("response", "").strip())
    reference = threshold
    if strategy == "longer":
        previous = last_assistant_turn(prompt.fields.get("history", ""), prompt.template)
        reference = len(previous.strip()) if previous is not None else threshold
    return n / (n + reference) if n + reference else 0.5


def verdict_logprobs(template: Template, label: str, probability: float) -> Logprobs:
    """One answer token, the good and bad label tokens as its alternatives (leaving out zero chances)."""
    chances = {"good": probability, "bad": 1.0 - probability}
    alternatives = [
        TopLogprob(token=template.labels[name][0], logprob=math.log(chance))
        for name, chance in sorted(chances.items(), key=lambda item: -item[1])
        if chance > 0
    ]
    chosen = Logprob(
        token=template.labels[label][0], logprob=math.log(chances[label]), top_logprobs=alternatives
    )
    return Logprobs(content=[chosen])


def generated_reply(strategy: str, message: str) -> str:
    """The baseline's reply when asked to answer rather than judge (see the module table)."""
    if strategy == "always-good":
        return POLITE_REPLY
    if strategy == "always-bad":
        return REFUSAL
    if strategy == "longer":
        return LONG_REPLY.format(message=message.strip().replace("\n", " "))
    return message


class BaselineAPI(ModelAPI):
    """Deterministic rule-based `model`; no network, no weights (`uxbench/baseline/<strategy>`)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (Inspect's ModelAPI signature)
        threshold: int = DEFAULT_THRESHOLD,
        template: str | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        self.strategy = model_name  # `model_name` becomes `baseline/<strategy>` (providers/__init__.py)
        if model_name not in STRATEGIES:
            raise DataError(f"uxbench/baseline/{model_name}: choose one of {', '.join(STRATEGIES)}")
        if model_args:
            raise DataError(f"uxbench/baseline/{model_name}: unknown model args {', '.join(model_args)}")
        self.threshold = int(threshold)
        self.templates = builtin_templates()
        if template is not None:
            self.templates = (load_template(template), *self.templates)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        user_turns = [m.text for m in input if m.role == "user"]
        message = user_turns[-1] if user_turns else ""
        prompt = read_judge_prompt(message, self.templates)
        if prompt is None:
            return ModelOutput.from_content(self.model_name, generated_reply(self.strategy, message))
        probability = p_good(self.strategy, prompt, self.threshold)
        label = "good" if probability >= 0.5 else "bad"
        output = ModelOutput.from_content(self.model_name, verdict_text(prompt.template, label))
        if config.logprobs and prompt.template.answer == "text":
            output.choices[0].logprobs = verdict_logprobs(prompt.template, label, probability)
        return output
