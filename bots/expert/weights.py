"""The weights of `bots/expert/learned.py`, by rounds left (1, 2, 3, 4+), in the order
of `learned.NAMES`. Written by `python -m bots.expert.fit`:
600 games of mcts:iterations=100, 2 players.
"""

WEIGHTS: tuple[tuple[float, ...], ...] = (
    (  # 1 rounds left
        -7.2708,  # bias
        -0.1034,  # rows_4
        0.9946,  # rows_3
        0.3692,  # rows_2
        0.2187,  # rows_1
        -5.053,  # columns_4
        -2.9869,  # columns_3
        -1.4753,  # columns_2
        -0.2131,  # columns_1
        -2.0398,  # colours_4
        -2.5399,  # colours_3
        -1.9262,  # colours_2
        -1.4186,  # colours_1
        1.3494,  # line_points
        0.1543,  # line_missing
        -3.6436,  # lines_started
        3.5273,  # wall_tiles
        2.5814,  # starts
    ),
    (  # 2 rounds left
        4.2334,  # bias
        0.0,  # rows_4
        0.5081,  # rows_3
        0.7941,  # rows_2
        -0.0417,  # rows_1
        -3.9181,  # columns_4
        -2.5401,  # columns_3
        -1.7394,  # columns_2
        -0.1967,  # columns_1
        0.5245,  # colours_4
        0.5577,  # colours_3
        -0.2802,  # colours_2
        -0.1398,  # colours_1
        1.6934,  # line_points
        -0.2933,  # line_missing
        -4.1146,  # lines_started
        3.0708,  # wall_tiles
        0.3162,  # starts
    ),
    (  # 3 rounds left
        9.1612,  # bias
        0.0,  # rows_4
        0.0,  # rows_3
        1.2459,  # rows_2
        0.5966,  # rows_1
        -4.3882,  # columns_4
        -3.3649,  # columns_3
        -2.1781,  # columns_2
        -0.664,  # columns_1
        -2.9299,  # colours_4
        3.1999,  # colours_3
        2.2428,  # colours_2
        0.7225,  # colours_1
        1.7819,  # line_points
        -0.9157,  # line_missing
        -2.3781,  # lines_started
        3.0883,  # wall_tiles
        1.635,  # starts
    ),
    (  # 4+ rounds left
        34.5019,  # bias
        0.0,  # rows_4
        0.0,  # rows_3
        0.0,  # rows_2
        0.7816,  # rows_1
        1.0516,  # columns_4
        -0.4029,  # columns_3
        -0.9251,  # columns_2
        -0.3658,  # columns_1
        0.0,  # colours_4
        0.5007,  # colours_3
        0.1181,  # colours_2
        -0.9568,  # colours_1
        2.5241,  # line_points
        -0.4856,  # line_missing
        -3.697,  # lines_started
        0.7816,  # wall_tiles
        0.6744,  # starts
    ),
)
