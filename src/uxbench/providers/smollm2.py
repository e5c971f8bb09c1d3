"""`uxbench/smollm2` and `uxbench/smollm2-grader`: SmolLM2-135M-Instruct on the CPU as an Inspect model.

A smoke-test model: it needs no network, no key and no GPU, and it returns real tokens and
real log probabilities, so every task can run end to end. Its answers say nothing about
how good a frontier model is.

A 135M English model does not follow a Chinese "answer with one character, 好 or 差"
instruction: left free, it chats, and the labels are not among its likeliest first tokens,
so a GRM score could not be read. `smollm2-grader` is the same weights answering only with
one of a label set (`-M answers=好,差` by default), the usual way to use a small language
model as a classifier: its verdict is the label the model prefers, and its log
probabilities are the model's own, renormalised over the labels' tokens, so
P(好) / (P(好) + P(差)) is the model's own ratio.
"""

from __future__ import annotations

from typing import Any

import anyio
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    TopLogprob,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from uxbench.providers.decoding import Choice, Completion, Sampling
from uxbench.providers.runtime import LocalModel, local_model
from uxbench.runtime.errors import DataError

# model name -> the answers it is restricted to (none: free text)
MODELS: dict[str, tuple[str, ...]] = {"smollm2": (), "smollm2-grader": ("好", "差")}
DEFAULT_MAX_TOKENS = 128  # a small model rambles on a slow CPU; tasks and --max-tokens may ask for more


class LocalModelAPI(ModelAPI):
    """Inspect's view of the process's one copy of the local model."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        answers: object = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, config=config or GenerateConfig())
        if model_name not in MODELS:
            raise DataError(
                f"--model uxbench/{model_name}: no such local model (available: {', '.join(MODELS)})"
            )
        if model_args:
            raise DataError(
                f"uxbench/{model_name}: unknown model argument(s) {', '.join(model_args)} "
                "(the only one is answers=<label>,<label>,...)"
            )
        self.local: LocalModel = local_model()
        labels = answer_labels(answers) if answers is not None else MODELS[model_name]
        self.answers = tuple(tuple(self.local.encode(label)) for label in labels)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        if tools:
            raise DataError(f"uxbench/{self.model_name} cannot call tools; use a model that can")
        messages = [{"role": m.role, "content": m.text} for m in input]
        sampling = sampling_of(config, self.answers)
        completion = await anyio.to_thread.run_sync(self.local.complete, messages, sampling)
        return self._output(completion, sampling)

    def _output(self, completion: Completion, sampling: Sampling) -> ModelOutput:
        usage = ModelUsage(
            input_tokens=completion.input_tokens,
            output_tokens=completion.output_tokens,
            total_tokens=completion.input_tokens + completion.output_tokens,
        )
        if completion.input_tokens >= self.local.context_length:
            message = (
                f"the input is {completion.input_tokens} tokens, more than the maximum context length "
                f"of {self.local.context_length} tokens of uxbench/{self.model_name}"
            )
            output = ModelOutput.from_content(self.model_name, message, stop_reason="model_length")
            output.usage = usage
            return output
        logprobs = None
        if sampling.top_logprobs is not None:
            logprobs = Logprobs(content=[self._logprob(c) for c in completion.choices])
        choice = ChatCompletionChoice(
            message=ChatMessageAssistant(content=completion.text, model=self.model_name, source="generate"),
            stop_reason=completion.stop_reason,
            logprobs=logprobs,
        )
        return ModelOutput(model=self.model_name, choices=[choice], usage=usage)

    def _logprob(self, choice: Choice) -> Logprob:
        text, raw = self._spelling(choice.token)
        top = []
        for token, logprob in choice.top:
            alternative, data = self._spelling(token)
            top.append(TopLogprob(token=alternative, logprob=logprob, bytes=data))
        return Logprob(token=text, logprob=choice.logprob, bytes=raw, top_logprobs=top)

    def _spelling(self, token: int) -> tuple[str, list[int]]:
        """A token's text and bytes; part of a character is spelled as OpenAI does (`bytes:\\xe5\\xa5`),
        so two different byte tokens never share a spelling."""
        data = self.local.token_bytes[token]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = "bytes:" + "".join(f"\\x{b:02x}" for b in data)
        return text, list(data)

    async def tokenize(self, text: str) -> list[int]:
        return await anyio.to_thread.run_sync(self.local.encode, text)

    async def count_text_tokens(self, text: str) -> int:
        return len(await self.tokenize(text))

    def max_tokens(self) -> int | None:
        return DEFAULT_MAX_TOKENS

    def max_connections(self) -> int:
        """Requests queue for the one copy of the weights; a few in flight keep it busy."""
        return 4


def answer_labels(answers: object) -> tuple[str, ...]:
    """`-M answers=好,差` (or a YAML list; YAML may have read a lone label as a number) as labels."""
    items = answers if isinstance(answers, list | tuple) else str(answers).split(",")
    labels = tuple(str(a).strip() for a in items)
    if not labels or not all(labels):
        raise DataError(f"answers={answers!r}: give the labels separated by commas, e.g. answers=好,差")
    return labels


def sampling_of(config: GenerateConfig, answers: tuple[tuple[int, ...], ...] = ()) -> Sampling:
    """Inspect's generate config as decoder settings (temperature unset = 1, as OpenAI does)."""
    return Sampling(
        max_tokens=config.max_tokens or DEFAULT_MAX_TOKENS,
        temperature=1.0 if config.temperature is None else config.temperature,
        top_p=config.top_p,
        top_k=config.top_k,
        stop=tuple(config.stop_seqs or ()),
        seed=config.seed,
        top_logprobs=(config.top_logprobs or 0) if config.logprobs else None,
        answers=answers,
    )
