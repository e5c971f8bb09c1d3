"""A toy grader served the way vLLM serves SmolLM2: 好 and 差 as three byte tokens each.

Its model, for record n: after the answer's start the first byte e5 has probability
`FIRST`; after e5, a5 (→ 好) has `good(n)` and b7 (→ 差) `bad(n)`; the third bytes bd and ae
have `good_end(n)` and `bad_end(n)`. So its own P(good) is
good·good_end / (good·good_end + bad·bad_end), which no single position's alternatives hold.

It answers a plain request freely (a chatty sentence: no verdict), a request constrained with
`structured_outputs: {choice: [...]}` with its more likely label, and a request continuing an
assistant turn (`continue_final_message`) with the prompt logprobs of that turn's tokens under
the same model, as vLLM's `prompt_logprobs` does.
"""

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from helpers.grm import record_number
from helpers.localserver import Reply, prompt_text

FIRST = 0.9
GOOD_BYTES, BAD_BYTES = "好".encode(), "差".encode()
PROMPT_TOKENS = [("<|im_start|>", -0.7, []), ("user", -0.4, []), ("...", -1.2, [])]
ln = math.log


def judge_number(text: str) -> int:
    """A Task 1 prompt's record number: n for a liked reply, n + 100 for a disliked one."""
    found = re.search(r"(GOOD|BAD)REPLY (\d+)", text)
    return int(found.group(2)) + (100 if found.group(1) == "BAD" else 0)


def good(n: int) -> float:
    return 0.1 + (n % 7) / 10


def bad(n: int) -> float:
    return 0.95 - good(n)


def good_end(n: int) -> float:
    return 0.6 + (n % 3) / 10


def bad_end(n: int) -> float:
    return 0.9 - (n % 4) / 10


def own_p_good(n: int) -> float:
    """The toy model's own ratio of the two labels' probabilities for record n."""
    g, b = good(n) * good_end(n), bad(n) * bad_end(n)
    return g / (g + b)


def byte_logprob(n: int, before: bytes, byte: int) -> float:
    """log P(byte | the bytes of the current character before it) under the toy model."""
    table = {
        (b"", 0xE5): FIRST,
        (b"\xe5", 0xA5): good(n),
        (b"\xe5", 0xB7): bad(n),
        (b"\xe5\xa5", 0xBD): good_end(n),
        (b"\xe5\xb7", 0xAE): bad_end(n),
    }
    return ln(table.get((before, byte), 0.5))


def tokens(n: int, text: str) -> list[tuple[str | bytes, float, list]]:
    """The text's tokens with the toy model's logprobs: ASCII characters whole, others byte by byte."""
    spelled: list[tuple[str | bytes, float, list]] = []
    for char in text:
        if char.isascii():
            spelled.append((char, ln(0.5), []))
            continue
        data = char.encode()
        spelled += [(data[i : i + 1], byte_logprob(n, data[:i], data[i]), []) for i in range(len(data))]
    return spelled


def answer(n: int, label: str) -> list[tuple[str | bytes, float, list]]:
    """The generated label's three byte tokens, each with the alternatives a server would list."""
    data = label.encode()
    other = (BAD_BYTES if data == GOOD_BYTES else GOOD_BYTES)[1:2]
    return [
        (data[:1], ln(FIRST), [(data[:1], ln(FIRST)), ("I", ln(0.05))]),
        (data[1:2], byte_logprob(n, data[:1], data[1]), [
            (data[1:2], byte_logprob(n, data[:1], data[1])),
            (other, byte_logprob(n, data[:1], other[0])),
        ]),
        (data[2:], byte_logprob(n, data[:2], data[2]), [(data[2:], byte_logprob(n, data[:2], data[2]))]),
    ]  # fmt: skip


@dataclass
class ToyGrader:
    """The responder; `number` tells records apart from a prompt, `requests` keeps each call's body."""

    number: Callable[[str], int] = record_number
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, request: dict[str, Any]) -> Reply:
        self.requests.append(request)
        n = self.number(prompt_text(request))
        if request.get("continue_final_message"):
            content = request["messages"][-1]["content"]
            turn = content if isinstance(content, str) else "".join(part["text"] for part in content)
            return Reply("", prompt_logprobs=[*PROMPT_TOKENS, *tokens(n, turn)])
        if not (request.get("structured_outputs") or {}).get("choice"):
            return Reply("I think the reply is fine.", [("I", ln(0.4), [("I", ln(0.4))])])
        label = "好" if good(n) * good_end(n) >= bad(n) * bad_end(n) else "差"
        return Reply(label, answer(n, label))
