"""scripts/extract_price_history.py: the line-by-line reader of Cyclenerd's pricing.yml and the filter of
listing errors (the stored history in data/price_history/ is its output)."""
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("extract_price_history", ROOT / "scripts" / "extract_price_history.py")
extract = importlib.util.module_from_spec(spec)
spec.loader.exec_module(extract)

PRICING_YML = """\
about:
  generated: Thu Jul 30 06:13:17 2026
compute:
  instance:
    a2-highgpu-1g:
      a100: 1
      cost:
        us-central1:
          hour: 3.673385
          hour_spot: 1.92802
          month: 2681.57105
          month_1y: 1689.3711392
          month_3y: 938.56707798
        antarctica-south1:
          hour: 9.0
    a2-ultragpu-1g:
      cost:
        us-central1:
          hour: 5.0688
          month_1y: 3700.22246
          month_3y: 0.1
    n1-standard-1:
      cost:
        us-central1:
          hour: 0.05
  license:
    a2-highgpu-1g:
      cost:
        us-central1:
          hour: 0.1296
"""


def test_reads_followed_types_and_regions_and_drops_listing_errors():
    prices = extract.gcp_prices(PRICING_YML)
    assert prices[("a2-highgpu-1g", "us-central1", "on_demand")] == 3.673385
    assert prices[("a2-highgpu-1g", "us-central1", "spot")] == 1.92802
    assert prices[("a2-highgpu-1g", "us-central1", "reserved_1y")] == pytest.approx(1689.3711392 / 730)
    assert prices[("a2-ultragpu-1g", "us-central1", "on_demand")] == 5.0688
    # A 1-year price equal to on-demand (3700.22246 / 730 = 5.0688) and a 3-year one below a fifth of it
    # are listing errors; a region not followed, a machine type not followed and the license section are skipped.
    assert ("a2-ultragpu-1g", "us-central1", "reserved_1y") not in prices
    assert ("a2-ultragpu-1g", "us-central1", "reserved_3y") not in prices
    assert len(prices) == 5
