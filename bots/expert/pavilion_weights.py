"""The weights of `bots/expert/pavilion_value.py` by players, then by rounds left (1, 2,
3, 4, 5), in the order of `pavilion_value.NAMES`. Written by
`python -m bots.expert.fit --ruleset pavilion --players N`, which replaces table N:
2 players: 400 games of mcts:iterations=100.
4 players: 240 games of mcts:iterations=100.
"""

NOTES: dict[int, str] = {
    2: "400 games of mcts:iterations=100",
    4: "240 games of mcts:iterations=100",
}

WEIGHTS: dict[int, tuple[tuple[float, ...], ...]] = {
    2: (
        (  # 2 players, 1 rounds left
            14.5892,  # bias
            0.388,  # stars_5
            -2.0554,  # stars_4
            -2.401,  # stars_3
            0.6699,  # stars_2
            1.4224,  # stars_1
            4.1074,  # numbers_6
            1.6868,  # numbers_5
            1.4331,  # numbers_4
            0.9786,  # numbers_3
            -0.3228,  # empty
            0.036,  # run_points
            0.4591,  # near_tiles
            1.7626,  # hand_wild
            1.6451,  # hand_room
            0.0,  # hand_dead
            3.0757,  # starts
        ),
        (  # 2 players, 2 rounds left
            46.2624,  # bias
            -0.1965,  # stars_5
            0.0683,  # stars_4
            -2.2167,  # stars_3
            -0.6276,  # stars_2
            0.7285,  # stars_1
            7.3045,  # numbers_6
            3.9427,  # numbers_5
            -0.2374,  # numbers_4
            -0.3952,  # numbers_3
            -0.1689,  # empty
            -0.3259,  # run_points
            0.6826,  # near_tiles
            2.6839,  # hand_wild
            1.5838,  # hand_room
            0.0,  # hand_dead
            2.2833,  # starts
        ),
        (  # 2 players, 3 rounds left
            57.2388,  # bias
            0.0832,  # stars_5
            1.5119,  # stars_4
            0.1167,  # stars_3
            -0.2667,  # stars_2
            0.501,  # stars_1
            5.9216,  # numbers_6
            4.4721,  # numbers_5
            2.38,  # numbers_4
            0.6206,  # numbers_3
            -0.2794,  # empty
            -0.2895,  # run_points
            0.5843,  # near_tiles
            2.1141,  # hand_wild
            1.9479,  # hand_room
            0.0,  # hand_dead
            1.4129,  # starts
        ),
        (  # 2 players, 4 rounds left
            43.5174,  # bias
            0.0,  # stars_5
            4.3754,  # stars_4
            1.6911,  # stars_3
            0.182,  # stars_2
            -0.4264,  # stars_1
            4.4608,  # numbers_6
            2.4035,  # numbers_5
            3.1275,  # numbers_4
            0.731,  # numbers_3
            -0.2188,  # empty
            0.2188,  # run_points
            0.4698,  # near_tiles
            2.1941,  # hand_wild
            1.9274,  # hand_room
            0.0,  # hand_dead
            3.2922,  # starts
        ),
        (  # 2 players, 5 rounds left
            56.911,  # bias
            0.0,  # stars_5
            1.1559,  # stars_4
            1.6512,  # stars_3
            0.8789,  # stars_2
            0.1974,  # stars_1
            0.2829,  # numbers_6
            -0.1517,  # numbers_5
            0.4832,  # numbers_4
            1.4121,  # numbers_3
            -0.3889,  # empty
            0.3889,  # run_points
            0.0808,  # near_tiles
            2.2696,  # hand_wild
            2.0173,  # hand_room
            0.0,  # hand_dead
            3.3694,  # starts
        ),
    ),
    4: (
        (  # 4 players, 1 rounds left
            -1.2309,  # bias
            -0.0968,  # stars_5
            -1.3891,  # stars_4
            -1.351,  # stars_3
            0.352,  # stars_2
            1.4949,  # stars_1
            5.2339,  # numbers_6
            1.9699,  # numbers_5
            -0.5149,  # numbers_4
            0.1481,  # numbers_3
            -0.1412,  # empty
            0.1054,  # run_points
            0.4839,  # near_tiles
            2.9168,  # hand_wild
            0.7848,  # hand_room
            0.0,  # hand_dead
            2.9241,  # starts
        ),
        (  # 4 players, 2 rounds left
            5.5319,  # bias
            0.322,  # stars_5
            -1.2261,  # stars_4
            -1.4838,  # stars_3
            -0.1572,  # stars_2
            0.589,  # stars_1
            6.1021,  # numbers_6
            3.8873,  # numbers_5
            1.3226,  # numbers_4
            -0.7957,  # numbers_3
            0.1452,  # empty
            0.1811,  # run_points
            0.3912,  # near_tiles
            1.0588,  # hand_wild
            1.156,  # hand_room
            0.0,  # hand_dead
            2.4346,  # starts
        ),
        (  # 4 players, 3 rounds left
            12.6881,  # bias
            0.2011,  # stars_5
            -0.5431,  # stars_4
            -0.5381,  # stars_3
            -1.2626,  # stars_2
            0.071,  # stars_1
            7.267,  # numbers_6
            3.2007,  # numbers_5
            -0.7931,  # numbers_4
            0.3705,  # numbers_3
            0.0494,  # empty
            0.3589,  # run_points
            0.3993,  # near_tiles
            1.11,  # hand_wild
            1.6545,  # hand_room
            0.0,  # hand_dead
            1.6055,  # starts
        ),
        (  # 4 players, 4 rounds left
            41.2217,  # bias
            0.0,  # stars_5
            -0.2201,  # stars_4
            -0.7687,  # stars_3
            -0.9286,  # stars_2
            -0.8354,  # stars_1
            4.136,  # numbers_6
            1.9519,  # numbers_5
            1.3897,  # numbers_4
            0.3163,  # numbers_3
            -0.3566,  # empty
            0.3566,  # run_points
            0.5324,  # near_tiles
            1.2561,  # hand_wild
            2.066,  # hand_room
            0.0,  # hand_dead
            1.3363,  # starts
        ),
        (  # 4 players, 5 rounds left
            43.7439,  # bias
            0.0,  # stars_5
            0.2517,  # stars_4
            0.0056,  # stars_3
            -1.0131,  # stars_2
            -1.0084,  # stars_1
            0.4095,  # numbers_6
            -0.0838,  # numbers_5
            0.5503,  # numbers_4
            -1.7254,  # numbers_3
            -1.3597,  # empty
            1.3597,  # run_points
            -1.172,  # near_tiles
            3.537,  # hand_wild
            1.7813,  # hand_room
            0.0,  # hand_dead
            0.9301,  # starts
        ),
    ),
}
