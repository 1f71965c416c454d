"""The Initial Set of Nomic World: rules 101-115, word for word.

The text is the game's own (``rules/sources/nomic-initial-set.txt``, spelling
included); only the clause layout is normalised (one clause per line). Four of
these rules carry the bot's built-in settings (see :mod:`bot.games.nomic.moves`):
102 the turn order, 103 the phases of a turn, 109 the die and 112 the votes
needed. Amending or repealing them changes what the bot does.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.nomic.moves import Effect


@dataclass(frozen=True)
class InitialRule:
    """One rule of the Initial Set: its number, title and clauses (one a line)."""

    number: int
    title: str
    text: str


INITIAL_SET: tuple[InitialRule, ...] = (
    InitialRule(
        101,
        'The player agreement',
        '1. A player is a person who follows this rule.\n'
        '2. A player may only join before the game begins or at the beginning of a round.\n'
        '3. All players must always abide by all the rules that are in effect, in the order in which '
        'they were put in effect.\n'
        '4. The rules in the Initial Set are in effect whenever the game begins.\n'
        '5. The Initial Set consists of Rules 101-115.'
    ),
    InitialRule(
        102,
        'Definition: Rounds',
        '1. The game starts at the beginning of the first round.\n'
        '2. During a round, players take turns in alphabetical order.\n'
        '3. When all players have taken a turn, the round ends.'
    ),
    InitialRule(
        103,
        'Definition: Turns',
        '1. A turn is made up of multiple phases. Phases occur in order.\n'
        '2. The initial phases are the movement phase and the rule-change phase, in that order.\n'
        "3. During a player's turn, they are the 'current' player."
    ),
    InitialRule(
        104,
        'Definition: World',
        '1. The World holds all state.\n'
        '2. The initial state is the list of players and a world map of spaces.'
    ),
    InitialRule(
        105,
        'Definition: Space',
        '1. The world map is made up of spaces, located at integral (x, y) coordinates.\n'
        '2. The space (0, 0) is the origin.\n'
        "3. Each player starts out 'located at' the origin.\n"
        '4. The distance between two spaces is the sum of the difference of the x coordinates and the '
        'difference of the y coordinates.\n'
        "5. Two spaces are 'adjacent' if the total distance between them is 1."
    ),
    InitialRule(
        106,
        'Definition: Resource',
        '1. There are four resources: Wood, Metal, Water, and Food.\n'
        "2. Each space, with the exception of the origin, 'provides a resource'.\n"
        '3. At the beginning of the game, each space gives an unknown resource.\n'
        '4. When a player lands on space with an unknown resource, it becomes known, having an equal '
        'chance of being any of Wood, Metal, Water, and Food'
    ),
    InitialRule(
        107,
        'Defintion: Movement',
        "1. A 'movement' is a change of player location from her current space to a destination space.\n"
        '2. While in movement, the player is not located at any space.\n'
        '3. When the player ends movement, the player lands on the destination space, and becomes '
        'located at the destination space.'
    ),
    InitialRule(
        108,
        'Definition: Path',
        "1. A 'path' is an ordered list of spaces such that the next space is adjacent to the previous "
        'such that the total distance between the initial space and the final space is also the length '
        'of the path.'
    ),
    InitialRule(
        109,
        'Phase: Movement',
        "1. A d6 is rolled. The roll is known as the 'movement distance'\n"
        '2. The current player chooses a space a that is the movement distance away from her current space.\n'
        '3. The current player chooses a path from her current space to the destination space.\n'
        "4. The current player moves from her current space to the destination space 'passing through' "
        'each space in the path.'
    ),
    InitialRule(
        110,
        'Definition: Rule-Change',
        '1. A rule-change is following: the enactment, repeal, or amendment of a rule.'
    ),
    InitialRule(
        111,
        'Definition: Adopted Rule',
        '1. An adopted rule-change takes full effect at the beginning of the next turn from the moment '
        'of adoption.'
    ),
    InitialRule(
        112,
        'Phase: Rule-Change',
        '1. The current player proposes one rule-change and has it voted on in her/his turn.\n'
        '2. Each new rule proposed shall be given a number. The numbers shall begin with 201, '
        'incrementing by one.\n'
        '3. A rule-change is adopted if and only if the vote is unanimous among the players.\n'
        '4. Each player always has exactly one vote.'
    ),
    InitialRule(
        113,
        'Rule vs. Rule Conflict',
        '1. If two or more rules conflict with one another, then the rule with the lowest ordinal '
        'number takes precedence.'
    ),
    InitialRule(
        114,
        'Rule vs. Player Conflict',
        '1. If players disagree about the legality of a move or the interpretation or application of a '
        'rule,\n'
        '2. then the player preceding the one moving is to be the Judge and decide the question.\n'
        '3. Disagreement for the purposes of this rule may be created by the insistence of any player.\n'
        '4. This process is called invoking Judgment.\n'
        '5. A judgement is added to the rules, immediately adopted, and immediately placed into effect.'
    ),
    InitialRule(
        115,
        'Aliases',
        '• Positive Y is North\n'
        '• Negative Y is South\n'
        '• Positive X is East\n'
        '• Negative X is West\n'
        '• A space is also both a location and a node.'
    ),
)

INITIAL_EFFECTS: dict[int, Effect] = {
    102: Effect("order", "alphabetical"),
    103: Effect("phases", "both"),
    109: Effect("die", 6),
    112: Effect("votes", "unanimous"),
}
"""The settings the Initial Set gives the bot, by the rule that states each one."""
