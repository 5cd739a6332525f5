"""Generates `silero_style_vad.onnx`: a Silero-VAD-style voice activity detector exported from PyTorch, the shape of
the published Silero VAD v5 models (which the compiler is checked against in spirit, not by copying): the model
branches on a sample-rate input (`torch.cond(sr == 16000, ...)`, an ONNX If), computes an STFT as a Conv1d with a
fixed Fourier basis after reflect padding, a magnitude, a small Conv1d encoder, one LSTM step whose (h, c) state
comes in as an input [2, 1, H] and goes out as an output, and a sigmoid speech probability.

    .venv/bin/pip install torch==2.13.0 onnxscript   # not project requirements: only this script needs them
    python tests/models/make_silero_style.py [--out_dir tests/models]

torch.onnx.export's default (dynamo) exporter writes the file; the weights are kept inside it (~190 KB, both
branches). Seeded: the same torch version writes the same model. The test (tests/compiler/test_onnx_silero_style.py)
needs only the committed .onnx file: it compiles it with --freeze_input sr=16000 (and 8000) and compares a sequence
of calls, the state carried from each call to the next, with onnxruntime.  `silero_sr16000.npy` (written beside it)
is the sample rate tests/models:silero_style_exact_test freezes through aot_model_test's compiler_flags.
"""

import argparse
import os

import numpy as np

SAMPLES = 512  # one 32 ms window at 16 kHz
HIDDEN = 24
N_FFT, HOP = 64, 32


def _fourier_basis(n_fft: int) -> np.ndarray:
    """[2 * (n_fft // 2 + 1), 1, n_fft]: Hann-windowed cosine then sine rows (the real STFT as a convolution)."""
    bins = n_fft // 2 + 1
    n = np.arange(n_fft)
    k = np.arange(bins)[:, None]
    window = 0.5 - 0.5 * np.cos(2 * np.pi * n / n_fft)
    re = np.cos(2 * np.pi * k * n / n_fft) * window
    im = -np.sin(2 * np.pi * k * n / n_fft) * window
    return np.concatenate([re, im])[:, None, :].astype(np.float32)


def build():
    import torch
    from torch import nn

    torch.manual_seed(26)

    class Branch(nn.Module):
        """One sample rate's network: STFT magnitude -> Conv1d encoder -> LSTM step -> probability."""

        def __init__(self, stride: int):
            super().__init__()
            self.stride = stride
            self.register_buffer("basis", torch.from_numpy(_fourier_basis(N_FFT)))
            self.enc1 = nn.Conv1d(N_FFT // 2 + 1, 16, 3, padding=1)
            self.enc2 = nn.Conv1d(16, HIDDEN, 3, stride=2, padding=1)
            self.lstm = nn.LSTM(HIDDEN, HIDDEN, batch_first=False)
            self.out = nn.Conv1d(HIDDEN, 1, 1)

        def forward(self, x, state):
            x = nn.functional.pad(x.unsqueeze(1), (N_FFT // 2, N_FFT // 2), mode="reflect")
            spec = nn.functional.conv1d(x, self.basis, stride=self.stride)
            bins = N_FFT // 2 + 1
            mag = torch.sqrt(spec[:, :bins] ** 2 + spec[:, bins:] ** 2 + 1e-9)
            z = torch.relu(self.enc2(torch.relu(self.enc1(mag))))
            z = z.mean(dim=2)  # [1, HIDDEN]
            y, (h, c) = self.lstm(z.unsqueeze(0), (state[0:1], state[1:2]))
            p = torch.sigmoid(self.out(torch.relu(y[0]).unsqueeze(2))).squeeze(2)
            return p, torch.cat([h, c], dim=0)

    class SileroStyle(nn.Module):
        def __init__(self):
            super().__init__()
            self.b16k = Branch(HOP)
            self.b8k = Branch(HOP // 2)

        def forward(self, x, state, sr):
            return torch.cond(sr == 16000, self.b16k, self.b8k, (x, state))

    return SileroStyle().eval()


def export(path: str) -> None:
    import torch

    model = build()
    x = torch.zeros(1, SAMPLES)
    state = torch.zeros(2, 1, HIDDEN)
    sr = torch.tensor(16000, dtype=torch.int64)
    onnx_program = torch.onnx.export(
        model, (x, state, sr), input_names=["input", "state", "sr"], output_names=["output", "stateN"]
    )
    onnx_program.save(path, external_data=False)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out_dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = p.parse_args()
    export(os.path.join(args.out_dir, "silero_style_vad.onnx"))
    write_sample_rate(os.path.join(args.out_dir, "silero_sr16000.npy"))


def write_sample_rate(path: str) -> None:
    """The sample rate the Bazel test (tests/models:silero_style_exact_test) freezes, `--freeze_input sr=...`."""
    np.save(path, np.array(16000, np.int64))


if __name__ == "__main__":
    main()
