"""Ctrl-C stops the long calls: the price-file importers, the multi-region optimum and rank_offerings.
Each runs without the GIL and checks for a pending KeyboardInterrupt now and then (interrupt_main sets
the same flag as Ctrl-C); each input below takes several seconds when left alone, and each must stop
within 1 CPU-second of Ctrl-C."""
import _thread
import json
import threading
import time

import pytest

import gputco

STOP_AFTER = 0.2  # seconds

# A Ctrl-C swallowed anywhere on the way (e.g. reported as unraisable by a progress bar) fails the test.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")


def stopped_by_ctrl_c(call):
    """Runs call() with Ctrl-C after STOP_AFTER seconds; returns the process's CPU seconds from Ctrl-C to the stop.
    CPU time, not wall time: on a busy machine the wall clock stretches while a call that stops at once
    still spends little CPU, and a call that ignores Ctrl-C goes on spending many CPU seconds."""
    cpu_at_ctrl_c = []

    def ctrl_c():
        cpu_at_ctrl_c.append(time.process_time())
        _thread.interrupt_main()

    timer = threading.Timer(STOP_AFTER, ctrl_c)
    result = None
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            result = call()
    finally:
        timer.cancel()  # a call that ended first must not leave a Ctrl-C behind
        timer.join()
    assert result is None  # stopped inside the call, nothing returned
    return time.process_time() - cpu_at_ctrl_c[0]


def skypilot_rows(n):
    return "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n" + "".join(
        f"p3.x{i},V100,1,3.06,us-east-1\n" for i in range(n))


def test_importers_stop_on_ctrl_c():
    csv = skypilot_rows(400_000)
    assert stopped_by_ctrl_c(lambda: gputco.import_skypilot_csv(csv, file="vms.csv", provider="aws")) < 1.0
    items = [{"currencyCode": "USD", "retailPrice": 1.0, "armRegionName": "eastus", "armSkuName": f"Standard_X{i}",
              "skuName": f"X{i}", "meterName": f"X{i}", "productName": "Virtual Machines", "type": "Consumption",
              "serviceName": "Virtual Machines", "unitOfMeasure": "1 Hour",
              "effectiveStartDate": "2026-01-01T00:00:00Z"} for i in range(400_000)]
    page = json.dumps({"Items": items})
    assert stopped_by_ctrl_c(lambda: gputco.import_azure_retail_prices(page, file="azure.json")) < 1.0
    # Afterwards the importer works as before.
    assert len(gputco.import_skypilot_csv(skypilot_rows(3), provider="aws").offerings) == 3


def test_multi_region_optimum_stops_on_ctrl_c():
    # 6,000 ticks x 4,000 compute ticks x 21 slots (4 regions, 2 changeover ticks): seconds when left alone.
    job = gputco.DeadlineJob(compute_hours=4000, deadline_hours=6000, changeover_hours=2)
    regions = [gputco.SpotRegion(f"r{i}", gputco.SpotAvailability.markov(gputco.MarkovAvailability(), ticks=6000, seed=i),
                                 0.9 + 0.1 * i) for i in range(4)]
    assert stopped_by_ctrl_c(lambda: gputco.omniscient_multi_region_cost(job, regions, 3.06)) < 1.0


def test_rank_offerings_stops_on_ctrl_c():
    resnet = gputco.Workload(model="resnet50", work_per_epoch=1_281_167, epochs=90, name="ResNet-50")
    assert stopped_by_ctrl_c(lambda: gputco.rank_offerings(resnet, paths=2_000_000)) < 1.0
