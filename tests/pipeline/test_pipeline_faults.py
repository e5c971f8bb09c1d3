"""The pipeline under bad data and failing models: every case has one exact outcome
(the message, the counts, the exit code)."""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.pipeline import CASE, TARGETS_ARG, completed_per_sample, same_outputs
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

import uxbench.pipeline.cli as pipeline_cli
from uxbench.cli import main
from uxbench.data.dataset import RELEASE_FILES
from uxbench.pipeline.read.files import read_rows, write_rows
from uxbench.pipeline.read.rawlog import Conversation
from uxbench.pipeline.run.mock import mock_answers
from uxbench.pipeline.stages.agents import render_conversation
from uxbench.pipeline.stages.quality import AXES
from uxbench.pipeline.stages.schemas import FailureCase, QAVerdict
from uxbench.pipeline.stages.signals import conversation_signals

pytestmark = pytest.mark.integration


Row = dict[str, Any]
TIMES = "use YYYY-MM-DD HH:MM:SS, ISO 8601 or epoch seconds / milliseconds"
RANGE = f"is out of range (1970-01-01 to 2100-01-01; {TIMES})"
TIME = "{raw}:1 (cid c1): field 'messages[0].time': "


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit code and stderr of `uxbench ...`."""
    code = main(argv)
    return code, capsys.readouterr().err


def chat(cid: str, reply: str, time: Any = None, feedback: str | None = "disliked") -> Row:
    return {
        "cid": cid,
        "messages": [
            {"role": "user", "content": "北京明天天气怎么样，要带伞吗？", "time": time},
            {"role": "assistant", "content": reply, "feedback": feedback},
        ],
    }


# ---------------------------------------------------------------- raw logs (issue 12.9)

RAW_CASES: list[tuple[str, list[Any], list[str], int, str, dict[str, int]]] = [
    # id, lines, extra flags, exit code, stderr, signal counts
    (
        "reused-cid",
        [chat("c1", "上海明天晴。"), chat("c1", "北京有雨。")],
        [],
        1,
        "{raw}:2 (cid c1): field 'cid': line 1 holds another conversation with this cid "
        "(cids must be unique)",
        {},
    ),
    (
        "reused-cid-skipped",
        [chat("c1", "上海明天晴。"), chat("c1", "北京有雨。"), chat("c2", "带伞。")],
        ["--skip-bad"],
        0,
        "",
        {"conversations": 2, "skipped_lines": 1, "duplicate_cids": 1},
    ),
    (
        "time-1e20",
        [chat("c1", "上海明天晴。", time=1e20)],
        [],
        1,
        f"{TIME}time 1e+20 {RANGE}",
        {},
    ),
    (
        "time-year-9999",
        [chat("c1", "上海明天晴。", time="9999-12-31 00:00:00")],
        [],
        1,
        f"{TIME}time '9999-12-31 00:00:00' {RANGE}",
        {},
    ),
    (
        "time-microseconds",
        [chat("c1", "上海明天晴。", time=1735689600000000)],
        [],
        1,
        f"{TIME}time 1735689600000000 {RANGE}",
        {},
    ),
    (
        "time-negative",
        [chat("c1", "上海明天晴。", time=-5)],
        [],
        1,
        f"{TIME}time -5 {RANGE}",
        {},
    ),
    (
        "time-nan",
        [json.dumps(chat("c1", "上海明天晴。", time="NAN_HERE")).replace('"NAN_HERE"', "NaN")],
        [],
        1,
        f"{TIME}not a time: nan ({TIMES})",
        {},
    ),
    (
        "no-rated-conversation",
        [chat("c1", "上海明天晴。", feedback=None), chat("c2", "带伞。", feedback="none")],
        [],
        1,
        "{raw}: none of its 2 conversations has a rated reply, so no test case can come out of it. The "
        "pipeline reads ratings on assistant turns: `feedback` (liked / disliked) or the flags `is_liked` / "
        "`is_unliked`.",
        {},
    ),
    (
        "only-bad-lines-skipped",
        ["{not json", {"cid": "c1"}],
        ["--skip-bad"],
        1,
        "{raw}: none of its 0 usable conversations (2 bad lines skipped) has a rated reply, so no test case "
        "can come out of it. The pipeline reads ratings on assistant turns: `feedback` (liked / disliked) "
        "or the flags `is_liked` / `is_unliked`.",
        {},
    ),
]


@pytest.mark.parametrize(
    ("lines", "flags", "code", "message", "counts"), [c[1:] for c in RAW_CASES], ids=[c[0] for c in RAW_CASES]
)
def test_raw_log_faults(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lines: list[Any],
    flags: list[str],
    code: int,
    message: str,
    counts: dict[str, int],
) -> None:
    raw, out = tmp_path / "raw.jsonl", tmp_path / "signals.jsonl"
    raw.write_text(
        "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8"
    )
    exit_code, err = run(["pipeline", "signals", str(raw), "--out", str(out), *flags], capsys)
    assert exit_code == code
    if code:
        assert err.splitlines()[0] == "error: " + message.format(raw=raw)
        assert not out.exists() and not list(tmp_path.glob(".*partial"))
    else:
        stats = json.loads(out.with_name("signals.stats.json").read_text(encoding="utf-8"))["signals"]
        assert {k: stats[k] for k in counts} == counts


# ---------------------------------------------------------------- stage rows (issue 12.9)


def qa_row() -> Row:
    """One QA'd case, as the pipeline writes it."""
    turns = [
        {"role": "user", "text": "北京明天天气怎么样，要带伞吗？请告诉我", "time": None, "feedback": None},
        {"role": "assistant", "text": "上海明天晴。", "time": None, "feedback": "disliked"},
        {"role": "user", "text": "不对，我问的是北京", "time": None, "feedback": None},
        {"role": "assistant", "text": "北京明天有雨，记得带伞。", "time": None, "feedback": "liked"},
    ]
    conversation = {"cid": "c1", "turns": turns}
    case = FailureCase.model_validate(CASE, context={"roles": [t["role"] for t in turns]}).model_dump(
        mode="json"
    )
    return {
        **conversation,
        "signals": conversation_signals(Conversation.from_json(conversation)),
        "id": "c1#failure#0",
        "track": "failure",
        "case": case,
        "scores": dict.fromkeys(AXES, 5),
        "mean": 5.0,
        "tier": "high",
        "judge_rationale": "",
        "qa": QAVerdict(verdict="keep").model_dump(mode="json"),
    }


def changed(path: str, value: Any) -> Callable[[Row], Row]:
    """`row` with the value at a dotted path (list positions as numbers) replaced; `...` deletes it."""

    def change(row: Row) -> Row:
        row = copy.deepcopy(row)
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = row
        for part in parents:
            target = target[part]
        if value is ...:
            del target[last]
        else:
            target[last] = value
        return row

    return change


BUILD_CASES: list[tuple[str, Callable[[Row], Any], str]] = [
    (
        "qa-verdict",
        changed("qa.verdict", "maybe"),
        "field 'qa.verdict': Input should be 'keep', 'downgrade' or 'reject'",
    ),
    ("no-case", changed("case", ...), "field 'case': Field required"),
    (
        "turn-as-text",
        changed("case.query_turn", "0"),
        "field 'case.query_turn': Input should be a valid integer",
    ),
    (
        "turn-of-wrong-role",
        changed("case.failed_turn", 2),
        "field 'case.failed_turn': turn 2 has role user, expected assistant",
    ),
    (
        "score-out-of-range",
        changed("scores.severity", 7),
        "field 'scores.severity': Input should be less than or equal to 5",
    ),
    ("tier-not-from-scores", changed("tier", "low"), "field 'tier': is 'low', but the scores give 'high'"),
    (
        "role",
        changed("turns.1.role", "bot"),
        "field 'turns[1].role': Input should be 'user', 'assistant' or 'system'",
    ),
    (
        "reaction-turn",
        changed("signals.reactions.0.next_user", 9),
        "field 'signals': reactions[0].next_user: turn 9 does not exist (the conversation has turns 0-3)",
    ),
    ("not-an-object", lambda row: [1, 2], "not a pipeline stage file line (not a JSON object)"),
    (
        "every-case-rejected",
        changed("qa.verdict", "reject"),
        "none of its 1 cases can enter a test set (dropped: qa_reject 1; duplicate queries: 0); "
        "no test set written",
    ),
    (
        "judged-with-gates-off-but-no-scores",
        lambda row: {**row, "scores": None, "mean": None, "tier": None},
        "none of its 1 cases can enter a test set (dropped: judge_invalid 1; duplicate queries: 0); "
        "no test set written",
    ),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in BUILD_CASES], ids=[c[0] for c in BUILD_CASES])
def test_build_checks_every_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[Row], Any], message: str
) -> None:
    qa, out = tmp_path / "qa.jsonl", tmp_path / "sets"
    qa.write_text(json.dumps(qa_row()) + "\n" + json.dumps(change(qa_row())) + "\n", encoding="utf-8")
    if "test set" in message:  # a whole-file outcome: the changed row alone
        qa.write_text(json.dumps(change(qa_row())) + "\n", encoding="utf-8")
        where = f"{qa}: "
    else:
        where = f"{qa}:2 (cid c1): " if "field" in message else f"{qa}:2: "
    assert run(["pipeline", "build", str(qa), "--out", str(out)], capsys) == (1, f"error: {where}{message}\n")
    assert not any((out / name).exists() for name in RELEASE_FILES.values())


def test_the_valid_row_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The row the table changes is itself fine (so each case above fails for its own reason)."""
    qa = tmp_path / "qa.jsonl"
    write_rows(qa, [qa_row()])
    assert run(["pipeline", "build", str(qa), "--out", str(tmp_path / "sets")], capsys)[0] == 0


# ---------------------------------------------------------------- failing model calls (12.10, 12.11)

REJECTED = "RuntimeError('HTTP 400: prompt rejected')"


def flaky(fails: Callable[[str], bool]) -> Any:
    """The dry-run model, except that prompts for which `fails` is true always raise."""
    valid = mock_answers()

    def generate(
        input: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        if fails(input[0].text):
            raise RuntimeError("HTTP 400: prompt rejected")
        return valid(input, tools, choice, config)

    return get_model("mockllm/model", custom_outputs=generate)


@pytest.fixture
def failing_item(pipeline_reference: Path) -> tuple[str, Callable[[str], bool]]:
    """The id of one miner item and a test for its prompts."""
    row = next(
        r for r in read_rows(pipeline_reference / "02_prefilter.jsonl") if "failure" in r["signals"]["tracks"]
    )
    text = render_conversation(row)
    return f"{row['cid']}#failure", lambda prompt: "FAILURE case" in prompt and text in prompt


def run_with(monkeypatch: pytest.MonkeyPatch, model: Any, raw: Path, out: Path, *flags: str) -> list[str]:
    monkeypatch.setattr(pipeline_cli, "_model", lambda args: model)
    return [
        "pipeline",
        "run",
        str(raw),
        "--out",
        str(out),
        "--model",
        "stand-in",
        "--workers",
        "1",  # a Model object stays in this process
        "--no-progress",
        "--targets",
        TARGETS_ARG,
        *flags,
    ]


def test_a_failing_item_is_left_out_then_retried_alone(
    pipeline_raw: Path,
    pipeline_reference: Path,
    failing_item: tuple[str, Callable[[str], bool]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    item, fails = failing_item
    out = tmp_path / "run"
    code, err = run(run_with(monkeypatch, flaky(fails), pipeline_raw, out), capsys)
    assert (code, err) == (
        3,
        "warning: 1 items failed and were left out (miner 1); their errors are under `failed_examples` in "
        "the stats. Run the same command again to retry only those.\n",
    )
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert (stats["miner"]["failed"], stats["miner"]["failed_examples"]) == (
        1,
        [{"id": item, "error": REJECTED}],
    )
    assert all((out / name).exists() for name in RELEASE_FILES.values())

    code, err = run(run_with(monkeypatch, flaky(lambda prompt: False), pipeline_raw, out), capsys)
    assert (code, err) == (0, "")
    same_outputs(out, pipeline_reference)
    finished = completed_per_sample(out)
    assert max(finished.values()) == 1
    assert sum(finished.values()) == sum(completed_per_sample(pipeline_reference).values())


def test_every_item_failing_stops_the_stage(
    pipeline_raw: Path,
    pipeline_reference: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    items = json.loads((pipeline_reference / "03_miner.stats.json").read_text(encoding="utf-8"))["miner"][
        "items"
    ]
    first = next(read_rows(pipeline_reference / "02_prefilter.jsonl"))
    first_item = f"{first['cid']}#{first['signals']['tracks'][0]}"
    argv = run_with(
        monkeypatch, flaky(lambda prompt: True), pipeline_raw, tmp_path / "run", "--chunk-size", "1000"
    )
    assert run(argv, capsys) == (
        1,
        f"error: pipeline miner stage: all {items} items failed (first: {first_item}: {REJECTED}); fix the "
        "cause (model name, key, endpoint) and run again\n",
    )


def test_fail_on_error_ends_the_run_in_error(
    pipeline_raw: Path,
    failing_item: tuple[str, Callable[[str], bool]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "run"
    argv = run_with(monkeypatch, flaky(failing_item[1]), pipeline_raw, out, "--fail-on-error", "1")
    code, err = run(argv, capsys)
    log = next((out / "03_miner.work" / "logs").glob("*/*.eval"))
    assert (code, err) == (
        1,
        f"error: pipeline miner stage: an Inspect run ended with status error ({REJECTED}); log: {log}. "
        "Finished samples are kept: run the same command again to resume.\n",
    )


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (["--model", "nosuch/x"], "model nosuch/x: Model API nosuch of model 'nosuch/x' not recognized."),
        (
            ["--model", "openai-api/local/m", "-M", "colour=blue"],
            "model openai-api/local/m: AsyncOpenAI.__init__() got an unexpected keyword argument 'colour'",
        ),
    ],
    ids=["unknown-provider", "unknown-model-argument"],
)
def test_a_model_that_cannot_be_set_up_stops_before_any_stage(
    tmp_path: Path,
    pipeline_raw: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    model: list[str],
    message: str,
) -> None:
    monkeypatch.setenv("LOCAL_API_KEY", "not-used")
    monkeypatch.setenv("LOCAL_BASE_URL", "http://127.0.0.1:9/v1")
    out = tmp_path / "run"
    assert run(["pipeline", "run", str(pipeline_raw), "--out", str(out), *model], capsys) == (
        1,
        f"error: {message}\n",
    )
    assert not out.exists()


# ---------------------------------------------------------------- resuming with other settings (12.10)


@pytest.fixture
def finished_run(pipeline_reference: Path, tmp_path: Path) -> Path:
    """A copy of the finished dry run, to resume."""
    return Path(shutil.copytree(pipeline_reference, tmp_path / "run"))


def other_settings(out: Path, *lines: str) -> str:
    listing = "".join(f"  {line}\n" for line in lines)
    return (
        f"error: {out} was run with other settings:\n{listing}Resume with the same settings, use a new "
        "output directory, or pass --force to go on with the new ones (finished work is kept).\n"
    )


DRY_TO_MOCK = [f"{s}.model.model: was 'dry-run', now 'mockllm/model'" for s in ("judge", "miner", "qa")]

SETTINGS_CASES: list[tuple[str, list[str], list[str]]] = [
    ("other-model", ["--model", "mockllm/model"], DRY_TO_MOCK),
    (
        "other-near-threshold",
        ["--dry-run", "--near-threshold", "0.9"],
        ["prefilter.near_threshold: was 0.8, now 0.9"],
    ),
    ("skip-bad", ["--dry-run", "--skip-bad"], ["signals.skip_bad: was False, now True"]),
]


@pytest.mark.parametrize(
    ("flags", "lines"), [c[1:] for c in SETTINGS_CASES], ids=[c[0] for c in SETTINGS_CASES]
)
def test_resume_with_other_settings_is_refused(
    pipeline_raw: Path,
    finished_run: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    lines: list[str],
) -> None:
    argv = ["pipeline", "run", str(pipeline_raw), "--out", str(finished_run), "--no-progress", *flags]
    assert run(argv, capsys) == (1, other_settings(finished_run, *lines))


def test_a_resume_after_the_prompts_changed_is_refused(
    pipeline_raw: Path, finished_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run begun with other prompts as sent (an older uxbench: another prompt file, or the same
    file rendered otherwise, e.g. before the fences) is not silently finished with these: each
    stage's prompt rendered on its probe items is part of its settings, named on a refusal."""
    manifest = finished_run / "pipeline.json"
    recorded = json.loads(manifest.read_text(encoding="utf-8"))
    for stage in ("miner", "judge", "qa"):
        recorded["settings"][stage]["prompts"]["failure"] = "0123456789abcdef"
    manifest.write_text(json.dumps(recorded), encoding="utf-8")
    argv = ["pipeline", "run", str(pipeline_raw), "--out", str(finished_run), "--no-progress", "--dry-run"]
    code, err = run(argv, capsys)
    changed = [line.strip() for line in err.splitlines() if ".prompts." in line]
    assert code == 1 and [line.split(":")[0] for line in changed] == [
        "judge.prompts.failure",
        "miner.prompts.failure",
        "qa.prompts.failure",
    ]
    assert all(line.startswith(line.split(":")[0] + ": was '0123456789abcdef', now '") for line in changed)


def test_a_change_in_how_a_stage_renders_its_prompt_changes_its_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The prompt files unchanged, the code rendering them otherwise (a fence changed): the
    stage's recorded prompts differ, so a resume stops."""
    from uxbench.pipeline.run.agentrun import AGENT_STAGES, stage_settings
    from uxbench.pipeline.run.models import ModelSpec
    from uxbench.pipeline.stages import agents

    before = {name: stage_settings(stage, ModelSpec(dry_run=True)) for name, stage in AGENT_STAGES.items()}
    monkeypatch.setattr(agents, "fence", lambda name, text: f"<<{name}>>\n{text}\n<</{name}>>")
    after = {name: stage_settings(stage, ModelSpec(dry_run=True)) for name, stage in AGENT_STAGES.items()}
    for name in AGENT_STAGES:
        assert before[name]["prompts"].keys() == after[name]["prompts"].keys()
        assert all(before[name]["prompts"][k] != after[name]["prompts"][k] for k in before[name]["prompts"])


def test_provider_arguments_are_recorded_without_secrets(
    pipeline_raw: Path, finished_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "pipeline",
        "run",
        str(pipeline_raw),
        "--out",
        str(finished_run),
        "--no-progress",
        "--targets",
        TARGETS_ARG,
    ]
    mock = ["--model", "mockllm/model", "-M", "api_key=sk-very-secret", "-M", "foo=1"]
    assert run([*argv, *mock, "--force"], capsys)[0] == 0  # finished stages: nothing runs again
    manifest = (finished_run / "pipeline.json").read_text(encoding="utf-8")
    assert "sk-very-secret" not in manifest
    assert json.loads(manifest)["replaced"][0]["miner"]["model"] == {"model": "dry-run"}
    code, err = run([*argv, "--model", "mockllm/model", "-M", "api_key=sk-other", "-M", "foo=2"], capsys)
    changes = [f"{s}.model.args.{arg}" for s in ("judge", "miner", "qa") for arg in ("api_key", "foo")]
    assert code == 1 and [line.split(":")[0].strip() for line in err.splitlines()[1:7]] == changes
    assert "foo: was '1', now '2'" in err and "sk-other" not in err


def test_forced_resume_redoes_the_stage_whose_options_changed(
    pipeline_raw: Path, finished_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    signals_stats = (finished_run / "01_signals.stats.json").stat().st_mtime_ns
    prefilter_stats = (finished_run / "02_prefilter.stats.json").stat().st_mtime_ns
    argv = [
        "pipeline",
        "run",
        str(pipeline_raw),
        "--out",
        str(finished_run),
        "--dry-run",
        "--workers",
        "1",
        "--no-progress",
    ]
    assert run([*argv, "--targets", TARGETS_ARG, "--near-threshold", "0.9", "--force"], capsys)[0] == 0
    assert (finished_run / "01_signals.stats.json").stat().st_mtime_ns == signals_stats
    assert (finished_run / "02_prefilter.stats.json").stat().st_mtime_ns != prefilter_stats
    assert (
        json.loads((finished_run / "pipeline.json").read_text(encoding="utf-8"))["settings"]["prefilter"][
            "near_threshold"
        ]
        == 0.9
    )
    assert max(completed_per_sample(finished_run).values()) == 1  # resumed: no sample ran twice


def test_one_stage_resumed_with_another_model_is_refused(
    finished_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "pipeline",
        "judge",
        str(finished_run / "03_miner.jsonl"),
        "--out",
        str(finished_run / "04_judge.jsonl"),
    ]
    assert run([*argv, "--model", "mockllm/model"], capsys) == (
        1,
        other_settings(finished_run / "04_judge.work", "model.model: was 'dry-run', now 'mockllm/model'"),
    )
