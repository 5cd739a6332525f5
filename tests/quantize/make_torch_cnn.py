"""Generates the float PyTorch model that aot_quantize quantizes in the build (tests/quantize/BUILD.bazel):
`torch_cnn_float.onnx`, a small CNN classifier (Conv-BatchNorm-ReLU-MaxPool twice, a Linear head over 4 classes)
briefly trained on a synthetic task (which quadrant of a 16x16 image holds a bright blob), exported with
torch.onnx.export's TorchScript exporter, and `torch_cnn_calib.npz`, its calibration set (64 images of the same
task, key `x`, samples on the batch axis).

    .venv/bin/pip install torch==2.13.0   # not a project requirement: only this script needs it
    python tests/quantize/make_torch_cnn.py [--out_dir tests/quantize]

Seeded (torch.manual_seed, numpy default_rng) and single-threaded.
"""

import argparse
import os
import warnings

import numpy as np

SIZE = 16


def blobs(rng, n):
    """n images [n, 1, 16, 16] with a Gaussian blob in a random quadrant over noise, and the quadrant (0..3)."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    labels = rng.integers(0, 4, n)
    images = rng.normal(0.0, 0.3, (n, 1, SIZE, SIZE))
    for i, q in enumerate(labels):
        cy = rng.uniform(2, 6) + (8 if q >= 2 else 0)
        cx = rng.uniform(2, 6) + (8 if q % 2 else 0)
        images[i, 0] += rng.uniform(1.0, 2.0) * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / rng.uniform(2, 6))
    return images.astype(np.float32), labels


def model():
    import torch
    from torch import nn

    class Cnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(1, 8, 3, padding=1)
            self.b1 = nn.BatchNorm2d(8)
            self.c2 = nn.Conv2d(8, 16, 3, padding=1)
            self.b2 = nn.BatchNorm2d(16)
            self.fc = nn.Linear(16 * 4 * 4, 4)

        def forward(self, x):  # x [1, 1, 16, 16]
            x = torch.max_pool2d(torch.relu(self.b1(self.c1(x))), 2)
            x = torch.max_pool2d(torch.relu(self.b2(self.c2(x))), 2)
            return self.fc(torch.flatten(x, 1))

    return Cnn()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out_dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(30)
    net = model()
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    x, y = blobs(rng, 512)
    for _ in range(150):
        idx = rng.integers(0, len(x), 32)
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(torch.from_numpy(x[idx])), torch.from_numpy(y[idx]))
        loss.backward()
        opt.step()
    net.eval()
    calib, calib_labels = blobs(rng, 64)
    with torch.no_grad():
        acc = float((net(torch.from_numpy(calib)).argmax(1).numpy() == calib_labels).mean())
    path = os.path.join(args.out_dir, "torch_cnn_float.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            (torch.from_numpy(calib[:1]),),
            path,
            input_names=["x"],
            output_names=["logits"],
            opset_version=13,
            dynamo=False,
        )
    np.savez(os.path.join(args.out_dir, "torch_cnn_calib.npz"), x=calib)
    print(f"{path}: float accuracy {acc:.2%} on the 64 calibration images, final loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
