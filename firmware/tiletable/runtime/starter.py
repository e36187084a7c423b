"""Starting a game on the table: from the menu or the link (``start``, in steps), or from the
journal after a restart (``resume``).

A start finds the ruleset (an installed one first, else a preset), imports its family's engine
and table controller, makes the first state and checks that the game leaves room to be played
(``PLAY_HEADROOM``), then opens its journal session and hands it to the table. Where its code
goes in the heap is the heap policy's concern (tiletable/heap.py): it makes way before the
family's code is imported (on a stock build: a game of another family set aside, other families
unloaded), and it says whether a restart would give a game that does not fit more room.
"""
from tiletable import families
from tiletable.drivers.clock import ticks_add
from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import find_ruleset
from tiletable.heap import free_bytes, note_heap_ran_out
from tiletable.profiles import profile_for
from tiletable.proto.messages import E_JOURNAL_FULL
from tiletable.runtime.session import Session

# A game is started only if, with its code and state in the heap, PLAY_HEADROOM bytes are
# still free, PLAY_BLOCK of them in one piece (its session file's buffer is 1.2 KB on the 64-bit
# unix port): a game that would run out of heap as it is played is better refused (or
# restarted into) at the start than lost to a MemoryError at the table.
PLAY_HEADROOM = 24 * 1024
PLAY_BLOCK = 4 * 1024
BOOT_SETTLE_MS = 1500  # after a resume, tiles already lying on the pads are not new plays
FIRMWARE = "0.4.0"  # in each session's header


class GameStarter:
    """Starts the games of ``table`` (runtime/table.py) with heap policy ``policy``."""

    def __init__(self, table, policy):
        self.table = table
        self.policy = policy

    def find_ruleset(self, name):
        """An installed ruleset of that name first (the PC may have tuned it), else a preset."""
        rulestore = self.table.rulestore
        if rulestore is not None:
            try:
                return rulestore.get(name)
            except KeyError:
                pass
        return self.policy.releasing(find_ruleset, name)

    def start(self, name, player_names, now_ms):
        """Start a match of ruleset ``name``; returns the journal session's first sequence number.

        A failure starts nothing and leaves the game in progress as it was, except when the
        heap cannot hold that game and the new one at once: the game in progress is then
        abandoned first (as starting the new one would have done) and the start tried again
        (or, when the new session's file finds no room either, refused with NoRoom). A game the
        heap policy set aside to make way (``set_aside``) is abandoned if the new one then finds
        no room (the app may restart into that), rebuilt from the journal if the start fails
        for its input.

        :raises RulesetError: unknown game or a player count the ruleset does not allow.
        :raises JournalFull: the journal has no room for another game until the PC pulls it;
            the game in progress goes on (a ValueError).
        :raises NoRoom: the heap cannot hold the game (a ValueError).
        :raises ValueError: no tray profile for it.
        """
        for header_seq in self.start_steps(name, player_names, now_ms):
            if header_seq is not None:
                return header_seq

    def start_steps(self, name, player_names, now_ms):
        """``start()`` in steps (the link's game start: the table's loop runs in between, and no
        step holds it for long): yields None while there is more to do, then the session's
        first sequence number. Nothing of the game in progress changes before the last step,
        but for what the heap policy does to make way (the buttons wait meanwhile) or a game
        abandoned for room (see ``start``)."""
        table = self.table
        if not table.journal.room_for_session():  # said on the table too, whoever asked
            table.report(0, E_JOURNAL_FULL, JOURNAL_FULL_MESSAGE, now_ms, "FULL")
            raise JournalFull(JOURNAL_FULL_MESSAGE)
        players = len(player_names)
        try:
            for prepared in self._prepare(name, players):
                if prepared is None:
                    yield None
        except NoRoom:
            if table.session is None:
                if table.aside is not None:  # it was in the way of the new game: it ends
                    table.end_session("abandoned")
                    table.open_menu()
                raise
            table.end_session("abandoned")
            table.session = None
            table.controller = None
            for prepared in self._prepare(name, players):
                pass
        except (RulesetError, ValueError, KeyError):
            self.take_up(now_ms)
            raise
        ruleset, state, profile, controller = prepared
        if table.journal.in_session:
            table.end_session("abandoned")
        try:
            session = Session.start(table.journal, ruleset, state, player_names, FIRMWARE, table.now_s(), now_ms)
        except MemoryError:  # no room for the session file: the journal opened nothing
            ruleset = state = controller = None
            self._back_to_menu(name)
        ruleset = state = None  # the session holds them: a failure below lets them go with it
        try:
            table.begin(session, profile, controller)
            table.redraw()
        except MemoryError:  # the controller, the LEDs or the first view found no room
            session = controller = None
            table.journal.end_session({"reason": "no room"})
            self._back_to_menu(name)
        yield session.header_seq

    def _back_to_menu(self, name):
        """After a start found no room: no game, the menu, the families' modules let go."""
        table = self.table
        if table.session is not None:  # the game in progress was ended above
            table.session = None
            table.controller = None
            table.open_menu()
        self.policy.make_way(self, None)
        raise self._no_memory(name)

    def _prepare(self, name, players):
        """Everything a start needs before its session begins, in steps of at most about 35 ms
        of an RP2040's time (the first start of a family imports its code): yields None between
        them, then (ruleset, state, profile, controller). A step that leaves no ``PLAY_BLOCK``
        free ends the start (NoRoom) instead of yielding: the table's other services run
        between the steps, and one that then ran out of heap restarted the board, the start's
        request unanswered (the unix port, 294-298 KB heaps)."""
        policy = self.policy
        loaded = None
        try:
            loaded = policy.starting()
            ruleset = self.find_ruleset(name)
            yield None
            policy.make_way(self, ruleset.family)
            controller = policy.load(controller_for, ruleset.family)
            policy.check_room(0, PLAY_BLOCK)  # the loop's other services run between the steps
            yield None
            state = policy.load(ruleset.new_state, players)
            policy.check_room(0, PLAY_BLOCK)
            yield None
            profile = policy.releasing(profile_for, ruleset.name, players, ruleset.family)
            policy.check_room(PLAY_HEADROOM, PLAY_BLOCK)
            policy.note_family(ruleset.family, loaded)
        except MemoryError:
            raise self._no_memory(name, loaded)
        except (RulesetError, ValueError, KeyError):
            policy.release(loaded)  # the game set aside comes back into the room it had
            raise
        yield ruleset, state, profile, controller

    def set_aside(self):
        """Let the game in progress go from the heap (the heap policy's ``make_way``): its
        session stays open in the journal (``take_up`` rebuilds it if the start fails for its
        input); its end record's result is kept (``Table.aside``)."""
        from tiletable.runtime.table import MODE_MENU  # (it imports this module)

        table = self.table
        table.aside = table.session.result("abandoned")
        table.session = None
        table.controller = None
        table.mode = MODE_MENU

    def take_up(self, now_ms):
        """Rebuild the game ``set_aside`` let go from its journal session, after a start that
        failed for its input; one that cannot be rebuilt is ended as it was set aside."""
        table = self.table
        result = table.aside
        if result is None:
            return
        table.aside = None
        try:
            if self.resume(now_ms):
                return
        except (RulesetError, ValueError, KeyError):  # NoRoom too
            pass
        table.journal.end_session(result)
        table.open_menu()

    def resume(self, now_ms):
        """Rebuild the match in progress from the journal (header, actions, undo amendments),
        replaying every action through the engine's checked path; True when it resumed."""
        table = self.table
        policy = self.policy
        loaded = policy.starting()
        from tiletable.record_read import InEffect, visit  # only to resume: not in the boot's heap

        records = InEffect()
        visit(table.journal.session_records(), records)
        policy.release(loaded)
        header = records.start
        if header is None:
            return False
        try:
            ruleset = self.find_ruleset(header["ruleset"])
            policy.make_way(self, ruleset.family)
            controller = controller_for(ruleset.family)
            session = Session.replay(table.journal, ruleset, records, now_ms)
            profile = policy.releasing(profile_for, ruleset.name, session.state.players, ruleset.family)
        except MemoryError:
            raise self._no_memory(header["ruleset"], loaded)
        policy.note_family(ruleset.family, loaded)
        table.begin(session, profile, controller)
        table.journal.resume()
        table.quiet_until = ticks_add(now_ms, BOOT_SETTLE_MS)
        table.redraw()
        return True

    def _no_memory(self, game, loaded=None):
        """NoRoom for ``game``, after the heap policy let go what the attempt imported (not in
        ``loaded``, if given): a failed start leaves the heap as it found it."""
        note_heap_ran_out()
        free_bytes()  # the failed attempt's garbage goes first: what follows allocates
        self.policy.release(loaded)
        return NoRoom("not enough memory on this table for %s (%d bytes free)" % (game, free_bytes()))


def controller_for(family):
    """The table controller class of a family (the registry names it), imported only when a
    game of it starts (RAM).

    :raises ValueError: no controller for the family.
    """
    controller = families.FAMILIES.get(family)
    if controller is None:
        raise ValueError("no table controller for family %r" % family)
    return getattr(__import__(families.module(family, "play_"), None, None, [controller]), controller)


JOURNAL_FULL_MESSAGE = "the journal is full: pull it on the PC (tiletable pull) before a new game"


class JournalFull(ValueError):
    """No new game: the journal has no room for it until the PC pulls and acknowledges."""


class NoRoom(ValueError):
    """The heap cannot hold a game's code or state (a Pico running copied .mpy files keeps
    every imported module's bytecode in its heap): the table reports it and stays where it
    was, instead of crashing into a watchdog reset loop. When games were played since boot
    (the heap policy's ``restart_may_help``), the pieces their modules left in the heap may be what is
    in the way: the app then restarts the board into the game (``App.restart_into``)."""
