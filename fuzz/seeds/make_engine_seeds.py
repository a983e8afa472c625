"""Writes the seed inputs of fuzz_engines (seeds/engines/*.bin): the examples of the README and the
headers, encoded the way fuzz_engines.cpp reads its bytes (one byte per choice, eight little-endian
bytes per double). Run it again after changing the order in which fuzz_engines.cpp reads."""
import pathlib
import struct


def d(*values):
    return b"".join(struct.pack("<d", v) for v in values)


def b(*values):
    return bytes(values)


job = d(2000, 2, 0.1, 0.25, 0) + b(0)                     # README job, no deadline
job_deadline = d(2000, 2, 0.1, 0.25, 1) + b(1) + d(2500)  # with a capacity wait and a deadline
aws = b(1) + d(2 / 60) + b(1) + d(0, float("inf"))        # AWS rules: 2-minute notice, emergency checkpoint
seeds = {
    # evaluate: offering 0, no overrides; 70% 3-year all-upfront at 52% off + on-demand; 8 GPUs for 36 months
    "evaluate_mix": b(0, 0, 0, 0, 0) + b(3) + d(0.7) + b(0) + b(1, 2, 1) + d(0.52) + b(0) + b(0, 0) + b(35, 0) + d(8),
    # evaluate: owned GPUs, linear growth 4 -> 16 over 24 months
    "evaluate_owned": b(5, 0, 0, 0, 0) + b(2) + d(15000) + b(3) + d(0.1, 400, 0.12, 0) + b(23, 1) + d(4, 16),
    # simulate_spot: README job, Poisson MTBF 20 h, $1.2/h (on-demand $3), 1 + 5*250 paths, seed 42, 2 threads
    "spot_poisson": b(1) + job + b(0) + d(20) + b(0) + d(1.2, 3) + b(0) + b(250, 42, 1, 1),
    "spot_poisson_aws": b(1) + job_deadline + b(0) + d(20) + aws + d(1.2, 3) + b(1) + d(1 / 3600, 1 / 60) + b(250, 42, 0, 1),
    "spot_weibull": b(1) + job + b(1) + d(0.7, 8) + b(0) + d(1.2, 0) + b(0) + b(100, 7, 0, 1),
    "spot_price_driven": b(1) + job + b(2) + d(0.1, 0.1, 1.5, 1 / 12) + b(0) + d(1.2, 3) + b(0) + b(100, 7, 0, 1),
    "spot_adaptive": b(1) + job + b(0) + d(20) + b(0) + d(1.2, 3) + b(0) + b(125, 1, 0, 0) + d(5.0) + b(255),
    # expected_spot_time and optimal_checkpoint_interval (checkpoint.hpp's example: 5 min, 24 h)
    "expected_spot_time": b(2) + job + d(24),
    "optimal_interval_exact": b(3) + d(5 / 60, 24) + b(2),
    "optimal_interval_daly": b(3) + d(5 / 60, 24) + b(1),
    # simulate_deadline: deadline.hpp's example, Uniform Progress
    "deadline_uniform_progress": b(4) + d(48, 72, 1, 1, 10, 3, 0.9701, 3.06) + b(1, 42),
}
out = pathlib.Path(__file__).with_name("engines")
out.mkdir(exist_ok=True)
for name, data in seeds.items():
    (out / f"{name}.bin").write_bytes(data)
