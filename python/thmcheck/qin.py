"""[Q]'s transformer (Qin, Zhou, Jiang, Zhu, arXiv:2506.05249; docs/spec/claims.md, "Model [Q]") from Python.

    block l:  V = softmax(c U W_Q W_K^T U^T) U W_V + beta U            attention with residual (the paper's Z at L = 1)
              H = sigma(V W_1) W_2 + gamma V                            FFN with residual (gamma = ffn_residual)
    head:     Yhat = H_L W_U;   loss = 1/2 sum_i ||Yhat_i - Y_i||_F^2

U is X_i (N x d) at the first block and the previous block's H after it; c = 0 means 1/sqrt(d). Every value is
computed by the suite's C++ model (numerics/models/qin/transformer.hpp) at the precision asked for: "double", or
"mpN" with N decimal digits (the ladder's rungs are mp50 and mp100).
"""
import numpy as np

from . import _arrays
from . import _thmcheck

FAMILY = "qin.model"
ACTIVATIONS = ("softplus", "tanh", "gelu", "relu")  # numerics/activation.hpp, in its order
BLOCKS = ("W_Q", "W_K", "W_V", "W_1", "W_2")


def _layers(name, a):
    """One layer's matrix (2-D) or one per layer (3-D, or a list of 2-D arrays)."""
    if isinstance(a, np.ndarray) and a.ndim == 2 or (isinstance(a, (list, tuple)) and a and np.ndim(a[0]) == 1):
        return [_arrays.matrix(name, a)]
    return _arrays.stack(name, a)


class Transformer:
    """The weights of L blocks and the head, held in float64 and lifted exactly to every precision.

    W_Q, W_K, W_V: d x d; W_1: d x m; W_2: m x d (each one matrix for one layer, or one per layer); W_U: d x d_y.
    """

    def __init__(self, W_Q, W_K, W_V, W_1, W_2, W_U, *, beta=1.0, ffn_residual=1.0, c=0.0, activation="softplus"):
        per_layer = {k: _layers(k, v) for k, v in zip(BLOCKS, (W_Q, W_K, W_V, W_1, W_2))}
        L = len(per_layer["W_Q"])
        _arrays.positive_count("layers", L, _arrays.MAX_LAYERS)
        for k, v in per_layer.items():
            if len(v) != L:
                raise ValueError(f"{k} has {len(v)} layers, W_Q has {L}")
        d = per_layer["W_Q"][0].shape[0]
        _arrays.positive_count("d", d, _arrays.MAX_SIDE)
        m = per_layer["W_1"][0].shape[1]
        _arrays.positive_count("m", m, _arrays.MAX_WIDTH)
        shapes = {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "W_1": (d, m), "W_2": (m, d)}
        for k, mats in per_layer.items():
            for l, a in enumerate(mats):
                if a.shape != shapes[k]:
                    raise ValueError(f"{k}[{l}]: shape {a.shape}, expected {shapes[k]} (d = {d}, m = {m})")
        self.W_U = _arrays.matrix("W_U", W_U)
        if self.W_U.shape[0] != d:
            raise ValueError(f"W_U: shape {self.W_U.shape}, expected ({d}, d_y)")
        self.d_y = _arrays.positive_count("d_y", self.W_U.shape[1], _arrays.MAX_SIDE)
        self.blocks = per_layer
        self.layers, self.d, self.m = L, d, m
        self.beta = _arrays.real("beta", beta)
        self.ffn_residual = _arrays.real("ffn_residual", ffn_residual)
        self.c = _arrays.real("c", c)
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {activation!r}")
        self.activation = activation

    # --- the instance the C++ side reads (numerics/models/qin/model_instance.hpp) ---
    def _data(self, X, Y):
        Xs = _arrays.stack("X", X)
        n = _arrays.positive_count("n (samples)", len(Xs), _arrays.MAX_SAMPLES)
        N = _arrays.positive_count("N (tokens)", Xs[0].shape[0], _arrays.MAX_SIDE)
        Xs = [_arrays.matrix(f"X[{i}]", x, (N, self.d)) for i, x in enumerate(Xs)]
        if Y is None:
            Ys = [np.zeros((N, self.d_y)) for _ in Xs]
        else:
            Ys = _arrays.stack("Y", Y)
            if len(Ys) != n:
                raise ValueError(f"Y has {len(Ys)} samples, X has {n}")
            Ys = [_arrays.matrix(f"Y[{i}]", y, (N, self.d_y)) for i, y in enumerate(Ys)]
        return Xs, Ys

    def instance(self, X, Y):
        """(family, params, matrices): the instance of this model on data (X_i, Y_i), as thmcheck assess reads it."""
        Xs, Ys = self._data(X, Y)
        params = {"n": len(Xs), "N": Xs[0].shape[0], "d": self.d, "m": self.m, "d_y": self.d_y, "L": self.layers,
                  "activation": ACTIVATIONS.index(self.activation), "beta": self.beta,
                  "ffn_residual": self.ffn_residual, "c": self.c}
        matrices = {}
        for i, (x, y) in enumerate(zip(Xs, Ys)):
            matrices[f"X{i}"], matrices[f"Y{i}"] = x, y
        for k, mats in self.blocks.items():
            for l, a in enumerate(mats):
                matrices[f"{k}[{l}]"] = a
        matrices["W_U"] = self.W_U
        return FAMILY, params, matrices

    def save(self, path, X, Y):
        """Writes the instance file `thmcheck assess --instance` reads (docs/guide/python.md, "Instance files")."""
        text = _thmcheck.instance_file_json(*self.instance(X, Y))
        with open(path, "w") as f:
            f.write(text)

    # --- values ---
    def loss(self, X, Y, precision="double", exact=False):
        """1/2 sum_i ||Yhat_i - Y_i||_F^2 at `precision`: a float, or with exact=True every digit as a decimal string."""
        _, params, matrices = self.instance(X, Y)
        return _thmcheck.qin_loss(params, matrices, precision, exact)

    def value_and_gradient(self, X, Y, precision="double", exact=False):
        """(loss, {"W_Q[0]": dL/dW_Q of layer 0, ..., "W_U": dL/dW_U}): the exact gradient (reverse mode written out,
        docs/derivations/qin.model.md), float64 arrays or, with exact=True, nested lists of decimal strings."""
        _, params, matrices = self.instance(X, Y)
        loss, grad = _thmcheck.qin_gradient(params, matrices, precision, exact)
        return loss, ({k: np.array(v, dtype=object) for k, v in grad.items()} if exact else grad)

    def gradient(self, X, Y, precision="double", exact=False):
        return self.value_and_gradient(X, Y, precision, exact)[1]

    def attention_output(self, X, layer=-1, precision="double", exact=False):
        """V of block `layer` for every sample, an (n, N, d) array: softmax attention plus beta times its input (the
        paper's Z for a single layer; its stacked singular values set the rate of qin.gd.rate_from_attention_output)."""
        V = self._forward(X, None, precision, exact)[0]
        return np.array(V[layer], dtype=object if exact else np.float64)

    def outputs(self, X, precision="double", exact=False):
        """Yhat_i = H_L W_U for every sample, an (n, N, d_y) array."""
        _, _, R, _ = self._forward(X, None, precision, exact)
        if exact:
            raise ValueError("outputs(exact=True): use the residuals of value_and_gradient; Yhat = R + Y is not exact")
        return np.array(R)  # Y = 0 here, so the residual is Yhat

    def _forward(self, X, Y, precision, exact):
        _, params, matrices = self.instance(X, Y)
        return _thmcheck.qin_forward(params, matrices, precision, exact)

    def step(self, X, Y, eta):
        """One gradient-descent step theta - eta grad L(theta) at double: a new Transformer."""
        eta = _arrays.real("eta", eta)
        g = self.gradient(X, Y)
        new = {k: [a - eta * g[f"{k}[{l}]"] for l, a in enumerate(mats)] for k, mats in self.blocks.items()}
        return Transformer(*(new[k] for k in BLOCKS), self.W_U - eta * g["W_U"], beta=self.beta,
                           ffn_residual=self.ffn_residual, c=self.c, activation=self.activation)

    def __repr__(self):
        return (f"thmcheck.qin.Transformer(layers={self.layers}, d={self.d}, m={self.m}, d_y={self.d_y}, "
                f"beta={self.beta}, ffn_residual={self.ffn_residual}, c={self.c}, activation={self.activation!r})")


def from_instance(instance):
    """(Transformer, X, Y) from (family, params, matrices), or from an instance or counterexample file's path."""
    if isinstance(instance, (str, bytes)) or hasattr(instance, "__fspath__"):
        instance = _thmcheck.read_instance(str(instance))
    family, params, matrices = instance
    if family != FAMILY:
        raise ValueError(f"an instance of family {family!r}, not {FAMILY!r}")
    L, n = int(params["L"]), int(params["n"])
    blocks = {k: [matrices[f"{k}[{l}]"] for l in range(L)] for k in BLOCKS}
    model = Transformer(*(blocks[k] for k in BLOCKS), matrices["W_U"], beta=params["beta"],
                        ffn_residual=params["ffn_residual"], c=params["c"],
                        activation=ACTIVATIONS[int(params["activation"])])
    return model, np.array([matrices[f"X{i}"] for i in range(n)]), np.array([matrices[f"Y{i}"] for i in range(n)])


# PyTorch: the state_dict names of the architecture from_torch reads (docs/guide/python.md, "From PyTorch"):
#   blocks.<l>.W_Q, blocks.<l>.W_K, blocks.<l>.W_V (d x d), blocks.<l>.W_1 (d x m), blocks.<l>.W_2 (m x d), W_U (d x d_y),
# each used as U @ W (not nn.Linear's x @ W.T), and the module's attributes beta, ffn_residual, c, activation.
def from_torch(module):
    """The Transformer of a torch.nn.Module with the state_dict names above (thmcheck.qin.torch_module builds one)."""
    state = {k: v.detach().cpu().double().numpy() for k, v in module.state_dict().items()}
    layers = sorted({int(k.split(".")[1]) for k in state if k.startswith("blocks.")})
    if not layers or layers != list(range(len(layers))) or "W_U" not in state:
        raise ValueError("from_torch: expected parameters blocks.<l>.W_Q ... blocks.<l>.W_2 for l = 0, 1, ... and W_U")
    missing = [f"blocks.{l}.{k}" for l in layers for k in BLOCKS if f"blocks.{l}.{k}" not in state]
    if missing:
        raise ValueError(f"from_torch: missing {', '.join(missing)}")
    return Transformer(*([state[f"blocks.{l}.{k}"] for l in layers] for k in BLOCKS), state["W_U"],
                       beta=getattr(module, "beta", 1.0), ffn_residual=getattr(module, "ffn_residual", 1.0),
                       c=getattr(module, "c", 0.0), activation=getattr(module, "activation", "softplus"))


def torch_module(model):
    """A torch.nn.Module (float64) computing `model` with the state_dict names from_torch reads; its forward(X) takes an
    (n, N, d) tensor and returns Yhat, (n, N, d_y). Needs PyTorch."""
    import torch

    class Block(torch.nn.Module):
        def __init__(self, mats):
            super().__init__()
            for k, a in mats.items():
                setattr(self, k, torch.nn.Parameter(torch.tensor(a, dtype=torch.float64)))

    class QinTransformer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = torch.nn.ModuleList(
                [Block({k: model.blocks[k][l] for k in BLOCKS}) for l in range(model.layers)])
            self.W_U = torch.nn.Parameter(torch.tensor(model.W_U, dtype=torch.float64))
            self.beta, self.ffn_residual, self.c, self.activation = model.beta, model.ffn_residual, model.c, model.activation

        def forward(self, X):
            sigma = {"softplus": torch.nn.functional.softplus, "tanh": torch.tanh,
                     "gelu": lambda x: torch.nn.functional.gelu(x, approximate="tanh"), "relu": torch.relu}[self.activation]
            U = X
            for b in self.blocks:
                c = self.c if self.c != 0 else 1.0 / np.sqrt(U.shape[-1])
                logits = c * (U @ b.W_Q) @ (U @ b.W_K).transpose(-1, -2)
                V = torch.softmax(logits, dim=-1) @ (U @ b.W_V) + self.beta * U
                U = sigma(V @ b.W_1) @ b.W_2 + self.ffn_residual * V
            return U @ self.W_U

    return QinTransformer()
