"""examples/python/rllib_selfplay.py as a user runs it, on a Ray cluster of two nodes.

ray.cluster_utils.Cluster starts a head node and a second node on this
machine, as ``ray start --head`` and ``ray start --address=...`` would on two
machines; the script joins it with ``--address`` and its two env runners
(one CPU each, one CPU a node) run on both nodes. Token authentication is on,
with the token in ``RAY_AUTH_TOKEN`` for every node and the script. Ray reads
its authentication settings when it is imported, so the cluster runs in a
process of its own: this file run as a script.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python" / "rllib_selfplay.py"
SCRIPT_ARGS = ["--rules", "olopon", "--iterations", "1", "--workers", "2", "--batch", "400",
               "--minibatch", "100", "--epochs", "1", "--eval-games", "2"]  # fmt: skip


def run_on_cluster() -> int:
    """Start the two-node cluster, run the script on it, stop the cluster; the script's code."""
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        cmd = [sys.executable, str(EXAMPLE), "--address", cluster.address, *SCRIPT_ARGS]
        return subprocess.run(cmd, timeout=600, check=False).returncode
    finally:
        cluster.shutdown()


def test_example_script_on_a_two_node_cluster() -> None:
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    cmd = [sys.executable, __file__]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False, env=env)
    assert out.returncode == 0, out.stderr[-4000:]
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    summary = lines[-1]
    print(json.dumps(summary))
    assert summary["rules"] == "olopon"
    assert summary["iterations"] == 1
    assert summary["ray_nodes"] == 2
    assert summary["env_runner_nodes"] == 2
    assert summary["env_steps"] >= 400
    assert sum(summary["vs_level"][k] for k in ("wins", "draws", "losses")) == 2


if __name__ == "__main__":
    sys.exit(run_on_cluster())
