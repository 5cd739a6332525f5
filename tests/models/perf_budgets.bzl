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
        "ad01": {"instructions": 379113, "stack": 152, "workspace": 280},
        "gen_ad_autoencoder": {"instructions": 375121, "stack": 144, "workspace": 280},
        "gen_kws_ds_cnn": {"instructions": 5811988, "stack": 320, "workspace": 16320},
        "gen_mobilenet_v1_025_48": {"instructions": 2679361, "stack": 392, "workspace": 14104},
        "gen_resnet8": {"instructions": 21090998, "stack": 408, "workspace": 33424},
        "hello_float": {"instructions": 23654, "stack": 168, "workspace": 136},
        "hello_int8": {"instructions": 1371, "stack": 88, "workspace": 40},
        "kws": {"instructions": 5806798, "stack": 320, "workspace": 16320},
        "lstm": {"instructions": 835744, "stack": 408, "workspace": 1456},
        "micro_speech": {"instructions": 720546, "stack": 272, "workspace": 4104},
        "resnet8": {"instructions": 21138190, "stack": 408, "workspace": 33424},
        "svdf": {"instructions": 130871, "stack": 552, "workspace": 360},
    },
    "mps2-an386": {
        "ad01": {"instructions": 265940, "stack": 248, "workspace": 1440},
        "gen_ad_autoencoder": {"instructions": 265940, "stack": 248, "workspace": 1440},
        "gen_kws_ds_cnn": {"instructions": 3324308, "stack": 608, "workspace": 17120},
        "gen_mobilenet_v1_025_48": {"instructions": 1919192, "stack": 608, "workspace": 14104},
        "gen_resnet8": {"instructions": 13598700, "stack": 784, "workspace": 34312},
        "hello_float": {"instructions": 3094, "stack": 96, "workspace": 136},
        "hello_int8": {"instructions": 2212, "stack": 400, "workspace": 72},
        "kws": {"instructions": 3319118, "stack": 608, "workspace": 17120},
        "lstm": {"instructions": 361405, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 1058767, "stack": 432, "workspace": 4424},
        "resnet8": {"instructions": 13593398, "stack": 784, "workspace": 34312},
        "svdf": {"instructions": 69864, "stack": 504, "workspace": 360},
    },
    "mps2-an500": {
        "ad01": {"instructions": 265931, "stack": 248, "workspace": 1440},
        "hello_float": {"instructions": 3062, "stack": 96, "workspace": 136},
        "hello_int8": {"instructions": 2213, "stack": 400, "workspace": 72},
        "kws": {"instructions": 3319119, "stack": 608, "workspace": 17120},
        "lstm": {"instructions": 360207, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 1058768, "stack": 432, "workspace": 4424},
        "resnet8": {"instructions": 13593402, "stack": 784, "workspace": 34312},
        "svdf": {"instructions": 69865, "stack": 504, "workspace": 360},
    },
    "mps2-an505": {
        "ad01": {"instructions": 265930, "stack": 248, "workspace": 1440},
        "hello_float": {"instructions": 3060, "stack": 96, "workspace": 136},
        "hello_int8": {"instructions": 2212, "stack": 400, "workspace": 72},
        "kws": {"instructions": 3319122, "stack": 608, "workspace": 17120},
        "lstm": {"instructions": 361348, "stack": 384, "workspace": 1736},
        "micro_speech": {"instructions": 1058767, "stack": 432, "workspace": 4424},
        "resnet8": {"instructions": 13593401, "stack": 784, "workspace": 34312},
        "svdf": {"instructions": 69864, "stack": 504, "workspace": 360},
    },
    "mps3-an547": {
        "ad01": {"instructions": 53138, "stack": 720, "workspace": 280},
        "hello_float": {"instructions": 2828, "stack": 80, "workspace": 136},
        "hello_int8": {"instructions": 1035, "stack": 704, "workspace": 40},
        "kws": {"instructions": 777738, "stack": 1368, "workspace": 17776},
        "lstm": {"instructions": 362563, "stack": 696, "workspace": 1456},
        "micro_speech": {"instructions": 551391, "stack": 1328, "workspace": 4248},
        "resnet8": {"instructions": 2243314, "stack": 3768, "workspace": 34016},
        "svdf": {"instructions": 65103, "stack": 720, "workspace": 360},
    },
}
