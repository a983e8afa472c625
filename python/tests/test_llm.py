"""LLM training and serving through Python: the figures are the C++ library's (hand-checked in
tests/test_llm.cpp and tests/test_llm_cost.cpp); here the bindings, their errors and the DataFrames."""
import math

import pytest

import gputco

LLAMA_70B = dict(parameters=70.6e9, layers=80, hidden_size=8192, attention_heads=64, kv_heads=8, name="Llama 3 70B")


def small_training(**kw):
    model = gputco.LlmModel(parameters=1e9, layers=10, hidden_size=1000, attention_heads=10)
    return gputco.LlmTraining(model=model, tokens=1e6, sequence_length=100, **kw)


def test_flops_by_hand():
    # 6 × 1e9 + 12 × 10 × 1000 × 100 = 6.012e9 per token; LoRA at 1%: 4e9 + 6e7 + 1.2e7 = 4.072e9.
    assert gputco.training_flops_per_token(small_training()) == pytest.approx(6.012e9, rel=1e-12)
    assert gputco.training_flops(small_training()) == pytest.approx(6.012e15, rel=1e-12)
    lora = small_training(method="lora", trainable_fraction=0.01)
    assert gputco.training_flops_per_token(lora) == pytest.approx(4.072e9, rel=1e-12)


def test_memory_and_layout_by_hand():
    m = gputco.llm_training_memory(small_training(), data_parallel=4, sharding="zero3")
    # 16 B × 1e9 / 4 = 4e9, activations with checkpointing 10 × 2 × 1e5 + 34 × 1e5 = 5.4e6.
    assert m["total"] == pytest.approx(4e9 + 5.4e6)
    t = gputco.LlmTraining(model=gputco.LlmModel(parameters=1e9), tokens=1e9)
    assert gputco.smallest_training_layout(t, gpus_per_node=8, memory_gb=16) == dict(
        tensor_parallel=1, data_parallel=8, sharding="zero1", gpus=8)
    assert gputco.smallest_training_layout(t, gpus_per_node=8, memory_gb=1, max_gpus=16) is None
    assert gputco.kv_cache_bytes_per_token(gputco.LlmModel(**LLAMA_70B)) == 327_680


def test_errors_are_value_errors_with_the_library_message():
    with pytest.raises(ValueError, match=r"^training.tokens = 0: must be finite and > 0$"):
        gputco.LlmTraining(model=gputco.LlmModel(parameters=1e9), tokens=0)
    with pytest.raises(ValueError, match=r'^training.method = "dora": must be one of full, lora, qlora$'):
        gputco.LlmTraining(model=gputco.LlmModel(parameters=1e9), tokens=1, method="dora")
    with pytest.raises(ValueError, match=r"^model.kv_heads = 3: must be 0 \(= attention_heads\) or divide"):
        gputco.LlmModel(parameters=1e9, layers=1, hidden_size=64, attention_heads=8, kv_heads=3)
    with pytest.raises(ValueError, match=r"^options.gpu.mfu_override = 2: must be 0"):
        gputco.llm_training_cost(small_training(), mfu=2)


def test_seventy_billion_lora_ranked_on_the_catalog():
    model = gputco.LlmModel(**LLAMA_70B)
    tune = gputco.LlmTraining(model=model, tokens=2e9, method="lora", name="70B LoRA")
    frame = gputco.llm_training_cost(tune, gpus=["H100", "H200"], paths=500)
    assert len(frame) > 0
    assert list(frame["cost_per_run"]) == sorted(frame["cost_per_run"])
    assert set(frame["gpu"]) <= {"H100", "H200"}
    # (4 × 70.6e9 + 6 × 0.005 × 70.6e9 + 12 × 80 × 8192 × 4096) × 2e9 tokens
    flops = (4 * 70.6e9 + 6 * 0.005 * 70.6e9 + 12 * 80 * 8192 * 4096) * 2e9
    assert frame.attrs["flops"] == pytest.approx(flops, rel=1e-12)
    od = frame[frame["buying"] == "on_demand"].iloc[0]
    assert od["gpu_hours"] == pytest.approx(flops / (989.4e12 * 0.41 * 3600), rel=1e-9)
    assert od["mfu_kind"] in ("measured", "proxy")
    assert "Llama 3" in od["mfu_basis"]


def test_serving_frame_and_cost_split():
    model = gputco.LlmModel(**LLAMA_70B)
    serving = gputco.LlmServing(model=model, input_tokens=1000, output_tokens=300, requests_per_second=50)
    frame = gputco.llm_serving_cost(serving, gpus=["H100", "H200"], spot=False, reserved=False)
    assert len(frame) > 0
    assert list(frame["cost_per_hour"]) == sorted(frame["cost_per_hour"])
    for _, row in frame.iterrows():
        # The hourly cost is split between input and output tokens and nothing is lost.
        per_hour = (row["cost_per_million_input_tokens"] * 50 * 3600 * 1000 +
                    row["cost_per_million_output_tokens"] * 50 * 3600 * 300) / 1e6
        assert per_hour == pytest.approx(row["cost_per_hour"], rel=1e-9)
        assert row["seconds_per_output_token"] <= 0.05
        assert math.isfinite(row["decode_tokens_per_second_per_gpu"])
    skipped = dict(gputco.llm_serving_cost(serving, spot=False).attrs["skipped"])
    assert "no MFU row for T4" in skipped["aws/us-east-1/g4dn.xlarge"]


def test_own_mfu_rows_as_csv():
    t = gputco.LlmTraining(model=gputco.LlmModel(parameters=1e9), tokens=1e9)
    csv = "gpu,precision,mfu,kind,as_of,source\nT4,bf16,0.25,measured,2026-11,our run, 4 nodes\n"
    frame = gputco.llm_training_cost(t, gpus=["T4"], spot=False, mfu_csv=csv)
    assert set(frame["mfu"]) == {0.25}
    assert "our run, 4 nodes" in frame["mfu_basis"].iloc[0]
    with pytest.raises(ValueError, match=r'^mfu_csv.rows\[0\].mfu = 2: must be in \(0, 1\]$'):
        gputco.llm_training_cost(t, mfu_csv="gpu,precision,mfu,kind,as_of,source\nT4,bf16,2,measured,2026,x\n")


def test_scenario_llm_jobs_are_the_commands_rows_in_the_librarys_columns():
    import json
    import os
    import pathlib
    import subprocess

    root = pathlib.Path(__file__).resolve().parents[2]
    path = root / "examples" / "scenarios" / "llm_fine_tune_and_serve.yaml"
    training = gputco.run_llm_training(path)
    serving = gputco.run_llm_serving(path)
    # one column list in C++: the ranking frames' columns after the job's name
    assert list(training.columns) == ["llm_training", *gputco._work.LLM_TRAINING_COLUMNS]
    assert list(serving.columns) == ["llm_serving", *gputco._work.LLM_SERVING_COLUMNS]
    assert list(gputco.llm_training_cost(small_training(), mfu=0.4, spot=False).columns) == \
        gputco._work.LLM_TRAINING_COLUMNS
    assert set(training["gpu"]) == {"H100", "H200", "B200", "MI300X"}
    assert list(training["cost_per_run"]) == sorted(training["cost_per_run"])
    assert str(training["data_parallel"].dtype) == "int64" and str(serving["bandwidth_bound"].dtype) == "bool"
    command = pathlib.Path(os.environ.get("GPUTCO_BUILD_DIR", "")) / "src" / "cli" / "gputco"
    if not command.is_file():
        pytest.skip("the gputco command is not built (GPUTCO_BUILD_DIR)")
    out = json.loads(subprocess.run([str(command), "run", str(path), "--format", "json"], capture_output=True,
                                    text=True, check=True, timeout=300).stdout)
    for frame, rows in ((training, out["llm_training"]), (serving, out["llm_serving"])):
        assert len(rows) == len(frame)
        for row, (_, want) in zip(rows, frame.iterrows()):
            assert row == {k: (v.item() if hasattr(v, "item") else v) for k, v in want.items()}


def test_capacity_block_row_by_hand_and_turned_off():
    # A 70B LoRA on 2B tokens fits one p5.48xlarge (8 H100s); the block holding its wall hours is the
    # shortest length sold whose usable hours (24 d - 0.5) hold them, paid in full at $39.33/instance-h.
    t = gputco.LlmTraining(model=gputco.LlmModel(parameters=70.6e9, layers=80, hidden_size=8192,
                                                 attention_heads=64, kv_heads=8),
                           tokens=2e9, method="lora", name="tune")
    frame = gputco.llm_training_cost(t, gpus=["H100"], spot=False)
    block = frame[frame["buying"] == "capacity_block"]
    assert len(block) == 1
    row = block.iloc[0]
    assert row["instance_type"] == "p5.48xlarge" and row["instances"] == 1
    days = math.ceil((row["run_hours"] + 0.5) / 24)
    assert days <= 14 and row["terms"].startswith(f"{days}-day block of 1 instance:")
    assert row["cost_per_run"] == pytest.approx(24 * days * 39.33, rel=1e-12)
    assert "capacity_block" not in set(gputco.llm_training_cost(t, gpus=["H100"], spot=False,
                                                                capacity_block=False)["buying"])


def test_scenario_llm_errors_name_the_field():
    scenario = {"version": 1, "name": "x", "horizon_months": 1,
                "offering": {"provider": "aws", "instance_type": "p5.48xlarge", "region": "us-east-1"},
                "demand": {"kind": "constant", "gpus": 8},
                "llm_serving": [{"name": "chat", "model": {"parameters": 7e9}, "input_tokens": 100,
                                 "output_tokens": 10, "requests_per_second": 1}]}
    with pytest.raises(ValueError, match=r"llm_serving\[0\]\.model\.layers = 0: the model's shape \(layers, "
                                         r"hidden_size, attention_heads\) is needed for the KV cache$"):
        gputco.run_llm_serving(scenario)


def test_pipeline_memory_bubble_and_allreduce_by_hand():
    # two stages halve the 16 B per parameter; the 1F1B first stage keeps L layers of activations
    one = gputco.llm_training_memory(small_training(), data_parallel=4)
    two = gputco.llm_training_memory(small_training(), data_parallel=4, pipeline_parallel=2)
    assert two["weights"] + two["gradients"] + two["optimizer"] == pytest.approx(8e9)
    assert two["activations"] == one["activations"]
    assert gputco.pipeline_bubble_fraction(8, 64) == pytest.approx(7 / 71, rel=1e-15)
    assert gputco.allreduce_seconds(5e9, 4, 50) == pytest.approx(0.15, rel=1e-15)
    with pytest.raises(ValueError, match=r"^pipeline.stages = 0: must be >= 1$"):
        gputco.pipeline_bubble_fraction(0, 4)
    assert small_training(global_batch_sequences=64).global_batch_sequences == 64


def test_training_rows_carry_the_scaling_factor_and_the_links_with_their_sources():
    df = gputco.llm_training_cost(gputco.LlmTraining(model=gputco.LlmModel(**LLAMA_70B), tokens=2e9, method="lora"),
                                  gpus=["H100"], spot=False)
    p5 = df[df["instance_type"] == "p5.48xlarge"].iloc[0]
    assert p5["scaling_efficiency"] == 1.0  # one instance: NVLink, as the MFU row's run had
    assert "EFA 3,200 Gbit/s per instance (AWS EC2 P5 instances page, 2023-07)" in p5["interconnect_basis"]
    assert ((df["scaling_efficiency"] > 0) & (df["scaling_efficiency"] <= 1)).all()
    spread = df[(df["instances"] > 1) & df["interconnect_basis"].str.contains("no cluster network listed")]
    assert len(spread) > 0 and (spread["scaling_efficiency"] < 1).all()  # 1-GPU instances over assumed Ethernet
    assert list(df["run_hours"]) == pytest.approx(list(df["gpu_hours"] / df["gpus"] / df["scaling_efficiency"]),
                                                  rel=1e-12)


def test_mfu_rows_as_objects_override_the_built_in_rows():
    rows = gputco.builtin_training_mfu()
    h100 = next(r for r in rows if r.gpu == "H100")
    assert h100.mfu == 0.41 and h100.kind == "measured" and h100.source.name
    mine = gputco.MfuRow(gpu="H100", mfu=0.3, kind="measured", basis="our own 70B run",
                         source=gputco.Source("our cluster log", "2026-11"))
    training = gputco.LlmTraining(model=gputco.LlmModel(**LLAMA_70B), tokens=2e9, method="lora")
    base = gputco.llm_training_cost(training, gpus=["H100"], spot=False)
    df = gputco.llm_training_cost(training, gpus=["H100"], spot=False, mfu_rows=[mine])
    assert set(df["mfu"]) == {0.3} and set(df["mfu_kind"]) == {"measured"}
    assert all("our own 70B run" in b and "our cluster log" in b for b in df["mfu_basis"])
    # hours scale as 1 / MFU: 0.41 / 0.3 longer on every row
    assert list(df["gpu_hours"]) == pytest.approx(list(base["gpu_hours"] * 0.41 / 0.3), rel=1e-12)
    # the row objects go before the CSV's rows
    csv = "gpu,precision,mfu,kind,as_of,source\nH100,bf16,0.2,estimate,2026-01,a CSV row\n"
    both = gputco.llm_training_cost(training, gpus=["H100"], spot=False, mfu_rows=[mine], mfu_csv=csv)
    assert set(both["mfu"]) == {0.3}
    with pytest.raises(ValueError, match=r"^mfu_row.mfu = 1.5: must be in \(0, 1\]$"):
        gputco.MfuRow(gpu="H100", mfu=1.5, source=gputco.Source("x", "2026"))
    with pytest.raises(ValueError, match=r"^mfu_row.source = \"\": must name where the figure comes from$"):
        gputco.MfuRow(gpu="H100", mfu=0.5, source=gputco.Source("", ""))
