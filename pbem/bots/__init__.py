"""Computer players: a heuristic Hearts bot for computer seats and for players who time out."""

from pbem.bots.heuristic import choose_event, choose_pass, choose_play

__all__ = ["choose_event", "choose_pass", "choose_play"]
