"""The audio example's synthetic clip and framing (no models needed): deterministic per seed, int16 one second
with quiet and loud parts, and the windows micro_speech's feature loop visits."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from synth_clip import SAMPLE_RATE, frame_starts, stride_samples, synth_clip, window_samples  # noqa: E402


class SynthClipTest(unittest.TestCase):
    def test_same_seed_same_clip_other_seed_other_clip(self):
        a, b, c = synth_clip(16), synth_clip(16), synth_clip(17)
        self.assertEqual(a.dtype, np.int16)
        self.assertEqual(len(a), SAMPLE_RATE)
        self.assertTrue(np.array_equal(a, b))
        self.assertFalse(np.array_equal(a, c))

    def test_clip_has_silence_and_a_loud_burst(self):
        for seed in (0, 1, 16, 12345):
            clip = synth_clip(seed).astype(np.float64)
            rms = np.sqrt(np.mean(clip.reshape(-1, 320) ** 2, axis=1))  # per 20 ms
            self.assertLess(rms[:3].max(), 200.0, seed)  # the first 60 ms: noise floor only
            self.assertGreater(rms.max(), 2000.0, seed)  # the voiced burst
            self.assertLess(np.abs(clip).max(), 32768.0, seed)  # no clipping at full scale

    def test_micro_speech_framing(self):
        window, stride = window_samples(), stride_samples()
        self.assertEqual((window, stride), (480, 320))
        starts = frame_starts(SAMPLE_RATE, 49, window, stride)
        self.assertEqual(len(starts), 49)
        self.assertEqual(starts[:3], [0, 320, 640])
        self.assertLessEqual(starts[-1] + window, SAMPLE_RATE)
        # Fewer rows wanted than windows available, or audio too short for one more window.
        self.assertEqual(len(frame_starts(SAMPLE_RATE, 10, window, stride)), 10)
        self.assertEqual(frame_starts(window, 49, window, stride), [0])
        self.assertEqual(frame_starts(window - 1, 49, window, stride), [])
        self.assertEqual(frame_starts(window + stride, 49, window, stride), [0, stride])
        self.assertEqual(frame_starts(window + stride - 1, 49, window, stride), [0])


if __name__ == "__main__":
    unittest.main()
