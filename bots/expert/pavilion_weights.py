"""The weights of `bots/expert/pavilion_value.py` by players, then by rounds left (1, 2,
3, 4, 5), in the order of `pavilion_value.NAMES`. Written by
`python -m bots.expert.fit --ruleset pavilion --players N`, which replaces table N:
2 players: 400 games of mcts:iterations=100.
4 players: 720 games of mcts:iterations=100.
"""

NOTES: dict[int, str] = {
    2: "400 games of mcts:iterations=100",
    4: "720 games of mcts:iterations=100",
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
            -5.4331,  # bias
            -1.1869,  # stars_5
            -2.3707,  # stars_4
            -1.8349,  # stars_3
            0.3111,  # stars_2
            1.6882,  # stars_1
            5.6066,  # numbers_6
            1.5953,  # numbers_5
            -0.4744,  # numbers_4
            0.0482,  # numbers_3
            -0.2536,  # empty
            0.2896,  # run_points
            0.4311,  # near_tiles
            2.4748,  # hand_wild
            0.5435,  # hand_room
            0.0,  # hand_dead
            3.135,  # starts
        ),
        (  # 4 players, 2 rounds left
            -6.3354,  # bias
            -0.669,  # stars_5
            -1.3669,  # stars_4
            -1.3105,  # stars_3
            0.4459,  # stars_2
            0.7315,  # stars_1
            7.3281,  # numbers_6
            4.9525,  # numbers_5
            2.7668,  # numbers_4
            0.2015,  # numbers_3
            0.3043,  # empty
            0.2206,  # run_points
            0.587,  # near_tiles
            1.6705,  # hand_wild
            1.3853,  # hand_room
            0.0,  # hand_dead
            2.5965,  # starts
        ),
        (  # 4 players, 3 rounds left
            -46.2141,  # bias
            -0.6026,  # stars_5
            -0.429,  # stars_4
            -0.3563,  # stars_3
            -0.4864,  # stars_2
            0.4821,  # stars_1
            6.7832,  # numbers_6
            3.1352,  # numbers_5
            0.788,  # numbers_4
            0.7423,  # numbers_3
            1.0079,  # empty
            0.8726,  # run_points
            0.4503,  # near_tiles
            1.3644,  # hand_wild
            1.5358,  # hand_room
            0.0,  # hand_dead
            2.1733,  # starts
        ),
        (  # 4 players, 4 rounds left
            1.9779,  # bias
            -0.2067,  # stars_5
            -0.9549,  # stars_4
            -0.4025,  # stars_3
            -0.5942,  # stars_2
            -0.3414,  # stars_1
            5.4734,  # numbers_6
            2.6246,  # numbers_5
            2.2417,  # numbers_4
            0.156,  # numbers_3
            0.3257,  # empty
            0.6471,  # run_points
            0.4672,  # near_tiles
            0.7332,  # hand_wild
            1.837,  # hand_room
            0.0,  # hand_dead
            1.8381,  # starts
        ),
        (  # 4 players, 5 rounds left
            48.531,  # bias
            0.0,  # stars_5
            -0.7813,  # stars_4
            0.3984,  # stars_3
            -0.4015,  # stars_2
            -0.5746,  # stars_1
            0.2974,  # numbers_6
            -0.6575,  # numbers_5
            -1.2452,  # numbers_4
            -1.0469,  # numbers_3
            -0.8417,  # empty
            0.8417,  # run_points
            -0.8002,  # near_tiles
            1.4526,  # hand_wild
            1.429,  # hand_room
            0.0,  # hand_dead
            1.4404,  # starts
        ),
    ),
}
