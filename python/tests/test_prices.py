"""Price-file importers, dated prices and catalog queries from Python."""
import pathlib

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import gputco

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "price-formats"


def read(name: str) -> str:
    return (DATA / name).read_text()


def test_skypilot_gcp_join_and_provenance():
    r = gputco.import_skypilot_csv(read("skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"), provider="gcp",
                                   file="gcp/vms.csv", published="2026-04-02")
    a2 = next(o for o in r.offerings if o.instance_type == "a2-highgpu-1g" and o.zone == "us-central1-a")
    assert a2.on_demand_hourly == pytest.approx(0.73948 + 2.93391)  # machine row + GPU row
    assert (a2.source.row, a2.source.as_of, a2.effective_from) == ("lines 4+56", "2026-04-02", "2026-04-02")
    assert r.skipped_count == len(r.skipped) == sum(r.skipped_reasons.values())
    assert "rows read" in r.report()


def test_azure_extra_field_is_value_error_to_the_letter():
    text = read("skypilot_format_azure_vms_gpu_excerpt_anycloud_2026-04-02.csv")
    with pytest.raises(ValueError, match=r'^azure.csv:10 = "11 fields": the header has 10 \(a field with an unquoted comma\?\)$'):
        gputco.import_skypilot_csv(text, provider="azure", file="azure.csv")
    assert len(gputco.import_skypilot_csv(text, provider="azure", join_extra_fields_into_last_column=True).offerings) == 35


def test_azure_reservations_and_aws_terms():
    r = gputco.import_azure_retail_prices(read("azure_retail_prices_items_gpu_excerpt_2026-08-22.json"), published="2026-08-22")
    nc = next(o for o in r.offerings if o.instance_type == "Standard_NC48ads_A100_v4")
    assert nc.reserved_price(1, "all_upfront").upfront == 42066.0
    aws = gputco.import_aws_get_products(read("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json"),
                                         include_cpu_instances=True)
    m4 = aws.offerings[0]
    assert m4.reserved_price(1, "partial_upfront").upfront == 631
    assert m4.reserved_price(3, "no_upfront", convertible=True).hourly == 0.1242
    bulk = gputco.import_aws_offer_file(DATA / "aws_offer_file_AmazonEC2_excerpt_2017-11-17_autoscaler_mock.json",
                                        include_cpu_instances=True)
    assert sorted(o.on_demand_hourly for o in bulk.offerings) == [0.1, 0.2, 0.4, 0.8, 2.0, 3.2]


def test_malformed_json_names_file_line_and_column():
    with pytest.raises(ValueError, match=r"^page.json:1:34 = .*: malformed JSON$"):
        gputco.import_azure_retail_prices('{"Items": [{"type": "Consumption"', file="page.json")


def test_price_at_and_as_of():
    catalog = gputco.catalog()
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    # Listed: today's price, in force since AWS's June 2025 cut; history: the launch price.
    assert p4d.effective_from == "2025-06-01" and p4d.on_demand_hourly == 21.96
    assert [s.effective_from for s in p4d.history] == ["2020-11-02"]
    assert p4d.price_at("2025-05-31").on_demand_hourly == 32.7726
    assert p4d.price_at("2025-06-01").on_demand_hourly == 21.96
    assert p4d.price_at("2024-12-31").on_demand_hourly == 32.7726  # it existed then: as_of keeps it
    with pytest.raises(ValueError, match=r'^date = "2020-11-01": before the first price of aws/us-east-1/p4d.24xlarge'):
        p4d.price_at("2020-11-01")
    assert catalog.as_of("2025-07-01").offering("aws", "p5.48xlarge", "us-east-1").on_demand_hourly == 55.04


def test_with_snapshots_keeps_history_of_imported_files():
    first = gputco.import_azure_retail_prices(read("azure_retail_prices_items_gpu_excerpt_2026-05-28.json"),
                                              published="2026-05-28").catalog()
    second = gputco.import_azure_retail_prices(read("azure_retail_prices_items_gpu_excerpt_2026-08-22.json"),
                                               published="2026-08-22").catalog()
    both = first.with_snapshots(second)
    shared = {o.key for o in first.offerings} & {o.key for o in second.offerings}
    for key in shared:
        o = next(x for x in both.offerings if x.key == key)
        assert o.price_at("2026-06-01").source.as_of == "2026-05-28"
        assert o.price_at("2026-09-01").source.as_of == "2026-08-22"


def test_rows_sold_one_way_only_are_kept_and_counted():
    r = gputco.import_azure_retail_prices(read("azure_retail_prices_items_gpu_excerpt_2026-05-28.json"),
                                          file="azure_prices.json", published="2026-05-28")
    h200 = next(o for o in r.offerings if o.region == "italynorth")
    assert h200.reservation_only and not h200.spot_only and not h200.sells_on_demand()
    assert h200.on_demand_hourly == 0  # not sold, never free
    assert h200.reserved_price(10, "all_upfront").upfront == 9657000.0
    # Item /5, "NV4as v4 Spot" in usgovarizona: an eighth of one MI25 (Azure's NVv4 size table), sold only as spot.
    nv4 = next(o for o in r.offerings if o.instance_type == "Standard_NV4as_v4")
    assert nv4.gpu == "MI25/8" and nv4.spot_only and nv4.spot_hourly == 0.053777
    assert r.kept_by_way() == {"on demand": 2, "reservation only": 1, "spot only": 1}
    assert r.report("azure_prices.json").endswith("; kept: 2 on demand, 1 reservation only, 1 spot only")


def test_query_frame_sorted_in_one_currency():
    frame = gputco.catalog().query(gpu="T4", sort_currency="USD", date="2025-01-01")
    assert isinstance(frame, pd.DataFrame) and len(frame) > 0
    assert list(frame["per_gpu_hour"]) == sorted(frame["per_gpu_hour"])
    gn7 = frame[frame["instance_type"] == "GN7"].iloc[0]
    assert gn7["currency"] == "CNY"
    assert gn7["per_gpu_hour"] == pytest.approx(2.8 * 1.0705 / 7.7748)
    with pytest.raises(ValueError, match=r'^currency = "CNY": no exchange rate to USD in force at 2025-01-01'):
        gputco.catalog().query(gpu="T4", rates=gputco.ExchangeRates(), date="2025-01-01")
    unsorted = gputco.catalog().query(provider="gcp", sort_currency=None)
    assert set(unsorted["provider"]) == {"gcp"}


@settings(derandomize=True, max_examples=60, deadline=None)
@given(gpu=st.sampled_from(["", "A100", "a100-80gb", "Nvidia Tesla T4", "H100", "L4"]),
       spot=st.sampled_from([None, True, False]), reservations=st.sampled_from([None, True, False]),
       gpus=st.sampled_from([None, 1, 8]), memory=st.sampled_from([None, 24.0, 80.0]))
def test_query_rows_meet_every_criterion(gpu, spot, reservations, gpus, memory):
    catalog = gputco.catalog()
    frame = catalog.query(gpu=gpu or None, has_spot=spot, has_reservations=reservations, gpus_per_instance=gpus,
                          min_gpu_memory_gb=memory, sort_currency="USD", date="2025-01-01")
    canonical = gputco.normalise_gpu_name(gpu) if gpu else None
    for _, row in frame.iterrows():
        if canonical:
            assert row["gpu"] == canonical
        if spot is not None:
            assert pd.notna(row["spot_hourly"]) == spot
        if gpus is not None:
            assert row["gpus_per_instance"] == gpus
        if memory is not None:
            assert catalog.gpu(row["gpu"]).memory_gb >= memory
    assert list(frame["per_gpu_hour"]) == sorted(frame["per_gpu_hour"])


def test_command_line_import_then_query(tmp_path, capsys):
    from gputco import prices

    out = tmp_path / "gcp.json"
    assert prices.main(["import", "cyclenerd", str(DATA / "gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml"),
                        "-o", str(out)]) == 0
    assert "247 rows read, 247 offerings, 0 rows skipped" in capsys.readouterr().err
    catalog = gputco.Catalog.from_json_file(out)
    assert catalog.offering("gcp", "a2-highgpu-1g", "us-central1").on_demand_hourly == 3.673385
    assert prices.main(["query", "--catalog", str(out), "--gpu", "L4", "--region", "us-central1", "--date", "2026-08-01"]) == 0
    table = capsys.readouterr().out
    assert "g2-standard-4" in table and "g2-standard-48" in table
    assert prices.main(["import", "skypilot", str(DATA / "skypilot_format_azure_vms_gpu_excerpt_anycloud_2026-04-02.csv"),
                        "--provider", "azure"]) == 2
    assert "11 fields" in capsys.readouterr().err


def test_readers_refuse_a_single_value_at_the_top_and_a_key_twice():
    # Both imported as zero rows without an error.
    with pytest.raises(ValueError, match=r"^prices\.json: / = \(a single value\): the top level must be an object or an array$"):
        gputco.import_azure_retail_prices("null", file="prices.json")
    with pytest.raises(ValueError, match=r"^prices\.json: /Items = null: must be an array$"):
        gputco.import_azure_retail_prices('{"Items": null}', file="prices.json")
    text = read("gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml") + "compute: {}\n"
    with pytest.raises(ValueError, match=r'^pricing\.yml:\d+:1: key = "compute": appears twice in one mapping \(first at line \d+\)$'):
        gputco.import_cyclenerd_pricing_yml(text, file="pricing.yml")
