"""Record normalisation: both released shapes and every quirk of docs/protocol.md#data."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uxbench.data.dataset import eval_sample, judge_sample, recovery_sample, uxbench_dataset
from uxbench.data.records import (
    LABEL_FIELDS,
    RecordError,
    Turn,
    eval_record,
    judge_record,
    message_text,
    parse_turns,
    recovery_record,
)
from uxbench.data.templates import builtin_path, load_template

CODE_SHAPE = {
    "cid": "uxbench_ux_judge_0001",
    "ground_truth": -1,
    "selected_history": [
        {"turn_index": 0, "role": "user", "message": "推荐一部电影", "create_time": "2025-01-01 10:00:00"},
        {"turn_index": 1, "role": "assistant", "message": "《海上钢琴师》", "length": 6},
    ],
    "source_query": {"turn_index": 2, "message": "换一部喜剧"},
    "agent_response_full": "喜剧电影的历史可以追溯到……",
    "failure_dimension": "冗余啰嗦",
    "scenario": "娱乐消遣",
    "difficulty": "Very Hard",
    "signal_type": "dislike",
    "scene_l1": "影视",
    "intent_l2": "推荐",
}

CARD_SHAPE = {
    "cid": "uxbench_ux_judge_0002",
    "ground_truth": "1",
    "history": '[{"role": "user", "content": "你好"}, {"role": "assistant", "content": "你好！"}]',
    "query": "今天适合穿什么",
    "response": "今天 18 度，建议薄外套。",
    "success_dimension": "实用性/操作指导",
    "difficulty": "",
}


def test_code_shape() -> None:
    record = judge_record(CODE_SHAPE)
    assert record.cid == "uxbench_ux_judge_0001"
    assert not record.liked
    assert record.history == (Turn("user", "推荐一部电影"), Turn("assistant", "《海上钢琴师》"))
    assert record.query == "换一部喜剧"
    assert record.response.startswith("喜剧电影")
    assert record.labels["failure_dimension"] == "冗余啰嗦"
    assert record.labels["difficulty"] == "very_hard"
    assert record.labels["domain_scene_l1"] == "影视"
    assert record.labels["domain_intent_l2"] == "推荐"
    assert record.labels["domain_sector_l1"] is None
    assert "unknown_labels" not in record.labels


def test_card_shape_with_json_string_history() -> None:
    record = judge_record(CARD_SHAPE)
    assert record.liked
    assert record.history == (Turn("user", "你好"), Turn("assistant", "你好！"))
    assert record.labels["success_pattern"] == "实用性/操作指导"
    assert record.labels["difficulty"] is None


def test_python_literal_history() -> None:
    turns = parse_turns("[{'role': 'user', 'content': '在吗'}]", "history")
    assert turns == (Turn("user", "在吗"),)


def test_empty_history_string() -> None:
    assert parse_turns("", "history") == ()
    assert parse_turns([], "history") == ()


def test_json_encoded_assistant_text() -> None:
    encoded = json.dumps({"role": "assistant", "content": "答案是 42"}, ensure_ascii=False)
    assert message_text(encoded) == "答案是 42"
    assert message_text(json.dumps({"content": [{"type": "text", "text": "分"}, {"text": "段"}]})) == "分段"
    assert message_text("{不是 JSON}") == "{不是 JSON}"
    assert message_text('{"unrelated": 1}') == '{"unrelated": 1}'
    turns = parse_turns([{"role": "assistant", "content": encoded}], "history")
    assert turns[0].content == "答案是 42"


def test_source_query_as_string_and_missing_ground_truth_from_file() -> None:
    raw = {**CODE_SHAPE, "source_query": "换一部喜剧"}
    del raw["ground_truth"]
    assert judge_record(raw, file_label=1).liked
    with pytest.raises(RecordError, match="ground_truth"):
        judge_record(raw)


def test_trailing_query_in_history_is_not_repeated() -> None:
    raw = {**CARD_SHAPE, "history": [{"role": "user", "content": "今天适合穿什么"}]}
    assert judge_record(raw).history == ()


def test_variant_and_unknown_labels_are_kept() -> None:
    variant = judge_record({**CODE_SHAPE, "failure_dimension": "冗长啰嗦"})
    assert variant.labels["failure_dimension"] == "冗余啰嗦"
    english = judge_record({**CODE_SHAPE, "failure_dimension": "Factual Error"})
    assert english.labels["failure_dimension"] == "事实性错误"
    unknown = judge_record({**CODE_SHAPE, "failure_dimension": "莫名其妙", "scenario": "太空旅行"})
    assert unknown.labels["failure_dimension"] == "莫名其妙"
    assert unknown.labels["unknown_labels"] == ["failure_dimension=莫名其妙", "scenario=太空旅行"]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"cid": None}, "cid", "missing"),
        ({"ground_truth": 0}, "ground_truth", "must be 1"),
        ({"agent_response_full": None}, "agent_response_full", "response"),
        ({"agent_response_full": "  "}, "agent_response_full", "empty"),
        ({"selected_history": 5}, "selected_history", "list of turns"),
        ({"selected_history": "[oops"}, "selected_history", "neither JSON"),
        ({"selected_history": [{"role": "bot", "content": "x"}]}, "selected_history[0].role", "unknown role"),
        ({"selected_history": [{"role": "user"}]}, "selected_history[0]", "content, message"),
        ({"selected_history": ["hello"]}, "selected_history[0]", "expected an object"),
    ],
)
def test_errors_name_the_field(change: dict, field: str, words: str) -> None:
    raw = {**CODE_SHAPE, **change}
    with pytest.raises(RecordError) as error:
        judge_record(raw)
    assert error.value.field == field
    assert words in str(error.value)


def test_missing_query_lists_aliases() -> None:
    raw = {k: v for k, v in CODE_SHAPE.items() if k != "source_query"}
    with pytest.raises(RecordError, match="accepted names: source_query, query"):
        judge_record(raw)


def test_task2_messages_with_and_without_final_query() -> None:
    base = {
        "cid": "uxbench_ux_eval_0001",
        "query": "再短一点",
        "messages": [
            {"role": "system", "content": "你是助手"},
            {"role": "user", "content": "写一句广告语"},
            {"role": "assistant", "content": "品味生活，从一杯好茶开始。"},
        ],
        "dimension": "冗余啰嗦",
        "history_turns": 2,
    }
    without = eval_record(base)
    with_query = eval_record(
        {**base, "messages": [*base["messages"], {"role": "user", "content": "再短一点"}]}
    )
    assert without.history == with_query.history
    assert without.history[0].role == "system"
    assert without.labels["failure_dimension"] == "冗余啰嗦"
    assert without.labels["history_turns"] == 2
    sample = eval_sample(without)
    assert [m.role for m in sample.input] == ["system", "user", "assistant", "user"]
    assert sample.input[-1].text == "再短一点"
    assert sample.id == "uxbench_ux_eval_0001"


def test_task2_history_alias() -> None:
    record = eval_record({"cid": "e2", "query": "hi", "history": []})
    assert record.history == ()


def test_task3_record_and_sample() -> None:
    record = recovery_record(
        {
            "cid": "uxbench_ux_recovery_0001",
            "history": [{"role": "user", "content": "3 乘 7 等于几"}],
            "failed_response": "等于 24。",
            "user_complaint": "不对吧",
            "failure_dimension": "事实性错误",
            "scenario": "信息与知识查询",
        }
    )
    sample = recovery_sample(record)
    assert [m.role for m in sample.input] == ["user", "assistant", "user"]
    assert [m.text for m in sample.input] == ["3 乘 7 等于几", "等于 24。", "不对吧"]
    assert sample.metadata == record.labels
    assert sample.metadata["failure_dimension"] == "事实性错误"
    with pytest.raises(RecordError, match="user_complaint"):
        recovery_record({"cid": "x", "history": [], "failed_response": "a"})


def test_judge_sample() -> None:
    template = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad"))
    sample = judge_sample(judge_record(CODE_SHAPE), template)
    assert sample.id == "uxbench_ux_judge_0001"
    assert sample.target == "bad"
    assert sample.metadata["label"] == "bad"
    # the prompt carries each text once; the metadata only the label facts
    assert isinstance(sample.input, str)
    assert "用户：<user-" in sample.input and "推荐一部电影" in sample.input and "喜剧" in sample.input
    assert not {"history", "query", "response"} & set(sample.metadata)


# ------------------------------------------------------------ field aliases (issue 12, class 8)

EVAL_SHAPE = {"cid": "uxbench_ux_eval_0001", "query": "再短一点", "messages": [], "scenario": "办公与效率"}
RECOVERY_SHAPE = {"cid": "r1", "history": [], "failed_response": "等于 24。", "user_complaint": "不对吧"}
PARSERS = {"judge": judge_record, "eval": eval_record, "recovery": recovery_record}
BASES = {"judge": CARD_SHAPE, "eval": EVAL_SHAPE, "recovery": RECOVERY_SHAPE}


ALIAS_CASES = [
    # the name in our metadata and README, in place of the release's success_dimension
    pytest.param(
        "judge",
        {"success_dimension": None, "success_pattern": "知识深度"},
        {"success_pattern": "知识深度"},
        id="success_pattern",
    ),
    pytest.param(
        "eval",
        {"failure_dimension": "Factual Error"},
        {"failure_dimension": "事实性错误"},
        id="task2_failure_dim",
    ),
    pytest.param(
        "recovery", {"dimension": "冗长啰嗦"}, {"failure_dimension": "冗余啰嗦"}, id="task3_dimension"
    ),
    pytest.param("judge", {"domain_scene_l1": "影视"}, {"domain_scene_l1": "影视"}, id="domain_names"),
    # unread fields that look like labels are kept and reported, by name or by value
    pytest.param(
        "judge",
        {"failure_type": "冗余啰嗦"},
        {"unknown_fields": {"failure_type": "冗余啰嗦"}},
        id="label_word",
    ),
    pytest.param(
        "eval", {"Scenario": "娱乐消遣"}, {"unknown_fields": {"Scenario": "娱乐消遣"}}, id="capitalised"
    ),
    pytest.param(
        "recovery",
        {"reason": "事实性错误", "level": "hard"},
        {"unknown_fields": {"reason": "事实性错误", "level": "hard"}},
        id="label_values",
    ),
    pytest.param(
        "judge",
        {"label": "good", "user_rating": 5},
        {"unknown_fields": {"label": "good", "user_rating": 5}},
        id="label_and_rating",
    ),
]


@pytest.mark.parametrize(("kind", "fields", "expected"), ALIAS_CASES)
def test_label_aliases_and_label_like_fields(kind: str, fields: dict, expected: dict) -> None:
    raw = {k: v for k, v in {**BASES[kind], **fields}.items() if v is not None}
    labels = PARSERS[kind](raw).labels
    assert {key: labels.get(key) for key in expected} == expected
    assert "unknown_labels" not in labels


def test_aliases_that_agree_are_fine() -> None:
    both = judge_record({**CODE_SHAPE, "dimension": "冗长啰嗦"})  # an older spelling of the same label
    assert both.labels["failure_dimension"] == "冗余啰嗦" and "unknown_labels" not in both.labels


def test_fields_that_do_not_look_like_labels_are_not_reported() -> None:
    labels = judge_record(
        {**CARD_SHAPE, "notes": "见附件", "turn_count": 3, "explanation": "用户追问"}
    ).labels
    assert "unknown_fields" not in labels


RULE = (
    "; a sample id names an entry in the .eval log, so it may hold only letters, digits and "
    "_ . - @ + = (no '..'), at most 128 characters"
)


@pytest.mark.parametrize(
    ("cid", "message"),
    [
        ("a\\b", "'a\\\\b' contains '\\\\'"),
        ("x y", "'x y' contains ' '"),
        ("\u202egnp.exe", r"'\u202egnp.exe' contains '\u202e'"),  # shown escaped, not obeyed
    ],
    ids=["backslash", "space", "bidi_override"],
)
def test_unsafe_cids_are_refused(cid: str, message: str) -> None:
    with pytest.raises(RecordError) as error:
        judge_record({**CARD_SHAPE, "cid": cid})
    assert str(error.value) == f"field 'cid': {message}{RULE}"


def test_safe_cids_pass() -> None:
    for cid in ("uxbench_ux_judge_0001", "会话-42", "a.b@c+d=e", "x" * 128, 7):
        assert judge_record({**CARD_SHAPE, "cid": cid}).cid == str(cid)


# ------------------------------------------------------------ what a record is (docs/data.md#record-origin)

STAND_IN_RECOVERY = {
    "cid": "x1",
    "origin": "stand-in",
    "history": [{"role": "user", "content": "…"}],
    "failed_response": "…",
    "user_complaint": "…",
}


@given(
    name=st.sampled_from(sorted({n for names in LABEL_FIELDS.values() for n in names} | {"signal_type"})),
    value=st.sampled_from(["冗余啰嗦", "办公与效率", "hard", "dislike", "x"]),
)
def test_a_stand_in_record_carries_no_label_it_would_have_invented(name: str, value: str) -> None:
    with pytest.raises(RecordError, match=f"field '{name}': a stand-in record .* would be invented"):
        recovery_record({**STAND_IN_RECOVERY, name: value})


def test_a_record_says_what_it_is_in_its_metadata_and_an_unknown_origin_is_refused() -> None:
    assert recovery_sample(recovery_record(STAND_IN_RECOVERY)).metadata["origin"] == "stand-in"
    synthetic = {**STAND_IN_RECOVERY, "origin": "synthetic", "scenario": "办公与效率"}
    assert recovery_record(synthetic).labels["scenario"] == "办公与效率"  # ours, labels and all
    assert "origin" not in recovery_record({**STAND_IN_RECOVERY, "origin": None}).labels
    for bad in ("real", 1, ""):
        with pytest.raises(RecordError, match="field 'origin': .* is not one of synthetic, stand-in"):
            recovery_record({**STAND_IN_RECOVERY, "origin": bad})


def test_every_bundled_sample_record_says_it_is_synthetic() -> None:
    for task in ("task1", "task2", "task3"):
        _, facts = uxbench_dataset(task, "sample", None, False)
        assert facts["record_origins"] == {"synthetic": facts["records"]}
