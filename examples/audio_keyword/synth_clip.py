"""A seeded synthetic one-second audio clip for the audio-to-keyword example, and the framing of TFLite Micro's
micro_speech example (which windows of the clip its audio preprocessor is invoked on).

The clip is not speech: 16 kHz, int16, a quiet noise floor with a "voiced" burst in the middle (a fundamental with
harmonics shaped by two formant-like resonances and a pitch glide, under an attack/decay envelope) and a short
unvoiced hiss, so the feature matrix has silence, harmonics and broadband energy, and the spectral subtraction's
noise estimate (the preprocessor's state) moves. Same seed, same samples, on any machine (numpy's PCG64 generator
and float64 arithmetic rounded once to int16).

`python synth_clip.py --seed 16 --wav clip.wav` writes it as a WAV file to listen to.
"""

import argparse
import wave

import numpy as np

SAMPLE_RATE = 16000
# micro_speech's front-end settings (TFLite Micro, examples/micro_speech/micro_model_settings.h): a 30 ms window
# every 20 ms, i.e. the preprocessor sees 480 samples per invocation and the window moves by 320.
WINDOW_MS = 30
STRIDE_MS = 20


def window_samples(rate=SAMPLE_RATE):
    return WINDOW_MS * rate // 1000


def stride_samples(rate=SAMPLE_RATE):
    return STRIDE_MS * rate // 1000


def frame_starts(num_samples, max_frames, window, stride):
    """Start offsets of the windows the preprocessor runs on, as micro_speech's GenerateFeatures walks the audio:
    a window at offset 0, the next `stride` later, while a whole window remains and fewer than `max_frames` (the
    classifier's feature rows) are done."""
    starts = []
    start = 0
    while num_samples - start >= window and len(starts) < max_frames:
        starts.append(start)
        start += stride
    return starts


def synth_clip(seed, num_samples=SAMPLE_RATE, rate=SAMPLE_RATE):
    """int16 samples: noise floor + voiced burst + hiss, all drawn from `seed`."""
    rng = np.random.default_rng(seed)
    t = np.arange(num_samples) / rate
    clip = rng.normal(0.0, 60.0, num_samples)  # background noise floor (about -55 dBFS)

    # Voiced burst: position, length, pitch and formants drawn from the seed.
    start = rng.uniform(0.20, 0.35)
    length = rng.uniform(0.30, 0.45)
    f0_start, f0_end = rng.uniform(110.0, 180.0), rng.uniform(90.0, 150.0)
    formants = (rng.uniform(300.0, 800.0), rng.uniform(1000.0, 2500.0))
    inside = (t >= start) & (t < start + length)
    u = np.clip((t - start) / length, 0.0, 1.0)
    envelope = np.where(inside, np.minimum(1.0, u / 0.1) * np.exp(-2.5 * u), 0.0)
    phase = 2.0 * np.pi * np.cumsum(f0_start + (f0_end - f0_start) * u) / rate
    voiced = np.zeros(num_samples)
    f0_mean = 0.5 * (f0_start + f0_end)
    for k in range(1, int(4000.0 / f0_mean)):
        f = k * f0_mean
        gain = sum(1.0 / (1.0 + ((f - fc) / 150.0) ** 2) for fc in formants) / k**0.5
        voiced += gain * np.sin(k * phase + rng.uniform(0.0, 2.0 * np.pi))
    voiced *= envelope
    clip += 9000.0 * voiced / max(np.max(np.abs(voiced)), 1e-9)

    # Unvoiced hiss after the burst: white noise through a first difference (tilted to high frequencies).
    hiss_start = start + length + rng.uniform(0.02, 0.08)
    hiss = np.diff(rng.normal(0.0, 1.0, num_samples + 1))
    hiss_env = np.exp(-0.5 * ((t - hiss_start - 0.06) / 0.03) ** 2)
    clip += 2500.0 * hiss * hiss_env

    return np.clip(np.round(clip), -32768, 32767).astype(np.int16)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--wav", required=True, help="output WAV file (16 kHz, mono, 16-bit)")
    args = parser.parse_args()
    with wave.open(args.wav, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(synth_clip(args.seed).astype("<i2").tobytes())


if __name__ == "__main__":
    main()
