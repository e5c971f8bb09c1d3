"""One loaded copy of the local model per process, used by one request at a time.

Inspect runs samples concurrently, and the model under test and the grader may be the same
model: they share these weights, and a lock keeps forward passes (and the tokenizer, which
is not safe to share between threads) to one at a time. Callers run `complete` in a
worker thread so the event loop stays free.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from uxbench.grader_answer.logprobs import token_bytes
from uxbench.providers.decoding import Completion, Sampling, decode
from uxbench.providers.weights import check_installed, ensure_converted

_loaded: dict[Path, LocalModel] = {}
_loading = threading.Lock()


class LocalModel:
    """Weights, tokenizer and chat template of one converted checkpoint."""

    def __init__(self, directory: Path) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(str(directory), local_files_only=True)
        self.model = AutoModelForCausalLM.from_pretrained(str(directory), local_files_only=True)
        self.model.eval()
        config = self.model.config
        self.context_length: int = config.max_position_embeddings
        # each token's bytes, read from its vocabulary spelling (`Ġ`, `å¥`) with the GRM scorer's
        # own rules, so the provider's text and the scorer's reading of logprobs agree
        spellings = self.tokenizer.convert_ids_to_tokens(list(range(config.vocab_size)))
        self.token_bytes: list[bytes] = [token_bytes(s) if s is not None else b"" for s in spellings]
        self.special = frozenset(self.tokenizer.all_special_ids)
        self.lock = threading.Lock()

    def prompt(self, messages: Sequence[dict[str, str]]) -> list[int]:
        """The chat template applied to the conversation, ending with the assistant's turn opening."""
        text = self.tokenizer.apply_chat_template(list(messages), add_generation_prompt=True, tokenize=False)
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def complete(self, messages: Sequence[dict[str, str]], sampling: Sampling) -> Completion:
        with self.lock:
            prompt = self.prompt(messages)
            return decode(self.model, prompt, sampling, self.token_bytes, self.special, self.context_length)

    def encode(self, text: str) -> list[int]:
        with self.lock:
            return list(self.tokenizer.encode(text, add_special_tokens=False))


def local_model() -> LocalModel:
    """The process's copy of the bundled model, converting it on first use."""
    check_installed()
    with _loading:
        directory = ensure_converted()
        if directory not in _loaded:
            _loaded[directory] = LocalModel(directory)
        return _loaded[directory]
