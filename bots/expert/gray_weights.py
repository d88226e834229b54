"""The weights of `bots/expert/learned.py`, by rounds left (1, 2, 3, 4+), in the order
of `learned.NAMES`. Written by `python -m bots.expert.fit --ruleset azul-gray`:
600 games of mcts:iterations=100, 2 players.
"""

WEIGHTS: tuple[tuple[float, ...], ...] = (
    (  # 1 rounds left
        1.6073,  # bias
        -0.5031,  # rows_4
        1.0466,  # rows_3
        0.6661,  # rows_2
        0.9102,  # rows_1
        -5.11,  # columns_4
        -4.5497,  # columns_3
        -3.0434,  # columns_2
        -1.2921,  # columns_1
        -4.6773,  # colours_4
        -3.5933,  # colours_3
        -1.7189,  # colours_2
        -0.4858,  # colours_1
        1.0744,  # line_points
        0.1252,  # line_missing
        -3.8417,  # lines_started
        3.3698,  # wall_tiles
        1.3333,  # starts
    ),
    (  # 2 rounds left
        23.1912,  # bias
        0.0,  # rows_4
        0.3735,  # rows_3
        0.2257,  # rows_2
        0.1078,  # rows_1
        -4.5851,  # columns_4
        -4.4472,  # columns_3
        -3.8224,  # columns_2
        -1.6943,  # columns_1
        0.7109,  # colours_4
        -0.3601,  # colours_3
        -0.3015,  # colours_2
        0.5197,  # colours_1
        1.8549,  # line_points
        -0.0706,  # line_missing
        -4.8846,  # lines_started
        1.6798,  # wall_tiles
        -0.0076,  # starts
    ),
    (  # 3 rounds left
        25.6136,  # bias
        0.0,  # rows_4
        0.0,  # rows_3
        0.8673,  # rows_2
        0.1291,  # rows_1
        -3.3376,  # columns_4
        -3.238,  # columns_3
        -3.4206,  # columns_2
        -1.2816,  # columns_1
        0.1324,  # colours_4
        0.6131,  # colours_3
        -0.3489,  # colours_2
        0.1926,  # colours_1
        1.5476,  # line_points
        -0.6495,  # line_missing
        -1.7829,  # lines_started
        1.8637,  # wall_tiles
        1.1479,  # starts
    ),
    (  # 4+ rounds left
        41.2195,  # bias
        0.0,  # rows_4
        0.0,  # rows_3
        0.0,  # rows_2
        0.7708,  # rows_1
        1.5591,  # columns_4
        0.1139,  # columns_3
        -1.2541,  # columns_2
        -3.2991,  # columns_1
        0.0,  # colours_4
        1.4297,  # colours_3
        -0.8099,  # colours_2
        -1.8987,  # colours_1
        0.7373,  # line_points
        -0.2746,  # line_missing
        -1.8218,  # lines_started
        0.7708,  # wall_tiles
        -0.096,  # starts
    ),
)
