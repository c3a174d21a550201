"""What a table's parts have to say on its status line, sent up to the table screen."""

from __future__ import annotations

from textual.message import Message


class Said(Message):
    """A sentence for the table's status line: `text`, or the reason the table refused an
    action or claim of ours (`refusal`), in the engine's words (seats as `{0}`...)."""

    def __init__(self, text: str, refusal: bool = False) -> None:
        super().__init__()
        self.text = text
        self.refusal = refusal
