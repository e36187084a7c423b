"""Helpers for the line-game tests: positions are reached by applying actions, as on the table."""
from engine.journal_replay import records_of
from portable import table_ruleset


def start(name, hands, **params):
    """A state of preset ``name`` right after dealing ``hands`` (tile texts, ``"?"`` unseen).

    The deal size is the length of the first hand; ``params`` override the preset.
    """
    params["deal"] = {str(len(hands)): len(hands[0])}
    state = table_ruleset(name, **params).new_state(len(hands))
    for seat in range(len(hands)):
        for text in hands[seat]:
            state.play("D%d:%s" % (seat, text))
    return state


def run(state, texts):
    """Play each space-separated action text (checked); return all the ScoreEvents."""
    events = []
    for text in texts.split():
        events.extend(state.play(text))
    return events


def legal(state):
    """The legal actions as sorted canonical texts."""
    return sorted(state.action_str(a) for a in state.legal_actions())


def snapshot(state):
    """What must not change when an action is rejected."""
    return (records_of(state), list(state.scores), len(state.score_events), state.current_player())
