"""Signal extraction: how the user reacted to every assistant turn (docs/protocol.md#construction-pipeline).

The reaction to an assistant turn is read from the next user turn; the first matching rule
wins: complaint → explicit praise → skip-read → consent to the reply's question → short
dismissal → repeat → rephrase → abandon → satisfied (no next user turn: no_followup).
Two corrections of the original: praise (不错 / 没错 / 错不了 / not bad) is never a
complaint, and a short 好 / ok that answers the assistant's question is consent, not a
dismissal. Explicit praise is checked right after complaints so that "thanks, great!" is
not taken for a topic switch (abandon).

Similarity of two user turns is the Dice coefficient of their sets of token bigrams, where
a token is one CJK character or one Latin word / number (case and punctuation ignored). For
Chinese that is the usual character-bigram measure, which needs no word segmentation; for
English, word bigrams keep unrelated sentences apart (letter bigrams are shared by almost
any two English sentences). It costs O(length), unlike difflib's quadratic matcher.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from uxbench.pipeline.read.rawlog import DISLIKED, LIKED, Conversation, LogTurn

REACTIONS = (
    "satisfied",
    "repeat",
    "rephrase",
    "complain",
    "short_dismiss",
    "abandon",
    "skip_read",
    "no_followup",
)
# reactions that say the reply did not serve the user
FAILURE_REACTIONS = frozenset({"complain", "repeat", "rephrase", "short_dismiss", "abandon", "skip_read"})
# failures after which the assistant gets another chance in the same conversation
RETRY_REACTIONS = frozenset({"complain", "repeat", "rephrase"})
RECOVERY_OUTCOMES = ("recovered", "failed_recovery", "partial_recovery", "user_gave_up", "no_recovery")


@dataclass(frozen=True)
class SignalConfig:
    """Thresholds of the rules; the defaults are those of docs/protocol.md#construction-pipeline."""

    complaint_max_chars: int = 80
    skip_min_reply_chars: int = 50
    skip_seconds_per_char: float = 0.15
    skip_max_gap_seconds: float = 30.0
    dismiss_max_chars: int = 20
    repeat_similarity: float = 0.80
    rephrase_similarity: float = 0.45
    abandon_similarity: float = 0.15
    abandon_min_chars: int = 5
    interrupted_max_chars: int = 3
    recovery_window: int = 6


# ---------------------------------------------------------------- phrase rules

_NON_WORD = re.compile(r"[\W_]+")
_TOKENS = re.compile(r"[a-z0-9]+|[^\W\d_a-z]")

# Phrases that contain complaint words but say the opposite (praise) or ask a question.
_NOT_COMPLAINTS = re.compile(
    r"不错|没错|错不了|没毛病|不赖|不差|对不对|是不是|不对称|不对劲|哪里不对|哪儿不对|什么不对"
    r"|not (?:bad|wrong)|nothing wrong|no complaints?|can'?t complain|what'?s wrong with"
    r"|is (?:there )?(?:anything|something) wrong",
    re.IGNORECASE,
)
_COMPLAINTS = re.compile(
    r"不对|错了|有误|不正确|不准确|答非所问|跑题|离题|偏题|离谱|你到底会不会|到底会不会|胡说|瞎说|乱说|胡扯|瞎扯"
    r"|没用|什么鬼|看不懂|听不懂|没听懂|理解错|搞错|弄错|不是这个意思|不是我要的|不是我问的|我问的是|我说的是|我是说"
    r"|重新回答|太长了|太啰嗦|啰嗦|废话|敷衍|不是这样|还是不对|没回答|不靠谱|垃圾"
    r"|\b(?:wrong|incorrect|inaccurate|nonsense|rubbish|garbage|useless|irrelevant)\b"
    r"|not what i (?:asked|wanted|meant|said)|that'?s not (?:it|right|true|correct|what)"
    r"|you (?:didn'?t|did not|don'?t|do not) (?:answer|understand|get it|listen|read)"
    r"|(?:doesn'?t|does not|didn'?t|did not) (?:work|help|make sense)|makes no sense|off[- ]topic"
    r"|are you (?:even|kidding|serious)|too (?:long|verbose|wordy)|i (?:already )?(?:said|told you|asked)\b"
    r"|stop (?:repeating|rambling)|answer the question|read my question|that'?s made up"
    r"|not (?:helpful|useful)",
    re.IGNORECASE,
)
_PRAISE = re.compile(
    r"谢谢|感谢|多谢|太好了|太棒了|真棒|很棒|厉害|不错|没错|错不了|完美|很有用|太有用|很有帮助|帮助很大|明白了|懂了"
    r"|学到了|👍"
    r"|\b(?:thanks?|thank you|thx|great|perfect|awesome|excellent|brilliant|helpful|exactly|not bad)\b"
    r"|that'?s (?:right|correct|it)|got it|makes sense|love it|nothing wrong",
    re.IGNORECASE,
)
# a whole (short) message made only of these words is a dismissal
_DISMISSALS = re.compile(
    r"(?:哦|噢|喔|嗯|额|呃|唉|哎|算了|行吧|好吧|罢了|好|好的|行|随便|无语|呵呵|切|哈|ok|okay|k|fine|whatever"
    r"|nevermind|never ?mind|forget it|meh|sure|yeah|right|nvm)+",
    re.IGNORECASE,
)
# consent to an offer or a question of the assistant
_CONSENT = re.compile(
    r"(?:好|好的|好啊|好呀|可以|行|嗯|是|是的|对|要|需要|继续|麻烦了|请"
    r"|ok|okay|k|yes|yep|yeah|sure|please|go ?ahead|continue)+",
    re.IGNORECASE,
)
_QUESTION_END = re.compile(r"(?:[?？]|吗|呢|好不好|要不要|是否需要)[\s。！!~～…)）\"”'’]*$")
_INTERRUPTION_MARKERS = re.compile(
    r"已停止生成|停止生成|回答已中断|已中断|用户已取消|内容无法显示|暂时无法显示|已被屏蔽|\[已停止\]|\[stopped\]|\[interrupted\]"
    r"|generation stopped|response was interrupted|content (?:was )?(?:removed|filtered|blocked)",
    re.IGNORECASE,
)


def normalise(text: str) -> str:
    """Lower-cased text without whitespace or punctuation, for comparisons."""
    return _NON_WORD.sub("", text.lower())


def _grams(text: str) -> frozenset[tuple[str, ...]]:
    tokens = _TOKENS.findall(text.lower())
    if len(tokens) < 2:
        return frozenset((t,) for t in tokens)
    return frozenset(zip(tokens, tokens[1:], strict=False))


def similarity(a: str, b: str) -> float:
    """Dice coefficient of the token-bigram sets of two texts (0 = disjoint, 1 = same)."""
    x, y = _grams(a), _grams(b)
    if not x or not y:
        return 0.0
    if x == y:
        return 1.0
    return 2.0 * len(x & y) / (len(x) + len(y))


def is_complaint(text: str, max_chars: int = SignalConfig.complaint_max_chars) -> bool:
    """A short message that finds fault with the reply; praise phrases are removed first."""
    if len(text.strip()) > max_chars:
        return False
    return _COMPLAINTS.search(_NOT_COMPLAINTS.sub(" ", text)) is not None


def is_praise(text: str) -> bool:
    return _PRAISE.search(text) is not None


def asks_question(reply: str) -> bool:
    """Whether the reply ends by asking the user something (an offer or a question)."""
    tail = reply.strip()[-80:]
    return _QUESTION_END.search(tail) is not None


def is_dismissal(text: str, reply: str, max_chars: int = SignalConfig.dismiss_max_chars) -> bool:
    """A short brush-off (哦 / 算了 / whatever); 好 / ok answering the reply's question is consent."""
    words = normalise(text)
    if not words or len(text.strip()) > max_chars or not _DISMISSALS.fullmatch(words):
        return False
    return not (asks_question(reply) and _CONSENT.fullmatch(words))


def is_interrupted(text: str, max_chars: int = SignalConfig.interrupted_max_chars) -> bool:
    """A reply cut short (stop / moderation marker, or almost empty): flagged, not a failure."""
    stripped = text.strip()
    return len(stripped) <= max_chars or (
        len(stripped) < 200 and _INTERRUPTION_MARKERS.search(stripped) is not None
    )


# ---------------------------------------------------------------- per-turn reactions


@dataclass(frozen=True)
class Reaction:
    turn: int  # position of the assistant turn
    reaction: str
    reply_to: int | None  # the user turn the reply answered
    next_user: int | None  # the user turn the reaction was read from
    similarity: float | None = None  # of next_user to reply_to
    praise: bool = False
    interrupted: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "reaction": self.reaction,
            "reply_to": self.reply_to,
            "next_user": self.next_user,
            "similarity": self.similarity,
            "praise": self.praise,
            "interrupted": self.interrupted,
        }


def _gap(reply: LogTurn, follow: LogTurn) -> float | None:
    if reply.time is None or follow.time is None:
        return None
    return follow.time - reply.time


def react(
    reply: LogTurn, follow: LogTurn, query: LogTurn | None, config: SignalConfig
) -> tuple[str, float | None, bool]:
    """Reaction, similarity to the previous query and praise flag, by the first matching rule."""
    text = follow.text
    if is_complaint(text, config.complaint_max_chars):
        return "complain", None, False
    if is_praise(text):
        return "satisfied", None, True
    gap = _gap(reply, follow)
    chars = len(reply.text.strip())
    if (
        gap is not None
        and chars > config.skip_min_reply_chars
        and 0 <= gap < config.skip_max_gap_seconds
        and gap / chars < config.skip_seconds_per_char
    ):
        return "skip_read", None, False
    if asks_question(reply.text) and _CONSENT.fullmatch(normalise(text)):
        return "satisfied", None, False  # consent to the assistant's offer or question
    if is_dismissal(text, reply.text, config.dismiss_max_chars):
        return "short_dismiss", None, False
    if query is None:
        return "satisfied", None, False
    score = similarity(text, query.text)
    if score > config.repeat_similarity:
        return "repeat", score, False
    if score > config.rephrase_similarity:
        return "rephrase", score, False
    if (
        score < config.abandon_similarity
        and len(normalise(text)) >= config.abandon_min_chars
        and len(normalise(query.text)) >= config.abandon_min_chars
    ):
        return "abandon", score, False
    return "satisfied", score, False


def turn_reactions(conversation: Conversation, config: SignalConfig = SignalConfig()) -> list[Reaction]:
    """The reaction to every assistant turn of a conversation, in order."""
    turns = conversation.turns
    reactions: list[Reaction] = []
    last_user: int | None = None
    for position, turn in enumerate(turns):
        if turn.role == "user":
            last_user = position
            continue
        if turn.role != "assistant":
            continue
        follow = next((j for j in range(position + 1, len(turns)) if turns[j].role == "user"), None)
        interrupted = is_interrupted(turn.text, config.interrupted_max_chars)
        if follow is None:
            reactions.append(Reaction(position, "no_followup", last_user, None, interrupted=interrupted))
            continue
        query = turns[last_user] if last_user is not None else None
        name, score, praise = react(turn, turns[follow], query, config)
        rounded = None if score is None else round(score, 3)
        reactions.append(Reaction(position, name, last_user, follow, rounded, praise, interrupted))
    return reactions


# ---------------------------------------------------------------- recovery chains


def _attempt_class(reaction: Reaction, feedback: str | None) -> str:
    if feedback == LIKED or reaction.praise:
        return "positive"
    if feedback == DISLIKED or reaction.reaction in RETRY_REACTIONS or reaction.reaction == "skip_read":
        return "negative"
    if reaction.reaction in ("short_dismiss", "abandon"):
        return "leave"
    if reaction.reaction == "no_followup":
        return "silent"
    return "positive"  # satisfied: the user carried on normally


def recovery_outcome(classes: list[str]) -> str:
    """Outcome of the assistant's attempts after a failure, from each attempt's class.

    recovered: a positive sign and no failure after it; partial_recovery: a positive sign
    followed by a new failure, or a single attempt the user left without any sign;
    user_gave_up: the user left after a failed attempt; failed_recovery: every attempt
    failed again; no_recovery: no attempt in the window.
    """
    if not classes:
        return "no_recovery"
    if "positive" in classes:
        after = classes[classes.index("positive") + 1 :]
        return "partial_recovery" if any(c in ("negative", "leave") for c in after) else "recovered"
    if classes == ["silent"]:
        return "partial_recovery"
    if classes[-1] in ("leave", "silent"):
        return "user_gave_up"
    return "failed_recovery"


def recovery_chains(
    conversation: Conversation, reactions: list[Reaction], config: SignalConfig = SignalConfig()
) -> list[dict[str, Any]]:
    """For each failure the user pushed back on, what the next turns made of it."""
    by_turn = {r.turn: r for r in reactions}
    chains = []
    for reaction in reactions:
        if reaction.reaction not in RETRY_REACTIONS:
            continue
        window = range(
            reaction.turn + 1, min(reaction.turn + 1 + config.recovery_window, len(conversation.turns))
        )
        attempts = [p for p in window if p in by_turn]
        classes = [_attempt_class(by_turn[p], conversation.turns[p].feedback) for p in attempts]
        chains.append(
            {"failed_turn": reaction.turn, "attempts": attempts, "outcome": recovery_outcome(classes)}
        )
    return chains


# ---------------------------------------------------------------- per conversation


def conversation_signals(conversation: Conversation, config: SignalConfig = SignalConfig()) -> dict[str, Any]:
    """Everything later stages need to know about the users' reactions in one conversation."""
    reactions = turn_reactions(conversation, config)
    liked = [i for i, t in enumerate(conversation.turns) if t.feedback == LIKED]
    disliked = [i for i, t in enumerate(conversation.turns) if t.feedback == DISLIKED]
    tracks = (["failure"] if disliked else []) + (["success"] if liked else [])
    return {
        "tracks": tracks,
        "liked": liked,
        "disliked": disliked,
        "reactions": [r.as_dict() for r in reactions],
        "recoveries": recovery_chains(conversation, reactions, config),
    }


def reaction_of(signals: dict[str, Any], turn: int) -> dict[str, Any] | None:
    """The stored reaction to assistant turn `turn`, if any."""
    return next((r for r in signals["reactions"] if r["turn"] == turn), None)
