"""The weights of `bots/expert/pavilion_value.py`, by rounds left (1, 2, 3, 4, 5), in the order
of `pavilion_value.NAMES`. Written by `python -m bots.expert.fit --ruleset pavilion`:
400 games of mcts:iterations=100, 2 players.
"""

WEIGHTS: tuple[tuple[float, ...], ...] = (
    (  # 1 rounds left
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
    (  # 2 rounds left
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
    (  # 3 rounds left
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
    (  # 4 rounds left
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
    (  # 5 rounds left
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
)
