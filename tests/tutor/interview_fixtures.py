"""A tiny bank for the interview tests, parsed by the real quizbank models (contract shape)."""

from __future__ import annotations

from quizbank import parse_bank

_SOURCE = {"text": "gradient-propagation", "section": "3.2"}


def _interview(qid: str, topic: str, followups: list[str]) -> dict:
    return {
        "id": qid, "type": "interview", "topic": topic, "difficulty": "medium", "source": _SOURCE,
        "prompt": {"zh": "为什么残差连接有助于梯度传播？", "en": "Why do residual connections help gradients flow?"},
        "solution": {"zh": "见参考答案。", "en": "See the model answer."},
        "model_answer": {"zh": "雅可比是 I + J，恒等项让梯度直达。", "en": "The Jacobian is I + J; the identity term carries the gradient."},
        "rubric": [
            {"id": "identity-term", "kind": "required", "text": {"zh": "恒等项", "en": "the identity term"},
             "keywords": {"zh": ["恒等", "单位矩阵"], "en": ["identity", "I + J"]}},
            {"id": "multiplicative", "kind": "required", "text": {"zh": "乘积不再连乘衰减", "en": "no long product of small factors"},
             "keywords": {"zh": ["连乘", "乘积"], "en": ["product", "multiply"]}},
            {"id": "ensemble", "kind": "bonus", "text": {"zh": "集成视角", "en": "ensemble view"},
             "keywords": {"zh": ["集成"], "en": ["ensemble"]}},
            {"id": "never-vanish", "kind": "misconception", "text": {"zh": "梯度永不消失", "en": "gradients can never vanish"},
             "keywords": {"zh": ["永不消失"], "en": ["never vanish"]}},
        ],
        "followups": followups,
    }


def _choice(qid: str) -> dict:
    return {
        "id": qid, "type": "choice", "topic": "gradient-flow", "difficulty": "easy", "source": _SOURCE,
        "prompt": {"zh": "选一个", "en": "Pick one"}, "solution": {"zh": "a", "en": "a"},
        "options": [
            {"id": "a", "text": {"zh": "对", "en": "right"}, "correct": True},
            {"id": "b", "text": {"zh": "错", "en": "wrong"}, "correct": False,
             "feedback": {"zh": "不对", "en": "not so"}},
        ],
        "tests": [{"answer": ["a"], "verdict": "correct"}],
    }


def small_bank():
    return parse_bank({"questions": [
        _interview("iv-grad-flow", "gradient-flow", ["mc-follow"]),
        _interview("iv-identity", "identity-mapping", []),
        _interview("iv-grad-flow-2", "gradient-flow", []),
        _choice("mc-follow"),
    ]})
