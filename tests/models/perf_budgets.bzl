"""Performance budgets of tests/models' aot_perf_tests: board -> model prefix -> budget.

Today's figures + 2 %: instructions of the first inference; its run stack and the planned workspace
in bytes, rounded up to 8 B. Written by tools/update_perf_budgets.py from the tests' logs; do not raise one
without saying why.
"""

PERF_BUDGETS = {
    "microbit": {
        "hello_float": {"instructions": 49746, "stack": 160, "workspace": 136},
        "hello_int8": {"instructions": 5262, "stack": 128, "workspace": 40},
        "lstm": {"instructions": 1675540, "stack": 536, "workspace": 1456},
        "micro_speech": {"instructions": 3155174, "stack": 400, "workspace": 4104},
        "svdf": {"instructions": 272668, "stack": 608, "workspace": 360},
    },
    "mps2-an385": {
        "ad01": {"instructions": 344709, "stack": 152, "workspace": 280},
        "gen_ad_autoencoder": {"instructions": 341531, "stack": 144, "workspace": 280},
        "gen_kws_ds_cnn": {"instructions": 6206496, "stack": 320, "workspace": 16320},
        "gen_mobilenet_v1_025_48": {"instructions": 2751428, "stack": 328, "workspace": 14104},
        "gen_resnet8": {"instructions": 20280235, "stack": 368, "workspace": 33424},
        "hello_float": {"instructions": 23654, "stack": 168, "workspace": 136},
        "hello_int8": {"instructions": 1330, "stack": 88, "workspace": 40},
        "kws": {"instructions": 6201307, "stack": 320, "workspace": 16320},
        "lstm": {"instructions": 834887, "stack": 408, "workspace": 1456},
        "micro_speech": {"instructions": 718550, "stack": 272, "workspace": 4104},
        "resnet8": {"instructions": 20310715, "stack": 368, "workspace": 33424},
        "svdf": {"instructions": 130332, "stack": 552, "workspace": 360},
    },
    "mps2-an386": {
        "ad01": {"instructions": 321578, "stack": 240, "workspace": 1440},
        "gen_ad_autoencoder": {"instructions": 321578, "stack": 240, "workspace": 1440},
        "gen_kws_ds_cnn": {"instructions": 4379396, "stack": 528, "workspace": 17336},
        "gen_mobilenet_v1_025_48": {"instructions": 2302524, "stack": 496, "workspace": 14136},
        "gen_resnet8": {"instructions": 16472070, "stack": 592, "workspace": 34600},
        "hello_float": {"instructions": 3094, "stack": 304, "workspace": 136},
        "hello_int8": {"instructions": 2537, "stack": 240, "workspace": 72},
        "kws": {"instructions": 4374206, "stack": 528, "workspace": 17336},
        "lstm": {"instructions": 362252, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 946757, "stack": 512, "workspace": 4656},
        "resnet8": {"instructions": 16469127, "stack": 592, "workspace": 34600},
        "svdf": {"instructions": 69522, "stack": 504, "workspace": 360},
    },
    "mps2-an500": {
        "ad01": {"instructions": 321580, "stack": 240, "workspace": 1440},
        "hello_float": {"instructions": 3063, "stack": 304, "workspace": 136},
        "hello_int8": {"instructions": 2539, "stack": 240, "workspace": 72},
        "kws": {"instructions": 4374209, "stack": 528, "workspace": 17336},
        "lstm": {"instructions": 361055, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 946760, "stack": 512, "workspace": 4656},
        "resnet8": {"instructions": 16469137, "stack": 592, "workspace": 34600},
        "svdf": {"instructions": 69523, "stack": 504, "workspace": 360},
    },
    "mps2-an505": {
        "ad01": {"instructions": 321578, "stack": 240, "workspace": 1440},
        "hello_float": {"instructions": 3060, "stack": 304, "workspace": 136},
        "hello_int8": {"instructions": 2537, "stack": 240, "workspace": 72},
        "kws": {"instructions": 4374206, "stack": 536, "workspace": 17336},
        "lstm": {"instructions": 362195, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 946757, "stack": 520, "workspace": 4656},
        "resnet8": {"instructions": 16469130, "stack": 592, "workspace": 34600},
        "svdf": {"instructions": 69523, "stack": 504, "workspace": 360},
    },
    "mps3-an547": {
        "ad01": {"instructions": 87172, "stack": 664, "workspace": 280},
        "hello_float": {"instructions": 2828, "stack": 312, "workspace": 136},
        "hello_int8": {"instructions": 1176, "stack": 664, "workspace": 40},
        "kws": {"instructions": 984404, "stack": 1064, "workspace": 17776},
        "lstm": {"instructions": 362844, "stack": 656, "workspace": 1456},
        "micro_speech": {"instructions": 627769, "stack": 1032, "workspace": 4248},
        "resnet8": {"instructions": 2996163, "stack": 3288, "workspace": 34016},
        "svdf": {"instructions": 65666, "stack": 680, "workspace": 360},
    },
}
