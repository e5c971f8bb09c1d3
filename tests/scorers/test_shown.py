"""What `inspect view` shows of a score at a glance: the verdict, the rule that read it or the
grader's answer and rung, and P(good) lead the explanation and the metadata; a long raw answer
is cut in the metadata and kept whole in the transcript."""

from pathlib import Path

import pytest
from helpers.grm import grader_output, write_data
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from uxbench.scorers.shown import RAW_CHARS, shown_raw
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval

LONG = "好。" + "理由很长，" * 400  # a chain of thought after the verdict


def test_shown_raw_cuts_long_text_and_says_where_the_rest_is() -> None:
    assert shown_raw("好") == "好"
    cut = shown_raw(LONG)
    assert (
        cut.startswith(LONG[:RAW_CHARS])
        and f"({len(LONG):,} characters; the full text is in the transcript)" in cut
    )


@pytest.mark.integration
def test_task1_score_leads_with_the_rule_and_p_good(tmp_path: Path) -> None:
    (log,) = eval(
        task1_judge(data="sample"),
        model=get_model("mockllm/model", custom_outputs=lambda *_: ModelOutput.from_content("mockllm", LONG)),
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    sample = log.samples[0]
    score = sample.scores["judge_verdict"]
    assert list(score.metadata)[:3] == ["parse", "p_good", "label"]
    assert len(score.metadata["raw"]) < RAW_CHARS + 80 and sample.output.completion == LONG
    assert "no P(good) (no usable logprobs)" in score.explanation
    assert score.explanation.startswith(f"judge said {score.answer or 'nothing readable'} (read by rule ")


@pytest.mark.integration
def test_grm_score_leads_with_verdict_p_good_answer_and_rung(tmp_path: Path) -> None:
    def reply(messages: list[ChatMessage], *_) -> ModelOutput:
        return ModelOutput.from_content("mockllm", "a reply")

    (log,) = eval(
        task2_eval(data=str(write_data(tmp_path, task2=1))),
        model=get_model("mockllm/model", custom_outputs=reply),
        model_roles={
            "grader": get_model("mockllm/model", custom_outputs=lambda *_: grader_output(LONG, 0.6, 0.3))
        },
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    score = log.samples[0].scores["grm"]
    assert list(score.metadata)[:4] == ["verdict", "score", "raw", "rung"]
    assert score.metadata["raw"] == shown_raw(LONG)
    assert "score P(good) 0.667" in score.explanation and "rung 0" in score.explanation
    assert len(score.explanation) < 2 * RAW_CHARS
