"""Generates small PyTorch models exported to ONNX with both of torch.onnx.export's exporters (the default dynamo
exporter and the TorchScript one, `dynamo=False`): `torch_<name>_<dynamo|script>.onnx`, and each once more as torch 2.x
writes it with no options at all, `torch.onnx.export(model, (x,), "model.onnx")`: `torch_<name>_default.onnx` with
its weights in the side file `torch_<name>_default.onnx.data` (the dynamo exporter's default external data; the
input and output keep the names the exporter picks). The architectures are the
ones MCU users bring: a GRU and a bidirectional LSTM keyword spotter, a PixelShuffle super-resolution net, a
GroupNorm CNN, a ViT patch embedding (class token `expand(1, -1, -1)`, position embedding, LayerNorm) and a one-layer
transformer encoder. tests/compiler/test_onnx_torch_exports.py compiles each and compares it with onnxruntime.

    .venv/bin/pip install torch==2.13.0 onnxscript   # not project requirements: only this script needs them
    python tests/models/make_torch_exports.py [--out_dir tests/models]

(A separate venv outside the checkout serves as well: the `_default` exports were written by torch 2.13.0+cpu from
download.pytorch.org/whl/cpu, onnxscript 0.7.2, onnx 1.23.2. The dynamo exporter records the source paths of the
generating checkout in its nodes' metadata, so a re-run from another directory changes those bytes and nothing else:
weights, graphs and names stay the same.)

Seeded (torch.manual_seed); the dynamo and script exports keep their weights inside the files, the default ones
beside them (the compiler and aot_model_library's `model_data` read them from there).
"""

import argparse
import os
import warnings


def models():
    import torch
    from torch import nn

    class KwsGru(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(10, 16, 3, padding=1)
            self.gru = nn.GRU(16, 20, batch_first=True)
            self.fc = nn.Linear(20, 4)

        def forward(self, x):  # x [1, 10, 12]: MFCC features x frames
            z = torch.relu(self.conv(x)).transpose(1, 2)
            y, _ = self.gru(z)
            return self.fc(y[:, -1])

    class KwsLstm(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(10, 12, bidirectional=True)
            self.fc = nn.Linear(24, 4)

        def forward(self, x):  # x [8, 1, 10]: frames x batch x features
            y, _ = self.lstm(x)
            return self.fc(y.mean(dim=0))

    class PixelShuffleNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(1, 8, 3, padding=1)
            self.c2 = nn.Conv2d(8, 4, 3, padding=1)
            self.ps = nn.PixelShuffle(2)

        def forward(self, x):  # x [1, 1, 8, 8]
            return self.ps(self.c2(torch.relu(self.c1(x))))

    class GroupNormNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.c = nn.Conv2d(3, 8, 3, padding=1)
            self.gn = nn.GroupNorm(4, 8)
            self.fc = nn.Linear(8, 3)

        def forward(self, x):  # x [1, 3, 8, 8]
            return self.fc(torch.relu(self.gn(self.c(x))).mean(dim=(2, 3)))

    class VitPatch(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Conv2d(3, 16, 4, stride=4)
            self.cls = nn.Parameter(torch.randn(1, 1, 16))
            self.pos = nn.Parameter(torch.randn(1, 5, 16) * 0.1)
            self.norm = nn.LayerNorm(16)

        def forward(self, x):  # x [1, 3, 8, 8] -> 4 patches + class token
            p = self.proj(x).flatten(2).transpose(1, 2)
            cls = self.cls.expand(x.shape[0], -1, -1)
            return self.norm(torch.cat([cls, p], dim=1) + self.pos)

    class TinyEncoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)

        def forward(self, x):  # x [1, 6, 16]
            return self.layer(x)

    torch.manual_seed(26)
    return {
        "kws_gru": (KwsGru(), (1, 10, 12)),
        "kws_lstm": (KwsLstm(), (8, 1, 10)),
        "pixelshuffle": (PixelShuffleNet(), (1, 1, 8, 8)),
        "groupnorm": (GroupNormNet(), (1, 3, 8, 8)),
        "vit_patch": (VitPatch(), (1, 3, 8, 8)),
        "tiny_encoder": (TinyEncoder(), (1, 6, 16)),
    }


def export_all(out_dir: str) -> list:
    import torch

    written = []
    for name, (model, shape) in models().items():
        model.eval()
        x = torch.randn(*shape)
        for kind in ("dynamo", "script", "default"):
            path = os.path.join(out_dir, f"torch_{name}_{kind}.onnx")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if kind == "dynamo":
                    torch.onnx.export(model, (x,), input_names=["x"], output_names=["y"]).save(
                        path, external_data=False
                    )
                elif kind == "script":
                    torch.onnx.export(model, (x,), path, input_names=["x"], output_names=["y"], dynamo=False)
                else:
                    torch.onnx.export(model, (x,), path)
                    written.append(path + ".data")
            written.append(path)
    return written


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out_dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = p.parse_args()
    for path in export_all(args.out_dir):
        print(path)


if __name__ == "__main__":
    main()
