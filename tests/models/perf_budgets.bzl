"""Performance budgets of tests/models' aot_perf_tests: board -> model prefix -> budget.

Today's figures + 2 %: instructions of the first inference; its run stack and the planned workspace
in bytes, rounded up to 8 B. Written by tools/update_perf_budgets.py from the tests' logs; do not raise one
without saying why.
"""

PERF_BUDGETS = {
    "microbit": {
        "hello_float": {"instructions": 49746, "stack": 160, "workspace": 136},
        "hello_int8": {"instructions": 5263, "stack": 128, "workspace": 40},
        "lstm": {"instructions": 1675540, "stack": 536, "workspace": 1456},
        "micro_speech": {"instructions": 3155174, "stack": 400, "workspace": 4104},
        "svdf": {"instructions": 272668, "stack": 608, "workspace": 360},
    },
    "mps2-an385": {
        "ad01": {"instructions": 344709, "stack": 152, "workspace": 280},
        "gen_ad_autoencoder": {"instructions": 341531, "stack": 144, "workspace": 280},
        "gen_kws_ds_cnn": {"instructions": 6206496, "stack": 320, "workspace": 16320},
        "gen_mobilenet_v1_025_48": {"instructions": 2751427, "stack": 328, "workspace": 14104},
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
        "ad01": {"instructions": 266707, "stack": 400, "workspace": 1440},
        "gen_ad_autoencoder": {"instructions": 266707, "stack": 400, "workspace": 1440},
        "gen_kws_ds_cnn": {"instructions": 3772130, "stack": 552, "workspace": 17664},
        "gen_mobilenet_v1_025_48": {"instructions": 2091768, "stack": 552, "workspace": 14152},
        "gen_resnet8": {"instructions": 14981072, "stack": 624, "workspace": 35192},
        "hello_float": {"instructions": 1655, "stack": 304, "workspace": 136},
        "hello_int8": {"instructions": 2212, "stack": 400, "workspace": 72},
        "kws": {"instructions": 3766940, "stack": 552, "workspace": 17664},
        "lstm": {"instructions": 361405, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 910328, "stack": 520, "workspace": 4656},
        "resnet8": {"instructions": 14984485, "stack": 624, "workspace": 35192},
        "svdf": {"instructions": 69864, "stack": 504, "workspace": 360},
    },
    "mps2-an500": {
        "ad01": {"instructions": 266708, "stack": 400, "workspace": 1440},
        "hello_float": {"instructions": 1494, "stack": 296, "workspace": 136},
        "hello_int8": {"instructions": 2213, "stack": 400, "workspace": 72},
        "kws": {"instructions": 3766942, "stack": 552, "workspace": 17664},
        "lstm": {"instructions": 360207, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 910330, "stack": 520, "workspace": 4656},
        "resnet8": {"instructions": 14984494, "stack": 624, "workspace": 35192},
        "svdf": {"instructions": 69865, "stack": 504, "workspace": 360},
    },
    "mps2-an505": {
        "ad01": {"instructions": 266707, "stack": 400, "workspace": 1440},
        "hello_float": {"instructions": 1496, "stack": 296, "workspace": 136},
        "hello_int8": {"instructions": 2212, "stack": 400, "workspace": 72},
        "kws": {"instructions": 3766945, "stack": 552, "workspace": 17664},
        "lstm": {"instructions": 361348, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 910329, "stack": 528, "workspace": 4656},
        "resnet8": {"instructions": 14984493, "stack": 624, "workspace": 35192},
        "svdf": {"instructions": 69864, "stack": 504, "workspace": 360},
    },
    "mps3-an547": {
        "ad01": {"instructions": 53522, "stack": 712, "workspace": 280},
        "hello_float": {"instructions": 1097, "stack": 336, "workspace": 136},
        "hello_int8": {"instructions": 1036, "stack": 696, "workspace": 40},
        "kws": {"instructions": 936326, "stack": 1360, "workspace": 17776},
        "lstm": {"instructions": 362564, "stack": 688, "workspace": 1456},
        "micro_speech": {"instructions": 626287, "stack": 1320, "workspace": 4248},
        "resnet8": {"instructions": 2870679, "stack": 3584, "workspace": 34016},
        "svdf": {"instructions": 65114, "stack": 712, "workspace": 360},
    },
}
