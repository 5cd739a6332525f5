"""Conformance cases: RESIZE_NEAREST_NEIGHBOR up and down, every align_corners / half_pixel_centers combination."""

import numpy as np

from builders import schema_options, with_consts
from case import Case


def cases():
    out = []
    for dt in ("float32", "int8", "int16"):
        for (h, w), (oh, ow) in (((3, 4), (6, 8)), ((5, 7), (3, 4)), ((4, 4), (7, 9)), ((1, 3), (2, 5))):
            for ac, hp in ((False, False), (True, False), (False, True)):
                out.append(
                    Case(
                        "RESIZE_NEAREST_NEIGHBOR",
                        dt,
                        f"{h}x{w}_to_{oh}x{ow}_ac{int(ac)}_hp{int(hp)}",
                        with_consts(
                            "RESIZE_NEAREST_NEIGHBOR",
                            [2, h, w, 3],
                            dt,
                            [np.array([oh, ow], np.int32)],
                            [2, oh, ow, 3],
                            schema_options("ResizeNearestNeighborOptionsT", alignCorners=ac, halfPixelCenters=hp),
                        ),
                        qemu_sample=dt == "int8" and (h, w) == (3, 4) and hp,
                    )
                )
    return out + bilinear_cases()


def bilinear_cases():
    out = []
    sizes = (((3, 4), (6, 8)), ((5, 7), (3, 4)), ((4, 4), (7, 9)), ((1, 3), (2, 5)))
    for dt in ("float32", "int8"):
        for (h, w), (oh, ow) in sizes:
            for ac, hp in ((False, False), (True, False), (False, True)):
                opts = schema_options("ResizeBilinearOptionsT", alignCorners=ac, halfPixelCenters=hp)
                out.append(
                    Case(
                        "RESIZE_BILINEAR",
                        dt,
                        f"{h}x{w}_to_{oh}x{ow}_ac{int(ac)}_hp{int(hp)}",
                        with_consts(
                            "RESIZE_BILINEAR", [2, h, w, 3], dt, [np.array([oh, ow], np.int32)], [2, oh, ow, 3], opts
                        ),
                        float_range=(-5, 5),
                        qemu_sample=(h, w) == (3, 4) and hp and dt == "int8",
                    )
                )
    return out
